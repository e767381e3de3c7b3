package main

import (
	"math"
	"math/big"
)

// pow at the AVX-512 level: the table log and the table e^ of the other
// AVX-512 kernels (sixteen-entry VPERMI2PD and VPERMPS lookups) in place
// of pow.go's table-free description and its division. float64 keeps
// log|x| and y·log|x| as double-double pairs, as powDD does; float32 runs
// in float32 lanes with float-float pairs. Both are held to the accuracy
// rule, within an ulp of the reference (the sweeps and the range tests
// measure it).

// powLogQ is Q(r) = (log1p(r) - r + r²/2)/r³ on |r| ≤ logTableR (polyFit;
// TestFits measures it): log1p r = r - r²/2 + r³·Q(r), the first two
// terms summed exactly by powLogTable.
var powLogQ = polyFit(log1pTail3, -logTableR, logTableR, 8)

// log1pTail3 is (log1p(r) - r + r²/2)/r³ = Σ (-1)^k r^k/(k+3), for |r| <
// 1/2.
func log1pTail3(r *big.Float) *big.Float {
	return series(r, 400, func(k int) *big.Float {
		c := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), newFit(float64(k+3)))
		if k%2 == 1 {
			c.Neg(c)
		}
		return c
	})
}

// powLogTable is log |a| for a finite nonzero a as a pair hi + lo, to about
// 2^-63 relative, over the table log's cells (logTableParts' reduction of
// |a|, the sign dropped by VGETMANTPD: |a| = 2^e·m, m in [3/4, 3/2), the
// cell's inv, hi and lo):
//
//	log |a| = e·ln2 + hi + lo + log1p(r + pe),  m·inv = 1 + r + pe,
//
// with m·inv as a pair (p rounded and pe its error, by an FMA) and r = p
// - 1 exact (Sterbenz: p is within 1/30 of 1); log1p(r + pe) = r - r²/2
// + r³·Q(r) + pe·(1 - r + r²) (pe/(1+r) to pe·r³, below 2^-69: pe is
// below 2^-53, and 0 in cell 20, whose inverse is 1), r² as a pair.
// e·ln2Hi43 + hi (exact for |e| < 2^11, subnormal a included), r and
// -r²/2 are summed exactly (Fast2Sum: |r| is below 1/30, and the first
// sum is at least 0.288 where e is not 0, hi where it is: at least 0.048
// off cell 20, 0 in it), every rounding error and the smaller terms go to
// lo, and the pair is normalized.
func powLogTable(k lang, a Op) (hi, lo Op) {
	m := getMantIn(k, a, mantThreeQuartersThree|mantAbs)
	e := threeQuartersExp(k, a)
	t := k.fma(m, k.f(logTableK), k.f(magic52x15))
	inv := lookup16(k, t, logTableInv)
	p := k.mul(m, inv)
	pe := mulErr(k, m, inv, p)
	r := k.sub(p, k.f(1))
	wh := k.mul(r, r)
	wl := mulErr(k, r, r, wh)
	a1 := k.fma(e, k.f(ln2Hi43), lookup16(k, t, logTableHi))
	s1 := k.add(a1, r)
	e1 := k.add(k.sub(a1, s1), r)
	h := k.mul(wh, k.f(-0.5))
	s2 := k.add(s1, h)
	e2 := k.add(k.sub(s1, s2), h)
	rest := k.fma(k.mul(wh, r), k.horner(r, powLogQ...), k.fma(pe, wh, k.fnma(pe, r, pe)))
	rest = k.add(rest, k.fma(wl, k.f(-0.5), k.add(e1, e2)))
	rest = k.add(rest, k.fma(e, k.f(ln2Lo43), lookup16(k, t, logTableLo)))
	hi = k.add(s2, rest)
	return hi, k.add(k.sub(s2, hi), rest)
}

