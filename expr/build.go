package expr

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// Scalar returns a constant that broadcasts to any shape: the 2 in a*2. Its
// type comes from v, so write Scalar[float32](2) for a float32 tree.
func Scalar[T tensor.Number](v T) *Const[T] { return &Const[T]{Value: v} }

// Name gives e a name to print it by: Name("a", t) prints as a rather than
// as tensor(2,3).
func Name[T tensor.Number](name string, e Exp[T]) *Named[T] { return &Named[T]{Name: name, X: bare(e)} }

func unary[T tensor.Number](op ops.Op, x Exp[T]) *Unary[T] { return &Unary[T]{Op: op, X: bare(x)} }

func binary[T tensor.Number](op ops.Op, x, y Exp[T]) *Binary[T] {
	return &Binary[T]{Op: op, X: bare(x), Y: bare(y)}
}

// Neg returns -x. Unsigned integers wrap, as in Go and NumPy.
func Neg[T tensor.Number](x Exp[T]) *Unary[T] { return unary(ops.Neg, x) }

// Abs returns |x|; see docs/design.md for the most negative integer.
func Abs[T tensor.Number](x Exp[T]) *Unary[T] { return unary(ops.Abs, x) }

// ReLU returns max(x, 0); NaN stays NaN.
func ReLU[T tensor.Number](x Exp[T]) *Unary[T] { return unary(ops.ReLU, x) }

// Sqrt returns the square root of x (NaN below 0).
func Sqrt[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Sqrt, x) }

// Exponential returns e raised to x (NumPy's exp; the name Exp is taken by
// the expression interface). The fluent form is Chain.Exp.
func Exponential[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Exp, x) }

// Log returns the natural logarithm of x.
func Log[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Log, x) }

// Sin returns the sine of x (radians).
func Sin[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Sin, x) }

// Cos returns the cosine of x (radians).
func Cos[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Cos, x) }

// Tanh returns the hyperbolic tangent of x.
func Tanh[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Tanh, x) }

// Sigmoid returns 1 / (1 + e**-x).
func Sigmoid[T tensor.Float](x Exp[T]) *Unary[T] { return unary(ops.Sigmoid, x) }

// Add returns x + y.
func Add[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Add, x, y) }

// Sub returns x - y.
func Sub[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Sub, x, y) }

// Mul returns x * y.
func Mul[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Mul, x, y) }

// Div returns x / y. Integers use floor division and give 0 where y is 0
// (NumPy's floor_divide); floats follow IEEE 754.
func Div[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Div, x, y) }

// FloorDiv returns the floor of x / y (NumPy's floor_divide, the // operator):
// for integers the same as Div; for floats NumPy's rule, so 1 // 0.1 is 9.
func FloorDiv[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.FloorDiv, x, y) }

// Mod returns the remainder of Div, with the sign of y (NumPy's remainder,
// Python's %); integers give 0 where y is 0.
func Mod[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Mod, x, y) }

// Pow returns x raised to y; see docs/design.md for integers.
func Pow[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Pow, x, y) }

// Maximum returns the larger of x and y, NaN if either is NaN.
func Maximum[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Maximum, x, y) }

// Minimum returns the smaller of x and y, NaN if either is NaN.
func Minimum[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Minimum, x, y) }

// Eq returns 1 where x == y and 0 elsewhere, in T.
func Eq[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Eq, x, y) }

// Ne returns 1 where x != y and 0 elsewhere, in T.
func Ne[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Ne, x, y) }

// Lt returns 1 where x < y and 0 elsewhere, in T.
func Lt[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Lt, x, y) }

// Le returns 1 where x <= y and 0 elsewhere, in T.
func Le[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Le, x, y) }

// Gt returns 1 where x > y and 0 elsewhere, in T.
func Gt[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Gt, x, y) }

// Ge returns 1 where x >= y and 0 elsewhere, in T.
func Ge[T tensor.Number](x, y Exp[T]) *Binary[T] { return binary(ops.Ge, x, y) }

// Where returns x where cond is nonzero and y elsewhere (NumPy's where);
// the three broadcast together.
func Where[T tensor.Number](cond, x, y Exp[T]) *Ternary[T] {
	return &Ternary[T]{Op: ops.Where, X: bare(cond), Y: bare(x), Z: bare(y)}
}

// Clamp returns x limited to [lo, hi]: minimum(maximum(x, lo), hi), as
// NumPy's clip; the three broadcast together.
func Clamp[T tensor.Number](x, lo, hi Exp[T]) *Ternary[T] {
	return &Ternary[T]{Op: ops.Clamp, X: bare(x), Y: bare(lo), Z: bare(hi)}
}
