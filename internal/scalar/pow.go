package scalar

import (
	"math"
	"math/big"
)

// This file is the float reference of pow, x**y = e^(y·log x) evaluated in
// double-double arithmetic (pairs hi + lo, to about 2^-73 relative), so that
// the result is within a hair of half an ulp of the true value for every
// operand (glibc's, NumPy's and CUDA's pow are within an ulp; math.Pow's
// Exp(yf·Log x) and successive squarings drift by hundreds of ulp where
// |y·log x| is large: math.Pow(1e-234, 0.516) is 343 ulp off). The vector
// kernels (kernels/internal/vmath) are held to 4 ulp of it.

// ln 2 in two parts: ln2Hi has 42 significant bits, so e·ln2Hi is exact for
// every |e| < 2^11 (every binary exponent of a float64), and ln2Lo is the
// rest, rounded (the pair is ln 2 to about 2^-98).
const (
	ln2Hi = 0x1.62e42fefa3800p-1
	ln2Lo = 0x1.ef35793c76730p-45
)

// powFloat is Pow for float operands (float32 ones are converted to
// float64 and the result rounded once). The special operands (±0, ±Inf,
// NaN, y = 0, x = 1) follow C99 as math.Pow does; a negative x needs an
// integral y (NaN otherwise) and gives the sign of y's parity; every other
// result is powPositive's.
func powFloat(x, y float64) float64 {
	if x == 0 || x == 1 || y == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) {
		return math.Pow(x, y)
	}
	if r, ok := PowSpecialExponent(x, y); ok {
		return r
	}
	if x > 0 {
		return powPositive(x, y)
	}
	if y != math.Trunc(y) {
		return math.NaN()
	}
	r := powPositive(-x, y)
	if math.Mod(y, 2) != 0 { // odd (every |y| ≥ 2^53 is even)
		r = -r
	}
	return r
}

// PowSpecialExponent is x**y for the exponents with a result of one
// rounding, the correctly rounded one: x for y = 1, x·x for y = 2, 1/x for
// y = -1 and √x for y = 1/2 (+0 for -0, +Inf for -Inf, as C99's pow
// gives), each with C99's special values; ok is false for every other y.
// scalar.Pow and the vector loops of a scalar exponent (kernels/internal/
// vmath's PowScalar64 and PowScalar32) both call it, so that x**2 costs a
// multiplication, as in PyTorch, and gives the same bits everywhere.
// float32 operands give the same bits through float64 (one rounding of
// the exact product, quotient or root: double rounding is innocuous for
// these at 53 bits).
func PowSpecialExponent(x, y float64) (r float64, ok bool) {
	switch y {
	case 1:
		return x, true
	case 2:
		return x * x, true
	case -1:
		return 1 / x, true
	case 0.5:
		if x == 0 || math.IsInf(x, -1) {
			return math.Abs(x), true
		}
		return math.Sqrt(x), true
	}
	return 0, false
}

// powPositive is a**y for a finite a > 0 (subnormals included) and a finite
// y: log a as a pair (logPair), the product y·log a as a pair (the product
// of the high parts exactly, by an FMA), and e^ of that pair (expPair);
// a power of two to an integral power is math.Ldexp's, exact where
// representable.
func powPositive(a, y float64) float64 {
	if frac, e := math.Frexp(a); frac == 0.5 && y == math.Trunc(y) && math.Abs(y) < 1<<20 {
		// a power of two to an integral power: exact, or its one rounding
		// (2^-1075 is halfway to the smallest subnormal and rounds to 0).
		return math.Ldexp(1, int(y)*(e-1))
	}
	lh, ll := logPair(a)
	zh := float64(y * lh) // rounded (never fused into a later sum)
	zl := math.FMA(y, lh, -zh) + float64(y*ll)
	return expPair(zh, zl)
}