// powExpTable is e^(zh + zl) for |zh| ≤ 707 and |zl| ≤ ulp(zh), by
// expFast64's reduction with zl added to the exact zh - n·ln2Hi/16 (n =
// rint(16·zh/ln2)): r = that - n·ln2Lo/16, below 1/32 in magnitude, so
// its two roundings are below 2^-59 and need no low part. Then
// pow2Sixteenths' table with its low part: 2^((n&15)/16)·e^r as hi +
// (hi·q + lo), q = e^r - 1, rounded once, and scaled by 2^floor(n/16)
// (VSCALEFPD, which floors n/16 itself).
func powExpTable(k lang, zh, zl Op) Op {
	t := k.fma(zh, k.f(expFastInvStep), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	rr := k.fnma(n, k.f(expFastStepLo), k.add(k.fnma(n, k.f(expFastStepHi), zh), zl))
	q := k.fma(k.mul(rr, rr), k.horner(rr, expFastP...), rr)
	hi := lookup16(k, t, exp2Sixteenths)
	y := k.add(hi, k.fma(hi, q, lookup16(k, t, exp2SixteenthsLo)))
	return scaleF(k, y, k.mul(n, k.f(1.0/16)))
}

// powFast64 is pow on the AVX-512 level for float64: |x|**y =
// e^(y·log|x|) by powLogTable, the product as a pair (y·hi exactly by an
// FMA) and powExpTable; a negative x takes powNegativeBase, only in the
// vectors that have one (ifAny). Lanes with |y·log|x|| above 707 are out
// (NaN and ±Inf included, which a zero, infinite or NaN x or a NaN or
// infinite y give): the reference gives overflow, subnormal results and
// C99's special cases. A subnormal x is in (VGETMANTPD and VGETEXPPD
// normalize it). y = 0 and x = 1 give 1 (z is 0: cell 20's entries are 1
// and 0).
func powFast64(k lang, x, y Op) (r, ok Op) {
	lh, ll := powLogTable(k, x)
	zh := k.mul(y, lh)
	zl := k.fma(y, ll, mulErr(k, y, lh, zh))
	r = powExpTable(k, zh, zl)
	ok = k.cmp(le, k.and(zh, k.u(absMask)), k.f(powExpMax))
	return powNegativeBase(k, x, y, r), ok
}

// powNegativeBase is e = |x|**y with the sign and domain of a negative x
// put on, where some lane of x is negative (-0 and -Inf included; ifAny:
// most vectors have none): -e for an odd y, NaN for a non-integral y where
// x is finite and nonzero (-0 and -Inf to a non-integral power are +0 or
// +Inf, as e is). Either element width, on the 512-bit target.
func powNegativeBase(k lang, x, y, e Op) Op {
	neg := fpClass(k, x, classNegative)
	r := e
	ifAny(k, neg, []*Op{&r}, func() {
		yInt := k.cmp(eq, k.round(y, 3), y)
		hy := k.mul(y, k.f(0.5))
		yOdd := k.mAnd(yInt, k.cmp(neq, k.round(hy, 3), hy)) // every |y| ≥ 2^53 is even
		r = k.sel(k.mAnd(neg, yOdd), k.xor(e, k.f(negZero)), e)
		r = k.sel(k.mAndNot(fpClass(k, x, classNegativeFinite), yInt), k.f(math.NaN()), r)
	})
	return r
}

// VFPCLASSPS/PD's classes of negative numbers: -0, -Inf and the negative
// finite nonzero (classNegative, all three), and those last alone.
const (
	classNegative       = 0x54
	classNegativeFinite = 0x40
)

// negZero is -0: the sign bit alone, at either element width.
var negZero = math.Copysign(0, -1)

// powFast32 is pow for float32 operands on the AVX-512 level in float32
// lanes (sixteen at a time, where float64 halves take eight), with
// float-float pairs where float32 falls short. t = y·log2|x| must be
// exact to about 2^-26 for |t| up to 128 (the normal results), so
// log2|x| to about 2^-33 relative:
//
//	log2|x| = e + T + K·log1p(r) = e + T + K·(r - r²/2) + r³·Q3(r)
//
// with |x| = 2^e·m and the table log's cells (m in [3/4, 3/2), inv its
// cell's inverse of five significant bits, T = log2(1/inv) as a multiple
// of 2^-16 and the rest: powInv5), r = m·inv - 1 exact by one FMA, K =
// 1/ln2 as the float32 nearest it and the rest. r - r²/2 is a pair g + gl
// (one FMA over r·(-r/2), exact, and its
// rounding error by another: r - g is exact); e + T.hi (exact) and K.hi·g
// (the product as a pair) are summed exactly (Fast2Sum: off cell 20 e +
// T.hi is at least 0.07 and K·g below 0.04; in cell 20 it is 0), every
// other term and every rounding error in the low part, and the pair
// normalized. Then t = y·log2
// as a pair (y·hi exact by an FMA), n = rint(16t), f = t - n/16 (exact)
// plus t's low part, 2^f - 1 = f·P(f), 2^(j/16) from a table as a pair,
// and 2^floor(n/16) by VSCALEFPS; +Inf above t = 128.5. Within 1 ulp of
// the reference over the sweeps.
//
// No class test: a zero, infinite or NaN x or y makes t infinite or NaN.
// t = +Inf gives +Inf, C99's result for each operand pair that makes it
// (±0 to a negative power, ±Inf to a positive one, y = ±Inf with |x| on
// the side of 1 that overflows; the sign of an odd power after, by
// powNegativeBase), and lanes with t below -125.9 (-Inf and NaN among
// them) are out: the reference gives the other special cases and the
// results below the normal range, where a rounding could fall on the
// wrong side of a tie.
func powFast32(k lang, x, y Op) (r, ok Op) {
	m := getMantIn(k, x, mantThreeQuartersThree|mantAbs)
	e := threeQuartersExp(k, x)
	c := k.fma(m, k.f(logTableK), k.f(magic23x15))
	rr := k.fma(m, lookup16f32(k, c, powInv5.inv), k.f(-1)) // exact
	sHi, sLo := logBase2.sHi, logBase2.sLo
	hr := k.mul(rr, k.f(-0.5))
	g := k.fma(rr, hr, rr) // r - r²/2, and gl its rounding error, exactly
	gl := k.fma(rr, hr, k.sub(rr, g))
	a := k.mul(g, k.f(sHi))
	s0 := k.add(e, lookup16f32(k, c, powInv5.tHi))
	s1 := k.add(s0, a)
	// the low part: first the terms that do not wait for s1
	low := k.fma(gl, k.f(sHi), k.fma(g, k.f(sLo), lookup16f32(k, c, powInv5.tLo)))
	w := k.mul(rr, rr)
	q := powLog2Q3
	cubic := k.fma(w, k.fma(k.f(q[0]), rr, k.f(q[1])), k.fma(k.f(q[2]), rr, k.f(q[3]))) // Estrin
	low = k.fma(k.mul(w, rr), cubic, low)
	low = k.add(low, k.add(mulErr(k, g, k.f(sHi), a), k.add(k.sub(s0, s1), a)))
	lh := k.add(s1, low)
	ll := k.add(k.sub(s1, lh), low)
	th := k.mul(y, lh)
	tl := k.fma(y, ll, mulErr(k, y, lh, th))
	ok = k.cmp(ge, th, k.f(powF32MinT))
	n := k.round(th, roundSixteenths) // n/16 with n = rint(16t)
	f := k.add(k.sub(th, n), tl)
	idx := k.fma(n, k.f(16), k.f(magic23x15))
	qe := k.mul(f, k.horner(f, powExp2P...))
	hi := lookup16f32(k, idx, exp2Sixteenths32.hi)
	v := k.add(hi, k.fma(hi, qe, lookup16f32(k, idx, exp2Sixteenths32.lo)))
	r = scaleF(k, v, n)
	r = k.sel(k.cmp(gt, th, k.f(powF32MaxT)), k.f(math.Inf(1)), r) // f is not reduced there
	return powNegativeBase(k, x, y, r), ok
}

// powF32MaxT bounds t = y·log2|x| above in powFast32's reduction: beyond
// (+Inf included) the float32 result overflows, and the result is +Inf
// (its sign put on after).
const powF32MaxT = 128.5

// roundSixteenths is VRNDSCALEPS/PD's immediate for rounding to the
// nearest multiple of 1/16 (four fraction bits kept, to nearest even).
const roundSixteenths = 4 << 4

// threeQuartersExp is the exponent e of |x| = 2^e·m with m in [3/4, 3/2)
// (VGETMANTPS/PD's interval): that of the binade of |x|·4/3, as
// VGETEXPPS/PD gives it, in one instruction less than getExp(x) -
// getExp(m). The product's rounding cannot cross a power of two but where
// m is 3/2 or just below it, and there it does not: in float32 4/3
// rounds up, so 1.5·2^k·4/3 rounds to 2^(k+1) and the float32 just below
// it stays below; in float64 4/3 rounds down and 1.5·(4/3) is a tie
// between 2 - 2^-52 and 2, rounded to 2 (even). A subnormal float32 x is
// an integer multiple j of 2^-149, and j·4/3 cannot round up to 2^i
// unless j = 3·2^(i-2) itself. TestPowFloat32Range and TestPowFloat64Range
// hold every binade's boundary operands.
func threeQuartersExp(k lang, x Op) Op { return getExp(k, k.mul(x, k.f(4.0/3))) }

// powF32MinT bounds t = y·log2|x| below in the float32 kernels: from it
// the result is a normal float32 (2^-126 and a margin for t's low part).
// powF32MinZ is the same bound on y·log|x|, the natural logarithm's.
const (
	powF32MinT = -125.9
	powF32MinZ = powF32MinT * math.Ln2
)

// powLog2Q3 is (log1p(r) - r + r²/2)/r³ divided by ln2, on |r| ≤
// powInv5.r to degree 3 (powLogQ's tail, polyFit; TestFits measures it):
// the cubic and higher terms of log2(1+r), below 2^-13, to about 2^-20 of
// themselves.
var powLog2Q3 = polyFit(log1pTail3Over2, -powInv5.r, powInv5.r, 3)

// powInv5 is powFast32's table log: the cells of the table log (n =
// rint(20m) for m in [3/4, 3/2), entry n & 15), each with an inverse of
// at most five significant bits (20/n rounded; 1 in cell 20), so that r =
// m·inv - 1 is exact in float32 (m has 24 bits, the product 29 at most,
// and |r| below 1/16 needs no more than 24 of them: TestPowInv5), T =
// log2(1/inv) as a multiple of 2^-16 (tHi: e + tHi is exact for |e| ≤
// 2^8) and the rest (tLo), and r, the largest |r| over the cells.
var powInv5 = func() (t struct {
	inv, tHi, tLo [16]float32
	r             float64
}) {
	for n := 15; n <= 30; n++ {
		j := n & 15
		v := float64(logTableK) / float64(n)
		ex := math.Floor(math.Log2(v))
		inv := math.RoundToEven(v*math.Exp2(4-ex)) / math.Exp2(4-ex) // five significant bits
		t.inv[j] = float32(inv)
		l := logBig(newFit(inv))
		l.Quo(l.Neg(l), logBig(newFit(2)))
		hi, lo := split16(l)
		t.tHi[j], t.tLo[j] = float32(hi), float32(lo)
		for _, m := range []float64{(float64(n) - 0.5) / logTableK, (float64(n) + 0.5) / logTableK} {
			t.r = max(t.r, math.Abs(math.Max(0.75, math.Min(m, 1.5))*inv-1))
		}
	}
	t.r *= 1 + 0x1p-20
	return t
}()

// log1pTail3Over2 is log1pTail3 divided by ln2.
func log1pTail3Over2(r *big.Float) *big.Float {
	return new(big.Float).SetPrec(fitPrec).Quo(log1pTail3(r), logBig(newFit(2)))
}

// powExp2P is (2^f - 1)/f on |f| ≤ 1/32 (and a margin for the rounding
// of t's low part) to degree 3 (polyFit; TestFits measures it).
var powExp2P = polyFit(exp2m1Over, -powExp2F, powExp2F, 3)

// powExp2F bounds |f| in powFast32: half of 1/16, and a margin.
const powExp2F = 1.0/32 + 0x1p-20

// exp2m1Over is (2^f - 1)/f = ln2·(1 + f·ln2·expm1Tail(f·ln2)).
func exp2m1Over(f *big.Float) *big.Float {
	ln2 := logBig(newFit(2))
	u := new(big.Float).SetPrec(fitPrec).Mul(f, ln2)
	t := new(big.Float).SetPrec(fitPrec).Mul(u, expm1Tail(u))
	return t.Add(t, newFit(1)).Mul(t, ln2)
}

// exp2Sixteenths32 is 2^(j/16) for j = 0 … 15 as a float32 pair: the
// nearest float32 and the rest, rounded (from exp2Sixteenths' pair).
var exp2Sixteenths32 = func() (t struct{ hi, lo [16]float32 }) {
	for j := range 16 {
		t.hi[j] = float32(exp2Sixteenths[j])
		t.lo[j] = float32((exp2Sixteenths[j] - float64(t.hi[j])) + exp2SixteenthsLo[j])
	}
	return t
}()

// fast512Binary32 are the AVX-512 level's own float32 kernels of two
// operands, in float32 lanes: pow's.
var fast512Binary32 = map[string]core2{"pow": powFast32}

// core32On is b's float32 kernel in float32 lanes on target t (nil: b
// computes float32 through float64 halves): the AVX-512 level's own
// (fast512Binary32) there, else b's.
func core32On(b binaryFn, t target) core2 {
	if c, ok := fast512Binary32[b.Name]; ok && t == avx512 {
		return c
	}
	return b.core32
}
