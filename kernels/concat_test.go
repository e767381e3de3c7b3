package kernels

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

func TestConcatenateValues(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3, 4}, 2, 2)
	b := mustFrom(t, []float64{5, 6}, 1, 2)
	c := mustFrom(t, []float64{7, 8}, 2, 1)
	x := mustFrom(t, []int32{1, 2, 3}, 3)
	y := mustFrom(t, []int32{4, 5, 6}, 3)
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		{"axis 0", expr.Concatenate[float64](0, a, b), shape.Shape{3, 2}, []float64{1, 2, 3, 4, 5, 6}},
		{"axis 1", expr.Concatenate[float64](1, a, c), shape.Shape{2, 3}, []float64{1, 2, 7, 3, 4, 8}},
		{"axis -1, three parts", expr.Concatenate[float64](-1, c, a, c), shape.Shape{2, 4}, []float64{7, 1, 2, 7, 8, 3, 4, 8}},
		{"one part", expr.Concatenate[float64](0, a), shape.Shape{2, 2}, []float64{1, 2, 3, 4}},
		{"empty part", expr.Concatenate[float64](0, tensor.Zeros[float64](0, 2), b), shape.Shape{1, 2}, []float64{5, 6}},
		{"transposed part", expr.Concatenate[float64](0, a.T(), b), shape.Shape{3, 2}, []float64{1, 3, 2, 4, 5, 6}},
		{"tree parts, in a tree", expr.Of(expr.Concatenate[float64](0, expr.Of[float64](a).MulScalar(10), b)).AddScalar(1),
			shape.Shape{3, 2}, []float64{11, 21, 31, 41, 6, 7}},
		{"reduction of a concatenation", expr.Sum[float64](expr.Concatenate[float64](1, a, c), expr.Axis(1)), shape.Shape{2}, []float64{10, 15}},
		{"stack axis 0", expr.Stack[float64](0, a, a), shape.Shape{2, 2, 2}, []float64{1, 2, 3, 4, 1, 2, 3, 4}},
		{"stack axis 1", expr.Stack[float64](1, a, expr.Of[float64](a).Neg()), shape.Shape{2, 2, 2}, []float64{1, 2, -1, -2, 3, 4, -3, -4}},
		{"stack axis -1", expr.Stack[float64](-1, a, expr.Of[float64](a).MulScalar(10)), shape.Shape{2, 2, 2}, []float64{1, 10, 2, 20, 3, 30, 4, 40}},
	}
	for _, tt := range tests {
		got, err := Eval(tt.e)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !got.Shape().Equal(tt.shape) {
			t.Errorf("%s: shape %v, want %v", tt.name, got.Shape(), tt.shape)
		}
		if diff := cmp.Diff(tt.want, got.Data()); diff != "" {
			t.Errorf("%s: Eval (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.want, refEval(tt.e, tt.shape)); diff != "" {
			t.Errorf("%s: reference (-want +got):\n%s", tt.name, diff)
		}
	}
	got, err := Eval(expr.Stack[int32](-1, x, y))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int32{1, 4, 2, 5, 3, 6}, got.Data()); diff != "" || !got.Shape().Equal(shape.Shape{3, 2}) {
		t.Errorf("int32 stack axis -1: %v %v", got.Shape(), diff)
	}
}

