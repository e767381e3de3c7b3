// Package scalar holds the Go definitions of the elementwise ops that need more
// than one expression (see internal/ops). Each function is small enough for
// the compiler to inline into the generated block loops; tensor.IsFloat folds
// to a constant in each instantiation.
package scalar

import (
	"math"

	"github.com/laze-go/laze/tensor"
)

// Bool converts a comparison's outcome to T: 1 for true, 0 for false. It
// goes through a uint8 so that the compiler sets the byte from the flags
// (SETcc) and converts it, with no branch: on random data a branch per
// element mispredicts half the time (a comparison loop ran 4× faster on
// 1e5 random float64s this way).
func Bool[T tensor.Number](v bool) T {
	var b uint8
	if v {
		b = 1
	}
	return T(b)
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

// ReLU returns Maximum(a, 0), as np.maximum(a, 0): a NaN stays NaN and
// -0 gives +0 (Maximum returns its second operand when the two are equal).
func ReLU[T tensor.Number](a T) T {
	if a > 0 || a != a {
		return a
	}
	return 0
}

// Div returns a / b. Floats follow IEEE 754 (x/0 is ±Inf or NaN). Integers
// divide with NumPy's floor rule (floor_divide: -7/2 is -4), and a division by
// zero gives 0, as NumPy's does (without its warning), rather than a panic
// halfway through a tensor; MinInt / -1 wraps to MinInt, as in NumPy.
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
// Integers are Div. Floats follow NumPy's npy_floor_divide: a division by zero
// gives a / b (±Inf or NaN); otherwise the quotient of NumPy's divmod, which
// rounds the exact quotient (a - Mod(a, b)) / b and so gives 1 // 0.1 = 9
// where math.Floor(1/0.1) is 10. It is computed in T's own precision, as
// NumPy's float32 loop is, a zero quotient takes the sign of a / b
// (-0.0 // 1 = -0, 0 // -5 = -0), and ±Inf or NaN operands give NaN except
// x // ±Inf for finite x: ±0 when a and b have the same sign (with a / b's
// sign), -1 when they differ.
func FloorDiv[T tensor.Number](a, b T) T {
	if !tensor.IsFloat[T]() {
		return Div(a, b)
	}
	if b == 0 {
		return a / b
	}
	mod := T(math.Mod(float64(a), float64(b))) // fmod is exact in T
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return T(math.Copysign(0, float64(a/b)))
	}
	floor := T(math.Floor(float64(div)))
	if half := T(1) / 2; div-floor > half {
		floor++
	}
	return floor
}

