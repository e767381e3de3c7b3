//go:build amd64 && amd64.v3

package vmath

// referencesMayFuse reports that this build (GOAMD64=v3 or above) lets the
// compiler fuse x*y + z into one FMA inside the Go references (math.Tanh,
// math.Sin, math.Cos, math.Sinh, ...): the assembly in
// zvmath_goref_fma_amd64.s mirrors that, and the archsimd AVX-512 kernels
// of the GOEXPERIMENT=simd build, which do not, are not used (useW512).
const referencesMayFuse = true
