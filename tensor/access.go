package tensor

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/shape"
)

// At returns the element at the given index, one int per dimension; a
// negative index counts from the end of its dimension. It panics with an
// IndexError (naming the dimension, the index and the size) when an index is
// out of range, and with a DimensionError when the number of indices differs
// from the rank.
func (t *Tensor[T]) At(index ...int) T {
	t.geometry("At")
	return t.elems()[t.offset+t.offsetOf("At", index)]
}

// Set stores v at the given index, with At's rules.
func (t *Tensor[T]) Set(v T, index ...int) {
	t.geometry("Set")
	t.elems()[t.offset+t.offsetOf("Set", index)] = v
}

func (t *Tensor[T]) offsetOf(op string, index []int) int {
	off, err := shape.Offset(t.shape, t.strides, index)
	if err != nil {
		panic(shape.Rename(err, op))
	}
	return off
}

// Item returns the only element of a one-element tensor of any rank. It
// panics with a ShapeError otherwise.
func (t *Tensor[T]) Item() T {
	t.geometry("Item")
	if t.Numel() != 1 {
		panic(&shape.ShapeError{Op: "Item", Shapes: []shape.Shape{t.Shape()},
			Reason: "Item needs a tensor with exactly one element"})
	}
	return t.elems()[t.offset]
}

// Fill sets every element to v, through whatever strides the tensor has. On
// a broadcast view (stride 0) the shared elements are simply written again.
func (t *Tensor[T]) Fill(v T) {
	t.geometry("Fill")
	data := t.elems()
	shape.ForEachRun(t.shape, t.strides, t.offset, func(off, n, stride int) bool {
		if stride == 1 {
			fillSlice(data[off:off+n], v)
			return true
		}
		for i := range n {
			data[off+i*stride] = v
		}
		return true
	})
}

// geometry returns t's shape. It is where a nil *Tensor is caught: the
// accessors and views call it first, so a nil tensor panics with an
// ArgumentError naming op rather than a nil dereference.
func (t *Tensor[T]) geometry(op string) shape.Shape {
	if t == nil {
		panic(nilTensor[T](op, "tensor"))
	}
	return t.shape
}

// mustNotBeNil panics with an ArgumentError naming op and the parameter when
// the tensor passed as name is nil.
func mustNotBeNil[T Number](op, name string, t *Tensor[T]) {
	if t == nil {
		panic(nilTensor[T](op, name))
	}
}

// nilTensor is the error for a nil *Tensor passed to op as name.
func nilTensor[T Number](op, name string) error {
	return &shape.ArgumentError{Op: op, Name: name, Value: fmt.Sprintf("(*tensor.Tensor[%s])(nil)", DTypeOf[T]().String()),
		Reason: "the tensor is nil"}
}

// allocError is the error newStorage panics with when the allocator refuses
// nbytes for a tensor of shape s: a MemoryError or OverflowError naming op,
// the shape and the dtype. An allocator's own error that is not one of laze's
// (a device's out-of-memory) is wrapped in a MemoryError; laze's other kinds
// (a DeviceError) pass unchanged.
func allocError[T Number](op string, s shape.Shape, nbytes int, err error) error {
	var me *shape.MemoryError
	var oe *shape.OverflowError
	switch {
	case errors.As(err, &me):
		return &shape.MemoryError{Op: op, Bytes: int64(nbytes), Limit: me.Limit, Reason: me.Reason,
			Shape: s.Clone(), DType: DTypeOf[T]().String(), Err: me.Err}
	case errors.As(err, &oe):
		return &shape.OverflowError{Op: op, Shape: s.Clone(), What: "byte count", DType: DTypeOf[T]().String()}
	}
	if isLaze(err) {
		return err
	}
	return &shape.MemoryError{Op: op, Bytes: int64(nbytes), Reason: err.Error(), Shape: s.Clone(), DType: DTypeOf[T]().String(), Err: err}
}
