package expr

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// At computes the element at index of op(X).
func (u *Unary[T]) At(index ...int) T {
	return ops.Apply(u.Op, u.X.At(index...), 0, 0)
}

// At computes the element at index of op(X, Y), reading each operand at the
// index broadcasting maps it to. A signed integer raised to a negative
// exponent panics with the error the evaluators return (a *shape.NodeError
// wrapping an ArgumentError).
func (b *Binary[T]) At(index ...int) T {
	checkRank(b, index)
	y := atBroadcast(b.Y, index)
	if b.Op == ops.Pow && y < 0 && ops.RefusesNegativeExponent[T]() {
		panic(&shape.NodeError{Op: "At", Node: render(b), Err: ops.NegativeExponentError(y, nil)})
	}
	return ops.Apply(b.Op, atBroadcast(b.X, index), y, 0)
}

// At computes the element at index of op(X, Y, Z), reading each operand at
// the index broadcasting maps it to.
func (t *Ternary[T]) At(index ...int) T {
	checkRank(t, index)
	return ops.Apply(t.Op, atBroadcast(t.X, index), atBroadcast(t.Y, index), atBroadcast(t.Z, index))
}

// At returns Value, whatever the index.
func (c *Const[T]) At(...int) T { return c.Value }

// At returns X's element at index.
func (n *Named[T]) At(index ...int) T { return n.X.At(index...) }

// checkRank panics with a DimensionError when index does not have one entry
// per dimension of n.
func checkRank(n Node, index []int) {
	if rank := len(n.Shape()); len(index) != rank {
		panic(&shape.DimensionError{Op: "At", Dim: len(index), NDim: rank,
			Reason: "At needs one index per dimension"})
	}
}

// atBroadcast reads x at the index that the result index maps to when x is
// broadcast to the result's shape.
func atBroadcast[T tensor.Number](x Exp[T], index []int) T {
	s := x.Shape()
	if len(s) > len(index) {
		return x.At(index...) // x.At reports the rank mismatch
	}
	return x.At(broadcastIndex(index, s)...)
}

// broadcastIndex maps an index of a broadcast result to the index of an
// operand of shape s: leading dimensions dropped, stretched size-1 dimensions
// read at 0. It needs len(index) >= len(s).
func broadcastIndex(index []int, s shape.Shape) []int {
	own := make([]int, len(s))
	copy(own, index[len(index)-len(s):])
	for d, n := range s {
		if n == 1 {
			own[d] = 0
		}
	}
	return own
}
