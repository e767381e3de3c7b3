package bench

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// naiveExp is the seeds' evaluator (simple-tensor's eval(idx)): each node
// computes one element from an index vector through interface calls.
type naiveExp[T tensor.Number] interface {
	eval(idx []int) T
}

type naiveLeaf[T tensor.Number] struct {
	data    []T
	offset  int
	strides []int // broadcast to the destination's shape
}

func (l naiveLeaf[T]) eval(idx []int) T {
	off := l.offset
	for d, i := range idx {
		off += i * l.strides[d]
	}
	return l.data[off]
}

type naiveConst[T tensor.Number] struct{ v T }

func (c naiveConst[T]) eval([]int) T { return c.v }

type naiveOp[T tensor.Number] struct {
	op       ops.Op
	operands []naiveExp[T]
}

func (n naiveOp[T]) eval(idx []int) T {
	var v [3]T
	for i, x := range n.operands {
		v[i] = x.eval(idx)
	}
	return ops.Apply(n.op, v[0], v[1], v[2])
}

// toNaive converts a laze tree for a destination of shape dims.
func toNaive[T tensor.Number](e expr.Exp[T], dims shape.Shape) naiveExp[T] {
	switch n := e.(type) {
	case *tensor.Tensor[T]:
		strides, err := shape.BroadcastStrides(n.Shape(), n.Strides(), dims)
		if err != nil {
			panic(err)
		}
		return naiveLeaf[T]{data: n.Storage(), offset: n.Offset(), strides: strides}
	case *expr.Const[T]:
		return naiveConst[T]{n.Value}
	case expr.Chain[T]:
		return toNaive(n.E, dims)
	case *expr.Unary[T]:
		return naiveOp[T]{n.Op, []naiveExp[T]{toNaive(n.X, dims)}}
	case *expr.Binary[T]:
		return naiveOp[T]{n.Op, []naiveExp[T]{toNaive(n.X, dims), toNaive(n.Y, dims)}}
	case *expr.Ternary[T]:
		return naiveOp[T]{n.Op, []naiveExp[T]{toNaive(n.X, dims), toNaive(n.Y, dims), toNaive(n.Z, dims)}}
	}
	panic("toNaive: unknown node")
}

// naiveAssign walks dst with an index vector and evaluates e per element.
func naiveAssign[T tensor.Number](dst *tensor.Tensor[T], e naiveExp[T]) {
	out := naiveLeaf[T]{data: dst.Storage(), offset: dst.Offset(), strides: dst.Strides()}
	dims := dst.Shape()
	idx := make([]int, len(dims))
	for {
		off := out.offset
		for d, i := range idx {
			off += i * out.strides[d]
		}
		out.data[off] = e.eval(idx)
		d := len(dims) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < dims[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}
