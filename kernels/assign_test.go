package kernels

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

func mustFrom[T tensor.Number](t testing.TB, data []T, dims ...int) *tensor.Tensor[T] {
	t.Helper()
	x, err := tensor.FromSlice(data, dims)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func values[T tensor.Number](x *tensor.Tensor[T]) []T { return slices.Collect(x.Values()) }

// TestLazy checks that nothing is computed before Assign: an input changed
// after the tree is built is seen.
func TestLazy(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3}, 3)
	e := expr.Of(a).MulScalar(10)
	a.Set(5, 1)
	got, err := Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{10, 50, 30}, values(got)); diff != "" {
		t.Errorf("Eval after the input changed (-want +got):\n%s", diff)
	}
}

// TestAssignIntoViews writes into a transpose, a stepped slice and a column
// of another tensor.
func TestAssignIntoViews(t *testing.T) {
	m := tensor.Zeros[int32](3, 4)
	col := m.Index(1, 2) // column 2, shape (3,)
	if err := Assign(col, expr.Of(tensor.Arange[int32](1, 4, 1)).MulScalar(100)); err != nil {
		t.Fatal(err)
	}
	stepped := m.Slice(1, 0, tensor.None, 3) // columns 0 and 3
	if err := Assign(stepped, expr.Scalar[int32](7)); err != nil {
		t.Fatal(err)
	}
	want := []int32{7, 0, 100, 7, 7, 0, 200, 7, 7, 0, 300, 7}
	if diff := cmp.Diff(want, values(m)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	tr := tensor.Zeros[int32](4, 3)
	if err := Assign(tr.T(), expr.Add[int32](m, expr.Scalar[int32](1))); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 4 {
			if tr.At(j, i) != m.At(i, j)+1 {
				t.Fatalf("tr[%d,%d] = %d, want %d", j, i, tr.At(j, i), m.At(i, j)+1)
			}
		}
	}
}

