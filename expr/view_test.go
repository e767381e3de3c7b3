package expr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// viewCases pairs each view of an expression with the same view of a tensor
// holding the expression's value: the node's shape, its elements (At, by
// index mapping) and its errors must be the tensor method's.
type viewCase struct {
	name   string
	node   func(x expr.Exp[float64]) expr.Exp[float64]
	tensor func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error)
	print  string
}

func viewCases() []viewCase {
	ok := func(f func(t *tensor.Tensor[float64]) *tensor.Tensor[float64]) func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) {
		return func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return f(t), nil }
	}
	return []viewCase{
		{"T", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).T() },
			ok((*tensor.Tensor[float64]).T), "(x + 1).T"},
		{"Transpose(0, -1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Transpose(x, 0, -1) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Transpose(0, -1) }), "(x + 1).swapaxes(0, -1)"},
		{"Permute(1, 2, 0)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Permute(1, 2, 0) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Permute(1, 2, 0) }), "(x + 1).transpose(1, 2, 0)"},
		{"Reshape(4, -1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Reshape(4, -1) },
			func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return t.Reshape(4, -1) }, "(x + 1).reshape(4, -1)"},
		{"Slice(2, None, None, -2)", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.Of(x).Slice(2, tensor.None, tensor.None, -2)
		}, ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] {
			return t.Slice(2, tensor.None, tensor.None, -2)
		}),
			"(x + 1)[:, :, ::-2]"},
		{"Slice(-2, 1, 5, 1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x, -2, 1, 5, 1) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Slice(-2, 1, 5, 1) }), "(x + 1)[..., 1:5, :]"},
		{"Index(1, -1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Index(1, -1) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Index(1, -1) }), "(x + 1)[:, -1]"},
		{"Expand(3, 2, -1, 4)", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.Of(x).Unsqueeze(2).Expand(2, 3, 5, -1).Index(2, 4).Unsqueeze(0).Expand(3, 2, -1, 4)
		}, func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) {
			e, err := t.Unsqueeze(2).Expand(2, 3, 5, -1)
			if err != nil {
				return nil, err
			}
			return e.Index(2, 4).Unsqueeze(0).Expand(3, 2, -1, 4)
		}, "(x + 1).unsqueeze(2).expand(2, 3, 5, -1)[:, :, 4].unsqueeze(0).expand(3, 2, -1, 4)"},
		{"Squeeze()", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Unsqueeze(-1).Unsqueeze(0).Squeeze() },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Unsqueeze(-1).Unsqueeze(0).Squeeze() }),
			"(x + 1).unsqueeze(-1).unsqueeze(0).squeeze()"},
		{"Squeeze(0, 1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Squeeze(expr.Unsqueeze(x, 0), 0, 1) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Unsqueeze(0).Squeeze(0, 1) }),
			"(x + 1).unsqueeze(0).squeeze(0, 1)"},
		{"Flip()", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Flip() },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Flip() }), "(x + 1).flip()"},
		{"Flip(-1)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Flip(x, -1) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Flip(-1) }), "(x + 1)[..., ::-1]"},
		{"Flip(0, 2)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Flip(x, 0, 2) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Flip(0, 2) }), "(x + 1).flip(0, 2)"},
		{"SwapAxes(2, 0)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).SwapAxes(2, 0) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.SwapAxes(2, 0) }), "(x + 1).swapaxes(2, 0)"},
		{"MoveAxis([0], [-1])", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).MoveAxis([]int{0}, []int{-1}) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.MoveAxis([]int{0}, []int{-1}) }),
			"(x + 1).moveaxis((0), (-1))"},
		{"MoveAxis([2, 0], [0, 1])", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.MoveAxis(x, []int{2, 0}, []int{0, 1}) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.MoveAxis([]int{2, 0}, []int{0, 1}) }),
			"(x + 1).moveaxis((2, 0), (0, 1))"},
		{"ExpandDims(0, -1, 2)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).ExpandDims(0, -1, 2) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.ExpandDims(0, -1, 2) }),
			"(x + 1).expand_dims(0, -1, 2)"},
		{"Diagonal(1, 1, 2)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).Diagonal(1, 1, 2) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Diagonal(1, 1, 2) }),
			"(x + 1).diagonal(1, 1, 2)"},
		{"Diagonal(-1, -1, 0)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x, -1, -1, 0) },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.Diagonal(-1, -1, 0) }),
			"(x + 1).diagonal(-1, -1, 0)"},
		{"BroadcastTo(5, 2, 3, 4)", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).BroadcastTo(5, 2, 3, 4) },
			func(t *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) {
				return t.BroadcastTo(shape.Of(5, 2, 3, 4))
			},
			"(x + 1).broadcast_to((5, 2, 3, 4))"},
		{"Ravel of a transpose", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Of(x).T().Ravel() },
			ok(func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] { return t.T().Flatten() }), "(x + 1).T.ravel()"},
	}
}

