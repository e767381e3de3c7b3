package vmath

import (
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/scalar"
)

//go:generate go run -C asmgen . -dir ..
//go:generate go run ./gen

// Float is the element types of the generic wrappers.
type Float interface{ ~float32 | ~float64 }

// Width returns the number of float64 lanes the functions process at once
// at the level isa.Selected() names: 4 with the AVX2 assembly (level AVX2),
// 8 with the AVX-512 assembly (level AVX512), 2 with arm64's NEON kernels,
// 1 for the scalar loops (level Generic, and every other platform). A
// float32 vector holds twice as
// many lanes.
func Width() int { return widthOf(isa.Selected()) }

// Approx32 reports whether the float32 functions (exp, log, tanh, sigmoid,
// sin, cos, log10, log2, cosh, sinh, exp2, expm1, log1p, tan, atan, asin,
// acos, asinh, acosh, atanh, cbrt, and atan2 and pow of two operands) of
// the level isa.Selected() names are vmath's float32 kernels, within 4 ulp
// of the references (the AVX2 and AVX-512 assembly, and NEON; pow's
// within 1), rather than the references' bits (the scalar loops). float32
// erf, erfc, hypot, logaddexp and logaddexp2 give the references' bits at
// every level.
func Approx32() bool { return approx32Of(isa.Selected()) }

// Approx64 reports whether the selected level computes the float64
// function name (Exp for Exp64, Exp2_ for Exp2_64: the op table's VMath
// field) with a kernel of its own, within the accuracy rule (at most 4 ulp
// from its reference; NaN, ±Inf, ±0 and the lanes out of the kernel's
// domain exact) rather than with its reference's algorithm bit for bit:
// most float64 functions at the AVX-512 level (doc.go, "The AVX-512
// level's own float64 kernels"), and pow at every vector level (doc.go,
// "pow").
func Approx64(name string) bool { return approx64Of(isa.Selected(), name) }

// Exp64 sets d[i] = math.Exp(x[i]) for i < len(d). x must be at least as
// long as d; d may be x itself but must not otherwise overlap it.
func Exp64(d, x []float64) { exp64Impl(d, x) }

// Exp32 sets d[i] = float32(math.Exp(float64(x[i]))), as Exp64.
func Exp32(d, x []float32) { exp32Impl(d, x) }

// Log64 sets d[i] = scalar.Log(x[i]) (math.Log, with subnormals scaled
// into the normal range), as Exp64.
func Log64(d, x []float64) { log64Impl(d, x) }

// Log32 sets d[i] = float32(scalar.Log(float64(x[i]))), as Exp64.
func Log32(d, x []float32) { log32Impl(d, x) }

// Tanh64 sets d[i] = math.Tanh(x[i]), as Exp64.
func Tanh64(d, x []float64) { tanh64Impl(d, x) }

// Tanh32 sets d[i] = float32(math.Tanh(float64(x[i]))), as Exp64.
func Tanh32(d, x []float32) { tanh32Impl(d, x) }

// Sigmoid64 sets d[i] = 1 / (1 + math.Exp(-x[i])), as Exp64.
func Sigmoid64(d, x []float64) { sigmoid64Impl(d, x) }

// Sigmoid32 sets d[i] = float32(1 / (1 + math.Exp(-float64(x[i])))), as
// Exp64.
func Sigmoid32(d, x []float32) { sigmoid32Impl(d, x) }

// Sin64 sets d[i] = math.Sin(x[i]), as Exp64.
func Sin64(d, x []float64) { sin64Impl(d, x) }

// Sin32 sets d[i] = float32(math.Sin(float64(x[i]))), as Exp64.
func Sin32(d, x []float32) { sin32Impl(d, x) }

// Cos64 sets d[i] = math.Cos(x[i]), as Exp64.
func Cos64(d, x []float64) { cos64Impl(d, x) }

// Cos32 sets d[i] = float32(math.Cos(float64(x[i]))), as Exp64.
func Cos32(d, x []float32) { cos32Impl(d, x) }

// Log10_64 sets d[i] = math.Log10(x[i]), as Exp64.
func Log10_64(d, x []float64) { log10_64Impl(d, x) }

// Log10_32 sets d[i] = float32(math.Log10(float64(x[i]))), as Exp64.
func Log10_32(d, x []float32) { log10_32Impl(d, x) }

