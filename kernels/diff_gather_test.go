package kernels

import (
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// gather makes a take of a random subtree along one axis by a 1-D index
// array of random in-range indices (negative ones too), the add.at of
// random values into a random subtree by such an array, or a sort of a
// random subtree along one axis (Sort, or TakeAlongAxis by its ArgSort), whose result
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
