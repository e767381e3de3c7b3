package expr

import (
	"fmt"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The functions of the elementwise ops (Neg, Add, Where, …), their
// XxxScalar forms and their Chain methods are generated from the op table
// (internal/ops) into ops_gen.go. Every constructor returns Exp[T], so that
// a variable of that type can take one node after another:
//
//	e := expr.Neg(x)
//	e = expr.Add(e, y)

// Scalar returns a constant that broadcasts to any shape: the 2 in a*2. Its
// type comes from v, so write Scalar[float32](2) for a float32 tree (or use
// the XxxScalar functions, MulScalar(a, 2), which take T from a).
func Scalar[T tensor.Number](v T) *Const[T] { return &Const[T]{Value: v} }

// Name gives e a name to print it by: Name("a", t) prints as a rather than
// as tensor(2,3).
func Name[T tensor.Number](name string, e Exp[T]) Exp[T] { return &Named[T]{Name: name, X: bare(e)} }

// Apply returns op's node over operands: the node Neg, Add, Where… build,
// for code that holds the op as a value (an interpreter, a rewrite of a
// tree). It panics with an ArgumentError, a misuse by the panic rule
// (docs/design.md), when the number of operands is not op's arity.
func Apply[T tensor.Number](op Op, operands ...Exp[T]) Exp[T] {
	if !op.Valid() || len(operands) != op.Arity() {
		panic(&shape.ArgumentError{Op: "expr.Apply", Name: "operands", Value: len(operands),
			Reason: fmt.Sprintf("%v takes %d operands", op, op.Arity())})
	}
	return node(op, operands...)
}

// node builds op's node over its operands, one to three (Chains stripped).
func node[T tensor.Number](op ops.Op, operands ...Exp[T]) Exp[T] {
	switch len(operands) {
	case 1:
		return &Unary[T]{Op: op, X: bare(operands[0])}
	case 2:
		return &Binary[T]{Op: op, X: bare(operands[0]), Y: bare(operands[1])}
	}
	return &Ternary[T]{Op: op, X: bare(operands[0]), Y: bare(operands[1]), Z: bare(operands[2])}
}

// Unwrap returns e without the nodes above it that only name or chain an
// expression (Named, Chain): the node that computes e's value, for code
// that dispatches on node types.
func Unwrap[T tensor.Number](e Exp[T]) Exp[T] {
	for {
		switch n := e.(type) {
		case *Named[T]:
			e = n.X
		case Chain[T]:
			e = n.E
		default:
			return e
		}
	}
}