// Log2_64 sets d[i] = math.Log2(x[i]) (exact at powers of two), as Exp64.
func Log2_64(d, x []float64) { log2_64Impl(d, x) }

// Log2_32 sets d[i] = float32(math.Log2(float64(x[i]))), as Exp64.
func Log2_32(d, x []float32) { log2_32Impl(d, x) }

// Cosh64 sets d[i] = math.Cosh(x[i]), as Exp64.
func Cosh64(d, x []float64) { cosh64Impl(d, x) }

// Cosh32 sets d[i] = float32(math.Cosh(float64(x[i]))), as Exp64.
func Cosh32(d, x []float32) { cosh32Impl(d, x) }

// Sinh64 sets d[i] = math.Sinh(x[i]), as Exp64.
func Sinh64(d, x []float64) { sinh64Impl(d, x) }

// Sinh32 sets d[i] = float32(math.Sinh(float64(x[i]))), as Exp64.
func Sinh32(d, x []float32) { sinh32Impl(d, x) }

// Exp2_64 sets d[i] = math.Exp2(x[i]), as Exp64.
func Exp2_64(d, x []float64) { exp2_64Impl(d, x) }

// Exp2_32 sets d[i] = float32(math.Exp2(float64(x[i]))), as Exp64.
func Exp2_32(d, x []float32) { exp2_32Impl(d, x) }

// Expm1_64 sets d[i] = math.Expm1(x[i]), as Exp64.
func Expm1_64(d, x []float64) { expm1_64Impl(d, x) }

// Expm1_32 sets d[i] = float32(math.Expm1(float64(x[i]))), as Exp64.
func Expm1_32(d, x []float32) { expm1_32Impl(d, x) }

// Log1p64 sets d[i] = math.Log1p(x[i]), as Exp64.
func Log1p64(d, x []float64) { log1p64Impl(d, x) }

// Log1p32 sets d[i] = float32(math.Log1p(float64(x[i]))), as Exp64.
func Log1p32(d, x []float32) { log1p32Impl(d, x) }

// Tan64 sets d[i] = math.Tan(x[i]), as Exp64.
func Tan64(d, x []float64) { tan64Impl(d, x) }

// Tan32 sets d[i] = float32(math.Tan(float64(x[i]))), as Exp64.
func Tan32(d, x []float32) { tan32Impl(d, x) }

// Atan64 sets d[i] = math.Atan(x[i]), as Exp64.
func Atan64(d, x []float64) { atan64Impl(d, x) }

// Atan32 sets d[i] = float32(math.Atan(float64(x[i]))), as Exp64.
func Atan32(d, x []float32) { atan32Impl(d, x) }

// Asin64 sets d[i] = math.Asin(x[i]), as Exp64.
func Asin64(d, x []float64) { asin64Impl(d, x) }

// Asin32 sets d[i] = float32(math.Asin(float64(x[i]))), as Exp64.
func Asin32(d, x []float32) { asin32Impl(d, x) }

// Acos64 sets d[i] = math.Acos(x[i]), as Exp64.
func Acos64(d, x []float64) { acos64Impl(d, x) }

// Acos32 sets d[i] = float32(math.Acos(float64(x[i]))), as Exp64.
func Acos32(d, x []float32) { acos32Impl(d, x) }

// Asinh64 sets d[i] = math.Asinh(x[i]), as Exp64.
func Asinh64(d, x []float64) { asinh64Impl(d, x) }

// Asinh32 sets d[i] = float32(math.Asinh(float64(x[i]))), as Exp64.
func Asinh32(d, x []float32) { asinh32Impl(d, x) }

// Acosh64 sets d[i] = math.Acosh(x[i]), as Exp64.
func Acosh64(d, x []float64) { acosh64Impl(d, x) }

// Acosh32 sets d[i] = float32(math.Acosh(float64(x[i]))), as Exp64.
func Acosh32(d, x []float32) { acosh32Impl(d, x) }

// Atanh64 sets d[i] = math.Atanh(x[i]), as Exp64.
func Atanh64(d, x []float64) { atanh64Impl(d, x) }

// Atanh32 sets d[i] = float32(math.Atanh(float64(x[i]))), as Exp64.
func Atanh32(d, x []float32) { atanh32Impl(d, x) }

// Cbrt64 sets d[i] = math.Cbrt(x[i]), as Exp64.
func Cbrt64(d, x []float64) { cbrt64Impl(d, x) }

