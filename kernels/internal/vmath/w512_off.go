//go:build amd64 && !goexperiment.simd

package vmath

// useW512 reports whether the AVX512 level runs AVX-512 kernels: this build
// (no GOEXPERIMENT=simd) has none, and the level runs the AVX2 assembly.
const useW512 = false