func TestCompoundAssignAndFill(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	row := mustFrom(t, []float64{1, 10, 100}, 3)
	steps := []struct {
		name string
		do   func() error
		want []float64
	}{
		{"AddAssign", func() error { return AddAssign(a, row) }, []float64{2, 12, 103, 5, 15, 106}},
		{"SubAssign", func() error { return SubAssign(a, expr.Scalar(2.0)) }, []float64{0, 10, 101, 3, 13, 104}},
		{"MulAssign", func() error { return MulAssign(a, row) }, []float64{0, 100, 10100, 3, 130, 10400}},
		{"DivAssign", func() error { return DivAssign(a, expr.Scalar(4.0)) }, []float64{0, 25, 2525, 0.75, 32.5, 2600}},
		{"Fill", func() error { return Fill(a.Index(0, 1), -1) }, []float64{0, 25, 2525, -1, -1, -1}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if diff := cmp.Diff(s.want, values(a)); diff != "" {
			t.Fatalf("after %s (-want +got):\n%s", s.name, diff)
		}
	}
}

func TestEvalScalarAndEmpty(t *testing.T) {
	s, err := Eval(expr.Of(tensor.Scalar(3.0)).MulScalar(2))
	if err != nil || s.NDim() != 0 || s.Item() != 6 {
		t.Errorf("Eval of a scalar tree = %v, %v", s, err)
	}
	e, err := Eval(expr.Of(tensor.Zeros[float64](2, 0, 3)).Exp())
	if err != nil || !e.Shape().Equal(shape.Shape{2, 0, 3}) {
		t.Errorf("Eval of an empty tree = %v, %v", e, err)
	}
	c, err := Eval[int64](expr.Scalar[int64](9))
	if err != nil || c.Item() != 9 {
		t.Errorf("Eval of a constant = %v, %v", c, err)
	}
}

// userLeaf is an Exp that kernels cannot evaluate.
type userLeaf struct{}

func (userLeaf) Shape() shape.Shape { return shape.Shape{3} }
func (userLeaf) At(...int) float64  { return 1 }

// gpuLeaf is an Exp that claims to live on a GPU.
type gpuLeaf struct{ userLeaf }

func (gpuLeaf) Device() alloc.Device { return alloc.CUDA(0) }

// TestErrorsLeaveDstUnchanged checks every way Assign can fail: the error's
// kind and contents, and that the destination keeps its values.
func TestErrorsLeaveDstUnchanged(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	tests := []struct {
		name string
		dst  *tensor.Tensor[float64]
		e    expr.Exp[float64]
		kind error
		text string
	}{
		{"result shape", a, tensor.Zeros[float64](3, 2), shape.ErrShape,
			"laze: Assign: (2,3), (3,2): the destination's shape must equal the expression's (the destination does not broadcast)"},
		{"dst would broadcast", a, tensor.Zeros[float64](4, 2, 3), shape.ErrShape, "(2,3), (4,2,3)"},
		{"operands", a, expr.Add[float64](tensor.Zeros[float64](2, 3), expr.Exponential[float64](expr.Mul[float64](a, tensor.Zeros[float64](2)))),
			shape.ErrBroadcast, "at node (tensor(2,3) * tensor(2,))"},
		{"device", a, expr.Add[float64](a.Index(0, 0), gpuLeaf{}), shape.ErrDevice, "cpu and cuda:0"},
		{"backend", tensor.Zeros[float64](3), expr.Mul[float64](gpuLeaf{}, expr.Scalar(2.0)), shape.ErrDevice, "cpu and cuda:0"},
		{"unknown node", a.Index(0, 0), userLeaf{}, shape.ErrInvalid, "kernels.userLeaf"},
		{"broadcast dst", mustExpand(t, a.Index(0, 1), 3, 3), tensor.Zeros[float64](3, 3), shape.ErrInvalid, "dimension 0 is broadcast"},
		{"nil expression", a, nil, shape.ErrInvalid, "both the destination and the expression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := values(a)
			err := Assign(tt.dst, tt.e)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("error %v is not %v", err, tt.kind)
			}
			if err == nil || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not contain %q", err, tt.text)
			}
			if diff := cmp.Diff(before, values(a)); diff != "" {
				t.Errorf("a failed Assign changed the destination (-before +after):\n%s", diff)
			}
		})
	}
}

func mustExpand(t *testing.T, x *tensor.Tensor[float64], dims ...int) *tensor.Tensor[float64] {
	t.Helper()
	v, err := x.Expand(dims...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestErrorNamesCall(t *testing.T) {
	a := tensor.Zeros[float64](2)
	err := AddAssign(a, tensor.Zeros[float64](3))
	var ne *shape.NodeError
	if !errors.As(err, &ne) || ne.Op != "AddAssign" {
		t.Errorf("AddAssign error = %v, want a NodeError from AddAssign", err)
	}
	_, err = Eval(expr.Add[float64](a, tensor.Zeros[float64](3)))
	if !errors.As(err, &ne) || ne.Op != "Eval" {
		t.Errorf("Eval error = %v, want a NodeError from Eval", err)
	}
	_, err = Eval[float64](expr.Neg[float64](gpuLeaf{}))
	if !errors.Is(err, shape.ErrDevice) {
		t.Errorf("Eval on a GPU leaf: %v", err)
	}
}

// TestFloatOnlyOpOnIntegers is the run-time check for trees built without
// the compile-time one (the fluent form, node literals).
func TestFloatOnlyOpOnIntegers(t *testing.T) {
	x := tensor.Arange[int64](0, 4, 1)
	before := values(x)
	err := Assign(x, expr.Of(x).Log())
	var de *shape.DTypeError
	if !errors.As(err, &de) || de.DType != "int64" || de.Op != "log" {
		t.Errorf("error = %v, want a DTypeError for log on int64", err)
	}
	if diff := cmp.Diff(before, values(x)); diff != "" {
		t.Errorf("destination changed:\n%s", diff)
	}
}
