package expr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// deviceLeaf is an Exp that claims to live on a GPU, to test device checks
// without one.
type deviceLeaf struct {
	dims shape.Shape
	dev  alloc.Device
}

func (d deviceLeaf) Shape() shape.Shape   { return d.dims }
func (d deviceLeaf) At(...int) float64    { return 0 }
func (d deviceLeaf) Device() alloc.Device { return d.dev }

func TestString(t *testing.T) {
	a := expr.Name[float64]("a", tensor.Zeros[float64](2, 3))
	b := expr.Name[float64]("b", tensor.Zeros[float64](3))
	x := tensor.Zeros[float64](4, 1)
	tests := []struct {
		e    expr.Node
		want string
	}{
		{expr.Add[float64](expr.Mul[float64](a, b), expr.Scalar(2.0)), "((a * b) + 2)"},
		{expr.Of[float64](a).Mul(b).AddScalar(2), "((a * b) + 2)"},
		{expr.Div[float64](expr.Scalar(2.0), a), "(2 / a)"},
		{expr.Of[float64](a).RSub(1), "(1 - a)"},
		{expr.Neg[float64](a), "(-a)"},
		{expr.Exponential[float64](x), "exp(tensor(4,1))"},
		{expr.Of[float64](x).Tanh().Sigmoid(), "sigmoid(tanh(tensor(4,1)))"},
		{expr.Maximum[float64](a, expr.Scalar(0.5)), "maximum(a, 0.5)"},
		{expr.Where[float64](expr.Gt[float64](a, b), a, expr.Scalar(-1.0)), "where((a > b), a, -1)"},
		{expr.Clamp[float64](a, expr.Scalar(0.0), expr.Scalar(1.0)), "clip(a, 0, 1)"},
		{expr.Of[float64](a).ClampScalar(0, 1), "clip(a, 0, 1)"},
		{expr.Pow[float64](a, expr.Scalar(1e-7)), "(a ** 1e-07)"},
		{expr.Mod[int32](tensor.Zeros[int32](2), expr.Scalar[int32](-3)), "(tensor(2,) % -3)"},
		{expr.Scalar[uint8](200), "200"},
		{expr.Scalar[float32](0.1), "0.1"},
		{&expr.Binary[float64]{Op: ops.Invalid, X: a, Y: b}, "op(0)(a, b)"},
		{&expr.Unary[float64]{Op: ops.Sqrt}, "sqrt(<nil>)"},
	}
	for _, tt := range tests {
		if got := tt.e.(interface{ String() string }).String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestCheckShapes(t *testing.T) {
	a := tensor.Zeros[float64](2, 3)
	b := tensor.Zeros[float64](3)
	c := tensor.Zeros[float64](4, 1, 1)
	tests := []struct {
		e    expr.Exp[float64]
		want shape.Shape
	}{
		{a, shape.Shape{2, 3}},
		{expr.Add[float64](a, b), shape.Shape{2, 3}},
		{expr.Mul[float64](b, c), shape.Shape{4, 1, 3}},
		{expr.Where[float64](c, a, expr.Scalar(1.0)), shape.Shape{4, 2, 3}},
		{expr.Scalar(1.0), shape.Shape{}},
		{expr.Of[float64](a).Exp(), shape.Shape{2, 3}},
	}
	for _, tt := range tests {
		info, err := expr.Check(tt.e)
		if err != nil {
			t.Fatalf("Check(%v): %v", tt.e, err)
		}
		if diff := cmp.Diff(tt.want, info.Shape); diff != "" {
			t.Errorf("Check(%v) shape (-want +got):\n%s", tt.e, diff)
		}
		if diff := cmp.Diff(tt.want, tt.e.Shape()); diff != "" {
			t.Errorf("%v.Shape() (-want +got):\n%s", tt.e, diff)
		}
		if info.Device != alloc.CPU {
			t.Errorf("Check(%v) device %v", tt.e, info.Device)
		}
	}
}

func TestCheckErrorsNameTheNode(t *testing.T) {
	a := expr.Name[float64]("a", tensor.Zeros[float64](2, 3))
	b := expr.Name[float64]("b", tensor.Zeros[float64](4))
	gpu := deviceLeaf{dims: shape.Shape{2, 3}, dev: alloc.CUDA(0)}
	ints := tensor.Zeros[int64](3)
	tests := []struct {
		name   string
		check  func() error
		kind   error
		node   string
		inside error // the error type errors.As must find
	}{
		{"broadcast", func() error {
			_, err := expr.Check[float64](expr.Exponential[float64](expr.Add[float64](a, b)))
			return err
		}, shape.ErrBroadcast, "(a + b)", &shape.BroadcastError{}},
		{"dtype", func() error {
			_, err := expr.Check[int64](expr.Of[int64](ints).Sqrt())
			return err
		}, shape.ErrDType, "sqrt(tensor(3,))", &shape.DTypeError{}},
		{"arity", func() error {
			_, err := expr.Check[float64](&expr.Binary[float64]{Op: ops.Neg, X: a, Y: a})
			return err
		}, shape.ErrInvalid, "(a - a)", &shape.ArgumentError{}},
		{"missing operand", func() error {
			_, err := expr.Check[float64](&expr.Binary[float64]{Op: ops.Add, X: a})
			return err
		}, shape.ErrInvalid, "(a + <nil>)", &shape.ArgumentError{}},
		{"device", func() error {
			_, err := expr.Check[float64](expr.Mul[float64](expr.Scalar(2.0), expr.Add[float64](a, gpu)))
			return err
		}, shape.ErrDevice, "(a + tensor(2,3))", &shape.DeviceError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check()
			if !errors.Is(err, tt.kind) {
				t.Fatalf("error %v is not %v", err, tt.kind)
			}
			var ne *shape.NodeError
			if !errors.As(err, &ne) || ne.Node != tt.node || ne.Op != "Check" {
				t.Fatalf("error %v: want a NodeError at %s from Check", err, tt.node)
			}
			target := tt.inside
			switch target.(type) {
			case *shape.BroadcastError:
				var be *shape.BroadcastError
				if !errors.As(err, &be) || be.Op != "add" || len(be.Shapes) != 2 {
					t.Errorf("BroadcastError = %+v", be)
				}
			case *shape.DTypeError:
				var de *shape.DTypeError
				if !errors.As(err, &de) || de.DType != "int64" || de.Op != "sqrt" {
					t.Errorf("DTypeError = %+v", de)
				}
			case *shape.DeviceError:
				var de *shape.DeviceError
				if !errors.As(err, &de) || len(de.Devices) != 2 || de.Devices[1].String() != "cuda:0" {
					t.Errorf("DeviceError = %+v", de)
				}
			}
		})
	}
}

func TestBroadcastErrorMessage(t *testing.T) {
	_, err := expr.Check[float64](expr.Add[float64](tensor.Zeros[float64](2, 3), tensor.Zeros[float64](4)))
	want := "laze: Check: at node (tensor(2,3) + tensor(4,)): add: shapes (2,3) and (4,) cannot be broadcast together (sizes disagree in result dimension 1)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

func TestShapePanicsOnBadTree(t *testing.T) {
	e := expr.Add[float64](tensor.Zeros[float64](2), tensor.Zeros[float64](3))
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, shape.ErrBroadcast) {
			t.Errorf("Shape() panicked with %v, want a broadcast error", err)
		}
	}()
	e.Shape()
}

