package kernels

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// seq returns a tensor of shape dims holding 1, 2, 3… scaled by step,
// alternating in sign, so products of different layouts differ.
func seq[T tensor.Number](dims ...int) *tensor.Tensor[T] {
	n := 1
	for _, d := range dims {
		n *= d
	}
	data := make([]T, n)
	for i := range data {
		v := T(i%7 + 1)
		if i%3 == 1 {
			v = 0 - v
		}
		data[i] = v
	}
	t, err := tensor.FromSlice(data, shape.Shape(dims))
	if err != nil {
		panic(err)
	}
	return t
}

// productCases are operands of every kind the product takes: NumPy's
// promotion of 1-D operands, batches that broadcast, transposed operands
// (no copy), stepped ones (copied), and empty dimensions.
func productCases[T tensor.Number]() []struct {
	name string
	a, b *tensor.Tensor[T]
	want shape.Shape
} {
	stepped := seq[T](6, 8).Slice(0, 0, tensor.None, 2).Slice(1, 1, tensor.None, 2) // (3,4) with steps in both
	return []struct {
		name string
		a, b *tensor.Tensor[T]
		want shape.Shape
	}{
		{"matrix", seq[T](2, 3), seq[T](3, 4), shape.Shape{2, 4}},
		{"vector.vector", seq[T](5), seq[T](5), shape.Shape{}},
		{"vector.matrix", seq[T](3), seq[T](3, 4), shape.Shape{4}},
		{"matrix.vector", seq[T](2, 3), seq[T](3), shape.Shape{2}},
		{"batch", seq[T](2, 3, 4), seq[T](2, 4, 5), shape.Shape{2, 3, 5}},
		{"batch broadcast", seq[T](3, 1, 2, 4), seq[T](5, 4, 3), shape.Shape{3, 5, 2, 3}},
		{"batch.vector", seq[T](2, 3, 4), seq[T](4), shape.Shape{2, 3}},
		{"a.T", seq[T](3, 2).T(), seq[T](3, 4), shape.Shape{2, 4}},
		{"b.T", seq[T](2, 3), seq[T](4, 3).T(), shape.Shape{2, 4}},
		{"both.T", seq[T](3, 2).T(), seq[T](4, 3).T(), shape.Shape{2, 4}},
		{"stepped", stepped, seq[T](4, 2), shape.Shape{3, 2}},
		{"negative steps", seq[T](3, 4).Slice(0, tensor.None, tensor.None, -1), seq[T](4, 3).Slice(1, tensor.None, tensor.None, -1), shape.Shape{3, 3}},
		{"broadcast operand", mustBroadcast(seq[T](1, 3), 4, 3), seq[T](3, 2), shape.Shape{4, 2}},
		{"k=0", seq[T](2, 0), seq[T](0, 3), shape.Shape{2, 3}},
		{"m=0", seq[T](0, 3), seq[T](3, 2), shape.Shape{0, 2}},
		{"one by one", seq[T](1, 1), seq[T](1, 1), shape.Shape{1, 1}},
		{"row times column", seq[T](1, 300), seq[T](300, 1), shape.Shape{1, 1}},
		{"large", seq[T](70, 130), seq[T](130, 90), shape.Shape{70, 90}},
	}
}

func mustBroadcast[T tensor.Number](x *tensor.Tensor[T], dims ...int) *tensor.Tensor[T] {
	v, err := x.Expand(dims...)
	if err != nil {
		panic(err)
	}
	return v
}

// checkProduct evaluates a @ b into a zeroed destination of each layout
// (contiguous, column-major, strided) and compares with the definition.
func checkProduct[T tensor.Number](t *testing.T, a, b *tensor.Tensor[T], want shape.Shape) {
	t.Helper()
	e := expr.MatMul[T](a, b)
	info, err := expr.Check[T](e)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Shape.Equal(want) {
		t.Fatalf("shape %v, want %v", info.Shape, want)
	}
	oracle := refEval[T](e, want)
	for _, dst := range destinations[T](want) {
		if err := Assign(dst, e); err != nil {
			t.Fatal(err)
		}
		if got := values(dst); !slices.EqualFunc(oracle, got, closeEnough[T]) {
			t.Errorf("dst strides %v:\n%s", dst.Strides(), cmp.Diff(oracle, got))
		}
	}
}

// destinations returns zeroed tensors of shape dims in three layouts:
// row-major, column-major in the last two dimensions, and a stepped view.
func destinations[T tensor.Number](dims shape.Shape) []*tensor.Tensor[T] {
	out := []*tensor.Tensor[T]{tensor.New[T](dims)}
	if len(dims) >= 2 {
		r := len(dims)
		swapped := slices.Clone(dims)
		swapped[r-2], swapped[r-1] = dims[r-1], dims[r-2]
		out = append(out, tensor.New[T](swapped).Transpose(r-2, r-1))
	}
	if len(dims) >= 1 {
		wide := slices.Clone(dims)
		wide[len(dims)-1] *= 2
		out = append(out, tensor.New[T](wide).Slice(len(dims)-1, 0, tensor.None, 2))
	}
	return out
}

