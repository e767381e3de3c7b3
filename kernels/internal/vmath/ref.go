package vmath

import (
	"math"
	"math/bits"

	"github.com/laze-go/laze/internal/scalar"
)

// The scalar references: the definitions of the op table (internal/ops)
// for float64 and float32. The float32 forms compute in float64 and round
// once, as the scalar build does.

func expRef64(x float64) float64     { return math.Exp(x) }
func logRef64(x float64) float64     { return scalar.Log(x) }
func tanhRef64(x float64) float64    { return math.Tanh(x) }
func sigmoidRef64(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
func sinRef64(x float64) float64     { return math.Sin(x) }
func cosRef64(x float64) float64     { return math.Cos(x) }
func powRef64(x, y float64) float64  { return scalar.Pow(x, y) }

func expRef32(x float32) float32     { return float32(math.Exp(float64(x))) }
func logRef32(x float32) float32     { return scalar.Log(x) }
func tanhRef32(x float32) float32    { return float32(math.Tanh(float64(x))) }
func sigmoidRef32(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }
func sinRef32(x float32) float32     { return float32(math.Sin(float64(x))) }
func cosRef32(x float32) float32     { return float32(math.Cos(float64(x))) }
func powRef32(x, y float32) float32  { return scalar.Pow(x, y) }

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

// fixPow64 is fix64 for pow.
func fixPow64(d, xs, ys []float64, bad uint) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = powRef64(xs[k], ys[k])
		}
	}
}

// fixPow32 is fixPow64 for float32.
func fixPow32(d, xs, ys []float32, bad uint) {
	for ; bad != 0; bad &= bad - 1 {
		if k := bits.TrailingZeros(bad); k < len(xs) {
			d[k] = powRef32(xs[k], ys[k])
		}
	}
}
