package vmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/internal/isa"
)

// maxULP is the accuracy rule: at most 4 units in the last place from the
// scalar reference, and exactly the reference's NaN, infinities and zeros.
// maxULP32 is the same rule for the float32 polynomials (every function
// but pow at the AVX2 and NEON levels), against float32(f(float64(x))).
//
// The kernels do better than the rule where doc.go says so: the float64
// kernels and the float32 ones computed through float64 (pow) give the
// references' bits, which the sweeps check (tolerance).
const (
	maxULP   = 4
	maxULP32 = 4
)

type unaryFunc struct {
	name     string
	f64      func(d, x []float64)
	ref64    func(float64) float64
	f32      func(d, x []float32)
	ref32    func(float32) float32
	native32 bool // float32 polynomials of its own at the AVX2 level
}

var unaryFuncs = []unaryFunc{
	{"exp", Exp64, expRef64, Exp32, expRef32, true},
	{"log", Log64, logRef64, Log32, logRef32, true},
	{"tanh", Tanh64, tanhRef64, Tanh32, tanhRef32, true},
	{"sigmoid", Sigmoid64, sigmoidRef64, Sigmoid32, sigmoidRef32, true},
	{"sin", Sin64, sinRef64, Sin32, sinRef32, true},
	{"cos", Cos64, cosRef64, Cos32, cosRef32, true},
	{"log10", Log10_64, log10Ref64, Log10_32, log10Ref32, true},
	{"log2", Log2_64, log2Ref64, Log2_32, log2Ref32, true},
	{"cosh", Cosh64, coshRef64, Cosh32, coshRef32, true},
	{"sinh", Sinh64, sinhRef64, Sinh32, sinhRef32, true},
	{"exp2", Exp2_64, exp2Ref64, Exp2_32, exp2Ref32, true},
	{"expm1", Expm1_64, expm1Ref64, Expm1_32, expm1Ref32, true},
	{"log1p", Log1p64, log1pRef64, Log1p32, log1pRef32, true},
	{"tan", Tan64, tanRef64, Tan32, tanRef32, true},
	{"atan", Atan64, atanRef64, Atan32, atanRef32, true},
	{"asin", Asin64, asinRef64, Asin32, asinRef32, true},
	{"acos", Acos64, acosRef64, Acos32, acosRef32, true},
	{"asinh", Asinh64, asinhRef64, Asinh32, asinhRef32, true},
	{"acosh", Acosh64, acoshRef64, Acosh32, acoshRef32, true},
	{"atanh", Atanh64, atanhRef64, Atanh32, atanhRef32, true},
	{"cbrt", Cbrt64, cbrtRef64, Cbrt32, cbrtRef32, true},
	{"erf", Erf64, erfRef64, Erf32, erfRef32, false},
	{"erfc", Erfc64, erfcRef64, Erfc32, erfcRef32, false},
}

// tolerance32 is the largest distance in ulp the float32 form of fn may
// have from its reference at the level now selected: 0 where it computes
// through float64 (the scalar loops), maxULP32 for the float32 polynomials
// (AVX2, AVX-512 and NEON).
func tolerance32(fn unaryFunc) uint64 {
	if fn.native32 && Approx32() {
		return maxULP32
	}
	return 0
}

// exportedStem is the exported name's stem of the function called name in
// these tests (Exp for exp, Exp2_ for exp2: Exp2_64), as Approx64 takes it.
func exportedStem(name string) string {
	st := strings.ToUpper(name[:1]) + name[1:]
	if c := name[len(name)-1]; c >= '0' && c <= '9' {
		st += "_"
	}
	return st
}

// tolerance64 is the largest distance in ulp the float64 form of fn may
// have from its reference at the level now selected: 0 (its bits) but for
// the functions the level computes with kernels of its own (Approx64).
func tolerance64(fn unaryFunc) uint64 {
	if Approx64(exportedStem(fn.name)) {
		return maxULP
	}
	return 0
}

// levels lists the instruction-set levels this CPU runs, Generic (the
// scalar loops) first.
func levels() []isa.Level { return isa.Supported() }

// withLevel runs f with the kernels of level l (isa.Use), restoring the
// level before.
func withLevel(t testing.TB, l isa.Level, f func()) {
	t.Helper()
	old, err := isa.Use(l)
	if err != nil {
		t.Fatal(err)
	}
	defer isa.Use(old)
	f()
}

// ulp64 is the distance in units in the last place between got and want, or
// MaxUint64 where the rule needs an exact result (NaN, ±Inf, ±0 either
// side) and got is not it.
func ulp64(got, want float64) uint64 {
	if math.IsNaN(want) || math.IsNaN(got) {
		if math.IsNaN(want) && math.IsNaN(got) {
			return 0
		}
		return math.MaxUint64
	}
	if math.Float64bits(got) == math.Float64bits(want) {
		return 0
	}
	if want == 0 || got == 0 || math.IsInf(want, 0) || math.IsInf(got, 0) || math.Signbit(got) != math.Signbit(want) {
		return math.MaxUint64
	}
	a, b := math.Float64bits(math.Abs(got)), math.Float64bits(math.Abs(want))
	if a > b {
		return a - b
	}
	return b - a
}

// ulp32 is ulp64 for float32.
func ulp32(got, want float32) uint64 {
	if got != got || want != want {
		if got != got && want != want {
			return 0
		}
		return math.MaxUint64
	}
	if math.Float32bits(got) == math.Float32bits(want) {
		return 0
	}
	g, w := float64(got), float64(want)
	if w == 0 || g == 0 || math.IsInf(w, 0) || math.IsInf(g, 0) || math.Signbit(g) != math.Signbit(w) {
		return math.MaxUint64
	}
	a, b := math.Float32bits(got)&^(1<<31), math.Float32bits(want)&^(1<<31)
	if a > b {
		return uint64(a - b)
	}
	return uint64(b - a)
}

