//go:build !goexperiment.simd

package gemm

// avx512 is the kernels of the AVX512 level. The default build has no
// AVX-512 kernels yet: it runs the AVX2 assembly, until AVX-512 assembly
// generated from the same description (asmgen) has been verified on an
// AVX-512 machine. The GOEXPERIMENT=simd build has archsimd ones
// (kernel_simd.go).
var avx512 = avx2
