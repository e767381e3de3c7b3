package grad

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// gatherRule passes g through a gather: X's gradient is g scatter-added
// into zeros of X's shape at the positions the gather read (a position
// read twice receives both parts), PyTorch's rule for index_select, take
// and integer-array indexing. The indices, integers, have none.
func gatherRule[S tensor.Float](b *builder, n *expr.Gather[S], g contribution) {
	x := strip(n.X)
	if !b.needs[x] {
		return
	}
	xs := b.shapeOf(x)
	c := &expr.ScatterAdd[S]{Base: zeros[S](xs), Indices: n.Indices, Axis: n.Axis, Values: exact[S](g, b.shapeOf(n))}
	b.add(x, contribution{e: c, s: xs})
}

// scatterRule passes g through a scatter-add: Base's gradient is g;
// Values' is g gathered at the positions the values were added to, summed
// over the dimensions Values was broadcast along.
func scatterRule[S tensor.Float](b *builder, n *expr.ScatterAdd[S], g contribution) {
	base, values := strip(n.Base), strip(n.Values)
	s := b.shapeOf(n)
	b.add(base, contribution{e: exact[S](g, s), s: s})
	if !b.needs[values] {
		return
	}
	gathered := n.Gather()
	gathered.X = exact[S](g, s)
	gs := b.shapeOf(n.Gather())
	b.add(values, unbroadcast[S](contribution{e: gathered, s: gs}, b.shapeOf(values)))
}
