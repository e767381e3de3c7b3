package grad_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// closeTo compares worked values with the evaluated gradients: the worked
// values are exact or computed with package math, the gradients by other
// (fused) arithmetic, so they may differ in the last bits.
var closeTo = cmp.Options{cmpopts.EquateApprox(1e-12, 1e-14), cmpopts.EquateNaNs()}

// tens returns a new float64 tensor holding data in the given shape.
func tens(t testing.TB, data []float64, dims ...int) *tensor.Tensor[float64] {
	t.Helper()
	x, err := tensor.FromSlice(slices.Clone(data), shape.Shape(dims))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// values evaluates e and returns its elements in row-major order.
func values[T tensor.Number](t testing.TB, e expr.Exp[T]) []T {
	t.Helper()
	r, err := kernels.Eval(e)
	if err != nil {
		t.Fatalf("Eval(%v): %v", e, err)
	}
	return slices.Collect(r.Values())
}

// shapeOf returns e's shape.
func shapeOf[T tensor.Number](t testing.TB, e expr.Exp[T]) shape.Shape {
	t.Helper()
	info, err := expr.Check(e)
	if err != nil {
		t.Fatal(err)
	}
	return info.Shape
}

// weighted returns sum(out * w), w holding out's shape.
func weighted(t testing.TB, out expr.Exp[float64], w []float64) expr.Exp[float64] {
	t.Helper()
	return expr.Sum(expr.Mul(out, tens(t, w, shapeOf(t, out)...)))
}

// gradValues returns grad.Of(loss, wrt...) evaluated, each gradient's
// elements in row-major order, after checking that each has its tensor's
// shape.
func gradValues[T tensor.Float](t testing.TB, loss expr.Exp[T], wrt ...*tensor.Tensor[T]) [][]T {
	t.Helper()
	gs, err := grad.Of(loss, wrt...)
	if err != nil {
		t.Fatalf("grad.Of: %v", err)
	}
	return evalGrads(t, gs, wrt)
}

// evalGrads evaluates gradient trees, checking that each has its tensor's
// shape.
func evalGrads[T tensor.Float](t testing.TB, gs []expr.Exp[T], wrt []*tensor.Tensor[T]) [][]T {
	t.Helper()
	if len(gs) != len(wrt) {
		t.Fatalf("%d gradients for %d tensors", len(gs), len(wrt))
	}
	out := make([][]T, len(gs))
	for i, g := range gs {
		if s := shapeOf(t, g); !s.Equal(wrt[i].Shape()) {
			t.Errorf("gradient %d has shape %v, want its tensor's %v", i, s, wrt[i].Shape())
		}
		out[i] = values(t, g)
	}
	return out
}