// TestConcatenateOverlap assigns concatenations whose parts read the
// destination: each result must be NumPy's (every part read before the
// destination is written), worked by hand and checked against the oracle
// evaluated before the assignment.
func TestConcatenateOverlap(t *testing.T) {
	tests := []struct {
		name  string
		build func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64])
		want  []float64
	}{
		{"rotate", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Concatenate[float64](0, a.Narrow(0, 1, 3), a.Narrow(0, 0, 1))
		}, []float64{2, 3, 4, 1}},
		{"rotate the other way", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Concatenate[float64](0, a.Narrow(0, 3, 1), a.Narrow(0, 0, 3))
		}, []float64{4, 1, 2, 3}},
		{"swap halves through trees", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Concatenate[float64](0, expr.Of[float64](a.Narrow(0, 2, 2)).MulScalar(10), expr.Add[float64](a.Narrow(0, 0, 2), a.Narrow(0, 2, 2)))
		}, []float64{30, 40, 4, 6}},
		{"reversed destination", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a.Slice(0, tensor.None, tensor.None, -1), expr.Concatenate[float64](0, a.Narrow(0, 0, 2), a.Narrow(0, 2, 2))
		}, []float64{4, 3, 2, 1}},
		{"a reduction of the destination", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Concatenate[float64](0, expr.Sum[float64](a, expr.KeepDims()), a.Narrow(0, 0, 3))
		}, []float64{10, 1, 2, 3}},
		{"parts in place", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Concatenate[float64](0, a.Narrow(0, 0, 2), a.Narrow(0, 2, 2))
		}, []float64{1, 2, 3, 4}},
		{"stack swaps rows", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			m, _ := a.View(2, 2)
			return m, expr.Stack[float64](0, m.Index(0, 1), m.Index(0, 0))
		}, []float64{3, 4, 1, 2}},
		{"stack transposes", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			m, _ := a.View(2, 2)
			return m, expr.Stack[float64](1, m.Index(0, 0), m.Index(0, 1))
		}, []float64{1, 3, 2, 4}},
	}
	for _, tt := range tests {
		a := mustFrom(t, []float64{1, 2, 3, 4}, 4)
		dst, e := tt.build(a)
		ref := refEval(e, dst.Shape())
		if err := Assign(dst, e); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, a.Data()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(ref, dst.Contiguous().Data()); diff != "" {
			t.Errorf("%s: against the reference (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestConcatenateErrors(t *testing.T) {
	a := tensor.Zeros[float64](2, 3)
	b := tensor.Zeros[float64](2, 4)
	v := tensor.Zeros[float64](3)
	var se *shape.ShapeError
	var de *shape.DimensionError
	var ae *shape.ArgumentError
	tests := []struct {
		name   string
		e      expr.Exp[float64]
		target any
		says   []string
	}{
		{"sizes differ", expr.Concatenate[float64](0, a, b), &se, []string{"(2,3), (2,4)", "except along axis 0", "along dimension 1", "operand 1 has size 4"}},
		{"ranks differ", expr.Concatenate[float64](0, a, v), &se, []string{"(2,3), (3,)", "same rank", "operand 1 has 1"}},
		{"axis out of range", expr.Concatenate[float64](2, a, a), &de, []string{"2"}},
		{"negative axis out of range", expr.Concatenate[float64](-3, a, a), &de, []string{"-3"}},
		{"no parts", expr.Concatenate[float64](0), &ae, []string{"at least one"}},
		{"rank 0", expr.Concatenate[float64](0, tensor.Scalar(1.0), tensor.Scalar(2.0)), &ae, []string{"zero-dimensional"}},
		{"stack shapes differ", expr.Stack[float64](0, a, b), &se, []string{"(2,3), (2,4)", "same shape"}},
		{"stack axis out of range", expr.Stack[float64](3, a, a), &de, []string{"3"}},
		{"nil part", expr.Concatenate[float64](0, a, nil), &ae, []string{"operand 1"}},
	}
	for _, tt := range tests {
		dst := mustFrom(t, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3)
		err := Assign(dst, tt.e)
		if err == nil || !errors.As(err, tt.target) {
			t.Errorf("%s: %v, want %T", tt.name, err, tt.target)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", tt.name, err, s)
			}
		}
		if dst.At(0, 0) != 1 || dst.At(3, 2) != 12 {
			t.Errorf("%s: the destination changed", tt.name)
		}
	}
	// A destination of the wrong shape is refused before anything is written.
	dst := tensor.Zeros[float64](3, 3)
	if err := Assign(dst, expr.Concatenate[float64](0, a, a)); !errors.As(err, &se) {
		t.Errorf("destination (3,3) for (4,3): %v, want a ShapeError", err)
	}
}
