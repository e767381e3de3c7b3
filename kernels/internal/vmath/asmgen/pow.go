package main

import (
	"math"
	"math/big"
)

// pow's kernel, every level's (AVX2, AVX-512, NEON; float32 through
// float64 halves): x**y = e^(y·log|x|) with log|x| and the product as
// double-double pairs, so that the argument of e^ is exact to about 2^-66
// of itself and the result within about half an ulp of the truth, and so
// of the reference (scalar.Pow, itself within a hair of half an ulp): its
// exact results (integral powers, square roots) come out exact. Table-free,
// as AVX2 and NEON have no sixteen-entry lookup; one division.

// powLogR2 is R2(w) = Σ 2w^j/(2j+5) on 0 ≤ w ≤ powLogW (polyFit; TestFits
// measures it): log1p f = 2s + (2/3)s³ + s³·w·R2(w) with s = f/(2+f) and
// w = s².
var powLogR2 = polyFit(powLogTail, 0, powLogW, 7)

// powLogW bounds w = s² for 1+f in [√½, √2): s ≤ (√2-1)/(√2+1), with a
// margin for the roundings.
const powLogW = 0.0294373 * (1 + 0x1p-20)

// powLogTail is R2(w) = Σ 2w^j/(2j+5).
func powLogTail(w *big.Float) *big.Float { return atanhSeries(w, 5) }

// atanhSeries is Σ 2w^j/(2j+first): with w = s², 2·atanh(s) = 2s +
// s·w·atanhSeries(w, 3) = 2s + (2/3)s³ + s³·w·atanhSeries(w, 5).
func atanhSeries(w *big.Float, first int) *big.Float {
	return series(w, 200, func(j int) *big.Float {
		return new(big.Float).SetPrec(fitPrec).Quo(newFit(2), newFit(float64(2*j+first)))
	})
}

// twoThirds is 2/3 as the float64 nearest it and the rest.
var twoThirds = splitBig(new(big.Float).SetPrec(fitPrec).Quo(newFit(2), newFit(3)))

// powExpR bounds |r| in powExpPair: ln2/2 and a margin for n's rounding.
const powExpR = math.Ln2/2 + 0x1p-30

// powExpP is (e^r - 1 - r)/r² on |r| ≤ powExpR (polyFit; TestFits
// measures it).
var powExpP = polyFit(expm1Tail, -powExpR, powExpR, 10)

// powExpMax bounds |y·log|x|| on the fast path: 2^n times a result in
// [√½, √2] stays a normal number (beyond, the reference gives overflow,
// subnormals and 0).
const powExpMax = 707.0

// powDD is x**y for finite normal x (of either sign: a negative x with an
// integral y takes y's parity as its sign, with a non-integral y it is
// NaN) and |y·log|x|| ≤ 707, by powLogPair, the product y·(hi + lo) as a
// pair (y·hi exactly by an FMA) and powExpPair. y = 0 and x = 1 give 1 for
// every other operand (NaN included), as C99 says. Zeros, infinities, NaN,
// subnormal x and results outside the normal range are out (the
// reference gives them).
func powDD(k lang, x, y Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	lh, ll := powLogPair(k, ax)
	zh := k.mul(y, lh)
	zl := k.fma(y, ll, mulErr(k, y, lh, zh))
	return powSpecials(k, x, y, zh, powExpPair(k, zh, zl))
}

// powSpecials is pow's result and domain from e = |x|**y (valid where x is
// a finite normal number and |z| = |y·log|x|| ≤ 707): the sign of a
// negative x to an odd y, NaN for a negative x to a non-integral y (or
// NaN), 1 where y = 0 or x = 1, and the mask of the lanes so computed.
func powSpecials(k lang, x, y, z, e Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	yInt := k.cmp(eq, k.round(y, 3), y)
	hy := k.mul(y, k.f(0.5))
	yOdd := k.mAnd(yInt, k.cmp(neq, k.round(hy, 3), hy)) // every |y| ≥ 2^53 is even
	neg := k.cmp(lt, x, k.f(0))
	r = k.sel(k.mAnd(neg, yOdd), k.xor(e, k.u(signBit)), e)
	finite := k.cmp(le, ax, k.f(maxFloat))
	fracNeg := k.mAndNot(neg, yInt) // NaN y too: the reference's NaN
	r = k.sel(fracNeg, k.u(nanBits), r)
	in := k.mAnd(k.cmp(ge, ax, k.f(minNormal)), finite)
	in = k.mAnd(in, k.cmp(le, k.and(z, k.u(absMask)), k.f(powExpMax))) // NaN z is out
	ok = k.mOr(k.mAndNot(in, fracNeg), k.mAnd(fracNeg, finite))
	isOne := k.mOr(k.cmp(eq, y, k.f(0)), k.cmp(eq, x, k.f(1)))
	return k.sel(isOne, k.f(1), r), k.mOr(ok, isOne)
}

