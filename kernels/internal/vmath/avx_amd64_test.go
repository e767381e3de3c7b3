package vmath

import (
	"slices"
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// TestAVXLoopsCompute is TestNEONLoopsCompute for the AVX2 and AVX-512
// assembly's unary loops: on arguments inside each kernel's domain the
// kernel itself computes every lane (none handed back to the scalar fix-up),
// the float64 ones bit for bit (those of the level's own, approx64Of,
// within maxULP), the float32 ones within maxULP32.
func TestAVXLoopsCompute(t *testing.T) {
	for _, level := range []struct {
		isa isa.Level
		l64 []loop64
		l32 []loop32
	}{{isa.AVX2, avx2Loops64, avx2Loops32}, {isa.AVX512, avx512Loops64, avx512Loops32}} {
		t.Run(level.isa.String(), func(t *testing.T) {
			if !slices.Contains(isa.Supported(), level.isa) {
				t.Skipf("this CPU has no %v", level.isa)
			}
			checkLoops64(t, level.isa, level.l64)
			checkLoops32(t, level.l32)
		})
	}
}

// loop64 and loop32 are a unary loop of the assembly with its reference;
// the loop takes its xs array as a slice (of the level's lanes).
type loop64 struct {
	name string
	loop func(d, x, xs []float64) (int, uint)
	ref  func(float64) float64
}

type loop32 struct {
	name string
	loop func(d, x, xs []float32) (int, uint)
	ref  func(float32) float32
}

// The loops by level, their xs arrays of 4 and 8 (AVX2) or 8 and 16
// (AVX-512) lanes taken as slices.
func a4(f func(d, x []float64, xs *[4]float64) (int, uint)) func(d, x, xs []float64) (int, uint) {
	return func(d, x, xs []float64) (int, uint) { return f(d, x, (*[4]float64)(xs)) }
}

func a8(f func(d, x []float64, xs *[8]float64) (int, uint)) func(d, x, xs []float64) (int, uint) {
	return func(d, x, xs []float64) (int, uint) { return f(d, x, (*[8]float64)(xs)) }
}

func a8f(f func(d, x []float32, xs *[8]float32) (int, uint)) func(d, x, xs []float32) (int, uint) {
	return func(d, x, xs []float32) (int, uint) { return f(d, x, (*[8]float32)(xs)) }
}

func a16f(f func(d, x []float32, xs *[16]float32) (int, uint)) func(d, x, xs []float32) (int, uint) {
	return func(d, x, xs []float32) (int, uint) { return f(d, x, (*[16]float32)(xs)) }
}

var avx2Loops64 = []loop64{
	{"exp", a4(exp64AVX2Loop), expRef64},
	{"log", a4(log64AVX2Loop), logRef64},
	{"tanh", a4(tanh64AVX2Loop), tanhRef64},
	{"sigmoid", a4(sigmoid64AVX2Loop), sigmoidRef64},
	{"sin", a4(sin64AVX2Loop), sinRef64},
	{"cos", a4(cos64AVX2Loop), cosRef64},
	{"log10", a4(log10_64AVX2Loop), log10Ref64},
	{"log2", a4(log2_64AVX2Loop), log2Ref64},
	{"cosh", a4(cosh64AVX2Loop), coshRef64},
	{"sinh", a4(sinh64AVX2Loop), sinhRef64},
	{"exp2", a4(exp2_64AVX2Loop), exp2Ref64},
	{"expm1", a4(expm1_64AVX2Loop), expm1Ref64},
	{"log1p", a4(log1p64AVX2Loop), log1pRef64},
	{"tan", a4(tan64AVX2Loop), tanRef64},
	{"atan", a4(atan64AVX2Loop), atanRef64},
	{"asin", a4(asin64AVX2Loop), asinRef64},
	{"acos", a4(acos64AVX2Loop), acosRef64},
	{"asinh", a4(asinh64AVX2Loop), asinhRef64},
	{"acosh", a4(acosh64AVX2Loop), acoshRef64},
	{"atanh", a4(atanh64AVX2Loop), atanhRef64},
	{"cbrt", a4(cbrt64AVX2Loop), cbrtRef64},
	{"erf", a4(erf64AVX2Loop), erfRef64},
	{"erfc", a4(erfc64AVX2Loop), erfcRef64},
}

var avx512Loops64 = []loop64{
	{"exp", a8(exp64AVX512Loop), expRef64},
	{"log", a8(log64AVX512Loop), logRef64},
	{"tanh", a8(tanh64AVX512Loop), tanhRef64},
	{"sigmoid", a8(sigmoid64AVX512Loop), sigmoidRef64},
	{"sin", a8(sin64AVX512Loop), sinRef64},
	{"cos", a8(cos64AVX512Loop), cosRef64},
	{"log10", a8(log10_64AVX512Loop), log10Ref64},
	{"log2", a8(log2_64AVX512Loop), log2Ref64},
	{"cosh", a8(cosh64AVX512Loop), coshRef64},
	{"sinh", a8(sinh64AVX512Loop), sinhRef64},
	{"exp2", a8(exp2_64AVX512Loop), exp2Ref64},
	{"expm1", a8(expm1_64AVX512Loop), expm1Ref64},
	{"log1p", a8(log1p64AVX512Loop), log1pRef64},
	{"tan", a8(tan64AVX512Loop), tanRef64},
	{"atan", a8(atan64AVX512Loop), atanRef64},
	{"asin", a8(asin64AVX512Loop), asinRef64},
	{"acos", a8(acos64AVX512Loop), acosRef64},
	{"asinh", a8(asinh64AVX512Loop), asinhRef64},
	{"acosh", a8(acosh64AVX512Loop), acoshRef64},
	{"atanh", a8(atanh64AVX512Loop), atanhRef64},
	{"cbrt", a8(cbrt64AVX512Loop), cbrtRef64},
	{"erf", a8(erf64AVX512Loop), erfRef64},
	{"erfc", a8(erfc64AVX512Loop), erfcRef64},
}

var avx2Loops32 = []loop32{
	{"exp", a8f(exp32AVX2Loop), expRef32},
	{"log", a8f(log32AVX2Loop), logRef32},
	{"tanh", a8f(tanh32AVX2Loop), tanhRef32},
	{"sigmoid", a8f(sigmoid32AVX2Loop), sigmoidRef32},
	{"sin", a8f(sin32AVX2Loop), sinRef32},
	{"cos", a8f(cos32AVX2Loop), cosRef32},
	{"log10", a8f(log10_32AVX2Loop), log10Ref32},
	{"log2", a8f(log2_32AVX2Loop), log2Ref32},
	{"cosh", a8f(cosh32AVX2Loop), coshRef32},
	{"sinh", a8f(sinh32AVX2Loop), sinhRef32},
	{"exp2", a8f(exp2_32AVX2Loop), exp2Ref32},
	{"expm1", a8f(expm1_32AVX2Loop), expm1Ref32},
	{"log1p", a8f(log1p32AVX2Loop), log1pRef32},
	{"tan", a8f(tan32AVX2Loop), tanRef32},
	{"atan", a8f(atan32AVX2Loop), atanRef32},
	{"asin", a8f(asin32AVX2Loop), asinRef32},
	{"acos", a8f(acos32AVX2Loop), acosRef32},
	{"asinh", a8f(asinh32AVX2Loop), asinhRef32},
	{"acosh", a8f(acosh32AVX2Loop), acoshRef32},
	{"atanh", a8f(atanh32AVX2Loop), atanhRef32},
	{"cbrt", a8f(cbrt32AVX2Loop), cbrtRef32},
	{"erf", a8f(erf32AVX2Loop), erfRef32},
	{"erfc", a8f(erfc32AVX2Loop), erfcRef32},
}

var avx512Loops32 = []loop32{
	{"exp", a16f(exp32AVX512Loop), expRef32},
	{"log", a16f(log32AVX512Loop), logRef32},
	{"tanh", a16f(tanh32AVX512Loop), tanhRef32},
	{"sigmoid", a16f(sigmoid32AVX512Loop), sigmoidRef32},
	{"sin", a16f(sin32AVX512Loop), sinRef32},
	{"cos", a16f(cos32AVX512Loop), cosRef32},
	{"log10", a16f(log10_32AVX512Loop), log10Ref32},
	{"log2", a16f(log2_32AVX512Loop), log2Ref32},
	{"cosh", a16f(cosh32AVX512Loop), coshRef32},
	{"sinh", a16f(sinh32AVX512Loop), sinhRef32},
	{"exp2", a16f(exp2_32AVX512Loop), exp2Ref32},
	{"expm1", a16f(expm1_32AVX512Loop), expm1Ref32},
	{"log1p", a16f(log1p32AVX512Loop), log1pRef32},
	{"tan", a16f(tan32AVX512Loop), tanRef32},
	{"atan", a16f(atan32AVX512Loop), atanRef32},
	{"asin", a16f(asin32AVX512Loop), asinRef32},
	{"acos", a16f(acos32AVX512Loop), acosRef32},
	{"asinh", a16f(asinh32AVX512Loop), asinhRef32},
	{"acosh", a16f(acosh32AVX512Loop), acoshRef32},
	{"atanh", a16f(atanh32AVX512Loop), atanhRef32},
	{"cbrt", a16f(cbrt32AVX512Loop), cbrtRef32},
	{"erf", a16f(erf32AVX512Loop), erfRef32},
	{"erfc", a16f(erfc32AVX512Loop), erfcRef32},
}

// domainOf picks, from the inputs, those in the function's domain.
func domainOf[T float32 | float64](name string, x, pos, unit, ge1 []T) []T {
	switch {
	case strings.HasPrefix(name, "log"):
		return pos
	case name == "asin" || name == "acos" || name == "atanh":
		return unit
	case name == "acosh":
		return ge1
	}
	return x
}

// loopInputs are 64 arguments in [-4.5, 4.5], in (0, 7.2], in [-0.99, 0.98]
// (asin, acos) and in (1, 8.2] (acosh).
func loopInputs() (x, pos, unit, ge1 []float64) {
	const n = 64
	x, pos, unit, ge1 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i)/7 - 4.5
		pos[i] = float64(i+1) / 9
		unit[i] = float64(i)/32 - 0.99
		ge1[i] = 1 + pos[i]
	}
	return x, pos, unit, ge1
}