// Mod returns the remainder that goes with Div, with the sign of the divisor
// (NumPy's remainder, Python's %): -7 mod 2 is 1, 7 mod -2 is -1. Integers mod
// 0 give 0. Floats follow NumPy's npy_remainder: fmod(a, b), plus b when it
// is nonzero and its sign differs from b's; a zero remainder takes b's sign
// (-4 % 2 = +0, 4 % -2 = -0). So x % ±0, ±Inf % y and any NaN give NaN, and
// x % ±Inf for finite x is x when x and b have the same sign (or x is zero,
// then ±0 with b's sign) and b when they differ (-5 % Inf = Inf).
func Mod[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		r := T(math.Mod(float64(a), float64(b))) // fmod is exact in T
		if r == 0 {
			return T(math.Copysign(0, float64(b)))
		}
		if (r < 0) != (b < 0) {
			r += b // NaN stays NaN: neither comparison holds
		}
		return r
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

// Pow returns a raised to b. Floats are computed in float64 (powFloat,
// pow.go) and rounded to T: within a hair of half an ulp of the true value,
// as glibc's pow that NumPy calls, with C99's special values (0 ** -1 =
// +Inf, -0 ** -1 = -Inf, 1 ** NaN = 1, NaN ** 0 = 1, -8 ** (1/3) = NaN).
// math.Pow is not used for finite operands: it drifts by hundreds of ulp
// where |b·log a| is large. Integers multiply exactly (wrapping on
// overflow, as NumPy's do); a negative exponent, which NumPy rejects for
// integer arrays and laze's evaluators refuse before calling Pow
// (ops.RefusesNegativeExponent), gives the integer part of the real
// result: 1 for a = 1, ±1 for a = -1, and 0 otherwise.
func Pow[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		return T(powFloat(float64(a), float64(b)))
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

// Log returns the natural logarithm of a, computed in float64. It is
// math.Log except on positive subnormals, which math.Log's amd64 assembly
// misreads (golang/go#56600: it gives -709.09 for 5e-324, whose logarithm
// is -744.44); they are scaled into the normal range first.
func Log[T tensor.Number](a T) T {
	x := float64(a)
	if x > 0 && x < 0x1p-1022 {
		return T(math.Log(x*0x1p54) - 54*math.Ln2)
	}
	return T(math.Log(x))
}

// Log10 returns the base-10 logarithm of a, computed in float64 as
// math.Log10 does (the natural logarithm times 1/ln 10) but with Log, so
// that subnormals are right: math.Log10(5e-324) on amd64 is -307.95, not
// -323.31 (golang/go#56600).
func Log10[T tensor.Number](a T) T {
	return T(float64(Log(float64(a))) * (1 / math.Ln10))
}

// Log2 returns the base-2 logarithm of a, computed in float64: a =
// frac·2^exp with frac in [√½, √2), then log(frac)·(1/ln 2) + exp, the
// product rounded before the sum (never fused, so that the vector kernels
// can repeat it). math.Log2 takes frac in [½, 1) instead, so that near 1
// its two terms cancel: math.Log2(1.0000009279968451) is 196,778 ulp from
// the true 1.3388158252442355e-06, which this gives (as NumPy and CUDA do).
// Powers of two are exact.
func Log2[T tensor.Number](a T) T {
	frac, exp := math.Frexp(float64(a))
	if frac < math.Sqrt2/2 {
		frac, exp = frac*2, exp-1
	}
	return T(float64(Log(frac)*(1/math.Ln2)) + float64(exp))
}

// Acos returns the arc cosine of a, computed in float64: 2·asin √((1-a)/2)
// above ½, π - 2·asin √((1+a)/2) below -½ (1 ∓ a, the halving and the
// doubling exact) and math.Acos (π/2 - asin a) between. math.Acos is π/2 -
// asin a everywhere, which cancels near ±1: math.Acos(0.9988719712549543)
// is 51 ulp from the true 0.04750243959357956, which this gives (as NumPy
// and CUDA do).
func Acos[T tensor.Number](a T) T {
	x := float64(a)
	switch {
	case x > 0.5:
		return T(2 * math.Asin(math.Sqrt((1-x)*0.5)))
	case x < -0.5:
		return T(math.Pi - 2*math.Asin(math.Sqrt((1+x)*0.5)))
	}
	return T(math.Acos(x))
}

// Atan2 returns the angle of the point (b, a) (NumPy's arctan2(a, b)),
// computed in float64 by math.Atan2 with y's sign on the result, as C99
// defines it: math.Atan2(-1e-310, -1e30) is +π (y/x underflows to +0, and
// +0 is taken for the upper half-plane), where C, NumPy and CUDA give -π.
func Atan2[T tensor.Number](a, b T) T {
	r := math.Atan2(float64(a), float64(b))
	if r == r {
		r = math.Copysign(r, float64(a))
	}
	return T(r)
}

// Cosh returns the hyperbolic cosine of a, computed in float64 as
// math.Cosh does but without its early overflow: math.Cosh(710) is +Inf
// (exp(710) overflows before the halving), where the true value,
// 1.1169973830808555e308, is finite, as NumPy gives. Where math.Exp(|a|)
// overflows (|a| > expOverflow) this computes exp(|a| - 709)·(exp(709)/2),
// the subtraction exact; below, math.Cosh's own result.
func Cosh[T tensor.Number](a T) T {
	x := math.Abs(float64(a))
	if x <= expOverflow {
		return T(math.Cosh(x))
	}
	return T(math.Exp(x-709) * halfExp709)
}

// expOverflow is the largest argument math.Exp takes without overflowing
// (its own Overflow constant).
const expOverflow = 7.09782712893383973096e+02

// halfExp709 is exp(709)/2, rounded once.
const halfExp709 = 0x1.d422d2be5dc9bp+1021

// Sinh returns the hyperbolic sine of a, as math.Sinh but finite up to
// |a| ≈ 710.48 (see Cosh).
func Sinh[T tensor.Number](a T) T {
	x := float64(a)
	if math.Abs(x) <= expOverflow {
		return T(math.Sinh(x))
	}
	return T(math.Copysign(math.Exp(math.Abs(x)-709)*halfExp709, x))
}

// Maximum returns the larger of a and b; a NaN in either gives NaN (NumPy's
// maximum). When a and b compare equal it returns b, as NumPy does on x86:
// maximum(+0, -0) is -0 and maximum(-0, +0) is +0.
func Maximum[T tensor.Number](a, b T) T {
	if a > b || a != a {
		return a
	}
	return b
}

// Minimum returns the smaller of a and b; a NaN in either gives NaN (NumPy's
// minimum). When a and b compare equal it returns b, as Maximum does.
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

// Floor returns the largest integer not above a: math.Floor for floats
// (computed in float64, exact for float32 too: -0, ±Inf and NaN stay
// themselves, and so does every value too large to have a fraction), and a
// itself for integers.
func Floor[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return T(math.Floor(float64(a)))
	}
	return a
}

// Ceil returns the smallest integer not below a: math.Ceil for floats
// (ceil(-0.5) is -0), a itself for integers.
func Ceil[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return T(math.Ceil(float64(a)))
	}
	return a
}

