package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A scan (cumsum, cumprod) reads its operand materialised and contiguous
// (the operand's tree is evaluated into a temporary first, and a strided
// tensor is copied) and writes a new contiguous temporary of the same
// shape, which the rest of the tree reads as a leaf. Both are seen as
// (outer, length, inner): the scanned axis in the middle, the dimensions
// before it merged into outer and those after it into inner. A line is one
// (outer, inner) pair; it is folded first element first.
//
// On the CPU the inner dimension is the vector: for each outer index, row k
// of inner elements is combined with row k-1 by the op's loop, so every
// line advances in step and the order per line is sequential. On a GPU one
// thread folds one line (grid-stride over the lines), neighbouring threads
// reading neighbouring inner elements. Both orders give each line's sums in
// the same sequence, so CPU and GPU results agree bit for bit.

// scan evaluates a scan node into a new temporary.
func scan[T tensor.Number](ev *evaluation, n *expr.Scan[T]) (*tensor.Tensor[T], error) {
	s, err := ev.shapes.Of(n.X)
	if err != nil {
		return nil, err // unreachable after Check
	}
	axis, err := shape.Axis(n.Name(), n.Axis, len(s))
	if err != nil {
		return nil, err // unreachable after Check
	}
	src, err := materialize(ev, n.X)
	if err != nil {
		return nil, err
	}
	if !src.IsContiguous() {
		if src, err = contiguousCopy(ev, n, src); err != nil {
			return nil, err
		}
	}
	st := &scanStep[T]{n: n, def: n.Op.Def(), src: src, dst: temp[T](ev, n, s), outer: 1, length: s[axis], inner: 1}
	for d, k := range s {
		switch {
		case d < axis:
			st.outer *= k
		case d > axis:
			st.inner *= k
		}
	}
	ev.perform(st)
	return st.dst, nil
}

// contiguousCopy copies t, read by node at, into a new contiguous
// temporary, on the host or on t's device.
func contiguousCopy[T tensor.Number](ev *evaluation, at expr.Node, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	c := temp[T](ev, at, t.ShapeView(friend.K))
	return c, evaluate(ev, c, expr.Of[T](t))
}
