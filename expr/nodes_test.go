package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

func arange(t *testing.T, dims ...int) *tensor.Tensor[float64] {
	t.Helper()
	n := 1
	for _, d := range dims {
		n *= d
	}
	x, err := tensor.Arange[float64](0, float64(n), 1).View(dims...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestNonElementwiseNodes checks how products, reductions and casts print,
// their inferred shapes, and single elements by the definition (At).
func TestNonElementwiseNodes(t *testing.T) {
	a := expr.Name("a", expr.Of[float64](arange(t, 2, 3)))
	b := expr.Name("b", expr.Of[float64](arange(t, 3, 4)))
	v := expr.Name("v", expr.Of[float64](arange(t, 3)))
	tests := []struct {
		e     expr.Node
		print string
		shape shape.Shape
		at    []int
		value float64
	}{
		{expr.MatMul[float64](a, b), "(a @ b)", shape.Shape{2, 4}, []int{1, 2}, 3*2 + 4*6 + 5*10},
		{expr.MatMul[float64](v, b), "(v @ b)", shape.Shape{4}, []int{3}, 0*3 + 1*7 + 2*11},
		{expr.MatMul[float64](a, v), "(a @ v)", shape.Shape{2}, []int{1}, 3*0 + 4*1 + 5*2},
		{expr.MatMul[float64](v, v), "(v @ v)", shape.Shape{}, nil, 0 + 1 + 4},
		{expr.Sum[float64](a), "sum(a)", shape.Shape{}, nil, 15},
		{expr.Sum[float64](a, expr.Axis(-1), expr.KeepDims()), "sum(a, axis=-1, keepdims=True)", shape.Shape{2, 1}, []int{1, 0}, 12},
		{expr.Mean[float64](a, expr.Axis(0)), "mean(a, axis=0)", shape.Shape{3}, []int{2}, 3.5},
		{expr.Prod[float64](a, expr.Axis(1, 0)), "prod(a, axis=(1, 0))", shape.Shape{}, nil, 0},
		{expr.Max[float64](a, expr.Axis()), "max(a, axis=())", shape.Shape{2, 3}, []int{1, 1}, 4},
		{expr.Min[float64](b, expr.Axis(1)), "min(b, axis=1)", shape.Shape{3}, []int{2}, 8},
		{expr.Of[float64](a).Sum(expr.Axis(1)).MulScalar(2), "(sum(a, axis=1) * 2)", shape.Shape{2}, []int{1}, 24},
		{expr.Cast[float64](expr.Cast[int32](expr.Of[float64](a).MulScalar(0.5))), "float64(int32((a * 0.5)))", shape.Shape{2, 3}, []int{1, 1}, 2},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(tt.e); got != tt.print {
			t.Errorf("String() = %q, want %q", got, tt.print)
		}
		if got := tt.e.Shape(); !got.Equal(tt.shape) {
			t.Errorf("%s: Shape() = %v, want %v", tt.print, got, tt.shape)
		}
		if got := tt.e.(expr.Exp[float64]).At(tt.at...); got != tt.value {
			t.Errorf("%s: At(%v) = %v, want %v", tt.print, tt.at, got, tt.value)
		}
	}
	arg := expr.ArgMax[float64](b, expr.Axis(0), expr.KeepDims())
	if got, want := fmt.Sprint(arg), "argmax(b, axis=0, keepdims=True)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := arg.At(0, 3); got != 2 {
		t.Errorf("%v.At(0, 3) = %d, want 2", arg, got)
	}
	if got := expr.ArgMin[float64](a).At(); got != 0 {
		t.Errorf("argmin(a).At() = %d, want 0", got)
	}
}

// TestNonElementwiseErrors checks that Check names the node and the values
// at fault, for each new kind of fault.
func TestNonElementwiseErrors(t *testing.T) {
	a := expr.Name("a", expr.Of[float64](arange(t, 2, 3)))
	tests := []struct {
		e       expr.Exp[float64]
		kind    error
		node    string
		message string
	}{
		{expr.MatMul[float64](a, a), shape.ErrShape, "(a @ a)", "matmul: (2,3) @ (2,3): the inner dimensions differ (3 and 2)"},
		{expr.Add(expr.MatMul[float64](a, expr.Of[float64](arange(t, 3, 4))), expr.Of[float64](a)), shape.ErrBroadcast, "((a @ tensor(3,4)) + a)", "(2,4) and (2,3)"},
		{expr.Sum[float64](a, expr.Axis(2)), shape.ErrDimension, "sum(a, axis=2)", "dimension 2 is out of range for rank 2"},
		{expr.Sum[float64](a, expr.Axis(0, -2)), shape.ErrInvalid, "sum(a, axis=(0, -2))", "dimension 0 is named twice"},
		{expr.Max[float64](expr.Of[float64](arange(t, 0, 2)), expr.Axis(0)), shape.ErrShape, "max(tensor(0,2), axis=0)", "max has no identity"},
		{&expr.Reduction[float64]{Op: expr.ArgMax[float64](a).(*expr.ArgReduction[float64]).Op, X: a}, shape.ErrInvalid, "argmax(a)", "Reduction takes sum, mean, prod, max or min"},
		{expr.MatMul[float64](a, nil), shape.ErrInvalid, "(a @ <nil>)", "an operand is missing"},
		{expr.MatMul[float64](a, gpu{}), shape.ErrDevice, "(a @ tensor(3,3))", "matmul: operands are on different devices: cpu and cuda:0"},
	}
	for _, tt := range tests {
		_, err := expr.Check(tt.e)
		var ne *shape.NodeError
		if !errors.Is(err, tt.kind) || !errors.As(err, &ne) {
			t.Errorf("%v: error %v, want a NodeError wrapping %v", tt.e, err, tt.kind)
			continue
		}
		if ne.Node != tt.node || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("error %q at node %q; want node %q and %q", err, ne.Node, tt.node, tt.message)
		}
	}
}

