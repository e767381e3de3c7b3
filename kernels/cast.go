package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// converter reads an operand of another element type, converting to T.
type converter[T tensor.Number] interface {
	// load fills d with the elements stride apart from off.
	load(d []T, off, stride int)
	// at returns the element at off.
	at(off int) T
	// source names the tensor read, for Explain.
	source(pl *plan) string
}

// conversion reads storage of element type S as T, with Go's conversion.
type conversion[T, S tensor.Number] struct {
	src []S
	t   *tensor.Tensor[S] // the tensor src belongs to
}

func (c conversion[T, S]) source(pl *plan) string {
	return fmt.Sprintf("%s (%s, converted)", nameOf(pl, c.t), tensor.DTypeOf[S]())
}

func (c conversion[T, S]) load(d []T, off, stride int) {
	if stride == 1 {
		for k, v := range c.src[off : off+len(d)] {
			d[k] = T(v)
		}
		return
	}
	for k := range d {
		d[k] = T(c.src[off+k*stride])
	}
}

func (c conversion[T, S]) at(off int) T { return T(c.src[off]) }

// castLeaf lowers Cast[T](x) for x of element type S: x as a tensor (itself,
// or its value computed once into a temporary), read block by block through
// a conversion, so the cast fuses with the tree around it.
func castLeaf[T, S tensor.Number](l *lowering[T], x expr.Exp[S]) (int, bool, error) {
	src, err := materialize(l.ev, x)
	if err != nil {
		return 0, true, err
	}
	if src, err = readable(l, src); err != nil {
		return 0, true, err
	}
	strides, err := shape.BroadcastStrides(src.ShapeView(friend.K), src.StridesView(friend.K), l.dims)
	if err != nil {
		return 0, true, err // unreachable after the checks; kept so a bug surfaces as an error
	}
	l.leaves = append(l.leaves, nil)
	l.addOperand(nil, src.Offset(), strides, memOf(src))
	return l.newLeaf(conversion[T, S]{src: src.Elems(friend.K), t: src}), true, nil
}

// argLeaf lowers an arg reduction over an operand of element type S: its
// int64 indices computed once into a temporary, read as a leaf of the int64
// tree (T is int64 whenever an ArgReduction is an Exp[T]).
func argLeaf[T, S tensor.Number](l *lowering[T], n *expr.ArgReduction[S]) (int, bool, error) {
	idx, err := computed(l.ev, n, func() (*tensor.Tensor[int64], error) { return argReduce(l.ev, n) })
	if err != nil {
		return 0, true, err
	}
	slot, err := l.leaf(any(idx).(*tensor.Tensor[T]))
	return slot, true, err
}

// foreign lowers the nodes whose operand has another element type than the
// tree: casts and arg reductions. Go has no generic methods, so the operand's
// type is found by listing the predeclared element types; ok is false for
// any other node.
func (l *lowering[T]) foreign(e expr.Node) (slot int, ok bool, err error) {
	switch n := e.(type) {
	case *expr.Conversion[T, float64]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, float32]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, int]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, int8]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, int16]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, int32]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, int64]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uint]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uint8]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uint16]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uint32]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uint64]:
		return castLeaf(l, n.X)
	case *expr.Conversion[T, uintptr]:
		return castLeaf(l, n.X)
	case *expr.ArgReduction[float64]:
		return argLeaf(l, n)
	case *expr.ArgReduction[float32]:
		return argLeaf(l, n)
	case *expr.ArgReduction[int]:
		return argLeaf(l, n)
	case *expr.ArgReduction[int8]:
		return argLeaf(l, n)
	case *expr.ArgReduction[int16]:
		return argLeaf(l, n)
	case *expr.ArgReduction[int32]:
		return argLeaf(l, n)
	case *expr.ArgReduction[int64]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uint]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uint8]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uint16]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uint32]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uint64]:
		return argLeaf(l, n)
	case *expr.ArgReduction[uintptr]:
		return argLeaf(l, n)
	}
	return 0, false, nil
}