func TestMatMul(t *testing.T) {
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			for _, c := range productCases[float64]() {
				t.Run(cfg.name+"/float64/"+c.name, func(t *testing.T) { checkProduct(t, c.a, c.b, c.want) })
			}
			for _, c := range productCases[float32]() {
				t.Run(cfg.name+"/float32/"+c.name, func(t *testing.T) { checkProduct(t, c.a, c.b, c.want) })
			}
			for _, c := range productCases[int64]() {
				t.Run(cfg.name+"/int64/"+c.name, func(t *testing.T) { checkProduct(t, c.a, c.b, c.want) })
			}
			for _, c := range productCases[int32]() {
				t.Run(cfg.name+"/int32/"+c.name, func(t *testing.T) { checkProduct(t, c.a, c.b, c.want) })
			}
		})
	}
}

// TestMatMulTemporaries checks where products go: straight into the
// destination when it is the root or when the elementwise rest can be
// computed over it, into a temporary when the destination is read by the
// tree or does not have a layout BLAS can write.
func TestMatMulTemporaries(t *testing.T) {
	a, b, bias := seq[float64](4, 3), seq[float64](3, 5), seq[float64](5)
	tests := []struct {
		name  string
		dst   *tensor.Tensor[float64]
		e     func(dst *tensor.Tensor[float64]) expr.Exp[float64]
		temps int
		first bool
	}{
		{"root", tensor.New[float64](shape.Shape{4, 5}), func(*tensor.Tensor[float64]) expr.Exp[float64] { return expr.MatMul[float64](a, b) }, 0, true},
		{"relu(a@b + bias)", tensor.New[float64](shape.Shape{4, 5}), func(*tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.ReLU(expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](bias)))
		}, 0, true},
		{"column-major dst", tensor.New[float64](shape.Shape{5, 4}).T(), func(*tensor.Tensor[float64]) expr.Exp[float64] { return expr.MatMul[float64](a, b) }, 0, true},
		{"dst read by the tree", tensor.New[float64](shape.Shape{4, 5}), func(d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](d))
		}, 1, false},
		{"stepped dst", tensor.New[float64](shape.Shape{4, 10}).Slice(1, 0, tensor.None, 2), func(*tensor.Tensor[float64]) expr.Exp[float64] { return expr.MatMul[float64](a, b) }, 1, false},
		{"operand is a tree", tensor.New[float64](shape.Shape{4, 5}), func(*tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.MatMul(expr.Of[float64](a), expr.Of(b).MulScalar(2))
		}, 1, true},
	}
	for _, tt := range tests {
		ev := newEvaluation("Assign")
		p, err := lower(ev, assignTo(tt.dst), tt.e(tt.dst), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.temps) != tt.temps || (p.first != nil) != tt.first {
			t.Errorf("%s: %d temporaries, into dst %v; want %d, %v", tt.name, len(ev.temps), p.first != nil, tt.temps, tt.first)
		}
		ev.release()
	}
}

// TestMatMulOverlappingDst checks a = a @ b and b = a @ b: the product is
// computed into a temporary before the destination is written.
func TestMatMulOverlappingDst(t *testing.T) {
	a, b := seq[int64](3, 3), seq[int64](3, 3)
	want := refEval[int64](expr.MatMul[int64](a.Clone(), b.Clone()), shape.Shape{3, 3})
	if err := Assign(a, expr.MatMul[int64](a, b)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, values(a)); diff != "" {
		t.Errorf("a = a @ b (-want +got):\n%s", diff)
	}
	c := seq[float64](3, 3)
	wantT := refEval[float64](expr.MatMul[float64](c.Clone().T(), c.Clone()), shape.Shape{3, 3})
	if err := Assign(c, expr.MatMul[float64](c.T(), c)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantT, values(c)); diff != "" {
		t.Errorf("c = c.T @ c (-want +got):\n%s", diff)
	}
}

func TestMatMulErrors(t *testing.T) {
	tests := []struct {
		name    string
		a, b    *tensor.Tensor[float64]
		kind    error
		message string
	}{
		{"inner mismatch", seq[float64](2, 3), seq[float64](4, 5), shape.ErrShape, "(2,3) @ (4,5): the inner dimensions differ (3 and 4)"},
		{"vector mismatch", seq[float64](3), seq[float64](4), shape.ErrShape, "(3,) @ (4,)"},
		{"batch mismatch", seq[float64](2, 2, 3), seq[float64](3, 3, 4), shape.ErrBroadcast, "(2,) and (3,) cannot be broadcast"},
		{"scalar operand", tensor.Scalar(2.0), seq[float64](2, 2), shape.ErrInvalid, "a scalar has no dimension to multiply"},
	}
	for _, tt := range tests {
		dst := seq[float64](2, 2)
		before := values(dst)
		err := Assign(dst, expr.MatMul[float64](tt.a, tt.b))
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("%s: error %v; want %v containing %q", tt.name, err, tt.kind, tt.message)
		}
		var ne *shape.NodeError
		if !errors.As(err, &ne) || !strings.Contains(ne.Node, "@") {
			t.Errorf("%s: error %v does not name the product node", tt.name, err)
		}
		if diff := cmp.Diff(before, values(dst)); diff != "" {
			t.Errorf("%s: dst changed:\n%s", tt.name, diff)
		}
	}
}

// TestMatMulNaN pins the BLAS rule docs/design.md states: a zero in one
// operand may hide a NaN in the other for float types.
func TestMatMulNaN(t *testing.T) {
	a := mustFrom(t, []float64{math.NaN(), 1}, 1, 2)
	b := mustFrom(t, []float64{1, 2}, 2, 1)
	got, err := Eval(expr.MatMul[float64](a, b))
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(got.Item()) {
		t.Errorf("NaN in the row times nonzero column = %v, want NaN", got.Item())
	}
}