// gpu is a leaf on a GPU, to test device checks through products.
type gpu struct{}

func (gpu) Shape() shape.Shape   { return shape.Shape{3, 3} }
func (gpu) At(...int) float64    { return 0 }
func (gpu) Device() alloc.Device { return alloc.CUDA(0) }

// TestGeometry checks the exported shape rules evaluators share.
func TestGeometry(t *testing.T) {
	g, err := expr.ProductShape(shape.Shape{7, 1, 2, 3}, shape.Shape{5, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	want := expr.ProductGeometry{Batch: shape.Shape{7, 5}, M: 2, K: 3, N: 4, Result: shape.Shape{7, 5, 2, 4}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("ProductShape (-want +got):\n%s", diff)
	}
	r, err := expr.ReduceShape("sum", shape.Shape{2, 3, 4}, []int{-1, 0}, false)
	if err != nil {
		t.Fatal(err)
	}
	wantR := expr.ReduceGeometry{Axes: []int{0, 2}, Reduced: []bool{true, false, true},
		Kept: shape.Shape{1, 3, 1}, Result: shape.Shape{3}, Count: 8}
	if diff := cmp.Diff(wantR, r); diff != "" {
		t.Errorf("ReduceShape (-want +got):\n%s", diff)
	}
	if r.OutputSize() != 3 {
		t.Errorf("OutputSize() = %d, want 3", r.OutputSize())
	}
}

// TestOpParts checks that the three op node kinds give their op and
// operands through Elementwise, a nil node none, and that Apply builds the
// node back and refuses a count of operands that is not the op's arity.
func TestOpParts(t *testing.T) {
	x, y, z := expr.Name("x", arange(t, 2)), expr.Name("y", arange(t, 2)), expr.Name("z", arange(t, 2))
	tests := []struct {
		n     expr.Elementwise[float64]
		print string
		args  int
	}{
		{expr.Neg(x).(expr.Elementwise[float64]), "(-x)", 1},
		{expr.Add(x, y).(expr.Elementwise[float64]), "(x + y)", 2},
		{expr.Where(x, y, z).(expr.Elementwise[float64]), "where(x, y, z)", 3},
		{(*expr.Unary[float64])(nil), "", 0},
		{(*expr.Binary[float64])(nil), "", 0},
		{(*expr.Ternary[float64])(nil), "", 0},
	}
	for _, tt := range tests {
		op, xs, k := tt.n.OpParts()
		if k != tt.args {
			t.Errorf("%s: OpParts gives %d operands, want %d", tt.print, k, tt.args)
			continue
		}
		for _, x := range xs[k:] {
			if x != nil {
				t.Errorf("%s: OpParts gives an operand past the %d", tt.print, k)
			}
		}
		if k == 0 {
			continue
		}
		if got := fmt.Sprint(expr.Apply(op, xs[:k]...)); got != tt.print {
			t.Errorf("Apply(OpParts(%s)) = %s", tt.print, got)
		}
		func() {
			defer func() {
				var ae *shape.ArgumentError
				if err, _ := recover().(error); !errors.As(err, &ae) || ae.Value != k+1 {
					t.Errorf("Apply(%v) with %d operands: recovered %v, want an ArgumentError naming %d", op, k+1, err, k+1)
				}
			}()
			expr.Apply(op, append(xs[:k:k], x)...)
		}()
	}
}
