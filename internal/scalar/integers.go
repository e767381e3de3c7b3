package scalar

import (
	"math"

	"github.com/laze-go/laze/tensor"
)

// The integer helpers work on a's two's-complement bits widened to 64
// (uint64 of a signed value sign-extends) and narrow the result back, which
// gives Go's (and C's) result for every integer type. They compile for
// floats too, as the generated loops are generic, but the ops that use them
// are IntOnly: no evaluator calls them with floats.

// widthOf is the number of bits in T.
func widthOf[T tensor.Number]() uint64 { return 8 * uint64(tensor.ItemSize[T]()) }

// Invert returns ^a, the bitwise complement (NumPy's invert, ~a).
func Invert[T tensor.Number](a T) T { return T(^uint64(a)) }

// BitwiseAnd returns a & b.
func BitwiseAnd[T tensor.Number](a, b T) T { return T(uint64(a) & uint64(b)) }

// BitwiseOr returns a | b.
func BitwiseOr[T tensor.Number](a, b T) T { return T(uint64(a) | uint64(b)) }

// BitwiseXor returns a ^ b.
func BitwiseXor[T tensor.Number](a, b T) T { return T(uint64(a) ^ uint64(b)) }

// LeftShift returns a << b, the bits past T's width dropped, and 0 where b
// is negative or at least the width (NumPy's npy_lshift, where Go would
// panic on a negative count).
func LeftShift[T tensor.Number](a, b T) T {
	if b < 0 || uint64(b) >= widthOf[T]() {
		return 0
	}
	return T(uint64(a) << uint64(b))
}

// RightShift returns a >> b, arithmetic for signed T; where b is negative or
// at least the width, -1 for a negative a and 0 otherwise (NumPy's
// npy_rshift).
func RightShift[T tensor.Number](a, b T) T {
	switch {
	case b < 0 || uint64(b) >= widthOf[T]():
		if a < 0 {
			return T(0) - 1
		}
		return 0
	case a < 0:
		return T(int64(a) >> uint64(b))
	}
	return T(uint64(a) >> uint64(b))
}

// magnitude returns |a| as an unsigned number of T's width: the most
// negative value's magnitude, which does not fit in T, is exact here.
func magnitude[T tensor.Number](a T) uint64 {
	return uint64(Abs(a)) & (math.MaxUint64 >> (64 - widthOf[T]()))
}

// Gcd returns the greatest common divisor of |a| and |b| by Euclid's
// algorithm on the magnitudes, narrowed to T: gcd(0, 0) is 0, and a
// magnitude of 2^(width-1) wraps to the most negative value, as NumPy's
// npy_gcd gives.
func Gcd[T tensor.Number](a, b T) T {
	x, y := magnitude(a), magnitude(b)
	for y != 0 {
		x, y = y, x%y
	}
	return T(x)
}

// Lcm returns |a / gcd(a, b) * b| in T's arithmetic (NumPy's npy_lcm: the
// product wraps on overflow), 0 where either is 0.
func Lcm[T tensor.Number](a, b T) T {
	g := Gcd(a, b)
	if g == 0 {
		return 0
	}
	return Abs(a / g * b)
}
