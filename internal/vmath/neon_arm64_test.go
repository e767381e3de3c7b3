package vmath

import (
	"math"
	"testing"
)

// TestNEONLoopsCompute calls each NEON loop directly on arguments inside
// its kernel's domain and checks that the kernel itself computed every
// lane (no lane handed back to the scalar fix-up, which would pass the
// accuracy tests with the reference's own bits) and that the results meet
// the accuracy rule: the float64 kernels bit for bit, the float32 ones
// within maxULP32.
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
	} {
		x := x64
		if c.name == "log" {
			x = make([]float64, n)
			for i := range x {
				x[i] = float64(i+1) / 9
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
	} {
		x := x32
		if c.name == "log" {
			x = make([]float32, n)
			for i := range x {
				x[i] = float32(i+1) / 9
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
	// pow: bases in [0.5, 4.5), exponents integer and fractional, of both signs
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 0.5 + float64(i)/16
		y[i] = float64(i%13)/2 - 3
	}
	d := make([]float64, n)
	var xs, ys [2]float64
	if done, bad := pow64NEONLoop(d, x, y, &xs, &ys); done != n || bad != 0 {
		t.Errorf("pow float64: done %d, bad %#b; want %d, 0", done, bad, n)
	}
	x3, y3, d3 := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x3[i], y3[i] = float32(x[i]), float32(y[i])
	}
	var xs3, ys3 [4]float32
	if done, bad := pow32NEONLoop(d3, x3, y3, &xs3, &ys3); done != n || bad != 0 {
		t.Errorf("pow float32: done %d, bad %#b; want %d, 0", done, bad, n)
	}
	for i := range x {
		if want := powRef64(x[i], y[i]); math.Float64bits(d[i]) != math.Float64bits(want) {
			t.Errorf("pow(%v, %v) = %v, want %v", x[i], y[i], d[i], want)
		}
		if want := powRef32(x3[i], y3[i]); d3[i] != want {
			t.Errorf("pow(%v, %v) = %v, want %v (float32)", x3[i], y3[i], d3[i], want)
		}
	}
}
