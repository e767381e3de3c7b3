package tensor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

func TestCopyFrom(t *testing.T) {
	tests := []struct {
		name string
		base func() *Tensor[int64]
		dst  func(base *Tensor[int64]) *Tensor[int64] // nil: the base itself
		src  func(base *Tensor[int64]) *Tensor[int64]
		want []int64 // the whole base tensor after the copy
	}{
		{"same shape", func() *Tensor[int64] { return Zeros[int64](2, 3) },
			nil,
			func(*Tensor[int64]) *Tensor[int64] { return arange(6, 2, 3) }, []int64{0, 1, 2, 3, 4, 5}},
		{"broadcast row", func() *Tensor[int64] { return Zeros[int64](2, 3) },
			nil,
			func(*Tensor[int64]) *Tensor[int64] { return arange(3, 3) }, []int64{0, 1, 2, 0, 1, 2}},
		{"broadcast column", func() *Tensor[int64] { return Zeros[int64](2, 3) },
			nil,
			func(*Tensor[int64]) *Tensor[int64] { return arange(2, 2, 1) }, []int64{0, 0, 0, 1, 1, 1}},
		{"transposed source", func() *Tensor[int64] { return Zeros[int64](3, 2) },
			nil,
			func(*Tensor[int64]) *Tensor[int64] { return arange(6, 2, 3).T() }, []int64{0, 3, 1, 4, 2, 5}},
		// NumPy: a = arange(6); a[1:] = a[:-1] gives [0 0 1 2 3 4].
		{"overlap shift right", func() *Tensor[int64] { return arange(6, 6) },
			func(d *Tensor[int64]) *Tensor[int64] { return d.Slice(0, 1, None, 1) },
			func(d *Tensor[int64]) *Tensor[int64] { return d.Slice(0, None, -1, 1) }, []int64{0, 0, 1, 2, 3, 4}},
		// a[:-1] = a[1:] gives [1 2 3 4 5 5].
		{"overlap shift left", func() *Tensor[int64] { return arange(6, 6) },
			func(d *Tensor[int64]) *Tensor[int64] { return d.Slice(0, None, -1, 1) },
			func(d *Tensor[int64]) *Tensor[int64] { return d.Slice(0, 1, None, 1) }, []int64{1, 2, 3, 4, 5, 5}},
		// a = arange(4).reshape(2,2); a[...] = a.T gives [[0 2] [1 3]].
		{"overlap transpose", func() *Tensor[int64] { return arange(4, 2, 2) },
			nil,
			func(d *Tensor[int64]) *Tensor[int64] { return d.T() }, []int64{0, 2, 1, 3}},
		// a = arange(5); a[...] = a[::-1].
		{"overlap reverse", func() *Tensor[int64] { return arange(5, 5) },
			nil,
			func(d *Tensor[int64]) *Tensor[int64] { return d.Slice(0, None, None, -1) }, []int64{4, 3, 2, 1, 0}},
		{"same view", func() *Tensor[int64] { return arange(4, 4) },
			nil,
			func(d *Tensor[int64]) *Tensor[int64] { return d }, []int64{0, 1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base()
			dst := base
			if tt.dst != nil {
				dst = tt.dst(base)
			}
			if err := dst.CopyFrom(tt.src(base)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, values(base)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCopyFromErrorsLeaveDst(t *testing.T) {
	dst := arange(6, 2, 3)
	err := dst.CopyFrom(arange(4, 4))
	var be *shape.BroadcastError
	if !errors.As(err, &be) || !errors.Is(err, shape.ErrShape) {
		t.Fatalf("CopyFrom (4,) into (2,3): %v", err)
	}
	if want := "laze: CopyFrom: shapes (4,) and (2,3) cannot be broadcast together (sizes disagree in result dimension 1)"; err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
	if err := dst.CopyFrom(arange(12, 2, 2, 3)); !errors.Is(err, shape.ErrBroadcast) {
		t.Errorf("dst never broadcasts: %v", err)
	}
	if diff := cmp.Diff([]int64{0, 1, 2, 3, 4, 5}, values(dst)); diff != "" {
		t.Errorf("a failed CopyFrom changed dst: %s", diff)
	}
}

func TestCloneAndContiguous(t *testing.T) {
	a := arange(6, 2, 3)
	c := a.T().Clone()
	if !c.IsContiguous() || c.SharesStorage(a) {
		t.Fatal("Clone must give contiguous, separate storage")
	}
	if diff := cmp.Diff([]int64{0, 3, 1, 4, 2, 5}, c.Data()); diff != "" {
		t.Errorf("Clone of a.T: %s", diff)
	}
	c.Set(100, 0, 0)
	if a.At(0, 0) != 0 {
		t.Errorf("Clone shares memory")
	}
}

func TestResize(t *testing.T) {
	a := arange(12, 3, 4)
	view := a.Index(0, 1)
	a.Resize(2, 2) // fits: keeps storage
	if !a.SharesStorage(view) {
		t.Fatal("Resize to fewer elements must keep the storage")
	}
	if diff := cmp.Diff([]int64{0, 1, 2, 3}, values(a)); diff != "" {
		t.Errorf("Resize(2,2) values: %s", diff)
	}
	if diff := cmp.Diff(shape.Of(4), view.Shape()); diff != "" {
		t.Errorf("Resize changed another view: %s", diff)
	}
	a.Resize(5, 5) // does not fit: new zeroed storage
	if a.SharesStorage(view) || a.Numel() != 25 || a.At(4, 4) != 0 || a.At(0, 1) != 0 {
		t.Errorf("Resize(5,5) must reallocate zeroed storage")
	}
	if diff := cmp.Diff([]int64{4, 5, 6, 7}, values(view)); diff != "" {
		t.Errorf("old view lost its data: %s", diff)
	}
	r := arange(24, 24).Slice(0, 20, None, 1) // offset 20, 4 elements remain
	r.Resize(2, 2)
	if r.At(1, 1) != 23 {
		t.Errorf("Resize keeps the offset: %d", r.At(1, 1))
	}
	r.Resize(2, 3) // 20+6 > 24
	if r.Offset() != 0 || r.At(1, 2) != 0 {
		t.Errorf("Resize past the storage end must reallocate")
	}
	big := Zeros[int](2)
	big.Resize(2, 2, 2, 2, 2, 2)
	if diff := cmp.Diff([]int{32, 16, 8, 4, 2, 1}, big.Strides()); diff != "" {
		t.Errorf("Resize to rank 6: %s", diff)
	}
	wantPanic(t, shape.ErrInvalid, func() { big.Resize(-1) })
}
