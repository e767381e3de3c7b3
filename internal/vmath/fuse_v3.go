//go:build goexperiment.simd && amd64 && amd64.v3

package vmath

// referencesMayFuse reports that this build (GOAMD64=v3 or above) lets the
// compiler fuse x*y + z into one FMA inside the Go references (math.Tanh,
// math.Sin, math.Cos, math.Pow), which the kernels compute as two rounded
// operations; the kernels would then differ from the references in the last
// bits, so detectWidth keeps this build on the scalar loops.
const referencesMayFuse = true
