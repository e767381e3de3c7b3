package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestContractions checks Dot, Inner, Tensordot and TensordotN against
// numpy.dot, numpy.inner and numpy.tensordot: a is contractOperand(0,
// shape a), b contractOperand(1, shape b), and the shapes and values were
// printed by NumPy 1.24 (/usr/bin/python3) for these inputs. Each result
// is evaluated and read with At.
func TestContractions(t *testing.T) {
	x := func(dims ...int) *tensor.Tensor[float64] { return contractOperand[float64](0, dims...) }
	y := func(dims ...int) *tensor.Tensor[float64] { return contractOperand[float64](1, dims...) }
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		// Printed by NumPy 1.24.
		{"dot (2,3) (3,4)", expr.Dot[float64](x(2, 3), y(3, 4)), shape.Shape{2, 4}, []float64{3, -3, -9, -1, 0, 3, 6, 2}},
		{"dot (3,) (3,)", expr.Dot[float64](x(3), y(3)), shape.Shape{}, []float64{8}},
		{"dot (2,3) (3,)", expr.Dot[float64](x(2, 3), y(3)), shape.Shape{2}, []float64{8, -1}},
		{"dot (3,) (3,4)", expr.Dot[float64](x(3), y(3, 4)), shape.Shape{4}, []float64{3, -3, -9, -1}},
		{"dot (3,) (2,3,4)", expr.Dot[float64](x(3), y(2, 3, 4)), shape.Shape{2, 4}, []float64{3, -3, -9, -1, -13, -12, 3, -3}},
		{"dot (2,2,3) (3,)", expr.Dot[float64](x(2, 2, 3), y(3)), shape.Shape{2, 2}, []float64{8, -1, -3, 2}},
		{"dot () (2,3)", expr.Dot[float64](x(), y(2, 3)), shape.Shape{2, 3}, []float64{6, 3, 0, -3, -6, -9}},
		{"dot (2,3) ()", expr.Dot[float64](x(2, 3), y()), shape.Shape{2, 3}, []float64{6, 4, 2, 0, -2, -4}},
		{"dot (2,2,3) (2,3,2)", expr.Dot[float64](x(2, 2, 3), y(2, 3, 2)), shape.Shape{2, 2, 2, 2},
			[]float64{4, -2, -11, 4, 4, 7, 1, 4, -10, -12, 13, -10, 4, 4, -3, 4}},
		{"dot (2,3) (4,3,2)", expr.Dot[float64](x(2, 3), y(4, 3, 2)), shape.Shape{2, 4, 2},
			[]float64{4, -2, -11, 4, -5, -11, -13, -5, 4, 7, 1, 4, -2, 1, 2, -2}},
		{"inner (3,) (3,)", expr.Inner[float64](x(3), y(3)), shape.Shape{}, []float64{8}},
		{"inner (2,3) (4,3)", expr.Inner[float64](x(2, 3), y(4, 3)), shape.Shape{2, 4}, []float64{8, -10, -7, -4, -1, 8, -4, 5}},
		{"inner (2,2,3) (3,)", expr.Inner[float64](x(2, 2, 3), y(3)), shape.Shape{2, 2}, []float64{8, -1, -3, 2}},
		{"inner () (3,)", expr.Inner[float64](x(), y(3)), shape.Shape{3}, []float64{6, 3, 0}},
		{"tensordot (2,3,4) (4,3,2) ([1,2],[1,0])", expr.Tensordot[float64](x(2, 3, 4), y(4, 3, 2), []int{1, 2}, []int{1, 0}),
			shape.Shape{2, 2}, []float64{-31, -1, 5, -31}},
		{"tensordot (2,3,4) (3,4,2) 2", expr.TensordotN[float64](x(2, 3, 4), y(3, 4, 2), 2), shape.Shape{2, 2}, []float64{17, 12, -31, -4}},
		{"tensordot (2,3) (4,) 0", expr.TensordotN[float64](x(2, 3), y(4), 0), shape.Shape{2, 3, 4},
			[]float64{6, 3, 0, -3, 4, 2, 0, -2, 2, 1, 0, -1, 0, 0, 0, 0, -2, -1, 0, 1, -4, -2, 0, 2}},
		{"tensordot (2,3,4) (4,3,2) ([-1],[0])", expr.Tensordot[float64](x(2, 3, 4), y(4, 3, 2), []int{-1}, []int{0}), shape.Shape{2, 3, 3, 2},
			[]float64{-5, 3, 4, -2, -8, -14, 9, -2, -20, 4, 7, 10, 2, 7, 5, -4, -6, -8, -5, -26, -5, 9, 9, 9, 9, 11, 6, -6, -4, -2, -26, -8, 3, 7, 4, 1}},
		{"tensordot (2,3) (2,3) ([0,1],[0,1])", expr.Tensordot[float64](x(2, 3), y(2, 3), []int{0, 1}, []int{0, 1}), shape.Shape{}, []float64{16}},
		{"tensordot (3,4,2) (2,3) ([2,0],[0,1])", expr.Tensordot[float64](x(3, 4, 2), y(2, 3), []int{2, 0}, []int{0, 1}), shape.Shape{4}, []float64{4, 10, -5, -13}},
		{"tensordot (2,3) (3,2) 1", expr.TensordotN[float64](x(2, 3), y(3, 2), 1), shape.Shape{2, 2}, []float64{4, -2, 4, 7}},
		// A view and an expression as operands: np.dot(a.T, b + 0), a (3,2), b (3,2).
		{"dot a.T (b+0)", expr.Dot(expr.T[float64](x(3, 2)), expr.Add[float64](y(3, 2), expr.Scalar(0.0))), shape.Shape{2, 2}, []float64{8, 5, 8, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, got, at := evalContraction(t, tt.e)
			if diff := cmp.Diff(tt.shape, s); diff != "" {
				t.Fatalf("shape (-numpy +laze):\n%s", diff)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Eval (-numpy +laze):\n%s", diff)
				}
			}
			if diff := cmp.Diff(got, at); diff != "" {
				t.Errorf("At (-Eval +At):\n%s", diff)
			}
		})
	}
}

