package main

import (
	"math"
	"math/big"
)

// pow at the AVX-512 level: the table log and the table e^ of the other
// AVX-512 kernels (sixteen-entry VPERMI2PD lookups) in place of pow.go's
// table-free description and its division. float64 keeps log|x| and
// y·log|x| as double-double pairs, as powDD does; float32 (in float64
// halves) needs neither pair. Both are held to the accuracy rule, within
// about an ulp of the reference (the sweeps measure it).

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

// powLogTable is log |a| for a normal a as a pair hi + lo, to about
// 2^-63 relative, over the table log's cells (logTableParts' reduction of
// |a|, the sign dropped by VGETMANTPD: |a| = 2^e·m, m in [3/4, 3/2), the
// cell's inv, hi and lo):
//
//	log |a| = e·ln2 + hi + lo + log1p(r + pe),  m·inv = 1 + r + pe,
//
// with m·inv as a pair (p rounded and pe its error, by an FMA) and r = p
// - 1 exact (Sterbenz: p is within 1/30 of 1); log1p(r + pe) = r - r²/2
// + r³·Q(r) + pe·(1 - r + r²) (pe/(1+r) to pe·r³, below 2^-69: pe is
// below 2^-53 and 0 in cell 20, whose inverse is 1), r² as a pair. e·ln2Hi43 + hi (exact), r and
// -r²/2 are summed exactly (Fast2Sum: off cell 20 the first sum is at
// least 0.288 and r below 1/30; in cell 20 it is 0 where e is), every
// rounding error and the smaller terms go to lo, and the pair is
// normalized.
func powLogTable(k lang, a Op) (hi, lo Op) {
	m := getMantIn(k, a, mantThreeQuartersThree|mantAbs)
	e := k.sub(getExp(k, a), getExp(k, m))
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
// vectors that have one (ifAny). Lanes with |x| not a positive normal
// number (zeros, subnormals, infinities, NaN) or |y·log|x|| above 707
// (NaN included: a NaN y, or an infinite y where x is 1) are out: the
// reference gives overflow, subnormal results and C99's special cases.
// y = 0 and x = 1 give 1 (z is 0: cell 20's entries are 1 and 0).
func powFast64(k lang, x, y Op) (r, ok Op) {
	lh, ll := powLogTable(k, x)
	zh := k.mul(y, lh)
	zl := k.fma(y, ll, mulErr(k, y, lh, zh))
	r = powExpTable(k, zh, zl)
	ok = k.mAndNot(k.cmp(le, k.and(zh, k.u(absMask)), k.f(powExpMax)), notNormal(k, x))
	return powNegativeBase(k, x, y, r), ok
}

// powNegativeBase is e = |x|**y with the sign and domain of a negative x
// put on, where some lane of x is negative (ifAny: most vectors have
// none): -e for an odd y, NaN for a non-integral y.
func powNegativeBase(k lang, x, y, e Op) Op {
	neg := k.cmp(lt, x, k.f(0))
	r := e
	ifAny(k, neg, []*Op{&r}, func() {
		yInt := k.cmp(eq, k.round(y, 3), y)
		hy := k.mul(y, k.f(0.5))
		yOdd := k.mAnd(yInt, k.cmp(neq, k.round(hy, 3), hy)) // every |y| ≥ 2^53 is even
		r = k.sel(k.mAnd(neg, yOdd), k.xor(e, k.u(signBit)), e)
		r = k.sel(k.mAndNot(neg, yInt), k.u(nanBits), r)
	})
	return r
}

// powFast32 is pow for float32 operands on the AVX-512 level, in float64
// lanes: log|x| = e·ln2 + hi + r + r²·P(r) over the table log's cells
// (r = m·inv - 1 by one FMA, within 2^-58; P logTable32P, the float32
// log1p's; about 2^-36 relative), z = y·log|x| capped at 100 (beyond,
// the float32 result is +Inf either way), and e^z by expFast64's
// reduction and table with q = e^r - 1 to degree 4 (about 2^-40): the
// float32 result, rounded once from it, is the reference's but where the
// float64 value lies within about 2^-34 of a float32 rounding boundary
// (then an ulp off). A negative x as powFast64. Lanes with |x| not a
// positive normal float64 (a float32 subnormal is one) or z below
// powF32MinZ (a subnormal or zero result; NaN z: a NaN y, an infinite y
// where x is 1) are out.
func powFast32(k lang, x, y Op) (r, ok Op) {
	m := getMantIn(k, x, mantThreeQuartersThree|mantAbs)
	e := k.sub(getExp(k, x), getExp(k, m))
	t := k.fma(m, k.f(logTableK), k.f(magic52x15))
	rr := k.fma(m, lookup16(k, t, logTableInv), k.f(-1))
	a := k.fma(e, k.f(math.Ln2), lookup16(k, t, logTableHi))
	l := k.add(a, k.fma(k.mul(rr, rr), k.horner(rr, logTable32P...), rr))
	z := k.mul(y, l)
	ok = k.mAndNot(k.cmp(ge, z, k.f(powF32MinZ)), notNormal(k, x))
	z = k.min(z, k.f(powFast32MaxZ))
	tz := k.fma(z, k.f(expFastInvStep), k.f(magic52x15))
	n := k.sub(tz, k.f(magic52x15))
	rz := k.fnma(n, k.f(math.Ln2/16), z)
	q := k.fma(k.mul(rz, rz), k.horner(rz, powFast32ExpP...), rz)
	hi := lookup16(k, tz, exp2Sixteenths)
	r = scaleF(k, k.fma(hi, q, hi), k.mul(n, k.f(1.0/16)))
	return powNegativeBase(k, x, y, r), ok
}

// powFast32MaxZ caps y·log|x| in powFast32 (+Inf included): from 89 the
// float32 result overflows, and e^100 is a normal float64.
const powFast32MaxZ = 100.0

// powFast32ExpP is (e^r - 1 - r)/r² on |r| ≤ expFastR to degree 2
// (polyFit; TestFits measures it).
var powFast32ExpP = polyFit(expm1Tail, -expFastR, expFastR, 2)

// fast512Via64 are the AVX-512 level's own float32 kernels computed in
// float64 lanes (float32Via64's, for that level): pow's.
var fast512Via64 = map[string]core2{"pow": powFast32}