// mulErr is a·b - p exactly for p = a·b rounded (one FMA:
// VFMSUB on amd64; an FMA of -p elsewhere).
func mulErr(k lang, a, b, p Op) Op {
	if v, ok := avxOf(k); ok {
		return v.k.fms(a, b, p)
	}
	return k.fma(a, b, k.xor(p, k.u(signBit)))
}

// avxOf is the avx lang under k (through contracted) and whether there is
// one (false on NEON).
func avxOf(k lang) (avx, bool) {
	if c, ok := k.(contracted); ok {
		k = c.lang
	}
	a, ok := k.(avx)
	return a, ok
}

// powLogPair is log a for a positive normal a as a pair hi + lo, to about
// 2^-66 relative: a = 2^kk·(1+f) with 1+f in [√½, √2) (splitSqrt2; f is
// exact), s = f/(2+f) as a pair sh + sl (2+f as a pair, the division's
// remainder exact by an FMA, and 1/(2+f) = (1-s)/2 for the low part: no
// second division), then
//
//	log a = kk·ln2 + 2s + (2/3)s³ + s³·w·R2(w),  w = s² ≤ 0.0295,
//
// with kk·ln2Hi43 (exact), 2sh and (2/3)s³'s high part summed exactly
// (Fast2Sum: each partial sum is at least the next term, or zero) and
// every rounding error, the low parts and s³·w·R2(w) (below 2^-12 of the
// result) in lo, then the pair normalized (Fast2Sum).
func powLogPair(k lang, a Op) (hi, lo Op) {
	kk, f := splitSqrt2(k, a, lt)
	d := k.add(f, k.f(2))
	dl := k.sub(f, k.sub(d, k.f(2)))
	sh := k.div(f, d)
	rem := k.fnma(sh, dl, k.fnma(sh, d, f)) // f - sh·(2+f)
	sl := k.mul(k.mul(rem, k.f(0.5)), k.sub(k.f(1), sh))
	wh := k.mul(sh, sh)
	wl := mulErr(k, sh, sh, wh)
	ch := k.mul(sh, wh) // s³ = ch + cl
	cl := k.fma(k.mul(wh, k.f(3)), sl, k.fma(sh, wl, mulErr(k, sh, wh, ch)))
	th := k.mul(ch, k.f(twoThirds.hi)) // (2/3)s³ = th + tl
	tl := k.fma(cl, k.f(twoThirds.hi), k.fma(ch, k.f(twoThirds.lo), mulErr(k, ch, k.f(twoThirds.hi), th)))
	rest := k.mul(k.mul(ch, wh), k.horner(wh, powLogR2...))
	a1 := k.mul(kk, k.f(ln2Hi43))
	b1 := k.add(sh, sh)
	s1 := k.add(a1, b1)
	e1 := k.add(k.sub(a1, s1), b1)
	s2 := k.add(s1, th)
	e2 := k.add(k.sub(s1, s2), th)
	lo = k.add(k.add(e1, e2), k.add(tl, rest))
	lo = k.fma(kk, k.f(ln2Lo43), k.fma(sl, k.f(2), lo))
	hi = k.add(s2, lo) // normalized (Fast2Sum), so that y·lo is below y·hi's ulp
	return hi, k.add(k.sub(s2, hi), lo)
}

