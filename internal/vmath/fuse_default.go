//go:build goexperiment.simd && amd64 && !amd64.v3

package vmath

// referencesMayFuse reports whether the compiler may fuse multiply-adds in
// the Go references; at GOAMD64 v1 and v2 it does not, so the kernels give
// the references' bits.
const referencesMayFuse = false
