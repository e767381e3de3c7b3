package vmath

import (
	"math"
	"math/bits"

	"github.com/laze-go/laze/internal/scalar"
)

// The scalar references: the definitions of the op table (internal/ops)
// for float64 and float32. The float32 forms compute in float64 and round
// once, as the scalar build does.

func expRef64(x float64) float64           { return math.Exp(x) }
func logRef64(x float64) float64           { return scalar.Log(x) }
func tanhRef64(x float64) float64          { return math.Tanh(x) }
func sigmoidRef64(x float64) float64       { return 1 / (1 + math.Exp(-x)) }
func sinRef64(x float64) float64           { return math.Sin(x) }
func cosRef64(x float64) float64           { return math.Cos(x) }
func powRef64(x, y float64) float64        { return scalar.Pow(x, y) }
func hypotRef64(x, y float64) float64      { return math.Hypot(x, y) }
func atan2Ref64(y, x float64) float64      { return scalar.Atan2(y, x) }
func logaddexpRef64(x, y float64) float64  { return scalar.LogAddExp(x, y) }
func logaddexp2Ref64(x, y float64) float64 { return scalar.LogAddExp2(x, y) }
func log10Ref64(x float64) float64         { return scalar.Log10(x) }
func log2Ref64(x float64) float64          { return scalar.Log2(x) }
func coshRef64(x float64) float64          { return scalar.Cosh(x) }
func sinhRef64(x float64) float64          { return scalar.Sinh(x) }
func exp2Ref64(x float64) float64          { return math.Exp2(x) }
func expm1Ref64(x float64) float64         { return math.Expm1(x) }
func log1pRef64(x float64) float64         { return math.Log1p(x) }
func tanRef64(x float64) float64           { return math.Tan(x) }
func atanRef64(x float64) float64          { return math.Atan(x) }
func asinRef64(x float64) float64          { return math.Asin(x) }
func acosRef64(x float64) float64          { return scalar.Acos(x) }
func asinhRef64(x float64) float64         { return math.Asinh(x) }
func acoshRef64(x float64) float64         { return math.Acosh(x) }
func atanhRef64(x float64) float64         { return math.Atanh(x) }
func cbrtRef64(x float64) float64          { return math.Cbrt(x) }
func erfRef64(x float64) float64           { return math.Erf(x) }
func erfcRef64(x float64) float64          { return math.Erfc(x) }

func expRef32(x float32) float32           { return float32(math.Exp(float64(x))) }
func logRef32(x float32) float32           { return scalar.Log(x) }
func tanhRef32(x float32) float32          { return float32(math.Tanh(float64(x))) }
func sigmoidRef32(x float32) float32       { return float32(1 / (1 + math.Exp(-float64(x)))) }
func sinRef32(x float32) float32           { return float32(math.Sin(float64(x))) }
func cosRef32(x float32) float32           { return float32(math.Cos(float64(x))) }
func powRef32(x, y float32) float32        { return scalar.Pow(x, y) }
func hypotRef32(x, y float32) float32      { return float32(math.Hypot(float64(x), float64(y))) }
func atan2Ref32(y, x float32) float32      { return scalar.Atan2(y, x) }
func logaddexpRef32(x, y float32) float32  { return scalar.LogAddExp(x, y) }
func logaddexp2Ref32(x, y float32) float32 { return scalar.LogAddExp2(x, y) }
func log10Ref32(x float32) float32         { return scalar.Log10(x) }
func log2Ref32(x float32) float32          { return scalar.Log2(x) }
func coshRef32(x float32) float32          { return scalar.Cosh(x) }
func sinhRef32(x float32) float32          { return scalar.Sinh(x) }
func exp2Ref32(x float32) float32          { return float32(math.Exp2(float64(x))) }
func expm1Ref32(x float32) float32         { return float32(math.Expm1(float64(x))) }
func log1pRef32(x float32) float32         { return float32(math.Log1p(float64(x))) }
func tanRef32(x float32) float32           { return float32(math.Tan(float64(x))) }
func atanRef32(x float32) float32          { return float32(math.Atan(float64(x))) }
func asinRef32(x float32) float32          { return float32(math.Asin(float64(x))) }
func acosRef32(x float32) float32          { return scalar.Acos(x) }
func asinhRef32(x float32) float32         { return float32(math.Asinh(float64(x))) }
func acoshRef32(x float32) float32         { return float32(math.Acosh(float64(x))) }
func atanhRef32(x float32) float32         { return float32(math.Atanh(float64(x))) }
func cbrtRef32(x float32) float32          { return float32(math.Cbrt(float64(x))) }
func erfRef32(x float32) float32           { return float32(math.Erf(float64(x))) }
func erfcRef32(x float32) float32          { return float32(math.Erfc(float64(x))) }

// fix64 recomputes with f the lanes of d whose bit is set in bad, from the
// inputs saved in xs (d may alias the input); lanes past len(xs) are padding.
func fix64(d, xs []float64, bad uint, f func(float64) float64) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = f(xs[k])
		}
	}
}

// fix32 is fix64 for float32.
func fix32(d, xs []float32, bad uint, f func(float32) float32) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = f(xs[k])
		}
	}
}

// fix2_64 recomputes with f the lanes of d whose bit is set in bad, from
// the operands saved in xs and ys (d may alias them); lanes past len(xs)
// are padding.
func fix2_64(d, xs, ys []float64, bad uint, f func(x, y float64) float64) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = f(xs[k], ys[k])
		}
	}
}

// fix2_32 is fix2_64 for float32.
func fix2_32(d, xs, ys []float32, bad uint, f func(x, y float32) float32) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = f(xs[k], ys[k])
		}
	}
}

// via64Block is the block size of the float32 forms that run a float64
// kernel over converted operands (the generated …32Via64 functions): 2 KiB
// of float64 per operand, on the stack.
const via64Block = 256