// TestViewNodes checks each view node over (x + 1), x of shape (2,3,4),
// against the tensor method applied to x + 1 computed element by element:
// the shape, every element, and the printed form.
func TestViewNodes(t *testing.T) {
	x := expr.Name("x", expr.Of[float64](arange(t, 2, 3, 4)))
	sum := expr.Of[float64](x).AddScalar(1)
	value := tensor.Empty[float64](shape.Of(2, 3, 4))
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				value.Set(sum.At(i, j, k), i, j, k)
			}
		}
	}
	for _, tt := range viewCases() {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.node(sum)
			want, err := tt.tensor(value)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(n); got != tt.print {
				t.Errorf("prints %q, want %q", got, tt.print)
			}
			if diff := cmp.Diff(want.Shape(), n.Shape()); diff != "" {
				t.Fatalf("shape (-tensor +node):\n%s", diff)
			}
			info, err := expr.Check(n)
			if err != nil || !info.Shape.Equal(want.Shape()) {
				t.Errorf("Check: %v, %v; want shape %v", info.Shape, err, want.Shape())
			}
			var got, wantValues []float64
			for idx, v := range want.All() {
				got = append(got, n.At(idx...))
				wantValues = append(wantValues, v)
			}
			if diff := cmp.Diff(wantValues, got); diff != "" {
				t.Errorf("At (-tensor +node):\n%s", diff)
			}
		})
	}
}

// TestViewNodeErrors checks that a view whose arguments do not fit its
// operand fails Check with the tensor method's error (same type, same
// message), wrapped in a NodeError naming the view, and that Shape panics
// with it.
func TestViewNodeErrors(t *testing.T) {
	x := arange(t, 2, 3)
	e := expr.Add[float64](x, x)
	catch := func(f func()) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = r.(error)
			}
		}()
		f()
		return nil
	}
	tests := []struct {
		name   string
		node   expr.Exp[float64]
		tensor func() error
		target error
	}{
		{"Transpose out of range", expr.Transpose[float64](e, 0, 2),
			func() error { return catch(func() { x.Transpose(0, 2) }) }, shape.ErrDimension},
		{"Permute repeated", expr.Permute[float64](e, 0, 0),
			func() error { return catch(func() { x.Permute(0, 0) }) }, shape.ErrDimension},
		{"Reshape count", expr.Reshape[float64](e, 4, 2),
			func() error { _, err := x.Reshape(4, 2); return err }, shape.ErrShape},
		{"Slice step 0", expr.Slice[float64](e, 0, 0, 1, 0),
			func() error { return catch(func() { x.Slice(0, 0, 1, 0) }) }, shape.ErrInvalid},
		{"Index out of range", expr.Index[float64](e, 1, 3),
			func() error { return catch(func() { x.Index(1, 3) }) }, shape.ErrIndex},
		{"Expand of a size-3 dimension", expr.Expand[float64](e, 2, 4),
			func() error { _, err := x.Expand(2, 4); return err }, shape.ErrBroadcast},
		{"Squeeze out of range", expr.Squeeze[float64](e, 5),
			func() error { return catch(func() { x.Squeeze(5) }) }, shape.ErrDimension},
		{"Unsqueeze out of range", expr.Unsqueeze[float64](e, 4),
			func() error { return catch(func() { x.Unsqueeze(4) }) }, shape.ErrDimension},
		{"Flip repeated", expr.Flip[float64](e, 1, -1),
			func() error { return catch(func() { x.Flip(1, -1) }) }, shape.ErrDimension},
		{"MoveAxis lengths differ", expr.MoveAxis[float64](e, []int{0, 1}, []int{1}),
			func() error { return catch(func() { x.MoveAxis([]int{0, 1}, []int{1}) }) }, shape.ErrInvalid},
		{"MoveAxis out of range", expr.MoveAxis[float64](e, []int{0}, []int{2}),
			func() error { return catch(func() { x.MoveAxis([]int{0}, []int{2}) }) }, shape.ErrDimension},
		{"ExpandDims out of range", expr.ExpandDims[float64](e, 3),
			func() error { return catch(func() { x.ExpandDims(3) }) }, shape.ErrDimension},
		{"Diagonal same axes", expr.Diagonal[float64](e, 0, 0, -2),
			func() error { return catch(func() { x.Diagonal(0, 0, -2) }) }, shape.ErrDimension},
		{"BroadcastTo a smaller shape", expr.BroadcastTo[float64](e, 3),
			func() error { _, err := x.BroadcastTo(shape.Of(3)); return err }, shape.ErrBroadcast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.tensor()
			if want == nil {
				t.Fatal("the tensor method gave no error")
			}
			_, err := expr.Check(tt.node)
			var ne *shape.NodeError
			if !errors.As(err, &ne) || !errors.Is(err, tt.target) {
				t.Fatalf("Check: %v, want a NodeError wrapping %v", err, tt.target)
			}
			if ne.Err.Error() != want.Error() {
				t.Errorf("Check's error %q, the tensor method's %q", ne.Err, want)
			}
			var pe *shape.NodeError
			if perr := catch(func() { tt.node.Shape() }); !errors.As(perr, &pe) || pe.Err.Error() != want.Error() {
				t.Errorf("Shape panics with %v, want a NodeError wrapping %v", perr, want)
			}
			if _, perr := expr.PushViews(tt.node); !errors.Is(perr, tt.target) {
				t.Errorf("PushViews: %v, want %v", perr, tt.target)
			}
		})
	}
}