// powExpPair is e^(zh + zl) for |zh| ≤ 707 and |zl| ≤ ulp(zh): n =
// rint(zh/ln2) (the 1.5·2^52 trick), r = zh - n·ln2 as a pair rh + rl
// (fdlibm's ln2 in two parts: n·logLn2Hi and zh minus it are exact), e^r -
// 1 = rh + rh²·P(rh) + rl·e^rh with 1 + rh summed exactly (Fast2Sum; e^rh
// in rl's product rounded, as rl is below 2^-43), and
// 2^n added to the exponent field: rounded once, the rest below 2^-57 of
// the result.
func powExpPair(k lang, zh, zl Op) Op {
	t := k.fma(zh, k.f(1/math.Ln2), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	r1 := k.fnma(n, k.f(logLn2Hi), zh)
	rh := k.fnma(n, k.f(logLn2Lo), r1)
	rl := k.add(k.fnma(n, k.f(logLn2Lo), k.sub(r1, rh)), zl)
	u := k.add(k.f(1), rh)
	ue := k.add(k.sub(k.f(1), u), rh)
	low := k.fma(k.mul(rh, rh), k.horner(rh, powExpP...), ue)
	y := k.add(u, k.fma(rl, k.add(u, low), low)) // rl reaches 2^-43 (zh's ulp near 707): times e^rh, not 1 + rh
	return k.addI(y, k.shl(t, 52))
}

// float32Via64 are the float32 kernels computed in float64 lanes (the
// operands widened, the result narrowed once) with an algorithm of their
// own, where the float64 kernel would be more precise than float32 needs:
// pow's (powF32). The other functions of two operands run their float64
// kernel on the halves or a float32 kernel (binaryFn.core32).
var float32Via64 = map[string]core2{"pow": powF32}

// powF32R is R(w) = Σ 2w^j/(2j+3) on 0 ≤ w ≤ powLogW (polyFit; TestFits
// measures it): log1p f = 2s + s·w·R(w).
var powF32R = polyFit(powF32Tail, 0, powLogW, 5)

// powF32Tail is R(w) = Σ 2w^j/(2j+3).
func powF32Tail(w *big.Float) *big.Float { return atanhSeries(w, 3) }

// powF32P is (e^r - 1 - r)/r² on |r| ≤ powExpR to degree 6 (polyFit;
// TestFits measures it).
var powF32P = polyFit(expm1Tail, -powExpR, powExpR, 6)

// powF32 is pow for float32 operands in float64 lanes: log|x| in plain
// float64 (splitSqrt2, s = f/(2+f), log1p f = 2s + s·w·R(w), kk·ln2 added
// by an FMA: about 2^-50 relative), z = y·log|x| (for a float32 result in
// range |z| ≤ 104, so within 2^-43 absolutely), e^z = 2^n·(1 + r +
// r²·P(r)) with r = z - n·ln2 in two parts (about 2^-40): the float32
// result, rounded once from it, is the reference's but where the float64
// value lies within 2^-40 of a float32 rounding boundary (then an ulp
// off). The special cases and the domain are powDD's, over float64 (a
// float32 subnormal is a normal float64, so in it), less the results
// below the normal float32 range (powF32MinZ).
func powF32(k lang, x, y Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	kk, f := splitSqrt2(k, ax, lt)
	s := k.div(f, k.add(f, k.f(2)))
	w := k.mul(s, s)
	l := k.fma(kk, k.f(math.Ln2), k.fma(k.mul(s, w), k.horner(w, powF32R...), k.add(s, s)))
	z := k.mul(y, l)
	t := k.fma(z, k.f(1/math.Ln2), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	rr := k.fnma(n, k.f(logLn2Lo), k.fnma(n, k.f(logLn2Hi), z))
	e := k.add(k.fma(k.mul(rr, rr), k.horner(rr, powF32P...), rr), k.f(1))
	r = k.addI(e, k.shl(t, 52))
	r, ok = powSpecials(k, x, y, z, r)
	// below powF32MinZ the float64 value is rounded to a float32 subnormal
	// or 0, where it could fall on the other side of a tie (2^-150 exactly,
	// which is 0): those lanes are out, the reference rounds them (NaN z too)
	return r, k.mAnd(ok, k.cmp(ge, z, k.f(powF32MinZ)))
}
