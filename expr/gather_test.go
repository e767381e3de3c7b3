package expr_test

import (
	"errors"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// ints returns an int64 tensor of shape dims holding vs.
func ints(t testing.TB, vs []int64, dims ...int) *tensor.Tensor[int64] {
	t.Helper()
	x, err := tensor.FromSlice(vs, shape.Shape(dims))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestGathers compares take, take_along_axis, integer-array indexing and
// add.at, read with At and evaluated, with the values NumPy 1.24 printed
// for the same calls on x = np.arange(24.).reshape(2, 3, 4).
func TestGathers(t *testing.T) {
	x := expr.Of[float64](expr.Arange[float64](0, 24, 1)).Reshape(2, 3, 4)
	checkGenerated(t, []genCase[float64]{
		{"np.take(x, [[2, 0], [-1, 1]], axis=1)", expr.Take(x, ints(t, []int64{2, 0, -1, 1}, 2, 2), 1), shape.Of(2, 2, 2, 4),
			[]float64{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23, 16, 17, 18, 19}},
		{"x[[1, 0], :, [3, -4]]", expr.IndexArrays(x, ints(t, []int64{1, 0}, 2), nil, ints(t, []int64{3, -4}, 2)), shape.Of(2, 3),
			[]float64{15, 19, 23, 0, 4, 8}},
		{"x[:, [2, 0], [1, 3]]", expr.IndexArrays(x, nil, ints(t, []int64{2, 0}, 2), ints(t, []int64{1, 3}, 2)), shape.Of(2, 2),
			[]float64{9, 3, 21, 15}},
		{"np.take_along_axis(x, idx, axis=2)", expr.TakeAlongAxis(x, ints(t, []int64{3, 0, 1, 2, 1, 1, 1, 1}, 2, 1, 4), 2), shape.Of(2, 3, 4),
			[]float64{3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 13, 13, 13, 13, 17, 17, 17, 17, 21, 21, 21, 21}},
		{"np.add.at(zeros((3, 4)), (:, [0, 2, 0]), [1, 2, 3])",
			expr.AddAt(expr.Full[float64](0, 3, 4), 1, expr.Of[float64](expr.Arange[float64](1, 4, 1)), ints(t, []int64{0, 2, 0}, 3)), shape.Of(3, 4),
			[]float64{4, 0, 2, 0, 4, 0, 2, 0, 4, 0, 2, 0}},
	})
}

// TestGatherErrors checks that an index out of range is a NodeError
// wrapping a *shape.IndexError naming the index, the axis and its size,
// and that the destination is left as it was.
func TestGatherErrors(t *testing.T) {
	x := expr.Of[float64](expr.Arange[float64](0, 12, 1)).Reshape(3, 4)
	v := tensor.Full(1.0, 5)
	tests := []struct {
		e    expr.Exp[float64]
		want shape.IndexError
	}{
		{expr.Take(x, ints(t, []int64{0, 4}, 2), 1), shape.IndexError{Op: "take", Dim: 1, Index: 4, Size: 4}},
		{expr.Take(x, ints(t, []int64{-4}, 1), 0), shape.IndexError{Op: "take", Dim: 0, Index: -4, Size: 3}},
		{expr.IndexArrays(x, nil, ints(t, []int64{1, -5}, 2)), shape.IndexError{Op: "index", Dim: 1, Index: -5, Size: 4}},
		{expr.Sum(expr.Take(x, ints(t, []int64{9}, 1), 0)), shape.IndexError{Op: "take", Dim: 0, Index: 9, Size: 3}},
		// A concatenation writes its parts into slices of dst: the part
		// holding the gather is checked before the first is written.
		{expr.Concatenate(0, x, expr.Take(x, ints(t, []int64{1, 3}, 2), 0)), shape.IndexError{Op: "take", Dim: 0, Index: 3, Size: 3}},
		{expr.AddAt(x, 0, expr.Scalar(1.0), ints(t, []int64{0, 3}, 2)), shape.IndexError{Op: "add.at", Dim: 0, Index: 3, Size: 3}},
		// x[idx] of a contiguous vector (one tight loop), at the root and
		// in a tree, an index just past either end
		{expr.Take[float64](v, ints(t, []int64{4, -5, -6}, 3), 0), shape.IndexError{Op: "take", Dim: 0, Index: -6, Size: 5}},
		{expr.Take[float64](v, ints(t, []int64{-5, 4, 5}, 3), 0), shape.IndexError{Op: "take", Dim: 0, Index: 5, Size: 5}},
		{expr.Sum(expr.Take[float64](v, ints(t, []int64{0, -6}, 2), 0)), shape.IndexError{Op: "take", Dim: 0, Index: -6, Size: 5}},
		{expr.Sum(expr.Take[float64](v, ints(t, []int64{4, 5}, 2), 0)), shape.IndexError{Op: "take", Dim: 0, Index: 5, Size: 5}},
	}
	for _, tt := range tests {
		s, err := expr.Check(tt.e)
		if err != nil {
			t.Fatalf("%v: Check: %v", tt.e, err)
		}
		dst := tensor.Full(7.0, s.Shape...)
		err = kernels.Assign(dst, tt.e)
		var ie *shape.IndexError
		if !errors.As(err, &ie) || !errors.Is(err, shape.ErrIndex) || *ie != tt.want {
			t.Errorf("%v: Assign = %v, want an error wrapping %+v", tt.e, err, tt.want)
		}
		for _, v := range dst.Contiguous().Data() {
			if v != 7 {
				t.Fatalf("%v: the failed Assign wrote dst: %v", tt.e, dst)
			}
		}
	}
}

// TestAssignAllGatherErrors checks that AssignAll finds an index out of
// range in one pair before it writes any pair's destination.
func TestAssignAllGatherErrors(t *testing.T) {
	x := expr.Of[float64](expr.Arange[float64](0, 12, 1)).Reshape(3, 4)
	d1, d2 := tensor.Full(7.0, 3, 4), tensor.Full(7.0, 2, 4)
	err := kernels.AssignAll([]*tensor.Tensor[float64]{d1, d2}, []expr.Exp[float64]{x.AddScalar(1), expr.Take(x, ints(t, []int64{0, -9}, 2), 0)})
	if !errors.Is(err, shape.ErrIndex) {
		t.Fatalf("AssignAll = %v, want an IndexError", err)
	}
	for _, d := range []*tensor.Tensor[float64]{d1, d2} {
		for _, v := range d.Contiguous().Data() {
			if v != 7 {
				t.Fatalf("the failed AssignAll wrote a destination: %v", d)
			}
		}
	}
}
