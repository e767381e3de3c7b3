package tensor

import (
	"fmt"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
)

// Elems returns the tensor's whole storage, without the pinning that Data
// and Storage do, for laze's own evaluators. Its argument's type is internal
// to laze, so code outside the module cannot call it. It panics with a
// ReleaseError when the storage was released.
// For a device tensor it returns nil: see Mem.
func (t *Tensor[T]) Elems(friend.Key) []T {
	t.live()
	return t.st.data
}

// Mem returns the block holding a tensor's storage, or nil for a tensor
// made by Wrap or an empty host tensor; device evaluators take the address
// of element (0, 0, …) from it: Mem().Ptr() + Offset()·ItemSize. See Elems
// for the key. It panics with a ReleaseError when the storage was released.
func (t *Tensor[T]) Mem(friend.Key) *alloc.Allocation {
	t.live()
	return t.st.mem
}

// Empty returns a tensor of shape s whose elements are unspecified (NumPy's
// empty): a block reused from the allocator keeps its old contents. It is for
// results that are about to be overwritten, such as an evaluator's output; it
// takes New's options and panics as New does.
func Empty[T Number](s shape.Shape, opts ...Option) *Tensor[T] {
	return empty[T]("Empty", s, configure(opts))
}

// StridesView returns the tensor's strides without copying them, for laze's
// own evaluators, which must not modify them. See Elems for the key.
func (t *Tensor[T]) StridesView(friend.Key) []int { return t.strides }

// ShapeView returns the tensor's shape without copying it, for laze's own
// evaluators, which must not modify it. See Elems for the key.
func (t *Tensor[T]) ShapeView(friend.Key) shape.Shape { return t.shape }

// Region returns the memory the tensor addresses, for laze's overlap rule
// (shape.MayOverlap, shape.Coincide). See Elems for the key.
func (t *Tensor[T]) Region(friend.Key) shape.Region { return t.region() }

// Strided returns a view of t's storage at offset with shape s and strides
// (setGeometry copies them), for the evaluator's host copies of device
// tensors, which keep the device tensor's strides. The caller keeps every
// element it reaches inside the storage. See Elems for the key.
func (t *Tensor[T]) Strided(_ friend.Key, offset int, s shape.Shape, strides []int) *Tensor[T] {
	return t.view(offset, s, strides)
}

// Hold marks the tensor's storage as in use by an evaluation named op until
// Drop is called on the result, so that a Release from another goroutine in
// the meantime gives the block back only after Drop. It panics with a
// ReleaseError when the storage was already released. See Elems for the key.
func (t *Tensor[T]) Hold(_ friend.Key, op string) interface{ Drop() } {
	return t.st.hold(op, t.shape)
}

// IndexSpace returns a row-major tensor of shape s with no elements behind
// it: its geometry (offset, shape, strides) numbers each index by its
// row-major position, and the view methods that never copy (T, Slice,
// View, Expand, Diagonal…) give the positions each view reads. Package
// expr's generators (Arange, Eye…) are such a tensor and a formula of the
// position; nothing may read or write its elements. See Elems for the
// key. It returns the error a constructor would panic with when s is not
// a valid shape for T.
func IndexSpace[T Number](_ friend.Key, s shape.Shape) (*Tensor[T], error) {
	for i, n := range s {
		if n < 0 {
			return nil, &shape.ArgumentError{Op: "IndexSpace", Name: fmt.Sprintf("shape[%d]", i), Value: n,
				Reason: "a dimension size must not be negative"}
		}
	}
	if _, err := validShape[T]("IndexSpace", s); err != nil {
		return nil, err
	}
	t := header(&storage[T]{device: alloc.CPU}, 0, len(s))
	t.setGeometry(s, shape.ContiguousStrides(s, shape.RowMajor))
	return t, nil
}