// Cbrt32 sets d[i] = float32(math.Cbrt(float64(x[i]))), as Exp64: the
// reference's bits at every level (computed through float64).
func Cbrt32(d, x []float32) { cbrt32Impl(d, x) }

// Erf64 sets d[i] = math.Erf(x[i]), as Exp64.
func Erf64(d, x []float64) { erf64Impl(d, x) }

// Erf32 sets d[i] = float32(math.Erf(float64(x[i]))), as Cbrt32.
func Erf32(d, x []float32) { erf32Impl(d, x) }

// Erfc64 sets d[i] = math.Erfc(x[i]), as Exp64.
func Erfc64(d, x []float64) { erfc64Impl(d, x) }

// Erfc32 sets d[i] = float32(math.Erfc(float64(x[i]))), as Cbrt32.
func Erfc32(d, x []float32) { erfc32Impl(d, x) }

// Pow64 sets d[i] = scalar.Pow(x[i], y[i]) (e^(y·log x) in double-double,
// within half an ulp of the truth; the vector levels' kernels within 1 ulp
// of it: doc.go, "pow") for i < len(d). x and y must be at least
// as long as d; d may be x or y itself but must not otherwise overlap them.
func Pow64(d, x, y []float64) { pow64Impl(d, x, y) }

// Pow32 sets d[i] = scalar.Pow(x[i], y[i]) computed in float64 and rounded
// once (the vector levels' kernels within 1 ulp of it), as Pow64.
func Pow32(d, x, y []float32) { pow32Impl(d, x, y) }

// PowScalar64 sets d[i] = scalar.Pow(x[i], y), as Pow64. The exponents
// 0, 1, 2, -1 and 1/2 take loops of their own at every level (1, x, x·x,
// 1/x, √x: scalar.PowSpecialExponent's bits, the reference's), as in
// PyTorch: x**2 costs a multiplication, not a pow.
func PowScalar64(d, x []float64, y float64) {
	if !powSpecialExponent(d, x, y) {
		powScalar64Impl(d, x, y)
	}
}

// PowScalar32 sets d[i] = scalar.Pow(x[i], y) in float64 rounded once, as
// PowScalar64.
func PowScalar32(d, x []float32, y float32) {
	if !powSpecialExponent(d, x, y) {
		powScalar32Impl(d, x, y)
	}
}

// powSpecialExponent sets d[i] = x[i]**y and reports true where y is 0 or
// one of scalar.PowSpecialExponent's exponents, computing the same bits
// (float32 through float64, rounded once).
func powSpecialExponent[T Float](d, x []T, y T) bool {
	x = x[:len(d)]
	switch y {
	case 0:
		for i := range d {
			d[i] = 1
		}
	case 1:
		copy(d, x)
	case 2:
		for i, v := range x {
			d[i] = v * v
		}
	case -1, 0.5:
		for i, v := range x {
			r, _ := scalar.PowSpecialExponent(float64(v), float64(y))
			d[i] = T(r)
		}
	default:
		return false
	}
	return true
}

// ScalarPow64 sets d[i] = scalar.Pow(x, y[i]), as Pow64.
func ScalarPow64(d []float64, x float64, y []float64) { scalarPow64Impl(d, x, y) }

// ScalarPow32 sets d[i] = scalar.Pow(x, y[i]) in float64 rounded once, as
// Pow64.
func ScalarPow32(d []float32, x float32, y []float32) { scalarPow32Impl(d, x, y) }

// Hypot64 sets d[i] = math.Hypot(x[i], y[i]), as Pow64.
func Hypot64(d, x, y []float64) { hypot64Impl(d, x, y) }

// Hypot32 sets d[i] = float32(math.Hypot(float64(x[i]), float64(y[i]))), as
// Pow64: the reference's bits at every level (computed in float64).
func Hypot32(d, x, y []float32) { hypot32Impl(d, x, y) }

// HypotScalar64 sets d[i] = math.Hypot(x[i], y), as Pow64.
func HypotScalar64(d, x []float64, y float64) { hypotScalar64Impl(d, x, y) }

// HypotScalar32 is Hypot32 with a scalar y.
func HypotScalar32(d, x []float32, y float32) { hypotScalar32Impl(d, x, y) }

// ScalarHypot64 sets d[i] = math.Hypot(x, y[i]), as Pow64.
func ScalarHypot64(d []float64, x float64, y []float64) { scalarHypot64Impl(d, x, y) }