func to32(x []float64) []float32 {
	r := make([]float32, len(x))
	for i, v := range x {
		r[i] = float32(v)
	}
	return r
}

func checkLoops64(t *testing.T, l isa.Level, loops []loop64) {
	x0, pos, unit, ge1 := loopInputs()
	for _, c := range loops {
		x := domainOf(c.name, x0, pos, unit, ge1)
		d := make([]float64, len(x))
		xs := make([]float64, 16)
		if done, bad := c.loop(d, x, xs); done != len(x) || bad != 0 {
			t.Errorf("%s float64: done %d, bad %#b; want %d, 0", c.name, done, bad, len(x))
		}
		tol := uint64(0)
		if approx64Of(l, exportedStem(c.name)) {
			tol = maxULP
		}
		for i, x := range x {
			if want := c.ref(x); ulp64(d[i], want) > tol {
				t.Errorf("%s(%v) = %v, want %v (%d ulp, allowed %d)", c.name, x, d[i], want, int64(ulp64(d[i], want)), tol)
			}
		}
	}
}

func checkLoops32(t *testing.T, loops []loop32) {
	x0, pos, unit, ge1 := loopInputs()
	for _, c := range loops {
		x := domainOf(c.name, to32(x0), to32(pos), to32(unit), to32(ge1))
		d := make([]float32, len(x))
		xs := make([]float32, 16)
		if done, bad := c.loop(d, x, xs); done != len(x) || bad != 0 {
			t.Errorf("%s float32: done %d, bad %#b; want %d, 0", c.name, done, bad, len(x))
		}
		for i, v := range x {
			if want := c.ref(v); ulp32(d[i], want) > maxULP32 {
				t.Errorf("%s(%v) = %v, want %v", c.name, v, d[i], want)
			}
		}
	}
}