var specials64 = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
	1, -1, 0.5, -0.5, 2, -2, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, -0x1p-1022,
	0x1p-1022 - 0x1p-1074, 709.78, 709.782712893384, 709.79, 710, -708.39, -708.4, -745.1, -745.2,
	-746, 7.07106781186547524401e-01, math.Sqrt2, math.Pi, -math.Pi, math.Pi / 2, 1 << 29, 1<<29 - 1,
	-(1 << 29), 1 << 30, 1e22, 0.625, -0.625, 0.6249999999999999, 44.014845965556525, 44.01484596555653,
	20, -20, 1e-300, 5e-324, 1e-8, 88.72, -88.72, 89, -104, -103.9, 710.5, 36.7, -36.7,
	21, -21, 21.000000000000004, 0.5000000000000001, -0.5000000000000001, 709.4, 709.44, -709.44,
	1023.5, 1023.9999999999999, -1021.5, -1022.5, -1073.5, 0.49999999999999994, -0.49999999999999994, 2.5, -2.5,
	127.4, 127.5, -125.5, -126, -126.5, 88.38, 89.41, -89.41, 10, 1000, 0.1,
	0.41421356237309503, 0.4142135623730951, -0.2928932188134524, -0.29289321881345254, 0x1p53, 0x1p53 + 2,
	0x1p-29, 0x1p-29 - 0x1p-82, 0x1p-54, -0x1p-54, 3e-17, -0.9999999999999999, 1.0397207708399179, 0.34657359027997264,
	38.816242111356935, -38.816242111356935, -38.8, 0.3465735902799727, -0.3465735902799727,
	0.66, 0.6600000000000001, 2.414213562373095, 2.4142135623730954, 0.7, 0.7000000000000001, -0.7, 0.9999999999999999,
	0.41421356, 0.41421357, 2.4142134, 2.4142137,
}

