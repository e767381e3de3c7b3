package kernels

import (
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// gather makes a take of a random subtree along one axis by a 1-D index
// array of random in-range indices (negative ones too), the add.at of
// random values into a random subtree by such an array, a sort of a
// random subtree along one axis (Sort, or TakeAlongAxis by its ArgSort),
// or a median or quantile along one axis (a partial sort), whose result
// broadcasts to dims (is dims when full); nil for a scalar result. The
// gathered operand is now and then the destination's own memory, which
// the gather must read before the destination is written.
func (sc *scene[T]) gather(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	out := dims
	if !full {
		out = ownShape(src, dims)
	}
	if n, _ := out.Size(); len(out) == 0 || n > maxOperand {
		return nil
	}
	d := src.next(len(out))
	axis := d
	if src.next(2) == 0 {
		axis -= len(out)
	}
	size := 1 + src.next(4) // the indexed axis's size in the operand
	if out[d] == 0 {
		size = src.next(3)
	}
	in := slices.Clone(out)
	in[d] = size
	idx := make([]int64, out[d])
	for i := range idx {
		idx[i] = int64(src.next(2*size) - size)
	}
	ix, err := tensor.FromSlice(idx, shape.Shape{out[d]})
	if err != nil {
		panic(err)
	}
	sc.nested++
	defer func() { sc.nested-- }()
	if tensor.IsFloat[T]() && src.next(6) == 0 { // a median or quantile (a partial sort) along the axis, broadcast back
		in[d] = max(size, 1)
		x := sc.node(src, in, depth-1, true) // in's shape: the axis must be there
		q := []float64{0, 0.25, 0.5, 0.9, 1}[src.next(5)]
		return expr.BroadcastTo(selectionOf(x, q, axis), out...)
	}
	if src.next(4) == 0 { // a sort, or the same through argsort and take_along_axis
		x := sc.node(src, out, depth-1, true)
		if src.next(2) == 0 {
			return expr.Sort(x, axis)
		}
		return expr.TakeAlongAxis(x, expr.ArgSort(x, axis), axis)
	}
	if src.next(3) == 0 && out[d] > 0 { // add.at: the base has out's shape, the values in's
		for i := range idx[:min(size, len(idx))] {
			idx[i] = int64(src.next(2*out[d]) - out[d])
		}
		ix, err := tensor.FromSlice(idx[:min(size, len(idx))], shape.Shape{min(size, len(idx))})
		if err != nil {
			panic(err)
		}
		in[d] = ix.Numel()
		base := sc.node(src, out, depth-1, true)
		values := sc.node(src, in, depth-1, false)
		return expr.AddAt(base, axis, values, ix)
	}
	x := sc.node(src, in, depth-1, true)
	if src.next(4) == 0 && fits(sc.dst.Shape(), in, true) {
		x = sc.dst
	}
	return expr.Take(x, ix, axis)
}

// selectionOf is Median of x along axis for q = 0.5, else Quantile(q), the
// axis kept; x's element type is a float.
func selectionOf[T tensor.Number](x expr.Exp[T], q float64, axis int) expr.Exp[T] {
	switch v := any(x).(type) {
	case expr.Exp[float64]:
		return any(selectionFloat(v, q, axis)).(expr.Exp[T])
	case expr.Exp[float32]:
		return any(selectionFloat(v, q, axis)).(expr.Exp[T])
	}
	panic("selectionOf: not a float")
}

func selectionFloat[T tensor.Float](x expr.Exp[T], q float64, axis int) expr.Exp[T] {
	if q == 0.5 {
		return expr.Median(x, axis, true)
	}
	return expr.Quantile(x, q, axis, true)
}