// ScalarHypot32 is Hypot32 with a scalar x.
func ScalarHypot32(d []float32, x float32, y []float32) { scalarHypot32Impl(d, x, y) }

// Atan2_64 sets d[i] = scalar.Atan2(x[i], y[i]), the angle of the point
// (y[i], x[i]) (NumPy's arctan2(x1, x2): math.Atan2(x[i], y[i]) with x[i]'s
// sign on the result), as Pow64.
func Atan2_64(d, x, y []float64) { atan2_64Impl(d, x, y) }

// Atan2_32 sets d[i] = scalar.Atan2 of the operands in float64,
// rounded once, as Pow64: the reference's bits at every level.
func Atan2_32(d, x, y []float32) { atan2_32Impl(d, x, y) }

// Atan2Scalar64 is Atan2_64 with a scalar y.
func Atan2Scalar64(d, x []float64, y float64) { atan2Scalar64Impl(d, x, y) }

// Atan2Scalar32 is Atan2_32 with a scalar y.
func Atan2Scalar32(d, x []float32, y float32) { atan2Scalar32Impl(d, x, y) }

// ScalarAtan2_64 is Atan2_64 with a scalar x.
func ScalarAtan2_64(d []float64, x float64, y []float64) { scalarAtan2_64Impl(d, x, y) }

// ScalarAtan2_32 is Atan2_32 with a scalar x.
func ScalarAtan2_32(d []float32, x float32, y []float32) { scalarAtan2_32Impl(d, x, y) }

// Logaddexp64 sets d[i] = scalar.LogAddExp(x[i], y[i]), log(exp(x) +
// exp(y)) without overflow, as Pow64.
func Logaddexp64(d, x, y []float64) { logaddexp64Impl(d, x, y) }

// Logaddexp32 sets d[i] = scalar.LogAddExp of the operands in float64,
// rounded once, as Pow64: the reference's bits at every level (the AVX2
// and AVX512 levels run the float64 kernel over blocks converted to
// float64: no float32 kernel fits their registers).
func Logaddexp32(d, x, y []float32) { logaddexp32Impl(d, x, y) }

// LogaddexpScalar64 is Logaddexp64 with a scalar y.
func LogaddexpScalar64(d, x []float64, y float64) { logaddexpScalar64Impl(d, x, y) }

// LogaddexpScalar32 is Logaddexp32 with a scalar y.
func LogaddexpScalar32(d, x []float32, y float32) { logaddexpScalar32Impl(d, x, y) }

// ScalarLogaddexp64 is Logaddexp64 with a scalar x.
func ScalarLogaddexp64(d []float64, x float64, y []float64) { scalarLogaddexp64Impl(d, x, y) }

// ScalarLogaddexp32 is Logaddexp32 with a scalar x.
func ScalarLogaddexp32(d []float32, x float32, y []float32) { scalarLogaddexp32Impl(d, x, y) }

// Logaddexp2_64 sets d[i] = scalar.LogAddExp2(x[i], y[i]), log2(2^x +
// 2^y) without overflow, as Pow64.
func Logaddexp2_64(d, x, y []float64) { logaddexp2_64Impl(d, x, y) }

// Logaddexp2_32 sets d[i] = scalar.LogAddExp2 of the operands in float64,
// rounded once, as Pow64: the reference's bits at every level (the AVX2
// and AVX512 levels run the float64 kernel over blocks converted to
// float64: no float32 kernel fits their registers).
func Logaddexp2_32(d, x, y []float32) { logaddexp2_32Impl(d, x, y) }

// Logaddexp2Scalar64 is Logaddexp2_64 with a scalar y.
func Logaddexp2Scalar64(d, x []float64, y float64) { logaddexp2Scalar64Impl(d, x, y) }

// Logaddexp2Scalar32 is Logaddexp2_32 with a scalar y.
func Logaddexp2Scalar32(d, x []float32, y float32) { logaddexp2Scalar32Impl(d, x, y) }

// ScalarLogaddexp2_64 is Logaddexp2_64 with a scalar x.
func ScalarLogaddexp2_64(d []float64, x float64, y []float64) { scalarLogaddexp2_64Impl(d, x, y) }

// ScalarLogaddexp2_32 is Logaddexp2_32 with a scalar x.
func ScalarLogaddexp2_32(d []float32, x float32, y []float32) { scalarLogaddexp2_32Impl(d, x, y) }
