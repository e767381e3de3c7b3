//go:build arm64

package vmath

import "github.com/laze-go/laze/internal/isa"

// SIMD reports whether this build has vector kernels: arm64 has NEON
// kernels for the float32 functions exp, log, tanh and sigmoid (the others,
// and every float64 function, run the references' scalar loops: see
// zdispatch_arm64.go). Width tells which kernels the selected level runs.
const SIMD = true

func widthOf(l isa.Level) int {
	if l == isa.NEON {
		return 2
	}
	return 1
}
