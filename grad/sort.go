package grad

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// sortRule passes g through a sort: element k of a sorted line came from
// position perm[k] of X's line (perm = ArgSort(X)), so X's gradient at
// position p is g at the rank of p, perm's inverse: g gathered along the
// axis by ArgSort(ArgSort(X)), PyTorch's rule for sort's values (ties get
// the gradient of the sorted position their stable order gives them). An
// argsort, integers, passes none.
func sortRule[S tensor.Float](b *builder, n *expr.Sorting[S], g contribution) {
	x := strip(n.X)
	if !b.needs[x] {
		return
	}
	xs := b.shapeOf(x)
	rank := expr.ArgSort(expr.ArgSort(n.X, n.Axis), n.Axis)
	b.add(x, contribution{e: expr.TakeAlongAxis(exact[S](g, b.shapeOf(n)), rank, n.Axis), s: xs})
}