func TestAt(t *testing.T) {
	a := tensor.Arange[float64](0, 6, 1)
	m, _ := a.View(2, 3)
	row := tensor.Arange[float64](10, 13, 1)
	col, _ := tensor.Arange[float64](1, 3, 1).View(2, 1)
	e := expr.Where[float64](expr.Gt[float64](m, expr.Scalar(2.0)), expr.Add[float64](m, row), expr.Mul[float64](col, expr.Scalar(-1.0)))
	// m = [[0 1 2] [3 4 5]], row = [10 11 12], col = [[1] [2]]
	want := [][]float64{{-1, -1, -1}, {13, 15, 17}}
	for i := range 2 {
		for j := range 3 {
			if got := e.At(i, j); got != want[i][j] {
				t.Errorf("At(%d, %d) = %v, want %v", i, j, got, want[i][j])
			}
		}
	}
	if got := expr.Of[float64](m).Neg().At(1, 2); got != -5 {
		t.Errorf("neg At = %v", got)
	}
	if got := expr.Name[float64]("m", m).At(0, 1); got != 1 {
		t.Errorf("named At = %v", got)
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, shape.ErrDimension) {
			t.Errorf("At with a wrong index count panicked with %v", err)
		}
	}()
	e.At(1)
}

func TestWalk(t *testing.T) {
	a := expr.Name[float64]("a", tensor.Zeros[float64](2))
	b := expr.Name[float64]("b", tensor.Zeros[float64](2))
	e := expr.Of[float64](a).Mul(b).Add(expr.Neg[float64](a))
	var visited []string
	expr.Walk(e, func(n expr.Node, depth int) bool {
		label := "tensor"
		if s, ok := n.(interface{ String() string }); ok && depth < 3 {
			label = s.String()
		}
		visited = append(visited, strings.Repeat(" ", depth)+label)
		return true
	})
	// A Named node's operand is the tensor it names.
	want := []string{"((a * b) + (-a))", " (a * b)", "  a", "   tensor", "  b", "   tensor", " (-a)", "  a", "   tensor"}
	if diff := cmp.Diff(want, visited); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
	count := 0
	expr.Walk(e, func(n expr.Node, depth int) bool {
		count++
		return depth == 0 // skip below the root's operands
	})
	if count != 3 {
		t.Errorf("Walk visited %d nodes when told to stop at depth 1, want 3", count)
	}
}
