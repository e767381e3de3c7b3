package kernels

import (
	"errors"
	"fmt"
	"reflect"

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
	// Products, reductions, casts, views, sorts, gathers…: their own At,
	// which computes one element by the definition (a dot product, a fold
	// in row-major order, a conversion, an index map), reading operands
	// element by element.
	s := e.Shape()
	return refNode(e).At(broadcastIndex(idx, s)...)
}

// refNode returns the value of e, a node refAt does not walk itself,
// computed once per refEval (refCache) by e's own At over copies of its
// operands that the oracle has computed first (refOperands): each node is
// computed once, bottom-up, as the fused evaluator does. Through the
// operands themselves, At would cost the product of nested nodes' sizes
// per element (a reduction of a reduction), or check a view's whole
// subtree again at every element it reads (one scene's ravel under a
// sort took 28 s that way).
func refNode[T tensor.Number](e expr.Exp[T]) *tensor.Tensor[T] {
	if t, ok := refCache[e].(*tensor.Tensor[T]); ok {
		return t
	}
	s := e.Shape()
	t := tensor.Empty[T](s)
	node := refOperands(e).(expr.Exp[T])
	forEachIndex(s, func(i []int) { t.Set(node.At(i...), i...) })
	refCache[e] = t
	return t
}

// refOperands returns a copy of n whose operands that have operands of
// their own are tensors holding the oracle's values of them (refNode), or
// n itself when it has none. The node's At then reads plain tensors.
func refOperands(n expr.Node) expr.Node {
	if _, ok := n.(expr.Parent); !ok {
		return n
	}
	out, _ := withOperands(n, func(x expr.Node) (expr.Node, bool) {
		if _, ok := x.(expr.Parent); !ok {
			return x, true // a tensor, constant or generator: read as it is
		}
		return refMaterialised(x), true
	})
	return out
}

// refMaterialised is the oracle's value of x (refNode), a tensor of x's
// element type.
func refMaterialised(x expr.Node) expr.Node {
	switch x := x.(type) {
	case expr.Exp[float64]:
		return refNode(x)
	case expr.Exp[float32]:
		return refNode(x)
	case expr.Exp[int64]:
		return refNode(x)
	case expr.Exp[int32]:
		return refNode(x)
	case expr.Exp[int16]:
		return refNode(x)
	case expr.Exp[int8]:
		return refNode(x)
	case expr.Exp[int]:
		return refNode(x)
	case expr.Exp[uint64]:
		return refNode(x)
	case expr.Exp[uint32]:
		return refNode(x)
	case expr.Exp[uint16]:
		return refNode(x)
	case expr.Exp[uint8]:
		return refNode(x)
	case expr.Exp[uint]:
		return refNode(x)
	}
	panic(fmt.Sprintf("oracle: operand %T of no element type it knows", x))
}

// withOperands returns a copy of the node n (a struct or a pointer to
// one) whose operands — the nodes in its exported fields of an interface
// type, or in slices of one — are f's of them; its other fields are n's.
// It returns false when f does for an operand, or when n is neither.
func withOperands(n expr.Node, f func(expr.Node) (expr.Node, bool)) (expr.Node, bool) {
	v := reflect.ValueOf(n)
	var c reflect.Value
	switch {
	case v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct:
		c = reflect.New(v.Elem().Type())
		c.Elem().Set(v.Elem())
	case v.Kind() == reflect.Struct:
		c = reflect.New(v.Type())
		c.Elem().Set(v)
	default:
		return nil, false
	}
	replace := func(field reflect.Value) bool {
		x, isNode := field.Interface().(expr.Node)
		if field.IsNil() || !isNode {
			return true
		}
		out, ok := f(x)
		if ok {
			field.Set(reflect.ValueOf(out))
		}
		return ok
	}
	fields, ok := c.Elem(), true
	for i := range fields.NumField() {
		if !fields.Type().Field(i).IsExported() {
			continue
		}
		switch field := fields.Field(i); field.Kind() {
		case reflect.Interface:
			ok = ok && replace(field)
		case reflect.Slice:
			if field.Type().Elem().Kind() == reflect.Interface && !field.IsNil() {
				s := reflect.MakeSlice(field.Type(), field.Len(), field.Len())
				reflect.Copy(s, field)
				for j := range s.Len() {
					ok = ok && replace(s.Index(j))
				}
				field.Set(s)
			}
		}
	}
	if v.Kind() == reflect.Struct {
		return c.Elem().Interface().(expr.Node), ok
	}
	return c.Interface().(expr.Node), ok
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
