package tensor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestViews checks each view against the result NumPy gives for the same
// expression on a = np.arange(24).reshape(2,3,4) (or the named base).
func TestViews(t *testing.T) {
	a := arange(24, 2, 3, 4)
	m := arange(6, 2, 3)
	v := arange(10, 10)
	must := func(t *Tensor[int64], err error) *Tensor[int64] {
		if err != nil {
			panic(err)
		}
		return t
	}
	tests := []struct {
		name    string
		view    *Tensor[int64]
		shape   shape.Shape
		strides []int
		offset  int
		want    []int64
	}{
		{"m.T", m.T(), shape.Of(3, 2), []int{1, 3}, 0, []int64{0, 3, 1, 4, 2, 5}},
		{"a.T", a.T(), shape.Of(4, 3, 2), []int{1, 4, 12}, 0, nil},
		{"v.T", v.T(), shape.Of(10), []int{1}, 0, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"a.transpose(0,2)", a.Transpose(0, -1), shape.Of(4, 3, 2), []int{1, 4, 12}, 0, nil},
		{"a.transpose(2,0,1)", a.Permute(2, 0, 1), shape.Of(4, 2, 3), []int{1, 12, 4}, 0, nil},
		{"a[1]", a.Index(0, 1), shape.Of(3, 4), []int{4, 1}, 12, []int64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{"a[:, -1]", a.Index(1, -1), shape.Of(2, 4), []int{12, 1}, 8, []int64{8, 9, 10, 11, 20, 21, 22, 23}},
		{"a[..., 2]", a.Index(-1, 2), shape.Of(2, 3), []int{12, 4}, 2, []int64{2, 6, 10, 14, 18, 22}},
		{"v[1:8:3]", v.Slice(0, 1, 8, 3), shape.Of(3), []int{3}, 1, []int64{1, 4, 7}},
		{"v[::-1]", v.Slice(0, None, None, -1), shape.Of(10), []int{-1}, 9, []int64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"v[-2:]", v.Slice(0, -2, None, 1), shape.Of(2), []int{1}, 8, []int64{8, 9}},
		{"v[7:2:-2]", v.Slice(0, 7, 2, -2), shape.Of(3), []int{-2}, 7, []int64{7, 5, 3}},
		{"v[:-12:-1] clamps", v.Slice(0, None, -12, -1), shape.Of(10), []int{-1}, 9, []int64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"v[100:]", v.Slice(0, 100, None, 1), shape.Of(0), []int{1}, 0, []int64{}},
		{"v[-100:3]", v.Slice(0, -100, 3, 1), shape.Of(3), []int{1}, 0, []int64{0, 1, 2}},
		{"v[5:5]", v.Slice(0, 5, 5, 1), shape.Of(0), []int{1}, 0, []int64{}},
		{"m[:, ::2]", m.Slice(1, None, None, 2), shape.Of(2, 2), []int{3, 2}, 0, []int64{0, 2, 3, 5}},
		{"m[::-1, ::-1]", m.Slice(0, None, None, -1).Slice(1, None, None, -1), shape.Of(2, 3), []int{-3, -1}, 5, []int64{5, 4, 3, 2, 1, 0}},
		{"narrow(v,0,2,3)", v.Narrow(0, 2, 3), shape.Of(3), []int{1}, 2, []int64{2, 3, 4}},
		{"narrow(v,0,-3,3)", v.Narrow(0, -3, 3), shape.Of(3), []int{1}, 7, []int64{7, 8, 9}},
		{"m.view(3,2)", must(m.View(3, 2)), shape.Of(3, 2), []int{2, 1}, 0, []int64{0, 1, 2, 3, 4, 5}},
		{"m.view(-1)", must(m.View(-1)), shape.Of(6), []int{1}, 0, []int64{0, 1, 2, 3, 4, 5}},
		{"a.view(2,-1,2)", must(a.View(2, -1, 2)), shape.Of(2, 6, 2), []int{12, 2, 1}, 0, nil},
		{"a[:, :, ::2].view(6, 2) splits a strided tensor", must(a.Slice(2, None, None, 2).View(6, 2)), shape.Of(6, 2), []int{4, 2}, 0,
			[]int64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
		{"a.transpose(1,2).view(2,12) fails, reshape copies", must(a.Transpose(1, 2).Reshape(2, 12)), shape.Of(2, 12), []int{12, 1}, 0,
			[]int64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23}},
		{"m.reshape(3,-1) views", must(m.Reshape(3, -1)), shape.Of(3, 2), []int{2, 1}, 0, []int64{0, 1, 2, 3, 4, 5}},
		{"m.T.flatten", m.T().Flatten(), shape.Of(6), []int{1}, 0, []int64{0, 3, 1, 4, 2, 5}},
		{"flat_to_2d", must(a.FlatTo2D()), shape.Of(6, 4), []int{4, 1}, 0, nil},
		{"flat_to_1d", must(a.FlatTo1D()), shape.Of(24), []int{1}, 0, nil},
		{"expand (3,)→(2,3)", must(arange(3, 3).Expand(2, 3)), shape.Of(2, 3), []int{0, 1}, 0, []int64{0, 1, 2, 0, 1, 2}},
		{"expand (3,1)→(3,4) with -1", must(arange(3, 3, 1).Expand(-1, 4)), shape.Of(3, 4), []int{1, 0}, 0,
			[]int64{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}},
		{"broadcast_to", must(arange(2, 2, 1).BroadcastTo(shape.Of(2, 2, 3))), shape.Of(2, 2, 3), []int{0, 1, 0}, 0,
			[]int64{0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1}},
		{"squeeze", arange(6, 1, 2, 1, 3).Squeeze(), shape.Of(2, 3), []int{3, 1}, 0, []int64{0, 1, 2, 3, 4, 5}},
		{"squeeze(2)", arange(6, 1, 2, 1, 3).Squeeze(2), shape.Of(1, 2, 3), []int{6, 3, 1}, 0, nil},
		{"squeeze(1) of size 2 keeps it", arange(6, 1, 2, 1, 3).Squeeze(1), shape.Of(1, 2, 1, 3), []int{6, 3, 3, 1}, 0, nil},
		{"unsqueeze(0)", m.Unsqueeze(0), shape.Of(1, 2, 3), []int{6, 3, 1}, 0, nil},
		{"unsqueeze(-1)", m.Unsqueeze(-1), shape.Of(2, 3, 1), []int{3, 1, 1}, 0, nil},
		{"unsqueeze(1)", m.Unsqueeze(1), shape.Of(2, 1, 3), []int{3, 3, 1}, 0, nil},
		{"index to scalar", v.Index(0, 4), shape.Of(), []int{}, 4, []int64{4}},
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
			if got.Offset() != tt.offset {
				t.Errorf("offset = %d, want %d", got.Offset(), tt.offset)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, values(got)); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestViewsShareStorage(t *testing.T) {
	a := arange(12, 3, 4)
	col := a.Index(1, 2)
	col.Set(-5, 1)
	if a.At(1, 2) != -5 {
		t.Errorf("write through a column view not seen: %v", a.At(1, 2))
	}
	tr := a.T()
	tr.Set(99, 3, 0)
	if a.At(0, 3) != 99 || !tr.SharesStorage(a) {
		t.Errorf("write through transpose not seen")
	}
	r, _ := a.T().Reshape(12)
	if r.SharesStorage(a) {
		t.Errorf("Reshape of a transpose must copy")
	}
	r2, _ := a.Reshape(2, 6)
	if !r2.SharesStorage(a) {
		t.Errorf("Reshape of a contiguous tensor must view")
	}
	if c := a.Contiguous(); c != a {
		t.Errorf("Contiguous of a contiguous tensor must be itself")
	}
	if c := tr.Contiguous(); c.SharesStorage(a) || !c.IsContiguous() {
		t.Errorf("Contiguous of a transpose must copy")
	}
}

func TestViewErrors(t *testing.T) {
	a := arange(24, 2, 3, 4)
	tests := []struct {
		name string
		err  error
		kind error
		msg  string
	}{
		{"view count", second(a.View(5, 5)), shape.ErrShape,
			"laze: View: (2,3,4), (5,5): element counts differ (24 vs 25)"},
		{"view two -1", second(a.View(-1, -1)), shape.ErrInvalid,
			"laze: View: dims[1] = -1: sizes must be non-negative, with at most one -1 to infer"},
		{"view -1 not divisible", second(a.View(-1, 5)), shape.ErrShape,
			"laze: View: (2,3,4), (-1,5): the -1 dimension cannot be inferred: the other sizes do not divide the element count"},
		{"view of transpose", second(a.Transpose(1, 2).View(24)), shape.ErrNotContiguous,
			"laze: View: tensor of shape (2,4,3) and strides (12,1,4) is not contiguous: its strides do not allow shape (24,) without a copy; use Reshape"},
		{"reshape count", second(a.Reshape(7)), shape.ErrShape, ""},
		{"expand non-1", second(a.Expand(2, 5, 4)), shape.ErrBroadcast,
			"laze: Expand: shapes (2,3,4) and (2,5,4) cannot be broadcast together (sizes disagree in result dimension 1)"},
		{"expand fewer dims", second(a.Expand(3, 4)), shape.ErrBroadcast, ""},
		{"expand -1 on new dim", second(a.Expand(-1, 2, 3, 4)), shape.ErrInvalid, ""},
		{"expand -2", second(a.Expand(2, 3, -2)), shape.ErrInvalid, ""},
		{"broadcast negative", second(a.BroadcastTo(shape.Shape{2, -3, 4})), shape.ErrInvalid, ""},
		{"broadcast_to smaller", second(a.BroadcastTo(shape.Of(3, 4))), shape.ErrBroadcast,
			"laze: BroadcastTo: shapes (2,3,4) and (3,4) cannot be broadcast together (sizes disagree in result dimension 0)"},
		{"flat to 2d of transpose", second(a.Transpose(0, 2).FlatTo2D()), shape.ErrNotContiguous, ""},
		{"view overflow", second(a.View(1<<30, 1<<30, 1<<30, 0)), shape.ErrOverflow, ""},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.kind) {
			t.Errorf("%s: err = %v, want %v", tt.name, tt.err, tt.kind)
			continue
		}
		if tt.msg != "" && tt.err.Error() != tt.msg {
			t.Errorf("%s: message\n got %s\nwant %s", tt.name, tt.err, tt.msg)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestViewPanics(t *testing.T) {
	a := arange(24, 2, 3, 4)
	err := wantPanic(t, shape.ErrDimension, func() { a.Transpose(0, 3) })
	if err.Error() != "laze: Transpose: dimension 3 is out of range for rank 3 (valid: -3 to 2)" {
		t.Errorf("message: %v", err)
	}
	wantPanic(t, shape.ErrDimension, func() { a.Permute(0, 1) })
	wantPanic(t, shape.ErrDimension, func() { a.Permute(0, 1, 1) })
	wantPanic(t, shape.ErrDimension, func() { a.Permute(0, 1, 5) })
	err = wantPanic(t, shape.ErrIndex, func() { a.Index(1, 3) })
	var ie *shape.IndexError
	if !errors.As(err, &ie) || ie.Dim != 1 || ie.Index != 3 || ie.Size != 3 || ie.Op != "Index" {
		t.Errorf("Index error: %#v", err)
	}
	wantPanic(t, shape.ErrIndex, func() { a.Index(0, -3) })
	wantPanic(t, shape.ErrDimension, func() { a.Index(3, 0) })
	wantPanic(t, shape.ErrInvalid, func() { a.Slice(0, 0, 1, 0) })
	wantPanic(t, shape.ErrDimension, func() { a.Slice(-4, 0, 1, 1) })
	wantPanic(t, shape.ErrIndex, func() { a.Narrow(2, 2, 3) })
	wantPanic(t, shape.ErrIndex, func() { a.Narrow(2, 5, 0) })
	wantPanic(t, shape.ErrIndex, func() { a.Narrow(2, 0, -1) })
	wantPanic(t, shape.ErrDimension, func() { a.Squeeze(3) })
	wantPanic(t, shape.ErrDimension, func() { a.Unsqueeze(4) })
	wantPanic(t, shape.ErrDimension, func() { a.Unsqueeze(-5) })
	// Rank above the inline limit still works.
	big := arange(64, 2, 2, 2, 2, 2, 2)
	p := big.Permute(5, 4, 3, 2, 1, 0)
	if p.At(1, 0, 0, 0, 0, 0) != 1 || p.At(0, 0, 0, 0, 0, 1) != 32 {
		t.Errorf("rank-6 permute: %v %v", p.At(1, 0, 0, 0, 0, 0), p.At(0, 0, 0, 0, 0, 1))
	}
	wide := arange(1<<17, make17()...)
	wide.Permute(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
	wantPanic(t, shape.ErrDimension, func() { wide.Permute(0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) })
}

func make17() []int {
	d := make([]int, 17)
	for i := range d {
		d[i] = 2
	}
	return d
}

func TestSliceIndices(t *testing.T) {
	// Python: len(range(10)[start:end:step]) and its first element.
	tests := []struct{ start, end, step, first, count int }{
		{None, None, 1, 0, 10},
		{None, None, -1, 9, 10},
		{2, None, 3, 2, 3},
		{-3, None, 1, 7, 3},
		{None, -3, -1, 9, 2},
		{20, None, -1, 9, 10},
		{-20, 20, 4, 0, 3},
		{3, 3, 1, 3, 0},
		{5, 2, 1, 5, 0},
		{2, 5, -1, 2, 0},
	}
	for _, tt := range tests {
		first, count := SliceIndices(10, tt.start, tt.end, tt.step)
		if count != tt.count || (count > 0 && first != tt.first) {
			t.Errorf("SliceIndices(10, %d, %d, %d) = %d, %d; want %d, %d", tt.start, tt.end, tt.step, first, count, tt.first, tt.count)
		}
	}
}
