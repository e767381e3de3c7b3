package tensor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

func TestAtSet(t *testing.T) {
	a := arange(24, 2, 3, 4)
	tests := []struct {
		index []int
		want  int64
	}{
		{[]int{0, 0, 0}, 0}, {[]int{1, 2, 3}, 23}, {[]int{-1, 0, -1}, 15}, {[]int{0, -3, 1}, 1},
	}
	for _, tt := range tests {
		if got := a.At(tt.index...); got != tt.want {
			t.Errorf("At(%v) = %d, want %d", tt.index, got, tt.want)
		}
	}
	a.Set(-7, 1, -1, 0)
	if a.At(1, 2, 0) != -7 {
		t.Errorf("Set(-7, 1, -1, 0) not seen at (1,2,0)")
	}
	err := wantPanic(t, shape.ErrIndex, func() { a.At(0, 3, 0) })
	if err.Error() != "laze: At: index 3 is out of range for dimension 1 of size 3" {
		t.Errorf("message: %v", err)
	}
	err = wantPanic(t, shape.ErrIndex, func() { a.Set(1, 0, 0, -5) })
	var ie *shape.IndexError
	if !errors.As(err, &ie) || ie.Op != "Set" || ie.Dim != 2 || ie.Index != -5 {
		t.Errorf("Set error: %#v", err)
	}
	wantPanic(t, shape.ErrDimension, func() { a.At(0, 0) })
	if s := Scalar(int8(4)); s.At() != 4 || s.Item() != 4 {
		t.Errorf("scalar At/Item")
	}
}

func TestItem(t *testing.T) {
	if got := arange(24, 2, 3, 4).Index(0, 1).Index(0, 2).Index(0, 3).Item(); got != 23 {
		t.Errorf("Item = %d, want 23", got)
	}
	if got := Full(5.0, 1, 1, 1).Item(); got != 5 {
		t.Errorf("Item of (1,1,1) = %v", got)
	}
	err := wantPanic(t, shape.ErrShape, func() { Zeros[int](2).Item() })
	if err.Error() != "laze: Item: (2,): Item needs a tensor with exactly one element" {
		t.Errorf("message: %v", err)
	}
}

func TestDataStorageAndGeometry(t *testing.T) {
	a := arange(24, 2, 3, 4)
	row := a.Index(0, 1)
	if diff := cmp.Diff([]int64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, row.Data()); diff != "" {
		t.Errorf("Data of a[1]: %s", diff)
	}
	row.Data()[0] = 100
	if a.At(1, 0, 0) != 100 {
		t.Errorf("write through Data not seen")
	}
	if len(a.Storage()) != 24 {
		t.Errorf("Storage length %d", len(a.Storage()))
	}
	err := wantPanic(t, shape.ErrNotContiguous, func() { a.T().Data() })
	var nc *shape.NotContiguousError
	if !errors.As(err, &nc) || !nc.Shape.Equal(shape.Of(4, 3, 2)) {
		t.Errorf("NotContiguousError: %#v", err)
	}
	tests := []struct {
		name       string
		t          *Tensor[int64]
		memSize    int
		contiguous bool
		ndim       int
		numel      int
	}{
		{"a", a, 24, true, 3, 24},
		{"a.T", a.T(), 24, false, 3, 24},
		{"a[:, :, ::2]", a.Slice(2, None, None, 2), 23, false, 3, 12},
		{"a[::-1]", a.Slice(0, None, None, -1), 24, false, 3, 24},
		{"a[0, 0]", a.Index(0, 0).Index(0, 0), 4, true, 1, 4},
		{"a[0,0] expanded to (5,4)", second2(a.Index(0, 0).Index(0, 0).Expand(5, 4)), 4, false, 2, 20},
		{"empty", a.Slice(1, 2, 2, 1), 0, true, 3, 0},
	}
	for _, tt := range tests {
		if got := tt.t.MemSize(); got != tt.memSize {
			t.Errorf("%s: MemSize = %d, want %d", tt.name, got, tt.memSize)
		}
		if got := tt.t.IsContiguous(); got != tt.contiguous {
			t.Errorf("%s: IsContiguous = %v", tt.name, got)
		}
		if tt.t.NDim() != tt.ndim || tt.t.Numel() != tt.numel {
			t.Errorf("%s: NDim %d Numel %d", tt.name, tt.t.NDim(), tt.t.Numel())
		}
	}
	f := New[float32](shape.Of(2, 3, 4))
	if diff := cmp.Diff([]int{48, 16, 4}, f.ByteStrides()); diff != "" {
		t.Errorf("ByteStrides: %s", diff)
	}
	if f.Dim(-1) != 4 || f.Device().String() != "cpu" {
		t.Errorf("Dim(-1) or Device")
	}
	sh := f.Shape()
	sh[0] = 99
	st := f.Strides()
	st[0] = 99
	if f.Dim(0) != 2 || f.Strides()[0] != 12 {
		t.Errorf("Shape/Strides must return copies")
	}
}

func second2[T any](v T, _ error) T { return v }

func TestFill(t *testing.T) {
	a := arange(12, 3, 4)
	a.Slice(1, None, None, 2).Fill(-1)
	want := []int64{-1, 1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11}
	if diff := cmp.Diff(want, values(a)); diff != "" {
		t.Errorf("Fill of a[:, ::2] (-want +got):\n%s", diff)
	}
	a.Index(1, 1).Fill(0)
	a.T().Index(0, 3).Fill(8) // column 3
	want = []int64{-1, 0, -1, 8, -1, 0, -1, 8, -1, 0, -1, 8}
	if diff := cmp.Diff(want, values(a)); diff != "" {
		t.Errorf("Fill of columns (-want +got):\n%s", diff)
	}
	b := Zeros[int](3)
	e, _ := b.Index(0, 1).Expand(4)
	e.Fill(6)
	if diff := cmp.Diff([]int{0, 6, 0}, values(b)); diff != "" {
		t.Errorf("Fill of a broadcast view: %s", diff)
	}
	s := Scalar(1.5)
	s.Fill(2.5)
	if s.Item() != 2.5 {
		t.Errorf("Fill scalar")
	}
}
