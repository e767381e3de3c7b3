package kernels

import (
	"errors"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// refAt is the oracle: a deliberately simple evaluator, the seeds' eval. It
// computes one element of e at the result index idx by walking the tree,
// mapping idx into each tensor leaf by NumPy's broadcasting rule (drop
// leading dimensions, read stretched size-1 dimensions at 0) and reading it
// with At. It shares nothing with the fused evaluator but the op
// definitions.
func refAt[T tensor.Number](e expr.Exp[T], idx []int) T {
	switch n := e.(type) {
	case *tensor.Tensor[T]:
		return n.At(broadcastIndex(idx, n.Shape())...)
	case *expr.Const[T]:
		return n.Value
	case *expr.Named[T]:
		return refAt(n.X, idx)
	case expr.Chain[T]:
		return refAt(n.E, idx)
	case *expr.Unary[T]:
		return ops.Apply(n.Op, refAt(n.X, idx), 0, 0)
	case *expr.Binary[T]:
		return ops.Apply(n.Op, refAt(n.X, idx), refAt(n.Y, idx), 0)
	case *expr.Ternary[T]:
		return ops.Apply(n.Op, refAt(n.X, idx), refAt(n.Y, idx), refAt(n.Z, idx))
	}
	// Products, reductions, casts and arg reductions: their own At, which
	// computes one element by the definition (a dot product, a fold in
	// row-major order, a conversion), reading operands element by element.
	// Each such node is computed once per scene (refCache), as the fused
	// evaluator does, or nested reductions would cost the product of their
	// sizes per element.
	s := e.Shape()
	t, ok := refCache[e].(*tensor.Tensor[T])
	if !ok {
		t = tensor.Empty[T](s)
		forEachIndex(s, func(i []int) { t.Set(e.At(i...), i...) })
		refCache[e] = t
	}
	return t.At(broadcastIndex(idx, s)...)
}

// refCache holds the value of each non-elementwise node refAt has met since
// refEval began.
var refCache = map[expr.Node]any{}

// broadcastIndex maps a result index to the index of an operand of shape s.
func broadcastIndex(idx []int, s shape.Shape) []int {
	out := make([]int, len(s))
	copy(out, idx[len(idx)-len(s):])
	for d, n := range s {
		if n == 1 {
			out[d] = 0
		}
	}
	return out
}

// refEval returns every element of e over dims, in row-major order.
func refEval[T tensor.Number](e expr.Exp[T], dims shape.Shape) []T {
	clear(refCache)
	var out []T
	forEachIndex(dims, func(idx []int) { out = append(out, refAt(e, idx)) })
	return out
}

// forEachIndex calls fn with every index of dims in row-major order (once,
// with an empty index, for a scalar shape; never for an empty shape).
func forEachIndex(dims shape.Shape, fn func(idx []int)) {
	for _, n := range dims {
		if n == 0 {
			return
		}
	}
	idx := make([]int, len(dims))
	for {
		fn(idx)
		d := len(dims) - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < dims[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// refRefused is the oracle's rule for integer powers: evaluating e fails
// before any write when a power of a signed integer type whose result is
// not empty has a negative value in its exponent (NumPy's ValueError, met
// as NumPy meets it: every node computed in full, eagerly).
func refRefused(e expr.Node) bool {
	clear(refCache)
	refused := false
	expr.Walk(e, func(n expr.Node, _ int) bool {
		switch n := n.(type) {
		case *expr.Binary[int]:
			refused = refused || refNegativePower(n)
		case *expr.Binary[int8]:
			refused = refused || refNegativePower(n)
		case *expr.Binary[int16]:
			refused = refused || refNegativePower(n)
		case *expr.Binary[int32]:
			refused = refused || refNegativePower(n)
		case *expr.Binary[int64]:
			refused = refused || refNegativePower(n)
		}
		return !refused
	})
	return refused
}

// refNegativePower reports whether b is a power with a non-empty result
// and a negative value in its exponent.
func refNegativePower[T tensor.Number](b *expr.Binary[T]) bool {
	if size, _ := b.Shape().Size(); b.Op != ops.Pow || size == 0 {
		return false
	}
	return refNegativeIn(b.Y)
}

// refNegativeIn reports whether the exponent y has a negative value, or
// holds a refused power itself (a power nested in the exponent, which
// NumPy computes, and refuses, first: At panics on it).
func refNegativeIn[T tensor.Number](y expr.Exp[T]) (negative bool) {
	defer func() {
		if r := recover(); r != nil {
			var refused *shape.NodeError // At's panic on a refused power (expr/at.go)
			if err, ok := r.(error); !ok || !errors.As(err, &refused) || refused.Op != "At" {
				panic(r)
			}
			negative = true
		}
	}()
	forEachIndex(y.Shape(), func(idx []int) { negative = negative || refAt(y, idx) < 0 })
	return negative
}
