package vmath

import (
	"math"
	"strings"
	"testing"
)

// TestNEONLoopsCompute calls each NEON loop directly on arguments inside
// its kernel's domain and checks that the kernel itself computed every
// lane (no lane handed back to the scalar fix-up, which would pass the
// accuracy tests with the reference's own bits) and that the results meet
// the accuracy rule: the float64 kernels bit for bit (but pow's, within
// maxULP), the float32 ones within maxULP32 (pow's within 1).
func TestNEONLoopsCompute(t *testing.T) {
	const n = 64
	x64, x32 := make([]float64, n), make([]float32, n)
	for i := range x64 {
		x64[i] = float64(i)/7 - 4.5
		x32[i] = float32(x64[i])
	}
	for _, c := range []struct {
		name string
		loop func(d, x []float64, xs *[2]float64) (int, uint)
		ref  func(float64) float64
	}{
		{"exp", exp64NEONLoop, expRef64},
		{"log", log64NEONLoop, logRef64},
		{"tanh", tanh64NEONLoop, tanhRef64},
		{"sigmoid", sigmoid64NEONLoop, sigmoidRef64},
		{"sin", sin64NEONLoop, sinRef64},
		{"cos", cos64NEONLoop, cosRef64},
		{"log10", log10_64NEONLoop, log10Ref64},
		{"log2", log2_64NEONLoop, log2Ref64},
		{"cosh", cosh64NEONLoop, coshRef64},
		{"sinh", sinh64NEONLoop, sinhRef64},
		{"exp2", exp2_64NEONLoop, exp2Ref64},
		{"expm1", expm1_64NEONLoop, expm1Ref64},
		{"log1p", log1p64NEONLoop, log1pRef64},
		{"tan", tan64NEONLoop, tanRef64},
		{"atan", atan64NEONLoop, atanRef64},
		{"asin", asin64NEONLoop, asinRef64},
		{"acos", acos64NEONLoop, acosRef64},
		{"asinh", asinh64NEONLoop, asinhRef64},
		{"acosh", acosh64NEONLoop, acoshRef64},
		{"atanh", atanh64NEONLoop, atanhRef64},
		{"cbrt", cbrt64NEONLoop, cbrtRef64},
		{"erf", erf64NEONLoop, erfRef64},
		{"erfc", erfc64NEONLoop, erfcRef64},
	} {
		x := x64
		switch {
		case strings.HasPrefix(c.name, "log"):
			x = make([]float64, n)
			for i := range x {
				x[i] = float64(i+1) / 9
			}
		case c.name == "asin" || c.name == "acos" || c.name == "atanh":
			x = make([]float64, n)
			for i := range x {
				x[i] = float64(i)/32 - 0.99
			}
		case c.name == "acosh":
			x = make([]float64, n)
			for i := range x {
				x[i] = 1 + float64(i+1)/9
			}
		}
		d := make([]float64, n)
		var xs [2]float64
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
		loop func(d, x []float32, xs *[4]float32) (int, uint)
		ref  func(float32) float32
	}{
		{"exp", exp32NEONLoop, expRef32},
		{"log", log32NEONLoop, logRef32},
		{"tanh", tanh32NEONLoop, tanhRef32},
		{"sigmoid", sigmoid32NEONLoop, sigmoidRef32},
		{"sin", sin32NEONLoop, sinRef32},
		{"cos", cos32NEONLoop, cosRef32},
		{"log10", log10_32NEONLoop, log10Ref32},
		{"log2", log2_32NEONLoop, log2Ref32},
		{"cosh", cosh32NEONLoop, coshRef32},
		{"sinh", sinh32NEONLoop, sinhRef32},
		{"exp2", exp2_32NEONLoop, exp2Ref32},
		{"expm1", expm1_32NEONLoop, expm1Ref32},
		{"log1p", log1p32NEONLoop, log1pRef32},
		{"tan", tan32NEONLoop, tanRef32},
		{"atan", atan32NEONLoop, atanRef32},
		{"asin", asin32NEONLoop, asinRef32},
		{"acos", acos32NEONLoop, acosRef32},
		{"asinh", asinh32NEONLoop, asinhRef32},
		{"acosh", acosh32NEONLoop, acoshRef32},
		{"atanh", atanh32NEONLoop, atanhRef32},
		{"cbrt", cbrt32NEONLoop, cbrtRef32},
		{"erf", erf32NEONLoop, erfRef32},
		{"erfc", erfc32NEONLoop, erfcRef32},
	} {
		x := x32
		switch {
		case strings.HasPrefix(c.name, "log"):
			x = make([]float32, n)
			for i := range x {
				x[i] = float32(i+1) / 9
			}
		case c.name == "asin" || c.name == "acos" || c.name == "atanh":
			x = make([]float32, n)
			for i := range x {
				x[i] = float32(i)/32 - 0.99
			}
		case c.name == "acosh":
			x = make([]float32, n)
			for i := range x {
				x[i] = 1 + float32(i+1)/9
			}
		}
		d := make([]float32, n)
		var xs [4]float32
		if done, bad := c.loop(d, x, &xs); done != n || bad != 0 {
			t.Errorf("%s float32: done %d, bad %#b; want %d, 0", c.name, done, bad, n)
		}
		for i, v := range x {
			if want := c.ref(v); ulp32(d[i], want) > maxULP32 {
				t.Errorf("%s(%v) = %v, want %v", c.name, v, d[i], want)
			}
		}
	}
	// pow in each operand form: bases in [0.5, 4.5), exponents integer,
	// half-integer and general (above and below the half: Modf's
	// adjustment), of both signs
	exps := []float64{2, -3, 0.5, 2.75, -1.3, 7.9, -0.25, 3.5, 1.6, -6}
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 0.5 + float64(i)/16
		y[i] = exps[i%len(exps)]
	}
	x3, y3 := make([]float32, n), make([]float32, n)
	for i := range x {
		x3[i], y3[i] = float32(x[i]), float32(y[i])
	}
	const xsc, ysc = 1.7, -2.35 // the scalar operands
	forms := []struct {
		name  string
		run64 func(d []float64, xs, ys *[2]float64) (int, uint)
		run32 func(d []float32, xs, ys *[4]float32) (int, uint)
		x, y  func(i int) float64
	}{
		{"pow", func(d []float64, xs, ys *[2]float64) (int, uint) { return pow64NEONLoop(d, x, y, xs, ys) },
			func(d []float32, xs, ys *[4]float32) (int, uint) { return pow32NEONLoop(d, x3, y3, xs, ys) },
			func(i int) float64 { return x[i] }, func(i int) float64 { return y[i] }},
		{"powScalar", func(d []float64, xs, _ *[2]float64) (int, uint) { return powScalar64NEONLoop(d, x, ysc, xs) },
			func(d []float32, xs, _ *[4]float32) (int, uint) { return powScalar32NEONLoop(d, x3, ysc, xs) },
			func(i int) float64 { return x[i] }, func(int) float64 { return ysc }},
		{"scalarPow", func(d []float64, _, ys *[2]float64) (int, uint) { return scalarPow64NEONLoop(d, xsc, y, ys) },
			func(d []float32, _, ys *[4]float32) (int, uint) { return scalarPow32NEONLoop(d, xsc, y3, ys) },
			func(int) float64 { return xsc }, func(i int) float64 { return y[i] }},
	}
	for _, f := range forms {
		d, d3 := make([]float64, n), make([]float32, n)
		var xs, ys [2]float64
		var xs3, ys3 [4]float32
		if done, bad := f.run64(d, &xs, &ys); done != n || bad != 0 {
			t.Errorf("%s float64: done %d, bad %#b; want %d, 0", f.name, done, bad, n)
		}
		if done, bad := f.run32(d3, &xs3, &ys3); done != n || bad != 0 {
			t.Errorf("%s float32: done %d, bad %#b; want %d, 0", f.name, done, bad, n)
		}
		for i := range d { // pow is a kernel of its own (doc.go, "pow"): within the rule, 1 ulp for float32
			a, b := f.x(i), f.y(i)
			if want := powRef64(a, b); ulp64(d[i], want) > maxULP {
				t.Errorf("%s: pow(%v, %v) = %v, want %v", f.name, a, b, d[i], want)
			}
			if want := powRef32(float32(a), float32(b)); ulp32(d3[i], want) > 1 {
				t.Errorf("%s: pow(%v, %v) = %v, want %v (float32)", f.name, float32(a), float32(b), d3[i], want)
			}
		}
	}
}
