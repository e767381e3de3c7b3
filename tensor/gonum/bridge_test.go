package gonum

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/mat"
)

// elements returns a matrix's elements row by row.
func elements(m mat.Matrix) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		for j := 0; j < c; j++ {
			out[i] = append(out[i], m.At(i, j))
		}
	}
	return out
}

// tensorElements returns a 2-D tensor's elements row by row.
func tensorElements(t *tensor.Tensor[float64]) [][]float64 {
	out := make([][]float64, t.Dim(0))
	for i := range out {
		for j := 0; j < t.Dim(1); j++ {
			out[i] = append(out[i], t.At(i, j))
		}
	}
	return out
}

func TestFromDenseShares(t *testing.T) {
	full := mat.NewDense(3, 4, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	tests := []struct {
		name string
		m    *mat.Dense
	}{
		{"whole", full},
		{"slice with a row stride", full.Slice(1, 3, 1, 3).(*mat.Dense)},
		{"one column", full.Slice(0, 3, 2, 3).(*mat.Dense)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := FromDense(tt.m)
			if diff := cmp.Diff(elements(tt.m), tensorElements(x)); diff != "" {
				t.Fatalf("elements (-dense +tensor):\n%s", diff)
			}
			x.Set(-1, 0, 0)
			if tt.m.At(0, 0) != -1 {
				t.Errorf("a write through the tensor did not reach the matrix")
			}
			tt.m.Set(0, 0, 42)
			if x.At(0, 0) != 42 {
				t.Errorf("a write to the matrix did not reach the tensor")
			}
		})
	}
	var empty mat.Dense
	if e := FromDense(&empty); !e.Shape().Equal(shape.Of(0, 0)) {
		t.Errorf("empty Dense gives shape %v", e.Shape())
	}
}

func TestToDenseShares(t *testing.T) {
	base, _ := tensor.Arange[float64](0, 20, 1).View(4, 5)
	tests := []struct {
		name string
		t    *tensor.Tensor[float64]
	}{
		{"row-major", base},
		{"rows and columns of a larger tensor", base.Slice(0, 1, 3, 1).Slice(1, 2, 5, 1)},
		{"every other row", base.Slice(0, tensor.None, tensor.None, 2)},
		{"one row", base.Index(0, 2).Unsqueeze(0)},
		{"one column", base.Slice(1, 3, 4, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ToDense(tt.t)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tensorElements(tt.t), elements(m)); diff != "" {
				t.Fatalf("elements (-tensor +dense):\n%s", diff)
			}
			m.Set(0, 0, -7)
			if tt.t.At(0, 0) != -7 {
				t.Errorf("a write through the matrix did not reach the tensor")
			}
		})
	}
}

func TestToDenseErrors(t *testing.T) {
	base, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	tests := []struct {
		name string
		t    *tensor.Tensor[float64]
		is   error
	}{
		{"transpose", base.T(), shape.ErrNotContiguous},
		{"stepped columns", base.Slice(1, tensor.None, tensor.None, 2), shape.ErrNotContiguous},
		{"reversed rows", base.Slice(0, tensor.None, tensor.None, -1), shape.ErrNotContiguous},
		{"1-D", tensor.Zeros[float64](3), shape.ErrDimension},
		{"3-D", tensor.Zeros[float64](1, 2, 3), shape.ErrDimension},
		{"empty", tensor.Zeros[float64](0, 3), shape.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ToDense(tt.t); !errors.Is(err, tt.is) {
				t.Errorf("ToDense = %v, want %v", err, tt.is)
			}
		})
	}
}

// TestRoundTrip checks that a matrix through a tensor and back is the same
// memory.
func TestRoundTrip(t *testing.T) {
	m := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	back, err := ToDense(FromDense(m))
	if err != nil {
		t.Fatal(err)
	}
	back.Set(1, 1, 9)
	if m.At(1, 1) != 9 {
		t.Errorf("round trip copied the matrix")
	}
}

// TestFromDenseTwiceAliases checks that two tensors made by FromDense of one
// matrix are seen as one memory: a product of one written into the other
// gives gonum's product of the original, and a transposed copy between them
// gives the transpose, not values overwritten half way.
func TestFromDenseTwiceAliases(t *testing.T) {
	const n = 40
	data := make([]float64, n*n)
	for i := range data {
		data[i] = float64(i%7) - 3
	}
	m := mat.NewDense(n, n, data)
	var want mat.Dense
	want.Mul(mat.DenseCopyOf(m), mat.DenseCopyOf(m))
	d1, d2 := FromDense(m), FromDense(m)
	if err := kernels.Assign(d1, expr.MatMul[float64](d2, d2)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(elements(&want), elements(m)); diff != "" {
		t.Errorf("d1 = d2 @ d2 (-gonum +laze):\n%s", diff)
	}
	orig := mat.DenseCopyOf(m)
	if err := d1.T().CopyFrom(d2); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(elements(orig.T()), elements(m)); diff != "" {
		t.Errorf("d1.T = d2 (-transpose +laze):\n%s", diff)
	}
}

func TestFromDenseNil(t *testing.T) {
	defer func() {
		if e, ok := recover().(error); !ok || !errors.Is(e, shape.ErrInvalid) {
			t.Errorf("FromDense(nil): panic %v, want an ArgumentError", e)
		}
	}()
	FromDense(nil)
}
