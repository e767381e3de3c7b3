package tensor

import "iter"

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
		forEachRun(t.shape, t.strides, t.offset, func(off, n, stride int) bool {
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
	n := len(t.shape)
	if t.Numel() == 0 {
		return
	}
	idx := make([]int, n)
	off := t.offset
	if !forward {
		for d := range n {
			idx[d] = t.shape[d] - 1
			off += idx[d] * t.strides[d]
		}
	}
	for {
		if !yield(idx, data[off]) {
			return
		}
		d := n - 1
		for ; d >= 0; d-- {
			if forward && idx[d] < t.shape[d]-1 {
				idx[d]++
				off += t.strides[d]
				break
			}
			if !forward && idx[d] > 0 {
				idx[d]--
				off -= t.strides[d]
				break
			}
			// Wrap this digit and carry into the next one out.
			wrapTo := 0
			if !forward {
				wrapTo = t.shape[d] - 1
			}
			off += (wrapTo - idx[d]) * t.strides[d]
			idx[d] = wrapTo
		}
		if d < 0 {
			return
		}
	}
}
