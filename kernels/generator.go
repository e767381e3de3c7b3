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
// that the generator takes no memory.
type generated[T tensor.Number] struct{ g *expr.Generator[T] }

func (c generated[T]) Load(d []T, off, stride int) { c.g.Fill(d, off, stride) }
func (c generated[T]) At(off int) T                { return c.g.Value(off) }
func (c generated[T]) source(*plan) string {
	return c.g.String() + " (no memory: computed from the index)"
}

// isGenerated reports whether a leaf's converter is a generator's.
func isGenerated[T tensor.Number](c ir.Converter[T]) bool {
	_, ok := c.(generated[T])
	return ok
}

// generator lowers a generator leaf. On the host it is an operand with no
// storage, read through generated; in a device's memory its values are
// computed on the host into a tensor copied to the device (the generated
// CUDA has no generator formulas yet), which docs/design.md records.
func (l *lowering[T]) generator(g *expr.Generator[T]) (int, error) {
	if l.ev.device != nil {
		t, err := computed(l.ev, g, func() (*tensor.Tensor[T], error) { return generatorOnDevice(l, g) })
		if err != nil {
			return 0, err
		}
		return l.leaf(t)
	}
	space := g.Space(friend.K)
	strides, err := shape.BroadcastStrides(space.ShapeView(friend.K), space.StridesView(friend.K), l.dims)
	if err != nil {
		return 0, err // unreachable after the checks; kept so a bug surfaces as an error
	}
	l.leaves = append(l.leaves, nil)
	l.addOperand(nil, space.Offset(), strides, ir.Memory{})
	return l.newLeaf(generated[T]{g}), nil
}

// generatorValues returns a host tensor holding g's values.
func generatorValues[T tensor.Number](g *expr.Generator[T]) *tensor.Tensor[T] {
	space := g.Space(friend.K)
	out := tensor.Empty[T](space.ShapeView(friend.K))
	data := out.Elems(friend.K)
	dims, strides := space.ShapeView(friend.K), space.StridesView(friend.K)
	index := make([]int, len(dims))
	for i := range data {
		p := space.Offset()
		for d, k := range index {
			p += k * strides[d]
		}
		data[i] = g.Value(p)
		for d := len(index) - 1; d >= 0; d-- { // the next row-major index
			if index[d]++; index[d] < dims[d] {
				break
			}
			index[d] = 0
		}
	}
	return out
}

// generatorOnDevice computes g's values on the host and copies them into
// the memory of the evaluation's destination's device.
func generatorOnDevice[T tensor.Number](l *lowering[T], g *expr.Generator[T]) (*tensor.Tensor[T], error) {
	return generatorValues(g).To(l.dst.Device())
}
