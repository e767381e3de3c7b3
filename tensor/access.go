package tensor

import (
	"github.com/laze-go/laze/shape"
)

// At returns the element at the given index, one int per dimension; a
// negative index counts from the end of its dimension. It panics with an
// IndexError (naming the dimension, the index and the size) when an index is
// out of range, and with a DimensionError when the number of indices differs
// from the rank.
func (t *Tensor[T]) At(index ...int) T {
	return t.elems()[t.offset+t.offsetOf("At", index)]
}

// Set stores v at the given index, with At's rules.
func (t *Tensor[T]) Set(v T, index ...int) {
	t.elems()[t.offset+t.offsetOf("Set", index)] = v
}

func (t *Tensor[T]) offsetOf(op string, index []int) int {
	off, err := shape.Offset(t.shape, t.strides, index)
	if err != nil {
		panic(renameOp(err, op))
	}
	return off
}

// Item returns the only element of a one-element tensor of any rank. It
// panics with a ShapeError otherwise.
func (t *Tensor[T]) Item() T {
	if t.Numel() != 1 {
		panic(&shape.ShapeError{Op: "Item", Shapes: []shape.Shape{t.Shape()},
			Reason: "Item needs a tensor with exactly one element"})
	}
	return t.elems()[t.offset]
}

// Fill sets every element to v, through whatever strides the tensor has. On
// a broadcast view (stride 0) the shared elements are simply written again.
func (t *Tensor[T]) Fill(v T) {
	data := t.elems()
	forEachRun(t.shape, t.strides, t.offset, func(off, n, stride int) bool {
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

// renameOp sets the operation name of an error built by a lower layer, so
// that the message names the call the user made.
func renameOp(err error, op string) error {
	switch e := err.(type) {
	case *shape.IndexError:
		e.Op = op
	case *shape.DimensionError:
		e.Op = op
	case *shape.BroadcastError:
		e.Op = op
	}
	return err
}