// Trunc returns a rounded toward zero: math.Trunc for floats, a itself for
// integers.
func Trunc[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return T(math.Trunc(float64(a)))
	}
	return a
}

// Rint returns a rounded to the nearest integer, halves to even
// (math.RoundToEven, NumPy's rint and round: 2.5 is 2, -0.5 is -0), for
// floats; a itself for integers.
func Rint[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return T(math.RoundToEven(float64(a)))
	}
	return a
}

// Sign returns 1 for a > 0, -1 for a < 0 and 0 for a zero (+0 for -0 too,
// as NumPy's sign gives); a NaN stays NaN.
func Sign[T tensor.Number](a T) T {
	switch {
	case a > 0:
		return 1
	case a < 0:
		one := T(1)
		return -one
	case a == 0:
		return 0
	}
	return a // NaN
}

// Reciprocal returns 1 / a. Floats divide (1/±0 is ±Inf). Integers give
// the quotient truncated toward zero, as NumPy's integer reciprocal does:
// 1 for 1, -1 for -1 and 0 for every other value; for 0, where NumPy's
// result is undefined (a float-to-integer conversion of Inf), 0, as Div's
// x / 0 is.
func Reciprocal[T tensor.Number](a T) T {
	if tensor.IsFloat[T]() {
		return 1 / a
	}
	switch {
	case a == 1:
		return 1
	case a < 0 && a+1 == 0: // a == -1
		return a
	}
	return 0
}

// IsFinite reports whether a is neither ±Inf nor NaN; integers always are.
func IsFinite[T tensor.Number](a T) bool {
	if tensor.IsFloat[T]() {
		x := float64(a)
		return !math.IsInf(x, 0) && !math.IsNaN(x)
	}
	return true
}

// IsInf reports whether a is +Inf or -Inf; integers never are.
func IsInf[T tensor.Number](a T) bool {
	if tensor.IsFloat[T]() {
		return math.IsInf(float64(a), 0)
	}
	return false
}

// Nextafter returns the next value of T after a toward b (NumPy's
// nextafter): math.Nextafter32 for float32, math.Nextafter otherwise; b
// itself where a == b (so nextafter(0, -0) is -0, as in C), NaN where
// either is NaN.
func Nextafter[T tensor.Number](a, b T) T {
	if a == b { // Go's functions return a
		return b
	}
	if tensor.IsFloat[T]() && tensor.ItemSize[T]() == 4 { // float32, or a type defined on it
		return T(math.Nextafter32(float32(a), float32(b)))
	}
	return T(math.Nextafter(float64(a), float64(b)))
}

