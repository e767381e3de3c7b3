package expr

import (
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Chain is the fluent form of an expression: its methods apply an op with
// the chain as the left operand, so a tree reads left to right:
//
//	expr.Of(a).Mul(b).AddScalar(2) // the tree of (a * b) + 2
//
// A Chain is an Exp[T] and goes wherever one does. The float-only methods
// (Sqrt, Exp, …) exist for every T; on integers the tree fails Check with a
// DTypeError, where the package functions (Sqrt, Exponential, …) are
// rejected by the compiler.
type Chain[T tensor.Number] struct {
	E Exp[T] // the expression built so far
}

// Of starts a chain from e.
func Of[T tensor.Number](e Exp[T]) Chain[T] { return Chain[T]{E: bare(e)} }

// bare strips a Chain, so that chains never sit inside a tree.
func bare[T tensor.Number](e Exp[T]) Exp[T] {
	if c, ok := e.(Chain[T]); ok {
		return c.E
	}
	return e
}

// unwrapper is implemented by Chain, which Walk and Check see through.
type unwrapper interface{ unwrap() Node }

func (c Chain[T]) unwrap() Node { return c.E }

// Shape returns the shape of the expression (see Exp).
func (c Chain[T]) Shape() shape.Shape { return c.E.Shape() }

// At computes one element of the expression (see Exp).
func (c Chain[T]) At(index ...int) T { return c.E.At(index...) }

// String prints the expression.
func (c Chain[T]) String() string { return render(c.E) }

func (c Chain[T]) render(b *strings.Builder)            { renderTo(b, c.E) }
func (c Chain[T]) checkNode(cc *checking) (info, error) { return cc.check(c.E) }
func (c Chain[T]) reversed(op ops.Op, v T) Chain[T]     { return Chain[T]{node(op, Scalar(v), c.E)} }

// The elementwise ops' methods (Add, AddScalar, Neg, …) are generated from
// the op table into ops_gen.go.

// RSub returns v - c (the scalar on the left, as NumPy's __rsub__).
func (c Chain[T]) RSub(v T) Chain[T] { return c.reversed(ops.Sub, v) }

// RDiv returns v / c (the scalar on the left, as NumPy's __rtruediv__).
func (c Chain[T]) RDiv(v T) Chain[T] { return c.reversed(ops.Div, v) }

// MatMul returns c @ y (NumPy's matmul).
func (c Chain[T]) MatMul(y Exp[T]) Chain[T] { return Chain[T]{MatMul(c.E, y)} }
