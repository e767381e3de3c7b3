package vmath

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// TestAVX2LoopsCompute is TestNEONLoopsCompute for the AVX2 assembly's
// unary loops: on arguments inside each kernel's domain the kernel itself
// computes every lane (none handed back to the scalar fix-up), the float64
// ones bit for bit, the float32 ones within maxULP32.
func TestAVX2LoopsCompute(t *testing.T) {
	if !slices.Contains(isa.Supported(), isa.AVX2) {
		t.Skip("no AVX2")
	}
	const n = 64
	x64, x32 := make([]float64, n), make([]float32, n)
	pos64, pos32 := make([]float64, n), make([]float32, n)
	unit64, unit32 := make([]float64, n), make([]float32, n) // in [-1, 1], for asin and acos
	ge1_64, ge1_32 := make([]float64, n), make([]float32, n) // above 1, for acosh
	for i := range x64 {
		x64[i] = float64(i)/7 - 4.5
		x32[i] = float32(x64[i])
		pos64[i] = float64(i+1) / 9
		pos32[i] = float32(pos64[i])
		unit64[i] = float64(i)/32 - 0.99
		unit32[i] = float32(unit64[i])
		ge1_64[i] = 1 + pos64[i]
		ge1_32[i] = float32(ge1_64[i])
	}
	for _, c := range []struct {
		name string
		loop func(d, x []float64, xs *[4]float64) (int, uint)
		ref  func(float64) float64
	}{
		{"exp", exp64AVX2Loop, expRef64},
		{"log", log64AVX2Loop, logRef64},
		{"tanh", tanh64AVX2Loop, tanhRef64},
		{"sigmoid", sigmoid64AVX2Loop, sigmoidRef64},
		{"sin", sin64AVX2Loop, sinRef64},
		{"cos", cos64AVX2Loop, cosRef64},
		{"log10", log10_64AVX2Loop, log10Ref64},
		{"log2", log2_64AVX2Loop, log2Ref64},
		{"cosh", cosh64AVX2Loop, coshRef64},
		{"sinh", sinh64AVX2Loop, sinhRef64},
		{"exp2", exp2_64AVX2Loop, exp2Ref64},
		{"expm1", expm1_64AVX2Loop, expm1Ref64},
		{"log1p", log1p64AVX2Loop, log1pRef64},
		{"tan", tan64AVX2Loop, tanRef64},
		{"atan", atan64AVX2Loop, atanRef64},
		{"asin", asin64AVX2Loop, asinRef64},
		{"acos", acos64AVX2Loop, acosRef64},
		{"asinh", asinh64AVX2Loop, asinhRef64},
		{"acosh", acosh64AVX2Loop, acoshRef64},
		{"atanh", atanh64AVX2Loop, atanhRef64},
	} {
		x := x64
		switch {
		case strings.HasPrefix(c.name, "log"):
			x = pos64
		case c.name == "asin" || c.name == "acos" || c.name == "atanh":
			x = unit64
		case c.name == "acosh":
			x = ge1_64
		}
		d := make([]float64, n)
		var xs [4]float64
		if done, bad := c.loop(d, x, &xs); done != n || bad != 0 {
			t.Errorf("%s float64: done %d, bad %#b; want %d, 0", c.name, done, bad, n)
		}
		for i, x := range x {
			if want := c.ref(x); math.Float64bits(d[i]) != math.Float64bits(want) {
				t.Errorf("%s(%v) = %v, want %v", c.name, x, d[i], want)
			}
		}
	}
	for _, c := range []struct {
		name string
		loop func(d, x []float32, xs *[8]float32) (int, uint)
		ref  func(float32) float32
	}{
		{"exp", exp32AVX2Loop, expRef32},
		{"log", log32AVX2Loop, logRef32},
		{"tanh", tanh32AVX2Loop, tanhRef32},
		{"sigmoid", sigmoid32AVX2Loop, sigmoidRef32},
		{"sin", sin32AVX2Loop, sinRef32},
		{"cos", cos32AVX2Loop, cosRef32},
		{"log10", log10_32AVX2Loop, log10Ref32},
		{"log2", log2_32AVX2Loop, log2Ref32},
		{"cosh", cosh32AVX2Loop, coshRef32},
		{"sinh", sinh32AVX2Loop, sinhRef32},
		{"exp2", exp2_32AVX2Loop, exp2Ref32},
		{"expm1", expm1_32AVX2Loop, expm1Ref32},
		{"log1p", log1p32AVX2Loop, log1pRef32},
		{"tan", tan32AVX2Loop, tanRef32},
		{"atan", atan32AVX2Loop, atanRef32},
		{"asin", asin32AVX2Loop, asinRef32},
		{"acos", acos32AVX2Loop, acosRef32},
		{"asinh", asinh32AVX2Loop, asinhRef32},
		{"acosh", acosh32AVX2Loop, acoshRef32},
		{"atanh", atanh32AVX2Loop, atanhRef32},
	} {
		x := x32
		switch {
		case strings.HasPrefix(c.name, "log"):
			x = pos32
		case c.name == "asin" || c.name == "acos" || c.name == "atanh":
			x = unit32
		case c.name == "acosh":
			x = ge1_32
		}
		d := make([]float32, n)
		var xs [8]float32
		if done, bad := c.loop(d, x, &xs); done != n || bad != 0 {
			t.Errorf("%s float32: done %d, bad %#b; want %d, 0", c.name, done, bad, n)
		}
		for i, v := range x {
			if want := c.ref(v); ulp32(d[i], want) > maxULP32 {
				t.Errorf("%s(%v) = %v, want %v", c.name, v, d[i], want)
			}
		}
	}
}
