package expr_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestUfuncMethods checks reduce, accumulate and outer against NumPy 1.24
// on x = [[1, 2, 3], [4, 5, 6]] (int64).
func TestUfuncMethods(t *testing.T) {
	x, _ := tensor.FromSlice([]int64{1, 2, 3, 4, 5, 6}, []int{2, 3})
	row0 := x.Index(0, 0)
	row1 := x.Index(0, 1)
	tests := []struct {
		name  string
		e     expr.Exp[int64]
		shape []int
		want  []int64
	}{
		{"subtract.reduce axis 1", expr.UfuncReduce[int64](ops.Sub, x, expr.Axis(1)), []int{2}, []int64{-4, -7}},
		{"subtract.reduce default axis 0", expr.UfuncReduce[int64](ops.Sub, x), []int{3}, []int64{-3, -3, -3}},
		{"subtract.reduce keepdims", expr.UfuncReduce[int64](ops.Sub, x, expr.Axis(-1), expr.KeepDims()), []int{2, 1}, []int64{-4, -7}},
		{"power.reduce", expr.UfuncReduce[int64](ops.Pow, row0, expr.Axis(0)), []int{}, []int64{1}},
		{"add.reduce every axis", expr.UfuncReduce[int64](ops.Add, x, expr.Axis(0, 1)), []int{}, []int64{21}},
		{"maximum.reduce", expr.UfuncReduce[int64](ops.Maximum, x, expr.Axis(1)), []int{2}, []int64{3, 6}},
		{"bitwise_or.reduce", expr.UfuncReduce[int64](ops.BitwiseOr, x, expr.Axis(1)), []int{2}, []int64{3, 7}},
		{"subtract.accumulate", expr.UfuncAccumulate[int64](ops.Sub, x, 1), []int{2, 3}, []int64{1, -1, -4, 4, -1, -7}},
		{"add.accumulate", expr.UfuncAccumulate[int64](ops.Add, x, 0), []int{2, 3}, []int64{1, 2, 3, 5, 7, 9}},
		{"maximum.accumulate", expr.UfuncAccumulate[int64](ops.Maximum, x, 0), []int{2, 3}, []int64{1, 2, 3, 4, 5, 6}},
		{"less.outer", expr.UfuncOuter[int64](ops.Lt, row0, row1), []int{3, 3}, []int64{1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"subtract.outer", expr.UfuncOuter[int64](ops.Sub, row0, x), []int{3, 2, 3}, []int64{0, -1, -2, -3, -4, -5, 1, 0, -1, -2, -3, -4, 2, 1, 0, -1, -2, -3}},
	}
	for _, tt := range tests {
		got, err := kernels.Eval(tt.e)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.shape, []int(got.Shape())); len(tt.shape)+len(got.Shape()) > 0 && diff != "" {
			t.Errorf("%s: shape (-NumPy +laze):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.want, got.Clone().Data()); diff != "" {
			t.Errorf("%s: values (-NumPy +laze):\n%s", tt.name, diff)
		}
	}
}

// TestUfuncMethodErrors: several axes for a fold that is not reorderable
// and a ternary op panic (arguments the caller holds); an empty axis
// without identity fails Check.
func TestUfuncMethodErrors(t *testing.T) {
	x := tensor.Zeros[float64](3, 0)
	for name, f := range map[string]func(){
		"two axes": func() { expr.UfuncReduce[float64](ops.Sub, x, expr.Axis(0, 1)) },
		"ternary":  func() { expr.UfuncOuter[float64](ops.Where, x, x) },
		"unary":    func() { expr.UfuncAccumulate[float64](ops.Neg, x, 0) },
	} {
		func() {
			defer func() {
				var ae *shape.ArgumentError
				if err, _ := recover().(error); !errors.As(err, &ae) {
					t.Errorf("%s: recovered %v, want an *ArgumentError", name, err)
				}
			}()
			f()
		}()
	}
	if _, err := expr.Check(expr.UfuncReduce[float64](ops.Sub, x, expr.Axis(1))); err == nil {
		t.Error("subtract.reduce over an empty axis: no error (NumPy: no identity)")
	}
	if got, err := kernels.Eval(expr.UfuncReduce[float64](ops.Add, x, expr.Axis(1))); err != nil || !cmp.Equal(got.Clone().Data(), []float64{0, 0, 0}) {
		t.Errorf("add.reduce over an empty axis = %v, %v; want [0 0 0]", got, err)
	}
}
