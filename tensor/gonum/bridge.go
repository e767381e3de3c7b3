package gonum

import (
	"fmt"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// FromDense returns m's elements as a 2-D tensor over m's own storage: shape
// (rows, cols), strides (m's row stride, 1). A view of a larger matrix
// (m.Slice) keeps its row stride. An empty matrix gives shape (0, 0). A nil
// m panics with an ArgumentError, as a nil tensor does.
func FromDense(m *mat.Dense) *tensor.Tensor[float64] {
	if m == nil {
		panic(&shape.ArgumentError{Op: "gonum.FromDense", Name: "m", Value: "(*mat.Dense)(nil)", Reason: "the matrix is nil"})
	}
	raw := m.RawMatrix()
	t, err := tensor.WrapStrided(raw.Data, shape.Of(raw.Rows, raw.Cols), []int{raw.Stride, 1}, 0)
	if err != nil {
		panic(err) // unreachable: gonum's matrices keep their elements within Data
	}
	return t
}

// ToDense returns t as a *mat.Dense over t's own storage. t must be 2-D,
// non-empty, on the CPU, with unit stride along its columns and a row
// stride of at least its column count (a row-major tensor, or a view of
// one's rows and columns); a transpose or a stepped column view gives a
// NotContiguousError, which t.Contiguous() resolves with a copy. Because
// the storage is handed to gonum, it is never recycled afterwards (as with
// Tensor.Storage).
func ToDense(t *tensor.Tensor[float64]) (*mat.Dense, error) {
	const op = "gonum.ToDense"
	if t.NDim() != 2 {
		return nil, &shape.DimensionError{Op: op, Dim: t.NDim(), NDim: 2,
			Reason: fmt.Sprintf("a matrix needs a 2-D tensor, not shape %v", t.Shape())}
	}
	if !t.Device().IsCPU() {
		return nil, &shape.DeviceError{Op: op, Devices: []fmt.Stringer{t.Device()}, Reason: "copy the tensor to the CPU first"}
	}
	rows, cols := t.Dim(0), t.Dim(1)
	if rows == 0 || cols == 0 {
		return nil, &shape.ShapeError{Op: op, Shapes: []shape.Shape{t.Shape()}, Reason: "gonum has no empty matrices"}
	}
	rs, cs := t.Strides()[0], t.Strides()[1]
	if rows == 1 {
		rs = cols // a single row's stride is never used
	}
	if cols == 1 {
		cs = 1
	}
	if cs != 1 || rs < cols {
		return nil, &shape.NotContiguousError{Op: op, Shape: t.Shape(), Strides: t.Strides(),
			Reason: "a *mat.Dense needs unit column stride and a row stride of at least the column count; call Contiguous() for a copy"}
	}
	off := t.Offset()
	data := t.Storage()[off : off+(rows-1)*rs+cols]
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: rows, Cols: cols, Stride: rs, Data: data})
	return &m, nil
}
