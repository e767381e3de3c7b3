package ir

import (
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// ForEachMatrix calls fn with the offsets of c's, a's and b's matrices
// (in that order) at each index of the product's broadcast batch, and with
// the operands as matrices (a 1-D a as a row, a 1-D b as a column, c
// widened to match).
func ForEachMatrix[T tensor.Number](g expr.ProductGeometry, c, a, b *tensor.Tensor[T], fn func(off []int, operands []*tensor.Tensor[T])) {
	if a.NDim() == 1 {
		a, c = a.Unsqueeze(0), c.Unsqueeze(len(g.Batch))
	}
	if b.NDim() == 1 {
		b, c = b.Unsqueeze(1), c.Unsqueeze(c.NDim())
	}
	operands := []*tensor.Tensor[T]{c, a, b}
	strides := make([][]int, 3)
	offsets := make([]int, 3)
	for k, t := range operands {
		s, st := t.ShapeView(friend.K), t.StridesView(friend.K)
		strides[k], _ = shape.BroadcastStrides(s[:len(s)-2], st[:len(st)-2], g.Batch)
		offsets[k] = t.Offset()
	}
	forEachOffset(g.Batch, offsets, strides, func(off []int) { fn(off, operands) })
}

// forEachOffset calls fn with the offsets of every operand at each index of
// dims, in row-major order (once for a scalar shape, never for an empty one).
func forEachOffset(dims shape.Shape, base []int, strides [][]int, fn func(off []int)) {
	off := slices.Clone(base)
	for o := shape.NewOdometer(dims); !o.Done(); {
		fn(off)
		d := o.Next()
		for k := range off {
			off[k] += o.Step(strides[k], d)
		}
	}
}
