//go:build goexperiment.simd && amd64

package vmath

import "simd/archsimd"

// SIMD reports whether this build has the vector kernels (GOEXPERIMENT=simd
// on amd64). Width tells which of them the CPU runs.
const SIMD = true

const (
	lanes64W512 = 8 // float64 lanes of an AVX-512 vector
	lanes64W256 = 4 // float64 lanes of an AVX2 vector
	fullW512    = 0xff
	fullW256    = 0x0f
)

// width is the number of float64 lanes the functions use: 8 (AVX-512), 4
// (AVX2 with FMA) or 1 (the scalar loops, also in a GOAMD64=v3 build: see
// referencesMayFuse). Tests lower it to cover the narrower paths.
var width = detectWidth()

func detectWidth() int {
	switch {
	case referencesMayFuse:
		return 1
	case archsimd.X86.AVX512():
		return 8
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		return 4
	}
	return 1
}
