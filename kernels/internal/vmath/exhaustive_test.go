package vmath

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// TestExhaustive32 runs the float32 functions at every level on all 2^32
// inputs and reports the largest distance from the references, in ulp. It
// takes minutes, so it runs only with LAZE_VMATH_EXHAUSTIVE=1 (TestSweep32
// runs a stride of the same range every time).
func TestExhaustive32(t *testing.T) {
	if os.Getenv("LAZE_VMATH_EXHAUSTIVE") != "1" {
		t.Skip("set LAZE_VMATH_EXHAUSTIVE=1 to check all 2^32 float32 inputs")
	}
	const chunk = 1 << 16
	xs := make([]float32, chunk)
	got := make([]float32, chunk)
	for _, fn := range unaryFuncs {
		for _, l := range levels() {
			if l == isa.Generic {
				continue
			}
			t.Run(fn.name+"/"+l.String(), func(t *testing.T) {
				var worst uint64
				var worstX float32
				bad := 0
				var tol uint64
				withLevel(t, l, func() {
					tol = tolerance32(fn)
					for base := uint64(0); base < 1<<32; base += chunk {
						for i := range xs {
							xs[i] = math.Float32frombits(uint32(base) + uint32(i))
						}
						fn.f32(got, xs)
						for i, x := range xs {
							u := ulp32(got[i], fn.ref32(x))
							if u > tol {
								if bad++; bad < 20 {
									t.Errorf("%s(%v [%#x]) = %v, want %v", fn.name, x, math.Float32bits(x), got[i], fn.ref32(x))
								}
							}
							if u > worst {
								worst, worstX = u, x
							}
						}
					}
				})
				t.Logf("%s float32 level %v: all 2^32 inputs, max %d ulp (at %v [%#x])", fn.name, l, worst, worstX, math.Float32bits(worstX))
			})
		}
	}
}

// TestPowFloat32Range checks float32 pow at every level against the
// reference (within 1 ulp) on operands whose results cover the float32
// range: bases of every binade (subnormals included) and near 1, each with
// an exponent that puts y·log2|x| uniformly in [-130, 130] (a third of
// them rounded to an integer, which negative bases get), so that every
// cell of the kernels' tables, both ends of the range and the ties at the
// bottom are met. 2^16 operands with -short, 2^20 without, 2^24 with
// LAZE_VMATH_EXHAUSTIVE=1.
func TestPowFloat32Range(t *testing.T) {
	n := 1 << 20
	switch {
	case os.Getenv("LAZE_VMATH_EXHAUSTIVE") == "1":
		n = 1 << 24
	case testing.Short() || raceEnabled:
		n = 1 << 16
	}
	r := rand.New(rand.NewPCG(31, 32))
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		x := math.Float32frombits(r.Uint32() & 0x7fffffff)
		if i%3 == 0 {
			x = float32(1 + (r.Float64()*2-1)*0.06)
		}
		if i%3 == 2 && i%4 == 0 { // the binades' boundaries of VGETMANTPS's [3/4, 3/2)
			x = math.Float32frombits(math.Float32bits(float32(math.Ldexp(1.5, r.IntN(276)-150))) + uint32(r.IntN(3)) - 1)
		}
		if x == 0 || math.IsInf(float64(x), 0) || x != x || x == 1 {
			x = 3
		}
		y := (r.Float64()*260 - 130) / math.Log2(float64(x))
		if i%3 == 1 {
			y = math.Round(y)
			if r.IntN(2) == 0 {
				x = -x
			}
		}
		xs[i], ys[i] = x, float32(y)
	}
	got := make([]float32, n)
	for _, l := range levels() {
		withLevel(t, l, func() { Pow32(got, xs, ys) })
		bad, worst := 0, uint64(0)
		for i := range got {
			want := powRef32(xs[i], ys[i])
			d := ulp32(got[i], want)
			worst = max(worst, d)
			if d > 1 {
				if bad++; bad <= 10 {
					t.Errorf("%v: pow32(%v, %v) = %v, want %v", l, xs[i], ys[i], got[i], want)
				}
			}
		}
		t.Logf("%v: %d operands, worst %d ulp", l, n, worst)
	}
}

// TestPowFloat64Range is TestPowFloat32Range for float64: y·log2|x| in
// [-1100, 1100], bases of every binade (subnormals included), within 1 ulp
// (the rule allows 4: the kernels measure 1).
func TestPowFloat64Range(t *testing.T) {
	n := 1 << 19
	switch {
	case os.Getenv("LAZE_VMATH_EXHAUSTIVE") == "1":
		n = 1 << 23
	case testing.Short() || raceEnabled:
		n = 1 << 15
	}
	r := rand.New(rand.NewPCG(33, 34))
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		x := math.Float64frombits(r.Uint64() &^ (1 << 63))
		if i%3 == 0 {
			x = 1 + (r.Float64()*2-1)*0.06
		}
		if i%3 == 2 && i%4 == 0 { // the binades' boundaries of VGETMANTPD's [3/4, 3/2)
			x = math.Float64frombits(math.Float64bits(math.Ldexp(1.5, r.IntN(2098)-1075)) + uint64(r.IntN(3)) - 1)
		}
		if x == 0 || math.IsInf(x, 0) || x != x || x == 1 {
			x = 3
		}
		y := (r.Float64()*2200 - 1100) / math.Log2(x)
		if i%3 == 1 {
			y = math.Round(y)
			if r.IntN(2) == 0 {
				x = -x
			}
		}
		xs[i], ys[i] = x, y
	}
	got := make([]float64, n)
	for _, l := range levels() {
		withLevel(t, l, func() { Pow64(got, xs, ys) })
		bad, worst := 0, uint64(0)
		for i := range got {
			want := powRef64(xs[i], ys[i])
			d := ulp64(got[i], want)
			worst = max(worst, d)
			if d > 1 {
				if bad++; bad <= 10 {
					t.Errorf("%v: pow(%v, %v) = %v, want %v", l, xs[i], ys[i], got[i], want)
				}
			}
		}
		t.Logf("%v: %d operands, worst %d ulp", l, n, worst)
	}
}
