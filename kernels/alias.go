package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The aliasing analysis. Every tensor a tree reads, of any element type and
// under any node (a leaf, a cast's operand, a product's or a reduction's
// operand), is compared with the destination by the memory both address
// (shape.Region), never by the storage object they came from, with laze's
// one overlap rule: shape.MayOverlap and shape.Coincide.

// mustCopy reports whether an operand addressing r must be copied before
// the target dst is written: it may share memory with dst and is not the
// very same view of it (shape.Coincide: each element is then read just
// before it is written, at the same position, so it is read in place).
func mustCopy(dst, r shape.Region) bool {
	return shape.MayOverlap(dst, r) && !shape.Coincide(dst, r)
}

// treeMayOverlap reports whether any tensor in e's tree, under any node,
// may share memory with dst.
func treeMayOverlap(e expr.Node, dst shape.Region) bool {
	found := false
	walkOnce(e, func(n expr.Node) bool {
		if t, ok := n.(friend.Tensor); ok && shape.MayOverlap(dst, t.Region(friend.K)) {
			found = true
		}
		return !found
	})
	return found
}

// holdAll holds the storage of dst and of every tensor in e's tree for the
// length of a call (see tensor.Tensor.Release), and returns the function
// that lets them go. It panics with a ReleaseError when one was released.
func holdAll[T tensor.Number](call string, dst *tensor.Tensor[T], e expr.Node) func() {
	held := make([]interface{ Drop() }, 1, 8) // most trees read a few tensors: one allocation
	held[0] = dst.Hold(friend.K, call)
	drop := func() {
		for _, h := range held {
			h.Drop()
		}
	}
	defer func() {
		if r := recover(); r != nil {
			drop()
			panic(r)
		}
	}()
	walkOnce(e, func(n expr.Node) bool {
		if t, ok := n.(friend.Tensor); ok {
			held = append(held, t.Hold(friend.K, call))
		}
		return true
	})
	return drop
}

// targetRegion is the memory a program writes: its target's tensor walked
// with the target's iteration shape and strides.
func targetRegion[T tensor.Number](to target[T]) shape.Region {
	r := to.t.Region(friend.K)
	r.Shape, r.Strides = to.dims, to.strides
	return r
}