// Fmax returns the larger of a and b ignoring a NaN (NumPy's fmax): b when
// a is NaN, a when b is, NaN when both are; of two equal operands b.
func Fmax[T tensor.Number](a, b T) T {
	if b != b || a > b {
		return a
	}
	return b
}

// Fmin is Fmax for the smaller operand (NumPy's fmin).
func Fmin[T tensor.Number](a, b T) T {
	if b != b || a < b {
		return a
	}
	return b
}

// Fmod returns C's fmod(a, b) (NumPy's fmod): the remainder of a / b
// truncated toward zero, with a's sign; for integers 0 where b is 0 (as
// NumPy) or -1 (where the quotient overflows).
func Fmod[T tensor.Number](a, b T) T {
	if tensor.IsFloat[T]() {
		return T(math.Mod(float64(a), float64(b))) // exact, so the same in float32
	}
	if b == 0 || b+1 == 0 && b < 0 {
		return 0
	}
	return a - (a/b)*b // Go's / truncates toward zero
}

// LogAddExp returns log(exp(a) + exp(b)) without overflow, in float64
// rounded to T (NumPy's npy_logaddexp): a + log 2 where a == b (which keeps
// an infinity), NaN where either is NaN.
func LogAddExp[T tensor.Number](a, b T) T {
	x, y := float64(a), float64(b)
	if x == y {
		return T(x + math.Ln2)
	}
	switch d := x - y; {
	case d > 0:
		return T(x + math.Log1p(math.Exp(-d)))
	case d <= 0:
		return T(y + math.Log1p(math.Exp(d)))
	default:
		return T(d) // NaN
	}
}

// LogAddExp2 returns log2(2**a + 2**b) without overflow, in float64
// rounded to T (NumPy's npy_logaddexp2): a + 1 where a == b.
func LogAddExp2[T tensor.Number](a, b T) T {
	x, y := float64(a), float64(b)
	if x == y {
		return T(x + 1)
	}
	switch d := x - y; {
	case d > 0:
		return T(x + math.Log1p(math.Exp2(-d))/math.Ln2)
	case d <= 0:
		return T(y + math.Log1p(math.Exp2(d))/math.Ln2)
	default:
		return T(d) // NaN
	}
}

// Heaviside returns 0 where a < 0, 1 where a > 0, b where a is ±0 and NaN
// where a is NaN (NumPy's heaviside).
func Heaviside[T tensor.Number](a, b T) T {
	switch {
	case a < 0:
		return 0
	case a > 0:
		return 1
	case a == 0:
		return b
	}
	return a // NaN
}

// Signbit reports whether a's sign bit is set: math.Signbit for floats (-0
// and a NaN with its sign bit set are negative), a < 0 for integers.
func Signbit[T tensor.Number](a T) bool {
	switch {
	case !tensor.IsFloat[T]():
		return a < 0
	case tensor.ItemSize[T]() == 4:
		return math.Float32bits(float32(a))>>31 != 0
	}
	return math.Signbit(float64(a))
}

// Spacing returns the distance from a to the next value of T away from
// zero, negative for negative a (NumPy's spacing): the smallest subnormal at
// ±0, +Inf past the largest finite value, NaN at ±Inf and NaN.
func Spacing[T tensor.Number](a T) T {
	if IsInf(a) {
		return T(math.NaN())
	}
	toward := math.Inf(1)
	if a < 0 {
		toward = math.Inf(-1)
	}
	return Nextafter(a, T(toward)) - a
}

// Ldexp returns a * 2**b, exact until rounded once to T (NumPy's ldexp):
// b is truncated to an integer and NaN where b is NaN. float32 computes in
// float64, where the product is exact for every float32 a and every
// exponent with a float32 result.
func Ldexp[T tensor.Number](a, b T) T {
	e := float64(b)
	switch {
	case e != e:
		return T(e)
	case e > 1<<12:
		e = 1 << 12 // beyond every float's range: the result is ±Inf, or 0 for a = 0
	case e < -(1 << 12):
		e = -(1 << 12)
	}
	return T(math.Ldexp(float64(a), int(e)))
}
