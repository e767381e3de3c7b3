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
	testPowRange(t, [3]int{1 << 16, 1 << 20, 1 << 24}, 31, 130, powDraw[float32]{
		bits: func(r *rand.Rand) float32 { return math.Float32frombits(r.Uint32() & 0x7fffffff) },
		boundary: func(r *rand.Rand) float32 { // VGETMANTPS's [3/4, 3/2)
			return math.Float32frombits(math.Float32bits(float32(math.Ldexp(1.5, r.IntN(276)-150))) + uint32(r.IntN(3)) - 1)
		},
	}, Pow32, powRef32, ulp32)
}

// TestPowFloat64Range is TestPowFloat32Range for float64: y·log2|x| in
// [-1100, 1100], bases of every binade (subnormals included), within 1 ulp
// (the rule allows 4: the kernels measure 1).
func TestPowFloat64Range(t *testing.T) {
	testPowRange(t, [3]int{1 << 15, 1 << 19, 1 << 23}, 33, 1100, powDraw[float64]{
		bits: func(r *rand.Rand) float64 { return math.Float64frombits(r.Uint64() &^ (1 << 63)) },
		boundary: func(r *rand.Rand) float64 { // VGETMANTPD's [3/4, 3/2)
			return math.Float64frombits(math.Float64bits(math.Ldexp(1.5, r.IntN(2098)-1075)) + uint64(r.IntN(3)) - 1)
		},
	}, Pow64, powRef64, ulp64)
}

// powDraw draws the range tests' bases of one dtype: random positive bits
// (every binade, subnormals included) and the binades' boundaries of the
// kernels' [3/4, 3/2) split (1.5·2^k and its neighbours).
type powDraw[T float32 | float64] struct {
	bits, boundary func(*rand.Rand) T
}

// testPowRange runs pow over operands whose y·log2|x| is uniform in
// [-tMax, tMax] (sizes: with -short, by default, with
// LAZE_VMATH_EXHAUSTIVE=1) at every level, within 1 ulp of ref: a third
// of the bases near 1, a third from draw.bits (a quarter of those from
// draw.boundary), a third with the exponent rounded to an integer and half
// of those bases negative.
func testPowRange[T float32 | float64](t *testing.T, sizes [3]int, seed uint64, tMax float64, draw powDraw[T],
	pow func(d, x, y []T), ref func(x, y T) T, ulp func(got, want T) uint64) {
	n := sizes[1]
	switch {
	case os.Getenv("LAZE_VMATH_EXHAUSTIVE") == "1":
		n = sizes[2]
	case testing.Short() || raceEnabled:
		n = sizes[0]
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	xs, ys := make([]T, n), make([]T, n)
	for i := range xs {
		x := draw.bits(r)
		switch {
		case i%3 == 0:
			x = T(1 + (r.Float64()*2-1)*0.06)
		case i%3 == 2 && i%4 == 0:
			x = draw.boundary(r)
		}
		if x == 0 || math.IsInf(float64(x), 0) || x != x || x == 1 {
			x = 3
		}
		y := (r.Float64()*2*tMax - tMax) / math.Log2(float64(x))
		if i%3 == 1 {
			y = math.Round(y)
			if r.IntN(2) == 0 {
				x = -x
			}
		}
		xs[i], ys[i] = x, T(y)
	}
	got := make([]T, n)
	for _, l := range levels() {
		withLevel(t, l, func() { pow(got, xs, ys) })
		bad, worst := 0, uint64(0)
		for i := range got {
			want := ref(xs[i], ys[i])
			d := ulp(got[i], want)
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
