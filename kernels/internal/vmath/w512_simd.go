//go:build amd64 && goexperiment.simd

package vmath

// useW512 reports whether the AVX512 level runs the archsimd AVX-512
// kernels of this build (GOEXPERIMENT=simd). They reproduce the references
// with separate multiplies and adds, so a GOAMD64=v3 build, whose compiler
// fuses them in the Go references, runs the AVX2 assembly instead, which
// mirrors either (see referencesMayFuse).
const useW512 = !referencesMayFuse

const (
	lanes64W512 = 8 // float64 lanes of an AVX-512 vector
	fullW512    = 0xff
)
