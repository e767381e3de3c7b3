package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// converter is an ir.Converter that names the tensor it reads, for
// Explain; lowering makes every leaf conversion one.
type converter[T tensor.Number] interface {
	ir.Converter[T]
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

func (c conversion[T, S]) Load(d []T, off, stride int) {
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

func (c conversion[T, S]) At(off int) T { return T(c.src[off]) }

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
	l.addOperand(nil, src.Offset(), strides, ir.MemoryOf(src))
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
// tree (casts and arg reductions: expr.Foreign), through the lowering of
// the operand's element type (foreignAt). ok is false for any other node.
func (l *lowering[T]) foreign(e expr.Node) (slot int, ok bool, err error) {
	f, isForeign := e.(expr.Foreign)
	if !isForeign {
		return 0, false, nil
	}
	return foreignAt[T](f.OperandDType()).lower(l, e)
}

// foreignLowerer lowers a foreign node whose operand has one element type.
type foreignLowerer[T tensor.Number] interface {
	lower(l *lowering[T], e expr.Node) (int, bool, error)
}

// fromOperand is the lowering of the foreign nodes of a tree of T whose
// operand has element type S: one case per foreign node kind.
type fromOperand[T, S tensor.Number] struct{}

func (fromOperand[T, S]) lower(l *lowering[T], e expr.Node) (int, bool, error) {
	switch n := e.(type) {
	case *expr.Conversion[T, S]:
		return castLeaf(l, n.X)
	case *expr.ArgReduction[S]:
		return argLeaf(l, n)
	case *expr.ArgSorting[S]: // sort.go
		return int64Leaf(l, n, func() (*tensor.Tensor[int64], error) { return argSortValues(l.ev, n) })
	case *expr.Searching[S]: // search.go
		return int64Leaf(l, n, func() (*tensor.Tensor[int64], error) { return searchValues(l.ev, n) })
	}
	return 0, false, nil // a type defined on S (type celsius float64): not an operand evaluators read
}

// foreignAt returns the lowering of foreign nodes whose operand has dtype
// d. Go has no generic methods, so a node cannot hand its operand's type
// to the evaluator: this is the one place that lists the element types,
// for every foreign node kind.
func foreignAt[T tensor.Number](d tensor.DType) foreignLowerer[T] {
	switch d {
	case tensor.Float32:
		return fromOperand[T, float32]{}
	case tensor.Float64:
		return fromOperand[T, float64]{}
	case tensor.Int8:
		return fromOperand[T, int8]{}
	case tensor.Int16:
		return fromOperand[T, int16]{}
	case tensor.Int32:
		return fromOperand[T, int32]{}
	case tensor.Int64:
		return fromOperand[T, int64]{}
	case tensor.Int:
		return fromOperand[T, int]{}
	case tensor.Uint8:
		return fromOperand[T, uint8]{}
	case tensor.Uint16:
		return fromOperand[T, uint16]{}
	case tensor.Uint32:
		return fromOperand[T, uint32]{}
	case tensor.Uint64:
		return fromOperand[T, uint64]{}
	case tensor.Uint:
		return fromOperand[T, uint]{}
	case tensor.Uintptr:
		return fromOperand[T, uintptr]{}
	}
	return fromOperand[T, T]{}
}
