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

func (c Chain[T]) render(b *strings.Builder)           { renderTo(b, c.E) }
func (c Chain[T]) checkNode(call string) (info, error) { return check(c.E, call) }
func (c Chain[T]) un(op ops.Op) Chain[T]               { return Chain[T]{unary(op, c.E)} }
func (c Chain[T]) bin(op ops.Op, y Exp[T]) Chain[T]    { return Chain[T]{binary(op, c.E, y)} }
func (c Chain[T]) binScalar(op ops.Op, v T) Chain[T]   { return c.bin(op, Scalar(v)) }
func (c Chain[T]) reversed(op ops.Op, v T) Chain[T]    { return Chain[T]{binary(op, Scalar(v), c.E)} }

// Add returns c + y.
func (c Chain[T]) Add(y Exp[T]) Chain[T] { return c.bin(ops.Add, y) }

// Sub returns c - y.
func (c Chain[T]) Sub(y Exp[T]) Chain[T] { return c.bin(ops.Sub, y) }

// Mul returns c * y.
func (c Chain[T]) Mul(y Exp[T]) Chain[T] { return c.bin(ops.Mul, y) }

// Div returns c / y, with Div's rules.
func (c Chain[T]) Div(y Exp[T]) Chain[T] { return c.bin(ops.Div, y) }

// FloorDiv returns c // y, with FloorDiv's rules.
func (c Chain[T]) FloorDiv(y Exp[T]) Chain[T] { return c.bin(ops.FloorDiv, y) }

// Mod returns c mod y, with Mod's rules.
func (c Chain[T]) Mod(y Exp[T]) Chain[T] { return c.bin(ops.Mod, y) }

// Pow returns c raised to y.
func (c Chain[T]) Pow(y Exp[T]) Chain[T] { return c.bin(ops.Pow, y) }

// Maximum returns the elementwise maximum of c and y.
func (c Chain[T]) Maximum(y Exp[T]) Chain[T] { return c.bin(ops.Maximum, y) }

// Minimum returns the elementwise minimum of c and y.
func (c Chain[T]) Minimum(y Exp[T]) Chain[T] { return c.bin(ops.Minimum, y) }

// Eq returns 1 where c == y, else 0.
func (c Chain[T]) Eq(y Exp[T]) Chain[T] { return c.bin(ops.Eq, y) }

// Ne returns 1 where c != y, else 0.
func (c Chain[T]) Ne(y Exp[T]) Chain[T] { return c.bin(ops.Ne, y) }

// Lt returns 1 where c < y, else 0.
func (c Chain[T]) Lt(y Exp[T]) Chain[T] { return c.bin(ops.Lt, y) }

// Le returns 1 where c <= y, else 0.
func (c Chain[T]) Le(y Exp[T]) Chain[T] { return c.bin(ops.Le, y) }

// Gt returns 1 where c > y, else 0.
func (c Chain[T]) Gt(y Exp[T]) Chain[T] { return c.bin(ops.Gt, y) }

// Ge returns 1 where c >= y, else 0.
func (c Chain[T]) Ge(y Exp[T]) Chain[T] { return c.bin(ops.Ge, y) }

// AddScalar returns c + v.
func (c Chain[T]) AddScalar(v T) Chain[T] { return c.binScalar(ops.Add, v) }

// SubScalar returns c - v.
func (c Chain[T]) SubScalar(v T) Chain[T] { return c.binScalar(ops.Sub, v) }

// MulScalar returns c * v.
func (c Chain[T]) MulScalar(v T) Chain[T] { return c.binScalar(ops.Mul, v) }

// DivScalar returns c / v.
func (c Chain[T]) DivScalar(v T) Chain[T] { return c.binScalar(ops.Div, v) }

// PowScalar returns c raised to v.
func (c Chain[T]) PowScalar(v T) Chain[T] { return c.binScalar(ops.Pow, v) }

// RSub returns v - c (the scalar on the left, as NumPy's __rsub__).
func (c Chain[T]) RSub(v T) Chain[T] { return c.reversed(ops.Sub, v) }

// RDiv returns v / c (the scalar on the left, as NumPy's __rtruediv__).
func (c Chain[T]) RDiv(v T) Chain[T] { return c.reversed(ops.Div, v) }

// Clamp returns c limited to [lo, hi].
func (c Chain[T]) Clamp(lo, hi T) Chain[T] { return Chain[T]{Clamp(c.E, Scalar(lo), Scalar(hi))} }

// Neg returns -c.
func (c Chain[T]) Neg() Chain[T] { return c.un(ops.Neg) }

// Abs returns |c|.
func (c Chain[T]) Abs() Chain[T] { return c.un(ops.Abs) }

// ReLU returns max(c, 0).
func (c Chain[T]) ReLU() Chain[T] { return c.un(ops.ReLU) }

// Sqrt returns the square root of c (floats only).
func (c Chain[T]) Sqrt() Chain[T] { return c.un(ops.Sqrt) }

// Exp returns e raised to c (floats only).
func (c Chain[T]) Exp() Chain[T] { return c.un(ops.Exp) }

// Log returns the natural logarithm of c (floats only).
func (c Chain[T]) Log() Chain[T] { return c.un(ops.Log) }

// Sin returns the sine of c (floats only).
func (c Chain[T]) Sin() Chain[T] { return c.un(ops.Sin) }

// Cos returns the cosine of c (floats only).
func (c Chain[T]) Cos() Chain[T] { return c.un(ops.Cos) }

// Tanh returns the hyperbolic tangent of c (floats only).
func (c Chain[T]) Tanh() Chain[T] { return c.un(ops.Tanh) }

// Sigmoid returns 1 / (1 + e**-c) (floats only).
func (c Chain[T]) Sigmoid() Chain[T] { return c.un(ops.Sigmoid) }

// MatMul returns c @ y (NumPy's matmul).
func (c Chain[T]) MatMul(y Exp[T]) Chain[T] { return Chain[T]{MatMul(c.E, y)} }

// Sum returns the sum of c over all axes or those Axis names.
func (c Chain[T]) Sum(opts ...ReduceOption) Chain[T] { return Chain[T]{Sum(c.E, opts...)} }

// Mean returns the mean of c over all axes or those Axis names; on integers
// the tree fails Check with a DTypeError.
func (c Chain[T]) Mean(opts ...ReduceOption) Chain[T] {
	return Chain[T]{reduction(ops.Mean, c.E, opts)}
}

// Prod returns the product of c over all axes or those Axis names.
func (c Chain[T]) Prod(opts ...ReduceOption) Chain[T] { return Chain[T]{Prod(c.E, opts...)} }

// Max returns the largest element of c over all axes or those Axis names.
func (c Chain[T]) Max(opts ...ReduceOption) Chain[T] { return Chain[T]{Max(c.E, opts...)} }

// Min returns the smallest element of c over all axes or those Axis names.
func (c Chain[T]) Min(opts ...ReduceOption) Chain[T] { return Chain[T]{Min(c.E, opts...)} }
