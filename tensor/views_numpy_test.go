package tensor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestNumPyViews checks Flip, SwapAxes, MoveAxis, ExpandDims and Diagonal
// against what NumPy gives for the same call on a = np.arange(24).reshape(2,
// 3, 4) or m = np.arange(12).reshape(3, 4).
func TestNumPyViews(t *testing.T) {
	a := arange(24, 2, 3, 4)
	m := arange(12, 3, 4)
	tests := []struct {
		name    string
		view    *Tensor[int64]
		shape   shape.Shape
		strides []int
		want    []int64
	}{
		{"np.flip(m, 0)", m.Flip(0), shape.Of(3, 4), []int{-4, 1}, []int64{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}},
		{"np.flip(m, -1)", m.Flip(-1), shape.Of(3, 4), []int{4, -1}, []int64{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
		{"np.flip(m)", m.Flip(), shape.Of(3, 4), []int{-4, -1}, []int64{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"np.flip(m, (0, 1))", m.Flip(0, 1), shape.Of(3, 4), []int{-4, -1}, []int64{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"np.swapaxes(m, 0, 1)", m.SwapAxes(0, 1), shape.Of(4, 3), []int{1, 4}, []int64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}},
		{"np.moveaxis(a, 0, -1)", a.MoveAxis([]int{0}, []int{-1}), shape.Of(3, 4, 2), []int{4, 1, 12}, nil},
		{"np.moveaxis(a, -1, 0)", a.MoveAxis([]int{-1}, []int{0}), shape.Of(4, 2, 3), []int{1, 12, 4}, nil},
		{"np.moveaxis(a, [0, 1], [-1, -2])", a.MoveAxis([]int{0, 1}, []int{-1, -2}), shape.Of(4, 3, 2), []int{1, 4, 12}, nil},
		{"np.moveaxis(a, [2, 0], [0, 1])", a.MoveAxis([]int{2, 0}, []int{0, 1}), shape.Of(4, 2, 3), []int{1, 12, 4}, nil},
		{"np.expand_dims(m, 0)", m.ExpandDims(0), shape.Of(1, 3, 4), []int{12, 4, 1}, nil},
		{"np.expand_dims(m, (0, -1))", m.ExpandDims(0, -1), shape.Of(1, 3, 4, 1), []int{12, 4, 1, 1}, nil},
		{"np.expand_dims(m, (3, 1))", m.ExpandDims(3, 1), shape.Of(3, 1, 4, 1), []int{4, 4, 1, 1}, nil},
		{"m.diagonal()", m.Diagonal(0, 0, 1), shape.Of(3), []int{5}, []int64{0, 5, 10}},
		{"m.diagonal(1)", m.Diagonal(1, 0, 1), shape.Of(3), []int{5}, []int64{1, 6, 11}},
		{"m.diagonal(2)", m.Diagonal(2, 0, 1), shape.Of(2), []int{5}, []int64{2, 7}},
		{"m.diagonal(-1)", m.Diagonal(-1, 0, 1), shape.Of(2), []int{5}, []int64{4, 9}},
		{"m.diagonal(-3)", m.Diagonal(-3, 0, 1), shape.Of(0), []int{1}, []int64{}},
		{"m.diagonal(4)", m.Diagonal(4, 0, 1), shape.Of(0), []int{1}, []int64{}},
		{"m.diagonal(0, 1, 0)", m.Diagonal(0, 1, 0), shape.Of(3), []int{5}, []int64{0, 5, 10}},
		{"m.diagonal(1, 1, 0)", m.Diagonal(1, 1, 0), shape.Of(2), []int{5}, []int64{4, 9}},
		{"a.diagonal()", a.Diagonal(0, 0, 1), shape.Of(4, 2), []int{1, 16}, []int64{0, 16, 1, 17, 2, 18, 3, 19}},
		{"a.diagonal(1, 1, 2)", a.Diagonal(1, 1, -1), shape.Of(2, 3), []int{12, 5}, []int64{1, 6, 11, 13, 18, 23}},
		{"np.flip(m)[::2].diagonal()", m.Flip().Slice(0, None, None, 2).Diagonal(0, 0, 1), shape.Of(2), []int{-9}, []int64{11, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.view
			if diff := cmp.Diff(tt.shape, got.Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.strides, got.Strides()); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, values(got)); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			}
			if !got.SharesStorage(tt.view) {
				t.Errorf("not a view")
			}
		})
	}
}

// TestNumPyViewsWriteThrough checks that the views share the storage: a
// write through a diagonal or a flipped view lands in the base tensor.
func TestNumPyViewsWriteThrough(t *testing.T) {
	m := arange(12, 3, 4)
	m.Diagonal(1, 0, 1).Set(-1, 2)
	m.Flip(0).Set(-2, 0, 0)
	if diff := cmp.Diff([]int64{0, 1, 2, 3, 4, 5, 6, 7, -2, 9, 10, -1}, values(m)); diff != "" {
		t.Errorf("base after writes (-want +got):\n%s", diff)
	}
}

// TestNumPyViewErrors checks the panics on arguments that do not fit: each
// a typed error naming the values at fault.
func TestNumPyViewErrors(t *testing.T) {
	a := arange(24, 2, 3, 4)
	tests := []struct {
		name string
		call func()
		kind error
		msg  string
	}{
		{"flip axis out of range", func() { a.Flip(3) }, shape.ErrDimension, "laze: Flip: dimension 3 is out of range for rank 3 (valid: -3 to 2)"},
		{"flip repeated", func() { a.Flip(0, -3) }, shape.ErrDimension, "laze: Flip: dimension -3: repeated (rank 3)"},
		{"moveaxis lengths", func() { a.MoveAxis([]int{0, 1}, []int{2}) }, shape.ErrInvalid,
			"laze: MoveAxis: destination = [2]: 1 positions for the 2 dimensions of source [0 1]"},
		{"moveaxis repeated source", func() { a.MoveAxis([]int{0, 0}, []int{1, 2}) }, shape.ErrDimension, ""},
		{"moveaxis destination out of range", func() { a.MoveAxis([]int{0}, []int{3}) }, shape.ErrDimension, ""},
		{"expand_dims out of range", func() { a.ExpandDims(4, 5) }, shape.ErrDimension, ""},
		{"expand_dims repeated", func() { a.ExpandDims(0, -5) }, shape.ErrDimension, ""},
		{"diagonal same axes", func() { a.Diagonal(0, 1, -2) }, shape.ErrDimension,
			"laze: Diagonal: dimension -2: axis1 (1) and axis2 (-2) are the same dimension (rank 3)"},
		{"diagonal of a vector", func() { arange(3, 3).Diagonal(0, 0, 1) }, shape.ErrDimension, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wantPanic(t, tt.kind, tt.call)
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message:\n got %s\nwant %s", err, tt.msg)
			}
			var de *shape.DimensionError
			if errors.Is(tt.kind, shape.ErrDimension) && !errors.As(err, &de) {
				t.Errorf("%T is not a *shape.DimensionError", err)
			}
		})
	}
}