// logPair is log a as a pair hi + lo, to about 2^-73 relative, for a
// finite a > 0: a = m·2^e with m in [√½, √2) (math.Frexp, exact on
// subnormals), l0 = math.Log1p(m - 1) (m - 1 is exact), and the
// correction ε = m·e^(-l0) - 1 (expm1Pair gives e^(-l0) - 1 = E with the
// same relative accuracy, and m·(1 + E) - 1 = f + E + f·E is summed
// exactly where it cancels): log m = l0 + log1p(ε) = l0 + ε, ε being
// about an ulp of l0 (ε² is below 2^-100 of it). Then e·ln 2 is added in
// two parts.
func logPair(a float64) (hi, lo float64) {
	m, e := math.Frexp(a)
	if m < math.Sqrt2/2 {
		m, e = m*2, e-1
	}
	f := m - 1
	l0 := math.Log1p(f)
	eh, el := expm1Pair(-l0, 0)
	s1, err1 := twoSum(f, eh)
	p, perr := twoProd(f, eh)
	s2, err2 := twoSum(s1, p)
	eps := s2 + (err1 + err2 + perr + el + float64(f*el))
	if e == 0 {
		return fastTwoSum(l0, eps)
	}
	s, err := twoSum(float64(e)*ln2Hi, l0)
	return fastTwoSum(s, err+eps+float64(float64(e)*ln2Lo))
}

// expPair is e^(zh + zl) for a pair with |zl| ≤ ulp(zh), rounded once to
// float64 (where the result may be subnormal, the pair's exact sum is
// scaled and rounded by math/big: rounding first and scaling after would
// round twice): zh + zl = n·ln 2 + r with n = rint(zh/ln 2) and |r| ≤ ln2/2 as
// a pair (n·ln2Hi is exact and so is zh minus it), e^r = 1 + expm1Pair(r)
// and the result 2^n·(1 + E). Past the float64 range it is +Inf or 0.
func expPair(zh, zl float64) float64 {
	switch {
	case zh > 710:
		return math.Inf(1)
	case zh < -746:
		return 0
	}
	n := math.RoundToEven(zh * (1 / math.Ln2))
	rh, rl := twoSum(zh-n*ln2Hi, -float64(n*ln2Lo)) // n·ln2Hi is exact
	eh, el := expm1Pair(rh, rl+zl)
	h, l := fastTwoSum(1, eh)
	if n < -1021 { // possibly subnormal: round the exact sum once
		v := new(big.Float).SetPrec(160).SetFloat64(h)
		v.Add(v, new(big.Float).SetFloat64(l+el))
		r, _ := v.SetMantExp(v, int(n)).Float64()
		return r
	}
	return math.Ldexp(h+(l+el), int(n))
}

// expm1Pair is e^(rh + rl) - 1 as a pair, to about 2^-73 relative (the
// rest of the series is rounded in float64), for |rh| ≤ 0.36 and a small
// rl (below rh's ulp from logPair; expPair's rl + zl can exceed it where
// rh is tiny, when E is tiny against the 1 + E that expPair uses): t =
// (rh + rl)/256, e^t - 1 by its Taylor series to t⁷ (the first two terms
// as a pair, the rest below 2^-20 of it), then eight squarings in the form
// E ← 2E + E² (that of e^(2t) - 1), each exact to about 2^-104, which keep
// the relative accuracy where e^r - 1 is small.
func expm1Pair(rh, rl float64) (hi, lo float64) {
	t, tl := rh*0x1p-8, rl*0x1p-8
	half := t * 0.5
	sq, sqErr := twoProd(t, half)
	// float64(·) rounds each product apart (no fusion), so that every
	// platform computes the same bits.
	p := float64(t*(1.0/5040)) + 1.0/720
	p = float64(t*p) + 1.0/120
	p = float64(t*p) + 1.0/24
	p = float64(t*p) + 1.0/6
	tail := float64(float64(t*t) * float64(t*p))
	hi, lo = fastTwoSum(t, sq)
	hi, lo = fastTwoSum(hi, lo+sqErr+tail+float64(tl*(1+t))) // lo below hi's ulp, so lo² is negligible
	for range 8 {
		p, perr := twoProd(hi, hi)
		s, serr := fastTwoSum(2*hi, p)
		hi, lo = fastTwoSum(s, serr+perr+2*lo+float64(2*hi*lo))
	}
	return hi, lo
}

// twoSum is a + b as the rounded sum and its exact error (Knuth).
func twoSum(a, b float64) (s, err float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// fastTwoSum is twoSum for |a| ≥ |b| or a = 0 (Dekker): three operations.
func fastTwoSum(a, b float64) (s, err float64) {
	s = a + b
	return s, b - (s - a)
}

// twoProd is a·b as the rounded product and its exact error (one FMA).
// The conversion keeps p rounded wherever it is used: Go may otherwise
// fuse the product into a later sum (arm64 does), and the error-free
// sums after it would then count its error twice.
func twoProd(a, b float64) (p, err float64) {
	p = float64(a * b)
	return p, math.FMA(a, b, -p)
}
