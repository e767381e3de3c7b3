package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/tensor"
)

// A concatenation (or stack) is evaluated part by part: each part is
// assigned to its slice of the destination (a Narrow along the axis, or an
// Index for a stack), with the ordinary lowering, so each part's tree is
// one fused pass and no temporary holds the whole result. Inside a larger
// tree the destination is a temporary, which the rest of the tree reads.
//
// Aliasing: a part written early could overwrite memory that a later part
// reads (Assign(a, Concatenate(0, a[1:], a[:1])) rotates a). So before any
// slice is written, every part whose tree reads memory the destination may
// share (treeMayOverlap, under any node) is computed aside, into a
// temporary; the parts are then assigned from those. The result is NumPy's:
// as if every part were read before the destination is written.

// concatenate writes every part of c into its slice of dst, whose shape is
// c's.
func concatenate[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], c *expr.Concatenation[T]) error {
	axis, err := c.ConcatAxis(len(c.Parts[0].Shape()))
	if err != nil {
		return err // unreachable after Check
	}
	target := dst.Region(friend.K)
	parts := make([]expr.Exp[T], len(c.Parts))
	for i, x := range c.Parts {
		parts[i] = x
		if !treeMayOverlap(x, target) {
			continue
		}
		aside, err := computeAside(ev, x)
		if err != nil {
			return err
		}
		parts[i] = aside
	}
	start := 0
	for i, x := range parts {
		var view *tensor.Tensor[T]
		if c.Stack {
			view = dst.Index(axis, i)
		} else {
			n := x.Shape()[axis]
			view = dst.Narrow(axis, start, n)
			start += n
		}
		if view.Numel() == 0 {
			continue
		}
		if err := evaluate(ev, view, x); err != nil {
			return err
		}
	}
	return nil
}

// computeAside returns x's value in a new temporary: a copy of a tensor, or
// a tree evaluated.
func computeAside[T tensor.Number](ev *evaluation, x expr.Exp[T]) (*tensor.Tensor[T], error) {
	if t, ok := unwrap(x).(*tensor.Tensor[T]); ok {
		return copyAside(ev, t)
	}
	t := temp[T](ev, x, x.Shape())
	return t, evaluate(ev, t, x)
}

// concatenated evaluates a concatenation inside a tree into a new
// temporary.
func concatenated[T tensor.Number](ev *evaluation, c *expr.Concatenation[T]) (*tensor.Tensor[T], error) {
	t := temp[T](ev, c, c.Shape())
	return t, concatenate(ev, t, c)
}
