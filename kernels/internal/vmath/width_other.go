//go:build !amd64 && !arm64

package vmath

import "github.com/laze-go/laze/internal/isa"

// SIMD reports whether this build has vector kernels: on this platform the
// functions run the scalar loops.
const SIMD = false

func widthOf(isa.Level) int { return 1 }

func approx32Of(isa.Level) bool { return false }

func approx64Of(isa.Level, string) bool { return false }
