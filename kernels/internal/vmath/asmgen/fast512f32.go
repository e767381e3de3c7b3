package main

import (
	"math"
	"math/big"
)

// fast512f32 holds the AVX-512 level's own float32 kernels: the table log
// of fast512.go in float32 lanes (one VPERMPS per table, sixteen entries in
// one register) and the functions over it. The float32 kernels of every
// level are held to the rule against the float64 reference (within 4 ulp);
// these measure 1–2 (../doc.go). The AVX2 and NEON levels keep their own.
var fast512f32 = map[string]core{
	"log":   func(k lang, x Op) (Op, Op) { return logTable32(k, x, logBaseE) },
	"log2":  func(k lang, x Op) (Op, Op) { return logTable32(k, x, logBase2) },
	"log10": func(k lang, x Op) (Op, Op) { return logTable32(k, x, logBase10) },
	"log1p": log1pFast32,
	"asinh": asinhFast32,
	"acosh": acoshFast32,
	"atanh": atanhFast32,
}

// fastCore32 is the float32 core of u on target t where the 512-bit target
// has one of its own (fast512f32).
func fastCore32(u unary, t target) (c core, fast bool) {
	c, fast = fast512f32[u.Name]
	return c, fast && t == avx512
}

// logBase is a float32 table log's base: log_b x = e·eScale + T + s·r +
// r²·Q(r), with s = 1/ln b, eScale = ln2·s and the table T = s·log c per
// cell (c = 1/inv), and Q = s·logTable32P. eScale and T are split, hi a
// multiple of 2^-16 (eHi of at most 16 significant bits, so that e·eHi +
// tHi is exact in float32 for |e| ≤ 2^8), lo the rest rounded to float32;
// s is split as the float32 nearest it and the rest.
type logBase struct {
	sHi, sLo, eHi, eLo float64
	tHi, tLo           [16]float32
	q                  []float64
}

// split16 is v as a multiple of 2^-16 and the rest, rounded to float32.
func split16(v *big.Float) (hi, lo float64) {
	f, _ := v.Float64()
	hi = math.RoundToEven(f*0x1p16) / 0x1p16
	lo32, _ := new(big.Float).Sub(v, newFit(hi)).Float32()
	return hi, float64(lo32)
}

// logTable32Inv is logTableInv's cells' inverses rounded to float32.
var logTable32Inv = func() (inv [16]float32) {
	for n := 15; n <= 30; n++ {
		inv[n&15] = float32(logTableK) / float32(n)
	}
	return inv
}()

// logTable32P is (log1p(r) - r)/r² to degree 3 on |r| ≤ logTableR
// (polyFit; TestFits measures it): 2^-31 relative to r, for float32's
// 2^-24.
var logTable32P = polyFit(log1pTail, -logTableR, logTableR, 3)

// The three bases, their tables from logBig at fitPrec bits.
var logBaseE, logBase2, logBase10 = func() (e, two, ten logBase) {
	ln2 := logBig(newFit(2))
	ln10 := ln10Big()
	base := func(lnb *big.Float) logBase {
		s := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), lnb)
		var b logBase
		sHi, _ := s.Float32()
		b.sHi = float64(sHi)
		b.sLo, _ = new(big.Float).Sub(s, newFit(b.sHi)).Float64()
		b.eHi, b.eLo = split16(new(big.Float).Mul(ln2, s))
		for n := 15; n <= 30; n++ {
			l := logBig(newFit(float64(logTable32Inv[n&15])))
			hi, lo := split16(l.Neg(l).Mul(l, s))
			b.tHi[n&15], b.tLo[n&15] = float32(hi), float32(lo)
		}
		sf, _ := s.Float64()
		for _, c := range logTable32P {
			b.q = append(b.q, c*sf)
		}
		return b
	}
	return base(newFit(1)), base(ln2), base(ln10)
}()

// lookup16f32 is table[idx & 15] lane by lane for float32 lanes: one
// VPERMPS, the table a memory operand.
func lookup16f32(k lang, idx Op, table [16]float32) Op {
	w := wideKern(k, "lookup16f32")
	if w.elem != 32 {
		panic("lookup16f32: float32 lanes only")
	}
	var words [8]uint64
	for i := range words {
		words[i] = uint64(math.Float32bits(table[2*i])) | uint64(math.Float32bits(table[2*i+1]))<<32
	}
	d := w.vreg()
	w.c.VPERMPS(w.pool.table(words[:]), w.reg(idx), d)
	return d
}

// magic23x15 is 1.5·2^23: x + magic23x15 holds rint(x) in its low bits.
const magic23x15 = 0x1.8p23

// logTable32Cell is logTableCell in float32: m's cell (rint(20m) in t's
// low bits) and r = m·inv - 1 by one FMA.
func logTable32Cell(k lang, m Op) (r, t, inv Op) {
	t = k.fma(m, k.f(logTableK), k.f(magic23x15))
	inv = lookup16f32(k, t, logTable32Inv)
	return k.fma(m, inv, k.f(-1)), t, inv
}

