//go:build amd64

package vmath

import "github.com/laze-go/laze/internal/isa"

// SIMD reports whether this build has vector kernels: every amd64 build has
// the AVX2 and AVX-512 assembly. Width tells which kernels the selected
// level runs.
const SIMD = true

func widthOf(l isa.Level) int {
	switch l {
	case isa.AVX512:
		return 8
	case isa.AVX2:
		return 4
	}
	return 1
}

func approx32Of(l isa.Level) bool {
	switch l {
	case isa.AVX512, isa.AVX2:
		return true
	}
	return false
}

func approx64Of(l isa.Level, name string) bool {
	switch l {
	case isa.AVX512:
		return fastAVX512[name]
	case isa.AVX2:
		return fastAVX2[name]
	}
	return false
}