// TestContractionLowering checks that a 2-D dot is MatMul itself and that
// Tensordot lowers to one MatMul between views.
func TestContractionLowering(t *testing.T) {
	a, b := tensor.Ones[float64](2, 3), tensor.Ones[float64](3, 4)
	if m, ok := expr.Dot[float64](a, b).(*expr.MatProduct[float64]); !ok || !isTensor(m.X, a) || !isTensor(m.Y, b) {
		t.Errorf("Dot(a, b) of matrices is not MatMul(a, b)")
	}
	c, d := tensor.Ones[float64](2, 3, 4), tensor.Ones[float64](4, 3, 5)
	got := fmt.Sprint(expr.Tensordot[float64](c, d, []int{1, 2}, []int{1, 0}))
	if want := "(tensor(2,3,4).reshape(2, 12) @ tensor(4,3,5).transpose(1, 0, 2).reshape(12, 5))"; got != want {
		t.Errorf("Tensordot: got %s, want %s", got, want)
	}
}

// TestContractionErrors checks the errors of operands that do not
// contract: NodeErrors from Check wrapping the typed error, naming the
// axes and both shapes.
func TestContractionErrors(t *testing.T) {
	a, b := tensor.Ones[float64](2, 3), tensor.Ones[float64](4, 5)
	tests := []struct {
		name string
		e    expr.Exp[float64]
		is   error
		says []string
	}{
		{"dot", expr.Dot[float64](a, b), shape.ErrShape, []string{"dot", "(2,3), (4,5)", "not aligned: 3 (dim 1) != 4 (dim 0)"}},
		{"dot vector", expr.Dot[float64](tensor.Ones[float64](3), tensor.Ones[float64](4)), shape.ErrShape, []string{"(3,), (4,)"}},
		{"inner", expr.Inner[float64](a, b), shape.ErrShape, []string{"inner", "(2,3), (4,5)", "last dimensions differ (3 and 5)"}},
		{"tensordot lengths", expr.Tensordot[float64](a, b, []int{0, 1}, []int{1}), shape.ErrInvalid,
			[]string{"axes = ((0,1), (1,))", "2 axes of the first operand (2,3) against 1 of the second (4,5)"}},
		{"tensordot sizes", expr.Tensordot[float64](a, b, []int{1}, []int{0}), shape.ErrShape,
			[]string{"(2,3), (4,5)", "axis 1 of the first has size 3, axis 0 of the second size 4"}},
		{"tensordot range", expr.Tensordot[float64](a, b, []int{2}, []int{0}), shape.ErrDimension,
			[]string{"dimension 2", "first operand, of shape (2,3)"}},
		{"tensordot twice", expr.Tensordot[float64](a, a, []int{0, -2}, []int{0, 1}), shape.ErrInvalid,
			[]string{"axis -2 of the first operand, of shape (2,3), is given twice"}},
		{"tensordot n", expr.TensordotN[float64](a, b, 3), shape.ErrInvalid, []string{"axes = 3", "(2,3) and (4,5)"}},
		{"tensordot negative n", expr.TensordotN[float64](a, b, -1), shape.ErrInvalid, []string{"axes = -1"}},
		{"nil", expr.Dot[float64](a, nil), shape.ErrInvalid, []string{"operand 1"}},
		{"operand's own error", expr.Dot(expr.Add[float64](a, b), a), shape.ErrBroadcast, []string{"(2,3) and (4,5)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Check(tt.e)
			var ne *shape.NodeError
			if err == nil || !errors.As(err, &ne) || !errors.Is(err, tt.is) {
				t.Fatalf("%v: not a NodeError wrapping %v", err, tt.is)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

// isTensor reports whether e is the tensor t itself.
func isTensor(e expr.Exp[float64], t *tensor.Tensor[float64]) bool {
	x, ok := e.(*tensor.Tensor[float64])
	return ok && x == t
}
