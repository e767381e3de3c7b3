package scalar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// oraclePrec is the precision (bits) of the test's exact pow.
const oraclePrec = 256

// bigLn2 is ln 2 at oraclePrec bits.
var bigLn2 = bigLogSeries(big.NewFloat(2).SetPrec(oraclePrec))

// bigLogSeries is log v for v in [1/2, 2]: 2·atanh(s), s = (v-1)/(v+1), by
// its series.
func bigLogSeries(v *big.Float) *big.Float {
	one := big.NewFloat(1).SetPrec(oraclePrec)
	s := new(big.Float).SetPrec(oraclePrec).Quo(new(big.Float).Sub(v, one), new(big.Float).Add(v, one))
	s2 := new(big.Float).SetPrec(oraclePrec).Mul(s, s)
	sum, term := new(big.Float).SetPrec(oraclePrec), new(big.Float).SetPrec(oraclePrec).Set(s)
	for k := 0; k < 400; k++ {
		sum.Add(sum, new(big.Float).SetPrec(oraclePrec).Quo(term, big.NewFloat(float64(2*k+1))))
		term.Mul(term, s2)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// bigLog is log a for a finite a > 0.
func bigLog(a float64) *big.Float {
	m, e := math.Frexp(a)
	l := bigLogSeries(new(big.Float).SetPrec(oraclePrec).SetFloat64(m))
	return l.Add(l, new(big.Float).SetPrec(oraclePrec).Mul(bigLn2, big.NewFloat(float64(e))))
}

// bigExp is e^z: z = n·ln2 + r, e^(r/1024) by its Taylor series, squared
// ten times, times 2^n.
func bigExp(z *big.Float) *big.Float {
	q, _ := new(big.Float).Quo(z, bigLn2).Float64()
	n := math.RoundToEven(q)
	r := new(big.Float).SetPrec(oraclePrec).Sub(z, new(big.Float).SetPrec(oraclePrec).Mul(bigLn2, big.NewFloat(n)))
	r.SetMantExp(r, -10)
	sum, term := big.NewFloat(1).SetPrec(oraclePrec), big.NewFloat(1).SetPrec(oraclePrec)
	for k := 1; k < 40; k++ {
		term.Mul(term, r)
		term.Quo(term, big.NewFloat(float64(k)))
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(n))
}

// ulpError is |got - exact| in units of the last place of exact's float64
// binade (the smallest subnormal's below the normal range).
func ulpError(got float64, exact *big.Float) float64 {
	want, _ := exact.Float64()
	if math.IsInf(got, 0) || math.IsInf(want, 0) {
		if got == want {
			return 0
		}
		return math.Inf(1)
	}
	ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
	if math.IsInf(ulp, 0) {
		ulp = 0x1p971
	}
	d := new(big.Float).SetPrec(oraclePrec).Sub(new(big.Float).SetFloat64(got), exact)
	e, _ := d.Quo(d, big.NewFloat(ulp)).Float64()
	return math.Abs(e)
}

// TestPowAccuracy holds the float64 pow to the exact result, computed at 256
// bits, over operands drawn where math.Pow is weakest (|y·log x| up to 740,
// bases near 1 with huge exponents, tiny and subnormal bases) and at
// math.Pow's known worst case: within 0.502 ulp everywhere (the rounding
// of the result plus about 2^-60 of it), so that exact results (integral
// powers, √) are exact.
func TestPowAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 31))
	type pair struct{ x, y float64 }
	cases := []pair{{1e-234, 0.516}, {2, 0.5}, {3, 2}, {10, 22}, {0.5, 1074}, {7, -1.5}, {1.0000000000000002, 1e18}, {5e-324, 0.25}, {1e300, -1.02}}
	for range 4000 {
		x := math.Exp(rng.Float64()*1400 - 700)
		y := (rng.Float64()*2 - 1) * 740 / math.Abs(math.Log(x))
		cases = append(cases, pair{x, y})
		near := 1 + (rng.Float64()*2-1)*math.Exp2(-rng.Float64()*50)
		cases = append(cases, pair{near, (rng.Float64()*2 - 1) * 700 / math.Abs(math.Log(near))})
	}
	worst := 0.0
	for _, c := range cases {
		if math.IsInf(c.y, 0) || math.IsNaN(c.y) || c.x == 1 {
			continue
		}
		exact := bigExp(new(big.Float).SetPrec(oraclePrec).Mul(bigLog(c.x), new(big.Float).SetPrec(oraclePrec).SetFloat64(c.y)))
		got := Pow(c.x, c.y)
		e := ulpError(got, exact)
		if e > worst {
			worst = e
		}
		if e > 0.502 {
			want, _ := exact.Float64()
			t.Errorf("Pow(%v, %v) = %v, want %v (%.3f ulp)", c.x, c.y, got, want, e)
		}
	}
	t.Logf("worst error over %d operands: %.4f ulp", len(cases), worst)
}

// TestPowSpecialValues is C99's (and NumPy's) pow at the special operands,
// and the signs of negative bases.
func TestPowSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct{ x, y, want float64 }{
		{0, -1, inf}, {math.Copysign(0, -1), -1, -inf}, {math.Copysign(0, -1), 3, math.Copysign(0, -1)},
		{1, nan, 1}, {nan, 0, 1}, {-8, 1.0 / 3, nan}, {-2, 3, -8}, {-2, 2, 4}, {-2, -1, -0.5},
		{-1, inf, 1}, {0.5, inf, 0}, {2, -inf, 0}, {-inf, 3, -inf}, {-inf, 0.5, inf}, {inf, -2, 0},
		{2, 1024, inf}, {2, -1075, 0}, {2, -1074, 5e-324}, {-2, 1e300, inf}, {10, 308, 1e308},
		{9, 0.5, 3}, {math.MaxFloat64, 1, math.MaxFloat64}, {math.Copysign(0, -1), 0.5, 0}, {-inf, 0.5, inf},
		{math.Copysign(0, -1), -1, -inf}, {-inf, -1, math.Copysign(0, -1)}, {-3, 2, 9}, {1e200, 2, inf}, {1e-200, 2, 0},
		{-2, 0.5, nan}, {4, -1, 0.25},
	}
	for _, c := range cases {
		got := Pow(c.x, c.y)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) || math.Signbit(got) != math.Signbit(c.want) && !math.IsNaN(c.want) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if got := Pow[float32](2, 0.5); got != float32(math.Sqrt2) {
		t.Errorf("float32 Pow(2, 0.5) = %v, want %v", got, float32(math.Sqrt2))
	}
}
