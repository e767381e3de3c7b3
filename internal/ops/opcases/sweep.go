package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// Sweep returns the inputs of the float functions' range sweep: zeros,
// subnormals, every third power of ten from 1e-300 to 1e300 scaled by
// three mantissas, the domain edges of the exponential, inverse and
// hyperbolic functions, infinities and NaN, and 1,200 seeded random values
// in [-10, 10], [-1, 1] and just above 1; each with both signs.
func Sweep() []float64 {
	vs := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, 2.2250738585072014e-308, 1e-45, 1.2e-38,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.MaxFloat32, 1, 0.5, 2, math.Pi / 2, math.Pi, 88.7, 709.8, 710, -745.2}
	for e := -300; e <= 300; e += 3 {
		for _, m := range []float64{1, 1.7, 3.14159} {
			vs = append(vs, m*math.Pow(10, float64(e)))
		}
	}
	r := rand.New(rand.NewPCG(31, 1))
	for range 400 {
		vs = append(vs, 20*r.Float64()-10, 2*r.Float64()-1, 1+1e-6*r.Float64())
	}
	n := len(vs)
	for _, v := range vs[:n] {
		vs = append(vs, -v)
	}
	return vs
}

// SweepGrid returns every 29th value of Sweep: the operands of the
// two-operand functions' sweep, which pairs each with each.
func SweepGrid() []float64 {
	xs := Sweep()
	var grid []float64
	for i := 0; i < len(xs); i += 29 {
		grid = append(grid, xs[i])
	}
	return grid
}

// SweepOperands returns the sweep's operands for a function of arity 1
// (Sweep, twice) or 2 (each pair of SweepGrid's values).
func SweepOperands(arity int) (a, b []float64) {
	if arity == 1 {
		xs := Sweep()
		return xs, xs
	}
	grid := SweepGrid()
	for _, x := range grid {
		for _, y := range grid {
			a, b = append(a, x), append(b, y)
		}
	}
	return a, b
}

// FloatFunctions returns the op table's functions of one or two operands
// that take floats: those the sweep checks.
func FloatFunctions() []ops.Op {
	var fs []ops.Op
	for _, op := range ops.All() {
		if op.Def().Domain.Accepts(true) && op.Arity() < 3 {
			fs = append(fs, op)
		}
	}
	return fs
}

// Vectors returns a and b as vectors of T (b's values where a function
// has one operand are unused).
func Vectors[T tensor.Float](a, b []float64) (x, y *tensor.Tensor[T]) {
	x, y = tensor.Zeros[T](len(a)), tensor.Zeros[T](len(b))
	for i := range a {
		x.Set(T(a[i]), i)
		y.Set(T(b[i]), i)
	}
	return x, y
}

// ULPDistance returns how far got is from want in units in the last place
// of T: the number of T values between them plus one, 0 when they are the
// same. Where want is NaN, ±Inf or ±0, got must be exactly it (a NaN
// matching any NaN); that and a got that is special, or of the other sign,
// where want is not, give math.MaxUint64.
func ULPDistance[T tensor.Float](got, want T) uint64 {
	g, w := float64(got), float64(want)
	switch {
	case w != w:
		if g != g {
			return 0
		}
		return math.MaxUint64
	case math.IsInf(w, 0) || w == 0:
		if g == w && math.Signbit(g) == math.Signbit(w) {
			return 0
		}
		return math.MaxUint64
	case g != g || math.IsInf(g, 0) || math.Signbit(g) != math.Signbit(w):
		return math.MaxUint64
	}
	var gi, wi uint64
	if tensor.ItemSize[T]() == 4 {
		gi, wi = uint64(math.Float32bits(float32(math.Abs(g)))), uint64(math.Float32bits(float32(math.Abs(w))))
	} else {
		gi, wi = math.Float64bits(math.Abs(g)), math.Float64bits(math.Abs(w))
	}
	if gi > wi {
		gi, wi = wi, gi
	}
	return wi - gi
}
