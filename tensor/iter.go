package tensor

import (
	"iter"

	"github.com/laze-go/laze/shape"
)

// All iterates over the elements in logical row-major order (the last index
// varies fastest), yielding each element's index and value, whatever the
// strides. The index slice is reused from one step to the next: copy it to
// keep it.
//
//	for idx, v := range t.All() { … }
func (t *Tensor[T]) All() iter.Seq2[[]int, T] {
	return func(yield func([]int, T) bool) {
		t.walkIndexed(true, yield)
	}
}

// Backward iterates as All does, from the last element to the first.
func (t *Tensor[T]) Backward() iter.Seq2[[]int, T] {
	return func(yield func([]int, T) bool) {
		t.walkIndexed(false, yield)
	}
}

// Values iterates over the element values in logical row-major order. It
// walks coalesced runs of memory, so it is faster than All.
func (t *Tensor[T]) Values() iter.Seq[T] {
	return func(yield func(T) bool) {
		data := t.elems()
		shape.ForEachRun(t.shape, t.strides, t.offset, func(off, n, stride int) bool {
			for i := range n {
				if !yield(data[off+i*stride]) {
					return false
				}
			}
			return true
		})
	}
}

// walkIndexed runs an odometer over t's shape, forwards or backwards.
func (t *Tensor[T]) walkIndexed(forward bool, yield func([]int, T) bool) {
	data := t.elems()
	var o shape.Odometer
	if forward {
		o.Reset(t.shape)
	} else {
		o.ResetReverse(t.shape)
	}
	off := t.offset + o.Offset(t.strides)
	for !o.Done() {
		if !yield(o.Index(), data[off]) {
			return
		}
		off += o.Step(t.strides, o.Next())
	}
}
