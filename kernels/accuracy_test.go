package kernels

import (
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/ops/opcases"
	"github.com/laze-go/laze/tensor"
)

// maxULP is the accuracy contract of the float functions (docs/design.md):
// at most 4 ulp from the reference, ops.Apply (the op table's Go column):
// Go's math in float64 and, for float32, the float64 result rounded to
// float32 (the functions of the type itself, spacing and nextafter, in
// float32); where the reference is NaN, ±Inf or ±0 the result must be it
// exactly.
const maxULP = 4

// TestFunctionAccuracySweep evaluates every float function of the op table
// with Assign over opcases.Sweep (binary ops: over a grid of them), at each
// instruction-set level this CPU runs, in float64 and float32, and checks
// the maxULP contract element by element. The vector kernels (vmath, the
// lane loops) meet it here on the whole range, special values included.
func TestFunctionAccuracySweep(t *testing.T) {
	prev := isa.Selected()
	t.Cleanup(func() { isa.Use(prev) })
	for _, l := range isa.Supported() {
		if _, err := isa.Use(l); err != nil {
			t.Fatal(err)
		}
		for _, op := range opcases.FloatFunctions() {
			a, b := opcases.SweepOperands(op.Arity())
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
	x, y := opcases.Vectors[T](a, b)
	dst := tensor.Zeros[T](n)
	operands := []expr.Exp[T]{x, y}[:op.Arity()]
	e := expr.Apply(op, operands...)
	if err := Assign(dst, e); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range n {
		want := ops.Apply(op, x.At(i), y.At(i), 0) // float32: float32(f(float64(x))), or the type's own (spacing, nextafter)
		if d := opcases.ULPDistance(dst.At(i), want); d > maxULP {
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
	floatOps := opcases.FloatFunctions()
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
