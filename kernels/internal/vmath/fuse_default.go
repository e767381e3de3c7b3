//go:build amd64 && !amd64.v3

package vmath

// referencesMayFuse reports whether the compiler fuses multiply-adds in the
// Go references (math.Tanh, math.Sin, math.Cos, math.Sinh, ...): at GOAMD64
// v1 and v2 it does not, and the assembly in zvmath_goref_amd64.s mirrors
// them with separate multiplies and adds.
const referencesMayFuse = false