// logTable32Sum is log_b of 2^e·(1 + r)·c: hi = e·eHi + tHi (exact), y =
// s·r plus the small terms (e·eLo + tLo, s's rest times r, r²·Q(r), and
// extra, log1p's correction, where not nil), then hi + y, rounded once
// more.
func logTable32Sum(k lang, b logBase, e, r, t, extra Op) Op {
	small := k.fma(e, k.f(b.eLo), lookup16f32(k, t, b.tLo))
	if extra != nil {
		small = k.add(small, extra)
	}
	if b.sLo != 0 {
		small = k.fma(r, k.f(b.sLo), small)
	}
	small = k.fma(k.mul(r, r), k.horner(r, b.q...), small)
	var y Op
	if b.sHi == 1 {
		y = k.add(r, small)
	} else {
		y = k.fma(r, k.f(b.sHi), small)
	}
	return k.add(k.fma(e, k.f(b.eHi), lookup16f32(k, t, b.tHi)), y)
}

// logTable32 is log_b x by the table: x = 2^e·m with m = getMant(x) in
// [3/4, 3/2), e = getExp(x) - getExp(m), as the float64 table log (cell 20
// is exactly 1 and 0: nothing cancels near 1). Positive normal lanes only.
func logTable32(k lang, x Op, b logBase) (r, ok Op) {
	m := getMantIn(k, x, mantThreeQuartersThree)
	e := k.sub(getExp(k, x), getExp(k, m))
	rr, t, _ := logTable32Cell(k, m)
	return logTable32Sum(k, b, e, rr, t, nil), positiveNormal(k, x)
}

// log1pTable32 is log1p(x + xlo) for x in (-1, MaxFloat32] and xlo (nil:
// 0) below half an ulp of x, by the table log of u = 1 + x and its error d
// = x - (u - 1) + xlo, scaled into the cell's r (log1pTable's method in
// float32). +0 at x = -0.
func log1pTable32(k lang, x, xlo Op) Op {
	u := k.add(x, k.f(1))
	d := k.sub(x, k.sub(u, k.f(1)))
	if xlo != nil {
		d = k.add(d, xlo)
	}
	m := getMantIn(k, u, mantThreeQuartersThree)
	ne := k.sub(getExp(k, m), getExp(k, u)) // -e
	rr, t, inv := logTable32Cell(k, m)
	b := logBaseE
	b.eHi, b.eLo = -b.eHi, -b.eLo
	return logTable32Sum(k, b, ne, rr, t, scaleF(k, k.mul(d, inv), ne))
}

// log1pFast32 is log1pTable32 with ±0 kept. Lanes with x ≤ -1, +Inf and
// NaN are out.
func log1pFast32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(gt, x, k.f(-1)), k.cmp(le, x, k.f(math.MaxFloat32)))
	return keepZeros(k, log1pTable32(k, x, nil), x), ok
}

// asinhAcosh32Max bounds asinhFast32's and acoshFast32's domain: x² is a
// finite float32 below it.
const asinhAcosh32Max = 0x1p60

// asinhFast32 is asinhFast64's method in float32: log1p(|x| + x²/(1 +
// √(1+x²))) with x's sign, the quotient by VRCP14PS and a Newton step.
// Lanes with |x| > 2^60 and NaN are out.
func asinhFast32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	ok = k.cmp(le, ax, k.f(asinhAcosh32Max))
	d := k.add(k.sqrt(k.fma(ax, ax, k.f(1))), k.f(1))
	v := k.fma(k.mul(ax, ax), reciprocal(k, d), ax)
	return k.xor(log1pTable32(k, v, nil), k.and(x, k.u(1<<31))), ok
}

// acoshFast32 is acoshFast64's method in float32: log1p(t + √(t² + 2t))
// with t = x - 1. Lanes with x < 1, x > 2^60 and NaN are out.
func acoshFast32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(1)), k.cmp(le, x, k.f(asinhAcosh32Max)))
	t := k.sub(x, k.f(1))
	return log1pTable32(k, k.add(t, k.sqrt(k.fma(t, t, k.add(t, t)))), nil), ok
}

// atanhFast32 is atanhFast64's method in float32, ±0.5·log1p(2|x|/(1 -
// |x|)), with the quotient's rounding error (the residual by an FMA, over
// the divisor by VRCP14PS) passed to log1p: the quotient alone measured 3
// ulp. Lanes with |x| ≥ 1 and NaN are out.
func atanhFast32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	ok = k.cmp(lt, ax, k.f(1))
	num, den := k.add(ax, ax), k.sub(k.f(1), ax)
	q := k.div(num, den)
	qlo := k.mul(k.fnma(q, den, num), rcp14(k, den))
	l := log1pTable32(k, q, qlo)
	return k.xor(k.mul(l, k.f(0.5)), k.and(x, k.u(1<<31))), ok
}