// inputs64 returns points in every binade of both signs, the specials and
// random bit patterns.
func inputs64(perBinade, random int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	xs := append([]float64(nil), specials64...)
	for e := uint64(0); e < 2047; e++ {
		for k := 0; k < perBinade; k++ {
			m := r.Uint64() & fracMask
			switch k {
			case 0:
				m = 0
			case 1:
				m = fracMask
			}
			b := e<<52 | m
			xs = append(xs, math.Float64frombits(b), -math.Float64frombits(b))
		}
	}
	for k := 0; k < random; k++ {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	// dense in the ranges where the functions change shape
	for k := 0; k < random; k++ {
		xs = append(xs, (r.Float64()*2-1)*800)
		xs = append(xs, (r.Float64()*2-1)*50)
		xs = append(xs, math.Float64frombits(r.Uint64()&^(1<<63)|0x3fe0000000000000&^(1<<63)))
	}
	return xs
}

// sweepSize is how densely the sweeps sample: inputs per binade and random
// inputs of the float64 and binary sweeps, and the stride of the float32
// sweep over all 2^32 bit patterns. LAZE_VMATH_DENSE=1 samples as densely
// as make test did until 2026-11-29 (a float32 stride of 97: 44 million
// inputs per function and level, 2 of make test's 24 minutes in its two
// runs of this package); TestExhaustive32 checks every input.
func sweepSize() (perBinade, random, stride32 int) {
	switch {
	case os.Getenv("LAZE_VMATH_DENSE") == "1":
		return 16, 200000, 97
	case raceEnabled:
		return 2, 2000, 99991
	case testing.Short():
		return 4, 20000, 9973
	}
	return 16, 50000, 997
}

func TestSweep64(t *testing.T) {
	per, random, _ := sweepSize()
	xs := inputs64(per, random)
	for _, fn := range unaryFuncs {
		want := make([]float64, len(xs))
		for i, x := range xs {
			want[i] = fn.ref64(x)
		}
		for _, w := range levels() {
			t.Run(fmt.Sprintf("%s/%v", fn.name, w), func(t *testing.T) {
				got := make([]float64, len(xs))
				var tol uint64
				withLevel(t, w, func() { fn.f64(got, xs); tol = tolerance64(fn) })
				var worst uint64
				bad := 0
				for i := range xs {
					u := ulp64(got[i], want[i])
					if u > tol { // bit-identical, or within the rule
						if bad++; bad < 20 {
							t.Errorf("%s(%v [%#x]) = %v, want %v (%d ulp, allowed %d)", fn.name, xs[i], math.Float64bits(xs[i]), got[i], want[i], int64(u), tol)
						}
					}
					worst = max(worst, u)
				}
				t.Logf("%s float64 level %v: %d points, max %d ulp (allowed %d)", fn.name, w, len(xs), worst, tol)
			})
		}
	}
}

func TestSweep32(t *testing.T) {
	_, _, stride := sweepSize()
	xs := make([]float32, 0, int((1<<32)/uint64(stride))+64)
	for b := uint64(0); b < 1<<32; b += uint64(stride) {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	for _, s := range specials64 {
		xs = append(xs, float32(s))
	}
	xs = append(xs, math.Float32frombits(1), math.Float32frombits(0x80000001), math.MaxFloat32, -math.MaxFloat32,
		math.Float32frombits(0x007fffff), math.Float32frombits(0x00800000), math.Float32frombits(0x7f800001))
	want := make([]float32, len(xs))
	got := make([]float32, len(xs))
	for _, fn := range unaryFuncs {
		for i, x := range xs {
			want[i] = fn.ref32(x)
		}
		for _, w := range levels() {
			if w == isa.Generic && len(xs) > 1<<22 {
				continue // the scalar loop is the reference itself; TestSlices covers it
			}
			t.Run(fmt.Sprintf("%s/%v", fn.name, w), func(t *testing.T) {
				var tol uint64
				withLevel(t, w, func() {
					fn.f32(got, xs)
					tol = tolerance32(fn)
				})
				var worst uint64
				bad := 0
				for i := range xs {
					u := ulp32(got[i], want[i])
					if u > tol {
						if bad++; bad < 20 {
							t.Errorf("%s(%v [%#x]) = %v, want %v (%d ulp)", fn.name, xs[i], math.Float32bits(xs[i]), got[i], want[i], int64(u))
						}
					}
					worst = max(worst, u)
				}
				t.Logf("%s float32 level %v: %d points, max %d ulp (allowed %d)", fn.name, w, len(xs), worst, tol)
			})
		}
	}
}

// powInputs is a grid of bases and exponents: signs, zeros, subnormals,
// ±1, values near 1, integers, halves, huge and tiny magnitudes, Inf, NaN.
func powInputs(n int) (xs, ys []float64) {
	base := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, -0.5, 3, -3, 10, -10, 1e-300, -1e-300,
		5e-324, -5e-324, 1e-310, 0x1p-1022, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 1 + 0x1p-52, 1 - 0x1p-53, -1 - 0x1p-52, 0.999, 1.001,
		math.E, math.Pi, -math.Pi, 7, -7, 1.5, -1.5, 100, 1e-5, 12345.678, -0.1, 0.1}
	exps := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 3, -3, 0.5, -0.5, 1.5, -1.5, 2.5, 0.25, 1.0 / 3,
		-1.0 / 3, 10, -10, 11, -11, 100, -100, 1023, 1024, -1074, -1075, 1e10, -1e10, 1<<31 - 1, 1 << 31,
		1<<31 + 1, 1e300, -1e300, 0x1p-60, math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 7.5, -7.5, 63, 64,
		65, 1 << 53, 1<<53 + 2, 0.5000000000000001, 0.49999999999999994}
	for _, x := range base {
		for _, y := range exps {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < n; k++ {
		var x, y float64
		switch k % 7 {
		case 0: // random bits
			x, y = math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())
		case 1: // moderate results
			x = math.Exp(r.NormFloat64() * 10)
			y = r.NormFloat64() * 30
		case 2: // negative bases, integer exponents
			x = -math.Exp(r.NormFloat64() * 5)
			y = math.Round(r.NormFloat64() * 40)
		case 3: // near 1, large exponents, near the overflow and underflow
			x = 1 + r.NormFloat64()*1e-3
			y = r.NormFloat64() * 1e6
		case 4: // any magnitude, small exponents
			x = math.Float64frombits(r.Uint64() &^ (1 << 63))
			y = r.Float64()*8 - 4
		case 5: // |y·log x| up to 707 (the kernels' largest arguments of e^), bases from 1/50 to 50
			x = math.Exp(r.Float64()*8 - 4)
			if r.IntN(2) == 0 { // the cells nearest 1, where log x is smallest
				x = 1 + (r.Float64()*2-1)*0.05
			}
			y = (r.Float64()*2 - 1) * 707 / math.Log(x)
		case 6: // the same for float32's range, |y·log x| up to 89
			x = math.Exp(r.Float64()*8 - 4)
			if r.IntN(2) == 0 {
				x = 1 + (r.Float64()*2-1)*0.05
			}
			y = (r.Float64()*2 - 1) * 89 / math.Log(x)
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

// TestPowSpecial checks math.Pow's special-case table exactly, all three
// forms and both dtypes.
func TestPowSpecial(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	cases := []struct{ x, y, want float64 }{
		{nan, 0, 1}, {nan, nz, 1}, {1, nan, 1}, {1, inf, 1}, {5, 1, 5}, {nan, 1, nan}, {nan, 2, nan}, {2, nan, nan},
		{0, -3, inf}, {nz, -3, -inf}, {0, -2, inf}, {nz, -2.5, inf}, {0, -inf, inf}, {nz, -inf, inf},
		{0, 3, 0}, {nz, 3, nz}, {nz, 2, 0}, {nz, 2.5, 0}, {0, inf, 0},
		{-1, inf, 1}, {-1, -inf, 1}, {0.5, inf, 0}, {2, -inf, 0}, {0.5, -inf, inf}, {2, inf, inf},
		{inf, -2, 0}, {inf, 2, inf}, {-inf, 3, -inf}, {-inf, 2, inf}, {-inf, -3, nz}, {-inf, -2, 0},
		{-8, 1.0 / 3, nan}, {-2, 0.5, nan}, {4, 0.5, 2}, {4, -0.5, 0.5}, {-2, 3, -8}, {-2, -3, -0.125},
		{2, 1024, inf}, {2, -1075, 0}, {2, -1074, 5e-324}, {-2, 1025, -inf}, {-1, 1 << 60, 1}, {3, 1 << 60, inf},
		{0.5, 1 << 60, 0},
	}
	const n = 37 // the vector loops' lanes and the scalar tail's
	fill := func(v float64) []float64 { return slices.Repeat([]float64{v}, n) }
	fill32 := func(v float64) []float32 { return slices.Repeat([]float32{float32(v)}, n) }
	for _, w := range levels() {
		withLevel(t, w, func() {
			for _, c := range cases {
				d, d2, d3 := make([]float64, n), make([]float64, n), make([]float64, n)
				Pow64(d, fill(c.x), fill(c.y))
				PowScalar64(d2, fill(c.x), c.y)
				ScalarPow64(d3, c.x, fill(c.y))
				for _, g := range slices.Concat(d, d2, d3) {
					if ulp64(g, c.want) != 0 {
						t.Errorf("level %v: pow(%v, %v) = %v, want %v", w, c.x, c.y, g, c.want)
						break
					}
				}
				if ref := powRef64(c.x, c.y); ulp64(ref, c.want) != 0 {
					t.Errorf("reference pow(%v, %v) = %v, want %v", c.x, c.y, ref, c.want)
				}
				f, f2, f3 := make([]float32, n), make([]float32, n), make([]float32, n)
				Pow32(f, fill32(c.x), fill32(c.y))
				PowScalar32(f2, fill32(c.x), float32(c.y))
				ScalarPow32(f3, float32(c.x), fill32(c.y))
				want := powRef32(float32(c.x), float32(c.y))
				for _, g := range slices.Concat(f, f2, f3) {
					if ulp32(g, want) != 0 {
						t.Errorf("level %v: pow32(%v, %v) = %v, want %v", w, c.x, c.y, g, want)
						break
					}
				}
			}
		})
	}
}

// binaryFunc is a function of two operands with its three forms, both
// dtypes, its references, its sweep's operands and the scalars its
// scalar-operand forms are checked with.
type binaryFunc struct {
	name    string
	vv64    func(d, x, y []float64)
	vs64    func(d, x []float64, y float64)
	sv64    func(d []float64, x float64, y []float64)
	ref64   func(x, y float64) float64
	vv32    func(d, x, y []float32)
	vs32    func(d, x []float32, y float32)
	sv32    func(d []float32, x float32, y []float32)
	ref32   func(x, y float32) float32
	inputs  func(n int) (xs, ys []float64)
	scalars []float64
	// native32: float32 kernels of its own at the vector levels (within
	// maxULP32 where Approx32 says so), not the float64 ones on halves
	native32 bool
}

var binaryFuncs = []binaryFunc{
	{"pow", Pow64, PowScalar64, ScalarPow64, powRef64, Pow32, PowScalar32, ScalarPow32, powRef32, powInputs,
		[]float64{2, -3, 0.5, 2.5, -1.5, 1e6, 0, 1, -1}, false}, // 0, 1, 2, -1, 0.5: PowScalar's loops of their own
	{"hypot", Hypot64, HypotScalar64, ScalarHypot64, hypotRef64, Hypot32, HypotScalar32, ScalarHypot32, hypotRef32, pairInputs,
		[]float64{0, 1, -3, 1e-310, 1e300, math.Inf(-1), math.NaN()}, false},
	{"atan2", Atan2_64, Atan2Scalar64, ScalarAtan2_64, atan2Ref64, Atan2_32, Atan2Scalar32, ScalarAtan2_32, atan2Ref32, pairInputs,
		[]float64{0, math.Copysign(0, -1), 1, -3, 1e-310, 1e300, math.Inf(-1), math.NaN()}, true},
	{"logaddexp", Logaddexp64, LogaddexpScalar64, ScalarLogaddexp64, logaddexpRef64, Logaddexp32, LogaddexpScalar32, ScalarLogaddexp32, logaddexpRef32, pairInputs,
		[]float64{0, 1, -3, 700, -745, math.Inf(1), math.NaN()}, false},
	{"logaddexp2", Logaddexp2_64, Logaddexp2Scalar64, ScalarLogaddexp2_64, logaddexp2Ref64, Logaddexp2_32, Logaddexp2Scalar32, ScalarLogaddexp2_32, logaddexp2Ref32, pairInputs,
		[]float64{0, 1, -3, 1000, -1075, math.Inf(-1), math.NaN()}, false},
}

// pairInputs are n operand pairs over every float64 class: random bit
// patterns (both signs, every exponent, subnormals), small integers,
// zeros, infinities and NaN, each operand drawn on its own.
func pairInputs(n int) (xs, ys []float64) {
	r := rand.New(rand.NewPCG(11, 12))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, math.MaxFloat64}
	draw := func() float64 {
		switch r.IntN(8) {
		case 0:
			return specials[r.IntN(len(specials))]
		case 1:
			return float64(r.IntN(21) - 10)
		case 2:
			return r.NormFloat64() * 3
		}
		return math.Float64frombits(r.Uint64())
	}
	for range n {
		xs, ys = append(xs, draw()), append(ys, draw())
	}
	return xs, ys
}

// TestSweepBinary runs every function of two operands over its sweep at
// every level, all three forms and both dtypes, against its reference bit
// for bit (float32: computed in float64, the reference's bits), or within
// the rule for the kernels of their own (float32: native32; float64:
// Approx64).
func TestSweepBinary(t *testing.T) {
	_, random, _ := sweepSize()
	for _, fn := range binaryFuncs {
		xs, ys := fn.inputs(random * 2)
		x32, y32 := make([]float32, len(xs)), make([]float32, len(xs))
		for i := range xs {
			x32[i], y32[i] = float32(xs[i]), float32(ys[i])
		}
		for _, w := range levels() {
			t.Run(fmt.Sprintf("%s/%v", fn.name, w), func(t *testing.T) {
				var tol32, tol64 uint64
				withLevel(t, w, func() {
					if fn.native32 && Approx32() {
						tol32 = maxULP32
					}
					if Approx64(exportedStem(fn.name)) {
						tol64 = maxULP
						if !fn.native32 {
							tol32 = 1 // float64's few ulp, rounded to float32
						}
					}
				})
				bad := 0
				var worst64 uint64
				check64 := func(form string, got []float64, x func(int) float64, y func(int) float64) {
					for i := range got {
						want := fn.ref64(x(i), y(i))
						worst64 = max(worst64, ulp64(got[i], want))
						if ulp64(got[i], want) > tol64 {
							if bad++; bad < 20 {
								t.Errorf("%s %s(%v, %v) = %v, want %v", form, fn.name, x(i), y(i), got[i], want)
							}
						}
					}
				}
				var worst32 uint64
				check32 := func(form string, got []float32, x func(int) float32, y func(int) float32) {
					for i := range got {
						want := fn.ref32(x(i), y(i))
						worst32 = max(worst32, ulp32(got[i], want))
						if ulp32(got[i], want) > tol32 {
							if bad++; bad < 20 {
								t.Errorf("%s %s32(%v, %v) = %v, want %v", form, fn.name, x(i), y(i), got[i], want)
							}
						}
					}
				}
				at64 := func(v []float64) func(int) float64 { return func(i int) float64 { return v[i] } }
				at32 := func(v []float32) func(int) float32 { return func(i int) float32 { return v[i] } }
				got := make([]float64, len(xs))
				got32 := make([]float32, len(xs))
				withLevel(t, w, func() {
					fn.vv64(got, xs, ys)
					fn.vv32(got32, x32, y32)
				})
				check64("vector", got, at64(xs), at64(ys))
				check32("vector", got32, at32(x32), at32(y32))
				for _, s := range fn.scalars {
					s32 := float32(s)
					withLevel(t, w, func() {
						fn.vs64(got, xs, s)
						fn.vs32(got32, x32, s32)
					})
					check64("vector-scalar", got, at64(xs), func(int) float64 { return s })
					check32("vector-scalar", got32, at32(x32), func(int) float32 { return s32 })
					withLevel(t, w, func() {
						fn.sv64(got, s, ys)
						fn.sv32(got32, s32, y32)
					})
					check64("scalar-vector", got, func(int) float64 { return s }, at64(ys))
					check32("scalar-vector", got32, func(int) float32 { return s32 }, at32(y32))
				}
				t.Logf("%s level %v: %d points, three forms, both dtypes; float64 max %d ulp (allowed %d), float32 max %d ulp (allowed %d)",
					fn.name, w, len(xs), worst64, tol64, worst32, tol32)
			})
		}
	}
}

// TestSpecials checks exact results on NaN, infinities and signed zeros.
// expMinus745 is math.Exp(-745): the smallest subnormal, 5e-324 (e^-745 is
// 4.94e-324), except on arm64, whose math.Exp (exp_arm64.s) flushes it to
// 0; the kernels follow the platform's reference.
var expMinus745 = map[bool]float64{false: 5e-324, true: 0}[runtime.GOARCH == "arm64"]

func TestSpecials(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	cases := []struct {
		fn   string
		x    float64
		want float64
	}{
		{"exp", nan, nan}, {"exp", inf, inf}, {"exp", -inf, 0}, {"exp", 0, 1}, {"exp", nz, 1},
		{"exp", 710, inf}, {"exp", -746, 0}, {"exp", -745, expMinus745}, {"exp", 1e300, inf}, {"exp", -1e300, 0},
		{"log", nan, nan}, {"log", inf, inf}, {"log", -inf, nan}, {"log", 0, -inf}, {"log", nz, -inf},
		{"log", -1, nan}, {"log", 1, 0}, {"log", 5e-324, -744.4400719213812},
		{"tanh", nan, nan}, {"tanh", inf, 1}, {"tanh", -inf, -1}, {"tanh", 0, 0}, {"tanh", nz, nz},
		{"tanh", 5e-324, 5e-324}, {"tanh", -5e-324, -5e-324}, {"tanh", 100, 1}, {"tanh", -100, -1},
		{"sigmoid", nan, nan}, {"sigmoid", inf, 1}, {"sigmoid", -inf, 0}, {"sigmoid", 0, 0.5},
		{"sigmoid", nz, 0.5}, {"sigmoid", 800, 1}, {"sigmoid", -800, 0},
		{"sin", nan, nan}, {"sin", inf, nan}, {"sin", -inf, nan}, {"sin", 0, 0}, {"sin", nz, nz},
		{"sin", 5e-324, 5e-324}, {"sin", -5e-324, -5e-324},
		{"cos", nan, nan}, {"cos", inf, nan}, {"cos", -inf, nan}, {"cos", 0, 1}, {"cos", nz, 1},
		{"log10", nan, nan}, {"log10", inf, inf}, {"log10", -inf, nan}, {"log10", 0, -inf}, {"log10", nz, -inf},
		{"log10", -1, nan}, {"log10", -5e-324, nan}, {"log10", 1, 0}, {"log10", 10, 1}, {"log10", 100, 2}, {"log10", 1e22, 22},
		{"log2", nan, nan}, {"log2", inf, inf}, {"log2", -inf, nan}, {"log2", 0, -inf}, {"log2", nz, -inf},
		{"log2", -1, nan}, {"log2", 1, 0}, {"log2", 8, 3}, {"log2", 0.125, -3}, {"log2", 0.5, -1},
		{"log2", 5e-324, -1074}, {"log2", 0x1p-1022, -1022}, {"log2", math.MaxFloat64, 1024},
		{"cosh", nan, nan}, {"cosh", inf, inf}, {"cosh", -inf, inf}, {"cosh", 0, 1}, {"cosh", nz, 1},
		{"cosh", 5e-324, 1}, {"cosh", 710, 1.1169973830808555e+308}, {"cosh", -710, 1.1169973830808555e+308}, {"cosh", 710.5, inf}, {"cosh", 1e300, inf},
		{"sinh", nan, nan}, {"sinh", inf, inf}, {"sinh", -inf, -inf}, {"sinh", 0, 0}, {"sinh", nz, nz},
		{"sinh", 5e-324, 5e-324}, {"sinh", -5e-324, -5e-324}, {"sinh", 1e-310, 1e-310}, {"sinh", 710, 1.1169973830808555e+308},
		{"sinh", -710, -1.1169973830808555e+308}, {"sinh", 710.5, inf}, {"sinh", 1e300, inf}, {"sinh", -1e300, -inf},
		{"exp2", nan, nan}, {"exp2", inf, inf}, {"exp2", -inf, 0}, {"exp2", 0, 1}, {"exp2", nz, 1},
		{"exp2", 1, 2}, {"exp2", -1, 0.5}, {"exp2", 10, 1024}, {"exp2", 1023, 0x1p1023}, {"exp2", 1024, inf},
		{"expm1", nan, nan}, {"expm1", inf, inf}, {"expm1", -inf, -1}, {"expm1", 0, 0}, {"expm1", nz, nz},
		{"expm1", 5e-324, 5e-324}, {"expm1", -5e-324, -5e-324}, {"expm1", 1e-300, 1e-300}, {"expm1", -40, -1},
		{"expm1", -1e300, -1}, {"expm1", 710, inf}, {"expm1", 1e300, inf},
		{"log1p", nan, nan}, {"log1p", inf, inf}, {"log1p", -inf, nan}, {"log1p", 0, 0}, {"log1p", nz, nz},
		{"log1p", -1, -inf}, {"log1p", -1.5, nan}, {"log1p", -1e300, nan}, {"log1p", 5e-324, 5e-324},
		{"log1p", -5e-324, -5e-324}, {"log1p", 1e-300, 1e-300}, {"log1p", 1, math.Ln2},
		{"tan", nan, nan}, {"tan", inf, nan}, {"tan", -inf, nan}, {"tan", 0, 0}, {"tan", nz, nz},
		{"tan", 5e-324, 5e-324}, {"tan", -5e-324, -5e-324}, {"tan", 1e-300, 1e-300},
		{"atan", nan, nan}, {"atan", inf, math.Pi / 2}, {"atan", -inf, -math.Pi / 2}, {"atan", 0, 0}, {"atan", nz, nz},
		{"atan", 5e-324, 5e-324}, {"atan", -5e-324, -5e-324}, {"atan", 1e300, math.Pi / 2}, {"atan", 1, math.Pi / 4},
		{"asin", nan, nan}, {"asin", inf, nan}, {"asin", -inf, nan}, {"asin", 0, 0}, {"asin", nz, nz},
		{"asin", 5e-324, 5e-324}, {"asin", -5e-324, -5e-324}, {"asin", 1, math.Pi / 2}, {"asin", -1, -math.Pi / 2},
		{"asin", 1.0000000000000002, nan}, {"asin", -2, nan},
		{"acos", nan, nan}, {"acos", inf, nan}, {"acos", -inf, nan}, {"acos", 0, math.Pi / 2}, {"acos", nz, math.Pi / 2},
		{"acos", 1, 0}, {"acos", -1, math.Pi}, {"acos", 1.0000000000000002, nan}, {"acos", -2, nan},
		{"asinh", nan, nan}, {"asinh", inf, inf}, {"asinh", -inf, -inf}, {"asinh", 0, 0}, {"asinh", nz, nz},
		{"asinh", 5e-324, 5e-324}, {"asinh", -5e-324, -5e-324}, {"asinh", 1e-300, 1e-300},
		{"asinh", math.MaxFloat64, 710.4758600739439}, {"asinh", -math.MaxFloat64, -710.4758600739439},
		{"acosh", nan, nan}, {"acosh", inf, inf}, {"acosh", -inf, nan}, {"acosh", 0, nan}, {"acosh", nz, nan},
		{"acosh", 1, 0}, {"acosh", 0.9999999999999999, nan}, {"acosh", -1, nan}, {"acosh", math.MaxFloat64, 710.4758600739439},
		{"atanh", nan, nan}, {"atanh", inf, nan}, {"atanh", -inf, nan}, {"atanh", 0, 0}, {"atanh", nz, nz},
		{"atanh", 5e-324, 5e-324}, {"atanh", -5e-324, -5e-324}, {"atanh", 1, inf}, {"atanh", -1, -inf},
		{"atanh", 1.0000000000000002, nan}, {"atanh", -2, nan},
		{"cbrt", nan, nan}, {"cbrt", inf, inf}, {"cbrt", -inf, -inf}, {"cbrt", 0, 0}, {"cbrt", nz, nz},
		{"cbrt", 5e-324, 0x1p-358}, {"cbrt", -27, -3}, {"cbrt", 0x1p-1020, 0x1p-340},
		{"erf", nan, nan}, {"erf", inf, 1}, {"erf", -inf, -1}, {"erf", 0, 0}, {"erf", nz, nz}, {"erf", 5e-324, 5e-324},
		{"erf", 6, 1}, {"erf", -30, -1},
		{"erfc", nan, nan}, {"erfc", inf, 0}, {"erfc", -inf, 2}, {"erfc", 0, 1}, {"erfc", nz, 1}, {"erfc", 30, 0}, {"erfc", -7, 2},
		{"exp2", -1022, 0x1p-1022}, {"exp2", -1074, 5e-324}, {"exp2", -1075, 0}, {"exp2", 1e300, inf}, {"exp2", -1e300, 0},
	}
	byName := map[string]unaryFunc{}
	for _, f := range unaryFuncs {
		byName[f.name] = f
	}
	for _, w := range levels() {
		withLevel(t, w, func() {
			for _, c := range cases {
				f := byName[c.fn]
				// in a full vector and in a tail, surrounded by ordinary lanes
				for _, n := range []int{1, 3, 8, 16, 19} {
					xs := make([]float64, n)
					for i := range xs {
						xs[i] = 0.25 * float64(i+1)
					}
					xs[n/2] = c.x
					d := make([]float64, n)
					f.f64(d, xs)
					if ulp64(d[n/2], c.want) != 0 {
						t.Errorf("level %v n %d: %s(%v) = %v, want %v", w, n, c.fn, c.x, d[n/2], c.want)
					}
					if ref := f.ref64(c.x); ulp64(ref, c.want) != 0 {
						t.Errorf("reference %s(%v) = %v, want %v", c.fn, c.x, ref, c.want)
					}
					xs32 := make([]float32, n)
					for i := range xs {
						xs32[i] = float32(xs[i])
					}
					d32 := make([]float32, n)
					f.f32(d32, xs32)
					if want := f.ref32(float32(c.x)); ulp32(d32[n/2], want) != 0 {
						t.Errorf("level %v n %d: %s32(%v) = %v, want %v", w, n, c.fn, c.x, d32[n/2], want)
					}
				}
			}
		})
	}
}

// TestNearOne checks the float64 kernels at every level where Go's
// functions cancel near ±1 and laze's references do not: log2 (math.Log2
// is 196,778 and 366,822 ulp off at the first two values) and arccos
// (math.Acos 51 ulp at 0.99887…): within an ulp of the true values (60-digit
// decimal arithmetic), which NumPy and CUDA give.
func TestNearOne(t *testing.T) {
	tests := []struct {
		name     string
		f        func(d, x []float64)
		xs, want []float64
	}{
		{"log2", Log2_64,
			[]float64{1.0000009279968451, 1.0000005747145002, math.Nextafter(1, 0), math.Nextafter(1, 2), 0.75, 1.4},
			[]float64{1.3388158252442355e-06, 8.291375211244377e-07, -1.6017132519074588e-16, 3.203426503814917e-16,
				-0.4150374992788438, 0.48542682717024166}},
		{"arccos", Acos64,
			[]float64{0.9988719712549543, -0.9988719712549543, 0.75, -0.6, 1, -1, math.Nextafter(1, 0)},
			[]float64{0.04750243959357956, 3.0940902139962136, 0.7227342478134157, 2.214297435588181, 0, math.Pi,
				1.4901161193847656e-08}},
	}
	for _, w := range levels() {
		withLevel(t, w, func() {
			for _, tt := range tests {
				got := make([]float64, len(tt.xs))
				tt.f(got, tt.xs)
				for i := range tt.xs {
					if ulp64(got[i], tt.want[i]) > 1 {
						t.Errorf("level %v: %s(%v) = %v, want %v", w, tt.name, tt.xs[i], got[i], tt.want[i])
					}
				}
			}
		})
	}
}

// TestSlices runs every length from 0 to 40, and lengths across the
// 256-element blocks of the float32 forms that go through float64, at
// several misalignments, in place and out of place, so that every tail path
// runs, and checks that nothing past len(d) is written.
func TestSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	buf64 := make([]float64, 620)
	buf32 := make([]float32, 620)
	for i := range buf64 {
		buf64[i] = r.NormFloat64() * 3
		if i%7 == 3 {
			buf64[i] = math.Inf(1) // a flagged lane now and then
		}
		buf32[i] = float32(buf64[i])
	}
	ybuf := make([]float64, 620)
	for i := range ybuf {
		ybuf[i] = math.Round(r.NormFloat64()*4) / 2
	}
	// each op's reference takes the element and its index (the float64 vector
	// form of a binary function reads ybuf's element beside it; the float32
	// one takes x for both operands)
	type op struct {
		name string
		f64  func(d, x []float64)
		r64  func(x float64, i int) float64
		f32  func(d, x []float32)
		r32  func(float32) float32
	}
	ops := []op{}
	for _, f := range unaryFuncs {
		ops = append(ops, op{f.name, f.f64, func(x float64, _ int) float64 { return f.ref64(x) }, f.f32, f.ref32})
	}
	for _, f := range binaryFuncs {
		ops = append(ops,
			op{f.name, func(d, x []float64) { f.vv64(d, x, ybuf) }, func(x float64, i int) float64 { return f.ref64(x, ybuf[i]) },
				func(d, x []float32) { f.vv32(d, x, x) }, func(x float32) float32 { return f.ref32(x, x) }},
			op{f.name + "scalar", func(d, x []float64) { f.vs64(d, x, 3) }, func(x float64, _ int) float64 { return f.ref64(x, 3) },
				func(d, x []float32) { f.vs32(d, x, 2.5) }, func(x float32) float32 { return f.ref32(x, 2.5) }},
			op{"scalar" + f.name, func(d, x []float64) { f.sv64(d, 1.5, x) }, func(x float64, _ int) float64 { return f.ref64(1.5, x) },
				func(d, x []float32) { f.sv32(d, -2, x) }, func(x float32) float32 { return f.ref32(-2, x) }},
		)
	}
	lengths := []int{255, 256, 257, 600}
	for n := 40; n >= 0; n-- {
		lengths = append([]int{n}, lengths...)
	}
	const sentinel = 12345.5
	for _, w := range levels() {
		for _, o := range ops {
			withLevel(t, w, func() {
				for _, n := range lengths {
					for off := 0; off < 3; off++ {
						x := buf64[off : off+n]
						want := make([]float64, n)
						for i := range want {
							want[i] = o.r64(x[i], i)
						}
						dst := make([]float64, n+5)
						for i := range dst {
							dst[i] = sentinel
						}
						o.f64(dst[1:1+n], x)
						if dst[0] != sentinel || dst[n+1] != sentinel {
							t.Fatalf("level %v %s n %d: wrote outside d", w, o.name, n)
						}
						inplace := append([]float64(nil), x...)
						o.f64(inplace, inplace)
						for i := range want {
							if ulp64(dst[1+i], want[i]) > maxULP || ulp64(inplace[i], want[i]) > maxULP {
								t.Fatalf("level %v %s n %d off %d [%d]: got %v / in place %v, want %v", w, o.name, n, off, i, dst[1+i], inplace[i], want[i])
							}
						}
						x32 := buf32[off : off+n]
						want32 := make([]float32, n)
						for i := range want32 {
							want32[i] = o.r32(x32[i])
						}
						d32 := make([]float32, n+5)
						for i := range d32 {
							d32[i] = sentinel
						}
						o.f32(d32[2:2+n], x32)
						if d32[1] != sentinel || d32[n+2] != sentinel {
							t.Fatalf("level %v %s32 n %d: wrote outside d", w, o.name, n)
						}
						in32 := append([]float32(nil), x32...)
						o.f32(in32, in32)
						if diff := cmp.Diff(want32, d32[2:2+n], cmpopts.EquateEmpty(), cmp.Comparer(func(a, b float32) bool { return ulp32(a, b) <= maxULP })); diff != "" {
							t.Fatalf("level %v %s32 n %d off %d: (-want +got)\n%s", w, o.name, n, off, diff)
						}
						if diff := cmp.Diff(want32, in32, cmpopts.EquateEmpty(), cmp.Comparer(func(a, b float32) bool { return ulp32(a, b) <= maxULP })); diff != "" {
							t.Fatalf("level %v %s32 in place n %d off %d: (-want +got)\n%s", w, o.name, n, off, diff)
						}
					}
				}
			})
		}
	}
}

func TestWidth(t *testing.T) {
	for _, l := range levels() {
		withLevel(t, l, func() {
			want := map[isa.Level][]int{isa.Generic: {1}, isa.AVX2: {4}, isa.AVX512: {8}, isa.NEON: {2}}[l]
			if !SIMD {
				want = []int{1}
			}
			if got := Width(); !slices.Contains(want, got) {
				t.Errorf("level %v: Width() = %d, want one of %v", l, got, want)
			}
			// the float32 polynomials run at every vector level
			if want := Width() > 1; Approx32() != want {
				t.Errorf("level %v (width %d): Approx32() = %v, want %v", l, Width(), Approx32(), want)
			}
			t.Logf("SIMD %v, level %v: width %d", SIMD, l, Width())
		})
	}
}

// FuzzVMath checks one function on one operand pair (raw bits) against the
// reference, at every width. sel picks the function: with n =
// len(unaryFuncs), 0 to n-1 unary float64, n to 2n-1 unary float32, then
// pow float64 (slice, scalar exponent, scalar base) and pow float32.
func FuzzVMath(f *testing.F) {
	nu := uint8(len(unaryFuncs))
	nsel := 2*nu + 4*uint8(len(binaryFuncs)) // each binary function: three float64 forms and float32
	seeds := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 709.78, -745.1, 1 << 29, 0.625, 1e300, -2.5}
	for i, x := range seeds {
		for sel := range int(nsel) {
			f.Add(uint8(sel), math.Float64bits(x), math.Float64bits(seeds[(i+sel)%len(seeds)]))
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, xb, yb uint64) {
		sel %= nsel
		x, y := math.Float64frombits(xb), math.Float64frombits(yb)
		x32, y32 := math.Float32frombits(uint32(xb)), math.Float32frombits(uint32(yb))
		for _, w := range levels() {
			withLevel(t, w, func() {
				// a full vector of x (with y next to it) and a one-element tail
				for _, n := range []int{1, 17} {
					var got, want float64
					var got32, want32 float32
					is32 := false
					xs := make([]float64, n)
					ys := make([]float64, n)
					x3 := make([]float32, n)
					y3 := make([]float32, n)
					for i := range xs {
						xs[i], ys[i], x3[i], y3[i] = x, y, x32, y32
					}
					if n > 1 {
						xs[0], x3[0] = y, y32
					}
					d := make([]float64, n)
					d3 := make([]float32, n)
					k := n - 1
					switch {
					case sel < nu:
						fn := unaryFuncs[sel]
						fn.f64(d, xs)
						got, want = d[k], fn.ref64(x)
					case sel < 2*nu:
						fn := unaryFuncs[sel-nu]
						fn.f32(d3, x3)
						got32, want32, is32 = d3[k], fn.ref32(x32), true
					default:
						fn := binaryFuncs[(sel-2*nu)/4]
						switch (sel - 2*nu) % 4 {
						case 0:
							fn.vv64(d, xs, ys)
						case 1:
							fn.vs64(d, xs, y)
						case 2:
							fn.sv64(d, x, ys)
						case 3:
							fn.vv32(d3, x3, y3)
							is32 = true
						}
						got, want = d[k], fn.ref64(x, y)
						got32, want32 = d3[k], fn.ref32(x32, y32)
					}
					if is32 {
						if u := ulp32(got32, want32); u > maxULP {
							t.Fatalf("sel %d level %v: f(%v, %v) = %v, want %v", sel, w, x32, y32, got32, want32)
						}
					} else if u := ulp64(got, want); u > maxULP {
						t.Fatalf("sel %d level %v: f(%v, %v) = %v, want %v", sel, w, x, y, got, want)
					}
				}
			})
		}
	})
}

// TestAtan2Float32Near sweeps float32 atan2 where its kernel of its own
// (atan2_32) does its work: operand pairs of every sign whose magnitudes
// are within a factor of 16 of each other (the ratio's reduction about
// tan(π/8) and the octants), over every binade from subnormal to 2^126, at
// every level, within maxULP32 of the reference (its bits at the scalar
// level).
func TestAtan2Float32Near(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	const n = 1 << 20
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		e := r.IntN(280) - 150
		x := math.Ldexp(1+r.Float64(), e)
		y := x * math.Ldexp(0.5+r.Float64(), r.IntN(9)-4)
		xs[i] = float32(math.Copysign(x, float64(r.IntN(2)*2-1)))
		ys[i] = float32(math.Copysign(y, float64(r.IntN(2)*2-1)))
	}
	got := make([]float32, n)
	for _, w := range levels() {
		var tol uint64
		withLevel(t, w, func() {
			Atan2_32(got, ys, xs)
			if Approx32() {
				tol = maxULP32
			}
		})
		var worst uint64
		bad := 0
		for i := range got {
			want := atan2Ref32(ys[i], xs[i])
			u := ulp32(got[i], want)
			worst = max(worst, u)
			if u > tol {
				if bad++; bad < 10 {
					t.Errorf("level %v: atan2(%v, %v) = %v, want %v (%d ulp)", w, ys[i], xs[i], got[i], want, u)
				}
			}
		}
		t.Logf("level %v: %d pairs, max %d ulp (allowed %d)", w, n, worst, tol)
	}
}

