//go:build !(goexperiment.simd && amd64)

package vmath

// SIMD reports whether this build has the vector kernels (GOEXPERIMENT=simd
// on amd64). Width tells which of them the CPU runs.
const SIMD = false

// width is always 1 (the scalar loops) without the vector kernels.
var width = 1
