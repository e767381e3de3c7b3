// Package scalar holds the Go definitions of the elementwise ops that need more
// than one expression (see internal/ops). Each function is small enough for
// the compiler to inline into the generated block loops; tensor.IsFloat folds
// to a constant in each instantiation.
package scalar

import (
	"math"

	"github.com/laze-go/laze/tensor"
)

// Bool converts a comparison's outcome to T: 1 for true, 0 for false.
func Bool[T tensor.Number](v bool) T {
	if v {
		return 1
	}
	return 0
}

// Abs returns |a|. For floats it clears the sign bit (abs(-0) is +0, as in
// NumPy); for signed integers the most negative value stays itself (it has no
// positive counterpart), as NumPy's abs does.
func Abs[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return T(math.Abs(float64(a)))
	}
	if a < 0 {
		return -a
	}
	return a
}

// ReLU returns max(a, 0); a NaN stays NaN, as in PyTorch.
func ReLU[T tensor.Number](a T) T {
	if a < 0 {
		return 0
	}
	return a
}

// Div returns a / b. Floats follow IEEE 754 (x/0 is ±Inf or NaN). Integers
// divide with NumPy's floor rule (floor_divide: -7/2 is -4), and a division by
// zero gives 0, as NumPy's does (without its warning), rather than a panic
// halfway through a tensor.
func Div[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		return a / b
	}
	if b == 0 {
		return 0
	}
	q := a / b
	if r := a - q*b; r != 0 && (r < 0) != (b < 0) {
		q--
	}
	return q
}

// FloorDiv returns the floor of a / b (NumPy's floor_divide, Python's //).
// Integers are Div. Floats follow NumPy's divmod-based rule, which rounds
// the exact quotient and so gives 1 // 0.1 = 9 where math.Floor(1/0.1) is
// 10; a division by zero gives a / b (±Inf or NaN).
func FloorDiv[T tensor.Number](a, b T) T {
	if !tensor.IsFloat[T]() {
		return Div(a, b)
	}
	x, y := float64(a), float64(b)
	if y == 0 {
		return T(x / y)
	}
	m := math.Mod(x, y)
	q := (x - m) / y
	if m != 0 && (y < 0) != (m < 0) {
		q--
	}
	if q == 0 {
		return T(math.Copysign(0, x/y))
	}
	f := math.Floor(q)
	if q-f > 0.5 {
		f++
	}
	return T(f)
}

// Mod returns the remainder that goes with Div, with the sign of the divisor
// (NumPy's remainder, Python's %): -7 mod 2 is 1, 7 mod -2 is -1. For floats
// it is a - floor(a/b)*b computed without that rounding; mod by zero is NaN
// for floats and 0 for integers.
func Mod[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		r := math.Mod(float64(a), float64(b))
		if r != 0 && (r < 0) != (b < 0) {
			r += float64(b)
		}
		return T(r)
	}
	if b == 0 {
		return 0
	}
	r := a - (a/b)*b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// Pow returns a raised to b. Floats use math.Pow. Integers multiply exactly
// (wrapping on overflow, as NumPy's do); a negative exponent, which NumPy
// rejects for integer arrays, gives the integer part of the real result: 1
// for a = 1, ±1 for a = -1, and 0 otherwise.
func Pow[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		return T(math.Pow(float64(a), float64(b)))
	}
	if b < 0 {
		return negativePower(a, b)
	}
	result := T(1)
	for b > 0 {
		if b-(b/2)*2 != 0 {
			result *= a
		}
		a *= a
		b /= 2
	}
	return result
}

// negativePower is the integer part of a**b for an integer b < 0.
func negativePower[T tensor.Number](a, b T) T {
	switch {
	case a == 1:
		return 1
	case a+1 == 0: // a == -1 for signed types
		if b-(b/2)*2 != 0 {
			return a
		}
		return 1
	}
	return 0
}

// Maximum returns the larger of a and b; a NaN in either gives NaN (NumPy's
// maximum).
func Maximum[T tensor.Number](a, b T) T {
	if a > b || a != a {
		return a
	}
	return b
}

// Minimum returns the smaller of a and b; a NaN in either gives NaN (NumPy's
// minimum).
func Minimum[T tensor.Number](a, b T) T {
	if a < b || a != a {
		return a
	}
	return b
}

// Where returns b where cond is nonzero and c elsewhere (a NaN counts as
// nonzero, as bool(nan) does in NumPy).
func Where[T tensor.Number](cond, b, c T) T {
	if cond != 0 {
		return b
	}
	return c
}