// TestTrigNearMultiples holds sin, cos and tan to the rule at every level
// near the multiples of π/2 (the zeros and poles, |x| up to 3·10^4, offsets
// from 10^-2 down to 10^-9) and at tiny arguments, where an argument
// reduction or a threshold other than the reference's shows: the AVX-512
// kernels reduce modulo π and π/2 by the reference's parts so that r is
// its z there, and keep its tan(z) = z below z² = 1e-14 (the sweeps had
// passed a tan 18 ulp off near its poles).
func TestTrigNearMultiples(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 1 << 16
	if testing.Short() {
		n = 1 << 12
	}
	xs := make([]float64, 0, n)
	for range n {
		k := float64(r.IntN(40000) - 20000)
		off := (r.Float64()*2 - 1) * math.Pow(10, -2-7*r.Float64())
		xs = append(xs, k*math.Pi/2+off, math.Ldexp(1+r.Float64(), -10-r.IntN(30)))
	}
	for _, fn := range unaryFuncs {
		if fn.name != "sin" && fn.name != "cos" && fn.name != "tan" {
			continue
		}
		for _, w := range levels() {
			got := make([]float64, len(xs))
			var tol uint64
			withLevel(t, w, func() { fn.f64(got, xs); tol = tolerance64(fn) })
			bad := 0
			for i, x := range xs {
				if want := fn.ref64(x); ulp64(got[i], want) > tol {
					if bad++; bad < 10 {
						t.Errorf("level %v: %s(%v) = %v, want %v (%d ulp, allowed %d)", w, fn.name, x, got[i], want, int64(ulp64(got[i], want)), tol)
					}
				}
			}
		}
	}
}