// TestPushViews checks the rewrite: views end on the tensors as tensor
// views (no view node left), broadcast operands are expanded first, and a
// view stays above a product and above a reshape that needs a copy.
func TestPushViews(t *testing.T) {
	a := arange(t, 3, 1)
	b := arange(t, 4)
	m := arange(t, 3, 3)
	isTensor := func(e expr.Exp[float64]) bool { _, ok := e.(*tensor.Tensor[float64]); return ok }
	t.Run("(a[3,1] + b[4]).T", func(t *testing.T) {
		got, err := expr.PushViews(expr.Of[float64](a).Add(b).T())
		if err != nil {
			t.Fatal(err)
		}
		bin, ok := got.(*expr.Binary[float64])
		if !ok || !isTensor(bin.X) || !isTensor(bin.Y) {
			t.Fatalf("got %#v, want a Binary of two tensor views", got)
		}
		x, y := bin.X.(*tensor.Tensor[float64]), bin.Y.(*tensor.Tensor[float64])
		// a expanded to (3,4) (stride 0 along the columns) and transposed;
		// b expanded (stride 0 along the rows) and transposed.
		if diff := cmp.Diff([]any{shape.Of(4, 3), []int{0, 1}, shape.Of(4, 3), []int{1, 0}},
			[]any{x.Shape(), x.Strides(), y.Shape(), y.Strides()}); diff != "" {
			t.Errorf("leaves (-want +got):\n%s", diff)
		}
		if !x.SharesStorage(a) || !y.SharesStorage(b) {
			t.Error("the leaves are not views of a and b")
		}
	})
	t.Run("(m + 1).T[1:]", func(t *testing.T) {
		got, err := expr.PushViews(expr.Of[float64](m).AddScalar(1).T().Slice(0, 1, tensor.None, 1))
		if err != nil {
			t.Fatal(err)
		}
		bin := got.(*expr.Binary[float64])
		x := bin.X.(*tensor.Tensor[float64])
		if _, ok := bin.Y.(*expr.Const[float64]); !ok {
			t.Errorf("the constant became %T", bin.Y)
		}
		if diff := cmp.Diff([]any{shape.Of(2, 3), []int{1, 3}, 1}, []any{x.Shape(), x.Strides(), x.Offset()}); diff != "" {
			t.Errorf("leaf (-want +got):\n%s", diff)
		}
	})
	t.Run("(m.T + m).reshape(9): m.T needs a copy", func(t *testing.T) {
		got, err := expr.PushViews(expr.Of[float64](m.T()).Add(m).Reshape(9))
		if err != nil {
			t.Fatal(err)
		}
		bin := got.(*expr.Binary[float64])
		v, ok := bin.X.(*expr.View[float64])
		if !ok || v.Kind != expr.ViewReshape || !isTensor(v.X) {
			t.Errorf("left operand %v, want a Reshape view node over m.T", bin.X)
		}
		if y, ok := bin.Y.(*tensor.Tensor[float64]); !ok || !y.Shape().Equal(shape.Of(9)) {
			t.Errorf("right operand %v, want m as a (9) view", bin.Y)
		}
	})
	t.Run("(m @ m).T stays above the product", func(t *testing.T) {
		got, err := expr.PushViews(expr.T(expr.Of[float64](expr.MatMul[float64](m, m))))
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := got.(*expr.View[float64]); !ok || v.Kind != expr.ViewT {
			t.Errorf("got %v, want the view node over the product", got)
		}
	})
}
