package expr

import "github.com/laze-go/laze/tensor"

// NumPy's ufuncs of two results (modf, frexp, divmod) are pairs of trees
// here, built from the op table's ops: evaluate both at once with
// kernels.AssignAll (one fused pass over the shared operand), or either
// alone with Assign.

// Modf returns the fractional and the integral parts of x, both with x's
// sign, as NumPy's modf: modf(-3.5) is (-0.5, -3), modf(±Inf) is (±0,
// ±Inf), modf(NaN) is (NaN, NaN). The integral part is Trunc(x); the
// fractional part x - Trunc(x) is exact.
func Modf[T tensor.Float](x Exp[T]) (frac, whole Exp[T]) {
	x = bare(x)
	whole = Trunc(x)
	inside := Where(IsInf(x), Scalar[T](0), Sub(x, whole))
	return Copysign(inside, x), whole
}

// Frexp returns the mantissa and the exponent of x, x = mantissa·2^exponent
// with |mantissa| in [0.5, 1), as NumPy's frexp (and C's): (0, 0) for ±0
// (the zero keeps its sign), (x, 0) for ±Inf and NaN; subnormals are
// exact. The exponent is Logb(x) + 1 where x is finite and nonzero, as
// int32 (NumPy's and PyTorch's dtype for it), and the mantissa Ldexp(x,
// -exponent), exact.
func Frexp[T tensor.Float](x Exp[T]) (mantissa Exp[T], exponent Exp[int32]) {
	x = bare(x)
	normal := LogicalAnd(IsFinite(x), NeScalar(x, 0))
	e := Where(normal, AddScalar(Logb(x), 1), Scalar[T](0))
	return Ldexp(x, Neg(e)), Cast[int32](e)
}

// DivMod returns x // y and x % y (FloorDiv and Mod), as NumPy's divmod:
// the quotient rounded toward -Inf and the remainder with y's sign, so that
// q·y + r is x.
func DivMod[T tensor.Number](x, y Exp[T]) (quotient, remainder Exp[T]) {
	x, y = bare(x), bare(y)
	return FloorDiv(x, y), Mod(x, y)
}
