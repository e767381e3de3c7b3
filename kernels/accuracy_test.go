package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// maxULP is the accuracy contract of the float functions (docs/design.md):
// at most 4 ulp from the reference, ops.Apply (the op table's Go column):
// Go's math in float64 and, for float32, the float64 result rounded to
// float32 (the functions of the type itself, spacing and nextafter, in
// float32); where the reference is NaN, ±Inf or ±0 the result must be it
// exactly.
const maxULP = 4

// ulps returns the distance between a and b in units in the last place of
// T, and whether they must be, and are, the same special value.
func ulps[T tensor.Float](got, want T) (distance uint64, ok bool) {
	g, w := float64(got), float64(want)
	switch {
	case w != w:
		return 0, g != g
	case math.IsInf(w, 0) || w == 0:
		return 0, g == w && math.Signbit(g) == math.Signbit(w)
	case g != g || math.IsInf(g, 0) || math.Signbit(g) != math.Signbit(w):
		return math.MaxUint64, false
	}
	var gi, wi uint64
	if tensor.ItemSize[T]() == 4 {
		gi, wi = uint64(math.Float32bits(float32(math.Abs(g)))), uint64(math.Float32bits(float32(math.Abs(w))))
	} else {
		gi, wi = math.Float64bits(math.Abs(g)), math.Float64bits(math.Abs(w))
	}
	if gi > wi {
		gi, wi = wi, gi
	}
	return wi - gi, wi-gi <= maxULP
}

// sweepValues are the inputs of the range sweep: zeros, subnormals, every
// power of ten from 1e-300 to 1e300 scaled by three mantissas, both signs,
// the domain edges of the inverse and hyperbolic functions, and random
// values in [-10, 10] and [-1, 1].
func sweepValues() []float64 {
	vs := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, 2.2250738585072014e-308, 1e-45, 1.2e-38,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.MaxFloat32, 1, 0.5, 2, math.Pi / 2, math.Pi, 88.7, 709.8, 710, -745.2}
	for e := -300; e <= 300; e += 3 {
		for _, m := range []float64{1, 1.7, 3.14159} {
			vs = append(vs, m*math.Pow(10, float64(e)))
		}
	}
	r := rand.New(rand.NewPCG(31, 1))
	for range 400 {
		vs = append(vs, 20*r.Float64()-10, 2*r.Float64()-1, 1+1e-6*r.Float64())
	}
	n := len(vs)
	for _, v := range vs[:n] {
		vs = append(vs, -v)
	}
	return vs
}

// TestFunctionAccuracySweep evaluates every float function of the op table
// with Assign over sweepValues (binary ops: over a grid of them), at each
// instruction-set level this CPU runs, in float64 and float32, and checks
// the maxULP contract element by element. The vector kernels (vmath, the
// lane loops) meet it here on the whole range, special values included.
func TestFunctionAccuracySweep(t *testing.T) {
	prev := isa.Selected()
	t.Cleanup(func() { isa.Use(prev) })
	xs := sweepValues()
	grid := xs[:0:0]
	for i := 0; i < len(xs); i += 29 {
		grid = append(grid, xs[i])
	}
	for _, l := range isa.Supported() {
		if _, err := isa.Use(l); err != nil {
			t.Fatal(err)
		}
		for _, op := range ops.All() {
			if !op.Def().Domain.Accepts(true) || op.Arity() == 3 {
				continue
			}
			a, b := xs, xs
			if op.Arity() == 2 {
				a, b = nil, nil
				for _, x := range grid {
					for _, y := range grid {
						a, b = append(a, x), append(b, y)
					}
				}
			}
			t.Run(l.String()+"/"+op.String(), func(t *testing.T) {
				checkAccuracy[float64](t, op, a, b)
				checkAccuracy[float32](t, op, a, b)
			})
		}
	}
}

// checkAccuracy evaluates op over a (and b) in T with Assign and compares
// each element with the reference.
func checkAccuracy[T tensor.Float](t *testing.T, op ops.Op, a, b []float64) {
	t.Helper()
	n := len(a)
	x, y := tensor.Zeros[T](n), tensor.Zeros[T](n)
	for i := range n {
		x.Set(T(a[i]), i)
		y.Set(T(b[i]), i)
	}
	dst := tensor.Zeros[T](n)
	operands := []expr.Exp[T]{x, y}[:op.Arity()]
	e := expr.Apply(op, operands...)
	if err := Assign(dst, e); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range n {
		want := ops.Apply(op, x.At(i), y.At(i), 0) // float32: float32(f(float64(x))), or the type's own (spacing, nextafter)
		if d, ok := ulps(dst.At(i), want); !ok {
			if bad++; bad <= 5 {
				t.Errorf("%s %s(%v, %v) = %v, want %v (%d ulp)", tensor.DTypeOf[T](), op, x.At(i), y.At(i), dst.At(i), want, d)
			}
		}
	}
}

// FuzzFunctionAccuracy checks the maxULP contract for one float function of
// the table at fuzzed operands, in a vector of 19 elements (vector lanes
// and a tail) at the selected level, in float64 and float32.
func FuzzFunctionAccuracy(f *testing.F) {
	f.Add(uint8(0), 0.5, 2.0)
	f.Add(uint8(7), -1e-310, math.Inf(1))
	f.Add(uint8(40), 88.7, -3.0)
	var floatOps []ops.Op
	for _, op := range ops.All() {
		if op.Def().Domain.Accepts(true) && op.Arity() < 3 {
			floatOps = append(floatOps, op)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, a, b float64) {
		op := floatOps[int(which)%len(floatOps)]
		as, bs := make([]float64, 19), make([]float64, 19)
		for i := range as {
			as[i], bs[i] = a*float64(i+1)/7, b-float64(i)
		}
		as[18], bs[18] = a, b
		checkAccuracy[float64](t, op, as, bs)
		checkAccuracy[float32](t, op, as, bs)
	})
}
