//go:build arm64

package vmath

import "github.com/laze-go/laze/internal/isa"

// SIMD reports whether this build has vector kernels: arm64 has NEON
// kernels for every function, float64 and float32. Width tells which
// kernels the selected level runs.
const SIMD = true

func widthOf(l isa.Level) int {
	if l == isa.NEON {
		return 2
	}
	return 1
}

func approx32Of(l isa.Level) bool { return l == isa.NEON }

func approx64Of(l isa.Level, name string) bool { return l == isa.NEON && fastNEON[name] }
