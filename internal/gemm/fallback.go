//go:build !(goexperiment.simd && amd64)

package gemm

// Available reports whether the packed AVX-512 kernels run on this machine.
// This build has no simd/archsimd (it needs GOEXPERIMENT=simd on amd64), so
// it says they do not: callers use another Gemm (gonum's). Gemm still works,
// on the portable Go micro-kernel.
func Available() bool { return false }
