package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// generated reads a generator's elements: the operand walks the
// generator's positions (its index space, viewed) as a tensor's storage
// is walked, and each block computes its values from the positions, so
// that the generator takes no memory. It is an ir.Generated: a device
// kernel computes the same values from the positions it walks.
type generated[T tensor.Number] struct{ g *expr.Generator[T] }

func (c generated[T]) Load(d []T, off, stride int) { c.g.Fill(d, off, stride) }
func (c generated[T]) At(off int) T                { return c.g.Value(off) }

// Generator returns the generator the operand computes (ir.Generated).
func (c generated[T]) Generator() *expr.Generator[T] { return c.g }

func (c generated[T]) source(*plan) string {
	return c.g.String() + " (no memory: computed from the index)"
}

var _ ir.Generated[float64] = generated[float64]{}

// isGenerated reports whether a leaf's converter is a generator's.
func isGenerated[T tensor.Number](c ir.Converter[T]) bool {
	_, ok := c.(generated[T])
	return ok
}

// generator lowers a generator leaf: an operand with no storage whose
// offset and strides walk the generator's positions, read through
// generated. On the host each block computes its values from the
// positions; in a device's memory the kernel computes each element from
// its position with the generator's formula (cudasrc), so on either the
// generator allocates nothing and fuses into the pass.
func (l *lowering[T]) generator(g *expr.Generator[T]) (int, error) {
	space := g.Space(friend.K)
	strides, err := shape.BroadcastStrides(space.ShapeView(friend.K), space.StridesView(friend.K), l.dims)
	if err != nil {
		return 0, err // unreachable after the checks; kept so a bug surfaces as an error
	}
	l.leaves = append(l.leaves, nil)
	l.addOperand(nil, space.Offset(), strides, ir.Memory{})
	return l.newLeaf(generated[T]{g}), nil
}
