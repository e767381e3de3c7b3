package main

import (
	"math"
	"math/big"
	"strings"

	"github.com/mmcloughlin/avo/operand"
)

// The AVX-512 level's own float64 kernels. Where a function has one
// (fast512), the 512-bit target computes it either with an algorithm of
// its own (a table and a low-degree polynomial, the method of the vector
// libraries NumPy dispatches to: exp, exp2, log, log2) or with its
// reference's description with every multiply-add fused (contracted), held
// to the package's accuracy rule (at most 4 ulp from the reference; NaN,
// ±Inf, ±0 and the lanes out of the fast domain exact, by the scalar
// fix-up) rather than to the reference's bits. The AVX2, NEON and scalar
// levels keep the references' algorithms, bit for bit. ../doc.go says why
// and what each measures.
var fast512 = map[string]core{
	"exp":   expFast64,
	"exp2":  exp2Fast64,
	"log":   logFast64,
	"log2":  log2Fast64,
	"log10": log10Fast64,
	"tanh":  func(k lang, x Op) (Op, Op) { return tanhWith(contracted{k}, x, expFast64) },
	"cosh":  func(k lang, x Op) (Op, Op) { return coshWith(contracted{k}, x, expFast64) },
	"sinh":  sinhFast64,
	"sin":   func(k lang, x Op) (Op, Op) { return sinCosFast64(k, x, false) },
	"cos":   func(k lang, x Op) (Op, Op) { return sinCosFast64(k, x, true) },
	"tan":   tanFast64,
	"atan":  atanFast64,
	"asin":  func(k lang, x Op) (Op, Op) { return asinAcosFast64(k, x, false) },
	"acos":  func(k lang, x Op) (Op, Op) { return asinAcosFast64(k, x, true) },
	"expm1": expm1Fast64,
	"log1p": log1pFast64,
	"asinh": asinhFast64,
	"acosh": acoshFast64,
	"atanh": atanhFast64,
	"erf":   func(k lang, x Op) (Op, Op) { return erfWith(contracted{k}, x, expFast64) },
	"cbrt":  cbrtFast64,
}

// contracted is a lang whose multiply-adds written for a reference
// (goMulAdd, goMulSub) are always fused: a fast512 kernel over a
// reference's description need not round as the reference's compiled code
// does, and one FMA is both cheaper and closer than a product and a sum.
type contracted struct{ lang }

func (c contracted) goMulAdd(a, b, d Op, _ bool) Op { return c.fma(a, b, d) }
func (c contracted) goMulSub(a, b, d Op) Op         { return c.fnma(a, b, d) }

// fastCore is the float64 core of u on target t: its fast512 kernel on the
// 512-bit target where it has one, else its reference's.
func fastCore(u unary, t target) (c core, fast bool) {
	if f, ok := fast512[u.Name]; ok && t == avx512 {
		return f, true
	}
	return u.core64, false
}

// fastCore2 is fastCore for a function of two operands.
func fastCore2(b binaryFn, t target) (c core2, fast bool) {
	if f, ok := fast512Binary[b.Name]; ok && t == avx512 {
		return f, true
	}
	return b.core64, false
}

// fastNames are the exported stems (Exp for exp, Exp2_ for exp2) of the
// functions with a fast512 or fast512Binary kernel on target t, or whose
// kernel is their own at every level (ownEverywhere), in unaries' then
// binaries' order.
func fastNames(t target) []string {
	var names []string
	for _, u := range unaries {
		if _, fast := fastCore(u, t); fast {
			names = append(names, exportedStem(u.Name))
		}
	}
	for _, b := range binaries {
		if _, fast := fastCore2(b, t); fast || ownEverywhere[b.Name] {
			names = append(names, exportedStem(b.Name))
		}
	}
	return names
}

// ownEverywhere names the functions of two operands whose kernel at every
// level (AVX2, AVX-512, NEON) is an algorithm of its own, held to the
// accuracy rule, rather than its reference's bit for bit: pow (pow.go).
var ownEverywhere = map[string]bool{"pow": true}

// neonFastNames are fastNames for the NEON level: ownEverywhere's.
func neonFastNames() []string {
	var names []string
	for _, b := range binaries {
		if ownEverywhere[b.Name] {
			names = append(names, exportedStem(b.Name))
		}
	}
	return names
}

// exportedStem is name's stem with its first letter upper-case (Exp for
// exp, Exp2_ for exp2): the exported functions' stems.
func exportedStem(name string) string {
	st := stem(name)
	return strings.ToUpper(st[:1]) + st[1:]
}

// lookup16 is table[idx & 15] lane by lane (VPERMI2PD, which reads the low
// four bits of each 64-bit index lane): the 512-bit float64 target only.
func lookup16(k lang, idx Op, table [16]float64) Op {
	w := wideKern(k, "lookup16")
	if w.elem != 64 {
		panic("lookup16: float64 lanes only")
	}
	var lo, hi [8]uint64
	for i := range 8 {
		lo[i] = math.Float64bits(table[i])
		hi[i] = math.Float64bits(table[8+i])
	}
	first := w.load(w.pool.table(lo[:]))
	d := w.copy(idx)
	w.c.VPERMI2PD(w.pool.table(hi[:]), first, d)
	return d
}

// exp2Sixteenths is 2^(j/16) for j = 0 … 15, each correctly rounded, and
// exp2SixteenthsLo the rest, 2^(j/16) minus that, rounded (both from the
// fourth square root of 2^j at 256 bits): the pair is 2^(j/16) to about
// 2^-106.
var exp2Sixteenths, exp2SixteenthsLo = func() (hi, lo [16]float64) {
	for j := range hi {
		v := new(big.Float).SetPrec(256).SetInt64(1 << j)
		for range 4 {
			v.Sqrt(v)
		}
		hi[j], _ = v.Float64()
		lo[j], _ = v.Sub(v, new(big.Float).SetFloat64(hi[j])).Float64()
	}
	return hi, lo
}()

// Constants of expFast64: 16/ln2, ln2/16 in two parts (fdlibm's ln2_hi has
// 32 significant bits, so n·hi is exact for |n| < 2^21), and the domain,
// |x| ≤ 707, where 2^(n>>4) times a result in [2^(-1/32), 2) stays a normal
// number.
const (
	expFastInvStep = 16 / math.Ln2
	expFastStepHi  = logLn2Hi / 16
	expFastStepLo  = logLn2Lo / 16
	expFastMax     = 707.0
	expFastR       = 0.0217 // |r| ≤ ln2/32 = 0.02166, with room for the rounding of n
)

// expFastP is P(r) = (e^r - 1 - r)/r² to degree 4 on |r| ≤ expFastR:
// Taylor's degree-5 polynomial (1/2, 1/6, … 1/5040) economised by Chebyshev's
// T5 (r⁵ = R⁵(T5(r/R) + 20(r/R)³ - 5r/R)/16 with T5 dropped), so that
// P's error is at most R⁵/(16·5040) ≈ 6e-14 and e^r's, r² times it, about
// 3e-17 (a seventh of an ulp); coefficients highest first.
var expFastP = func() []float64 {
	const R, c7 = expFastR, 1.0 / 5040
	return []float64{
		1.0 / 720,
		1.0/120 + c7*20*R*R/16,
		1.0 / 24,
		1.0/6 - c7*5*R*R*R*R/16,
		0.5,
	}
}()

// expFast64 is e^x = 2^(n/16)·e^r with n = rint(16x/ln2) (the 1.5·2^52
// trick: n in t's low bits) and r = x - n·ln2/16 by two FMAs (|r| ≤
// ln2/32), by pow2Sixteenths. The last addition's rounding is nearly all
// the error: about half an ulp. Lanes with |x| > 707 and NaN are out (the
// reference gives them: overflow, subnormal results, the last 2.8 of each
// side's range).
func expFast64(k lang, x Op) (r, ok Op) {
	ok, t, rr := expFastReduce(k, x)
	return pow2Sixteenths(k, t, rr), ok
}

// expFastReduce is expFast64's reduction: the mask of |x| ≤ 707, t = n +
// 1.5·2^52 with n = rint(16x/ln2), and r = x - n·ln2/16 by two FMAs.
func expFastReduce(k lang, x Op) (ok, t, rr Op) {
	ok = k.cmp(le, k.and(x, k.u(absMask)), k.f(expFastMax))
	t = k.fma(x, k.f(expFastInvStep), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	rr = k.fnma(n, k.f(expFastStepHi), x)
	rr = k.fnma(n, k.f(expFastStepLo), rr)
	return ok, t, rr
}

// pow2Sixteenths is 2^(n/16)·e^r for n in t's low bits (t = n + 1.5·2^52)
// and |r| ≤ ln2/32: e^r - 1 = q = r + r²·P(r) (expFastP), the table's
// entry 2^((n&15)/16) = hi + lo by lookup16, hi + (hi·q + lo) by an FMA and
// an addition, and 2^(n>>4) added to the exponent field (t's bits with the
// low four cleared, shifted into place). The result must be a normal
// number: the callers' domains see to it.
func pow2Sixteenths(k lang, t, rr Op) Op {
	hi := lookup16(k, t, exp2Sixteenths)
	lo := lookup16(k, t, exp2SixteenthsLo)
	p := k.horner(rr, expFastP...)
	q := k.fma(k.mul(rr, rr), p, rr)
	y := k.add(hi, k.fma(hi, q, lo))
	scale := k.shl(k.and(t, k.u(^uint64(15))), 48)
	return k.addI(y, scale)
}

// expm1FastP is (e^r - 1 - r)/r² on |r| ≤ expFastR to degree 5 (polyFit;
// TestFits measures it): expFastP's degree 4 leaves e^r - 1 an absolute
// 3e-17 from the truth, a seventh of an ulp of e^r but several of e^x - 1
// where that is near ln2/16 and s·q and s - 1 cancel.
var expm1FastP = polyFit(expm1Tail, -expFastR, expFastR, 5)

// expm1Fast64 is e^x - 1 by expFast64's reduction (with expm1FastP): with s = 2^(n>>4)·hi
// and sl = 2^(n>>4)·lo (the table's entry scaled, by products: lo may be
// 0) and q = e^r - 1, e^x - 1 = (s·q + (s - 1)) + sl, the first sum one
// FMA (s·q and s - 1 cancel where |x| is near ln2/16; s - 1 is exact
// where it matters, s in [1/2, 2] (Sterbenz); beyond, the result is far
// from 0 and the rounding of s - 1 half an ulp of it). Near 0 (n = 0) it
// is q itself, r = x. Within 2 ulp of math.Expm1 over the sweeps; x = ±0
// is x. Lanes with |x| > 707 and NaN are out.
func expm1Fast64(k lang, x Op) (r, ok Op) {
	ok, t, rr := expFastReduce(k, x)
	q := k.fma(k.mul(rr, rr), k.horner(rr, expm1FastP...), rr)
	two := k.addI(k.f(1), k.shl(k.and(t, k.u(^uint64(15))), 48)) // 2^(n>>4)
	s := k.mul(lookup16(k, t, exp2Sixteenths), two)
	sl := k.mul(lookup16(k, t, exp2SixteenthsLo), two)
	r = k.add(k.fma(s, q, k.sub(s, k.f(1))), sl)
	return k.sel(k.cmp(eq, x, k.f(0)), x, r), ok
}

// exp2FastMax bounds exp2Fast64's domain: n = rint(16x) then stays within
// ±16320, and 2^(n>>4) times a result in [2^(-1/32), 2) normal.
const exp2FastMax = 1020.0

// exp2Fast64 is 2^x = 2^(n/16)·e^r with n = rint(16x) (16x is exact), f =
// x - n/16 (exact: |f| ≤ 1/32, a multiple of x's ulp) and r = f·ln2 by
// one FMA over ln 2 in two parts (r to half an ulp), then as expFast64.
// Lanes with |x| > 1020 and NaN are out.
func exp2Fast64(k lang, x Op) (r, ok Op) {
	ok = k.cmp(le, k.and(x, k.u(absMask)), k.f(exp2FastMax))
	t := k.fma(x, k.f(16), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	f := k.fnma(n, k.f(1.0/16), x)
	rr := k.fma(f, k.f(ln2Hi64), k.mul(f, k.f(ln2Lo64)))
	return pow2Sixteenths(k, t, rr), ok
}

// ln 2 as the float64 nearest it and the rest (to about 2^-107).
const (
	ln2Hi64 = math.Ln2
	ln2Lo64 = 2.3190468138462996154948554638754786e-17
)

// wideKern is the 512-bit float64 kern under k, for the instructions only
// that target has (lookup16, getMant, getExp).
func wideKern(k lang, what string) *kern {
	w, ok := wideOf(k)
	if !ok {
		panic(what + ": a 512-bit kernel only")
	}
	return w
}

// wideOf is the kern under k (through contracted) and whether it is the
// 512-bit target's.
func wideOf(k lang) (*kern, bool) {
	a, ok := avxOf(k)
	return a.k, ok && a.k.wide()
}

// hasGetMant reports whether k is the 512-bit target, whose VGETMANTPS/PD
// and VGETEXPPS/PD split a positive normal x into significand and exponent
// in two instructions (the other targets take five, from the bits).
func hasGetMant(k lang) bool {
	_, ok := wideOf(k)
	return ok
}

// getMant is x's significand in [1, 2) (VGETMANTPD with interval 1–2,
// x's sign kept), getExp the exponent of its binade as a float (VGETEXPPD:
// floor(log2 |x|) for a normal x).
func getMant(k lang, x Op) Op { return getMantIn(k, x, mantOneTwo) }

// The normalization intervals of VGETMANTPD/PS (its immediate's low two
// bits): [1, 2) and [3/4, 3/2).
const (
	mantOneTwo             = 0x00
	mantThreeQuartersThree = 0x03
)

// mantAbs is VGETMANTPD/PS's sign control for a positive result (|x|'s
// significand), added to an interval.
const mantAbs = 0x04

// getMantIn is x's significand scaled into the interval (mantOneTwo or
// mantThreeQuartersThree), x's sign kept.
func getMantIn(k lang, x Op, interval uint8) Op {
	w := wideKern(k, "getMant")
	d := w.vreg()
	w.pd(w.c.VGETMANTPD, w.c.VGETMANTPS, operand.U8(interval), w.reg(x), d)
	return d
}

func getExp(k lang, x Op) Op {
	w := wideKern(k, "getExp")
	d := w.vreg()
	w.pd(w.c.VGETEXPPD, w.c.VGETEXPPS, w.reg(x), d)
	return d
}

// The table log's cells: x = 2^e·m with m in [3/4, 3/2), n = rint(20·m) in
// 15 … 30, sixteen cells of width 1/20 centred at n/20, cell n's entries
// at n & 15 (the four index bits VPERMI2PD reads). Cell 20 is centred at 1
// and its entries are exactly 1 and 0, so that near x = 1 the result is
// the polynomial's alone and nothing cancels.
const logTableK = 20

// logTableR bounds |r| = |m·inv - 1| over the cells: 1/30 (cell 15, where m
// ≥ 3/4), a little more for inv's rounding.
const logTableR = 1.0/30 + 0x1p-40

// logTableInv is n/20's inverse (20/n rounded) for each cell;
// logTableHi is -log of that inverse rounded to a multiple of 2^-43 and
// logTableLo the rest (from logBig at fitPrec bits): log m = hi + lo +
// log1p(r) with r = m·inv - 1. A multiple of 2^-43 plus e·ln2Hi43 (another,
// below 2^10 in magnitude) is exact in float64.
var logTableInv, logTableHi, logTableLo = func() (inv, hi, lo [16]float64) {
	for n := 15; n <= 30; n++ {
		j := n & 15
		inv[j] = float64(logTableK) / float64(n)
		l := logBig(newFit(inv[j]))
		l.Neg(l)
		hi[j], lo[j] = split43(l)
	}
	return inv, hi, lo
}()

// split43 is v rounded to a multiple of 2^-43 and the rest, rounded.
func split43(v *big.Float) (hi, lo float64) {
	f, _ := v.Float64()
	hi = math.RoundToEven(f*0x1p43) / 0x1p43
	lo, _ = new(big.Float).Sub(v, newFit(hi)).Float64()
	return hi, lo
}

// ln 2 as a multiple of 2^-43 (ln2Hi43; e·ln2Hi43 is exact for |e| < 2^11)
// and the rest.
var ln2Hi43, ln2Lo43 = split43(logBig(newFit(2)))

// logTableP is (log1p(r) - r)/r² on |r| ≤ logTableR (polyFit; TestFits
// measures it).
var logTableP = polyFit(log1pTail, -logTableR, logTableR, 7)

// positiveNormal is the mask of x's positive normal lanes (finite, not
// zero, not subnormal, not negative) on the 512-bit target: VFPCLASSPD/PS
// marks the lanes of any other class (its immediate 0xff: NaN, ±0, ±Inf,
// subnormal, negative) and KNOTB/KNOTW inverts them, two instructions
// where two compares and their AND are three.
func positiveNormal(k lang, x Op) Op {
	w := wideKern(k, "positiveNormal")
	bad, ok := notPositiveNormal(k, x), w.c.K()
	if w.elem == 64 {
		w.c.KNOTB(bad, ok) // eight lanes: the bits above stay clear
	} else {
		w.c.KNOTW(bad, ok)
	}
	return ok
}

// notPositiveNormal is the mask of x's lanes of any other class than
// positive normal (VFPCLASSPD/PS with immediate 0xff), for a mask that
// excludes them by one KANDNW.
func notPositiveNormal(k lang, x Op) Op { return fpClass(k, x, 0xff) }

// notNormal is the mask of x's lanes that are not normal numbers of
// either sign (NaN, ±0, ±Inf, subnormal: VFPCLASSPD/PS's immediate 0xbf,
// 0xff less the negative finite class).
func notNormal(k lang, x Op) Op { return fpClass(k, x, 0xbf) }

// fpClass is VFPCLASSPD/PS of x with the classes of imm: an opmask.
func fpClass(k lang, x Op, imm uint8) Op {
	w := wideKern(k, "fpClass")
	bad := w.c.K()
	w.pd(w.c.VFPCLASSPDZ, w.c.VFPCLASSPSZ, operand.U8(imm), w.reg(x), bad)
	return bad
}

// logTableReduce is the table log's reduction of a positive normal x: x =
// 2^e·m with m = getMant(x) in [3/4, 3/2) and e = getExp(x) - getExp(m)
// (getExp(x) is the exponent of x's binade; m below 1 is one binade up),
// the cell's entries and r = m·inv - 1 by one FMA (|r| ≤ 1/30); and the
// mask of the positive normal lanes.
func logTableReduce(k lang, x Op) (ok, e, r, hi, lo Op) {
	e, r, hi, lo = logTableParts(k, x)
	return positiveNormal(k, x), e, r, hi, lo
}

// logTableParts is logTableReduce without the mask.
func logTableParts(k lang, x Op) (e, r, hi, lo Op) {
	m := getMantIn(k, x, mantThreeQuartersThree)
	e = k.sub(getExp(k, x), getExp(k, m))
	r, hi, lo, _ = logTableCell(k, m)
	return e, r, hi, lo
}

// logTableCell is m's cell's entries and r = m·inv - 1 by one FMA (|r| ≤
// 1/30), for m in [3/4, 3/2).
func logTableCell(k lang, m Op) (r, hi, lo, inv Op) {
	t := k.fma(m, k.f(logTableK), k.f(magic52x15))
	inv = lookup16(k, t, logTableInv)
	r = k.fma(m, inv, k.f(-1))
	return r, lookup16(k, t, logTableHi), lookup16(k, t, logTableLo), inv
}

// logTableSum is e·ln2 + log m as a double-double pair (s, t) for
// logTableReduce's outputs: a = e·ln2Hi43 + hi is exact (two multiples of
// 2^-43 below 2^10), s = a + r with its rounding error recovered (Fast2Sum:
// |a| ≥ |r| wherever a ≠ 0, as |hi| ≥ 0.048 > |r| off cell 20 and |e·ln2|
// ≥ 0.69 > |hi| + |r|), and t that error plus e·ln2Lo43 + lo and the
// polynomial's r²·P(r). s + t is log x to about 2^-60 relative.
func logTableSum(k lang, e, r, hi, lo Op) (s, t Op) {
	a := k.fma(e, k.f(ln2Hi43), hi)
	s = k.add(a, r)
	err := k.add(k.sub(a, s), r)
	p := k.horner(r, logTableP...)
	t = k.fma(k.mul(r, r), p, k.add(err, k.fma(e, k.f(ln2Lo43), lo)))
	return s, t
}

// logFast64 is the table log: log x = s + t (logTableReduce,
// logTableSum), rounded once: within a hair of half an ulp. No division:
// the reference's (fdlibm's s = f/(2+f)) was the kernel's bound. Positive
// normal lanes only, as log64.
func logFast64(k lang, x Op) (r, ok Op) {
	ok, e, rr, hi, lo := logTableReduce(k, x)
	s, t := logTableSum(k, e, rr, hi, lo)
	return k.add(s, t), ok
}

// log1pFast64 is log1p x by the table log of u = 1 + x, rounded, and the
// rounding's error d = x - (u - 1), exact (u - 1 is exact for u < 2^53;
// the difference is the error of a sum, exact by Sterbenz): log1p x =
// log u + log1p(d/u) ≈ log u + d/u, and in the table's terms, with u =
// 2^e·m, the cell's r grows by d·2^-e·inv (the scaling by VSCALEFPD),
// added to the low part of logTableSum's pair (it is below r's last
// bits wherever r is not 0). ±0 is kept (keepZeros); within 1 ulp of
// math.Log1p over the sweeps. Lanes with x ≤ -1, +Inf and NaN are out.
func log1pFast64(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(gt, x, k.f(-1)), k.cmp(le, x, k.f(maxFloat)))
	return keepZeros(k, log1pTable(k, x), x), ok
}

// log1pTable is log1pFast64's arithmetic, for x in its domain (-0 gives
// +0).
func log1pTable(k lang, x Op) Op {
	u := k.add(x, k.f(1))
	d := k.sub(x, k.sub(u, k.f(1)))
	m := getMantIn(k, u, mantThreeQuartersThree)
	ne := k.sub(getExp(k, m), getExp(k, u)) // -e
	rr, hi, lo, inv := logTableCell(k, m)
	a := k.fma(ne, k.f(-ln2Hi43), hi)
	s := k.add(a, rr)
	err := k.add(k.sub(a, s), rr)
	low := k.add(k.fma(ne, k.f(-ln2Lo43), lo), scaleF(k, k.mul(d, inv), ne))
	t := k.fma(k.mul(rr, rr), k.horner(rr, logTableP...), k.add(err, low))
	return k.add(s, t)
}

// atanhFast64 is atanh x = ±0.5·log1p(2|x|/(1 - |x|)) over log1pFast64,
// one formula where the reference blends two (its other, t + t·|x|/(1-|x|)
// below 1/2, serves its own log1p): the quotient's rounding is half an ulp
// of log1p's argument, and so at most about that of the result. Within 2
// ulp of math.Atanh over the sweeps. Lanes with |x| ≥ 1 and NaN are out.
func atanhFast64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(1))
	l := log1pTable(k, k.div(k.add(ax, ax), k.sub(k.f(1), ax)))
	return k.xor(k.mul(l, k.f(0.5)), k.and(x, k.u(signBit))), ok
}

// scaleF is x·2^n for integral float lanes n (VSCALEFPD/PS).
func scaleF(k lang, x, n Op) Op {
	w := wideKern(k, "scaleF")
	d := w.vreg()
	w.pd(w.c.VSCALEFPD, w.c.VSCALEFPS, w.reg(n), w.reg(x), d)
	return d
}

// log2Fast64 and log10Fast64 are log x times 1/ln2 or 1/ln10 by
// logScaled. log2 is exact at powers of two and log10 at exact powers of
// ten, as NumPy gives them. Positive normal lanes only.
func log2Fast64(k lang, x Op) (r, ok Op) { return logScaled(k, x, invLn2Split) }

func log10Fast64(k lang, x Op) (r, ok Op) { return logScaled(k, x, invLn10Split) }

// logScaled is (s + t)·c for logTableSum's pair and c = c.hi + c.lo: s·c.hi
// plus t·c.hi + s·c.lo, the product inside one FMA, so that the sum is
// rounded once: within a hair of half an ulp.
func logScaled(k lang, x Op, c splitConst) (r, ok Op) {
	ok, e, rr, hi, lo := logTableReduce(k, x)
	s, t := logTableSum(k, e, rr, hi, lo)
	return k.fma(s, k.f(c.hi), k.fma(t, k.f(c.hi), k.mul(s, k.f(c.lo)))), ok
}

// splitConst is a constant as the float64 nearest it and the rest.
type splitConst struct{ hi, lo float64 }

// invLn2Split and invLn10Split are 1/ln2 and 1/ln10 split (from logBig at
// fitPrec bits; ln10Big).
var invLn2Split, invLn10Split = func() (two, ten splitConst) {
	inverse := func(l *big.Float) splitConst {
		return splitBig(new(big.Float).SetPrec(fitPrec).Quo(newFit(1), l))
	}
	return inverse(logBig(newFit(2))), inverse(ln10Big())
}()

// splitBig is v as the float64 nearest it and the rest, rounded.
func splitBig(v *big.Float) splitConst {
	hi, _ := v.Float64()
	lo, _ := new(big.Float).Sub(v, newFit(hi)).Float64()
	return splitConst{hi, lo}
}

// sinCosFastMax bounds sinCosFast64's domain: there |n| < 2^21, so that
// n and n + 1/2 times the first two of π's parts are exact.
const sinCosFastMax = 0x1p22

// π in the reference's three parts, four times math's π/4 split (PI4A,
// PI4B of 25 significant bits, PI4C): reduced by them, r is the reference's
// own reduced argument where it matters (below).
const (
	pi1 = 4 * trigPI4A
	pi2 = 4 * trigPI4B
	pi3 = 4 * trigPI4C
)

// sinFastP is (sin(r)/r - 1)/z in z = r² on |r| ≤ π/2 (polyFit; TestFits
// measures it).
var sinFastP = polyFit(sinTail, 0, sinFastZ, 9)

// sinFastZ bounds z = r²: (π/2)² and a margin for the rounding of n.
const sinFastZ = math.Pi * math.Pi / 4 * (1 + 0x1p-20)

// sinCosFast64 is sin x or cos x by one reduction modulo π and one odd
// polynomial, the method of the vector libraries: sin x = (-1)^n·sin r
// with n = rint(x/π) and r = x - n·π; cos x = (-1)^(q+1)·sin r with q =
// rint(|x|/π - 1/2) and r = |x| - (q + 1/2)·π. |r| ≤ π/2 and sin r = r +
// r·z·P(z), z = r², by sinFastP. No octant selection and no second
// polynomial: two thirds of the reference's instructions.
//
// r is ((x - n·pi1) - n·pi2) - round(n·pi3), the first product exact, the
// second exact within the FMA, the third rounded as the reference rounds
// its y·PI4C: near the zeros of sin and cos, where the reference's octant
// y is 4n (or 4q + 2) and every difference is exact (Sterbenz), r is then
// the reference's z bit for bit, and so is its error (math.Sin(π) is 7 ulp
// from the truth: the reduction's, which the rule is stated against).
// Within 2 ulp of math.Sin and math.Cos over the sweeps; sin(±0) = ±0
// (keepZeros). Lanes with |x| ≥ 2^22, Inf and NaN are out (the
// reference's Payne–Hanek reduction gives the largest).
func sinCosFast64(k lang, x Op, cos bool) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(sinCosFastMax))
	in, t, n := x, Op(nil), Op(nil)
	if cos {
		in = ax
		t = k.add(k.fma(ax, k.f(1/math.Pi), k.f(-0.5)), k.f(magic52x15))
		n = k.add(k.sub(t, k.f(magic52x15)), k.f(0.5))
	} else {
		t = k.fma(x, k.f(1/math.Pi), k.f(magic52x15))
		n = k.sub(t, k.f(magic52x15))
	}
	rr := k.sub(k.fnma(n, k.f(pi2), k.fnma(n, k.f(pi1), in)), k.mul(n, k.f(pi3)))
	z := k.mul(rr, rr)
	y := k.fma(k.mul(rr, z), k.horner(z, sinFastP...), rr)
	sign := k.shl(t, 63) // n's parity (q's for cos) to the sign bit
	if cos {
		return k.xor(y, k.xor(sign, k.u(signBit))), ok
	}
	return keepZeros(k, k.xor(y, sign), x), ok
}

// tanFast64 is tan x by one reduction modulo π/2, r = x - n·π/2 (|r| ≤
// π/4; π/2 in the reference's parts, two of its PI4A, PI4B, PI4C, the last
// product rounded apart, so that near the zeros and poles r is the
// reference's z: see sinCosFast64), then Cephes's rational as math.Tan
// has it (p = z·P(z), Q monic), with one division where the reference
// takes two: for even n, tan r = r + r·(p/Q); for odd n, -1/tan r =
// -Q/(r·Q + r·p). The
// operands are chosen before the division; ±0 is kept (keepZeros). As the
// reference, p is 0 where z ≤ 1e-14, so that tan r
// is r and -1/tan r is -1/r there (up to 25 ulp from the truth, r³/3
// dropped: the rule is stated against the reference). Within 2 ulp of math.Tan over the sweeps. Lanes with |x|
// ≥ 2^22, Inf and NaN are out.
func tanFast64(k lang, x Op) (r, ok Op) {
	ok = k.cmp(lt, k.and(x, k.u(absMask)), k.f(sinCosFastMax))
	t := k.fma(x, k.f(2/math.Pi), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	rr := k.sub(k.fnma(n, k.f(2*trigPI4B), k.fnma(n, k.f(2*trigPI4A), x)), k.mul(n, k.f(2*trigPI4C)))
	z := k.mul(rr, rr)
	p := k.and(k.cmp(gt, z, k.f(tanSmall)), k.mul(k.horner(z, tanP0, tanP1, tanP2), z))
	q := k.add(z, k.f(tanQ1))
	for _, c := range []float64{tanQ2, tanQ3, tanQ4} {
		q = k.fma(q, z, k.f(c))
	}
	odd := k.eqI(k.and(t, k.u(1)), k.u(1))
	num := k.sel(odd, k.xor(q, k.u(signBit)), p)
	den := k.sel(odd, k.fma(rr, p, k.mul(rr, q)), q)
	quo := k.div(num, den)
	return keepZeros(k, k.sel(odd, quo, k.fma(rr, quo, rr)), x), ok
}

// sinhFastP is (sinh(x)/x - 1)/z in z = x² on |x| ≤ 1 (polyFit; TestFits
// measures it).
var sinhFastP = polyFit(sinhTail, 0, 1, 7)

// sinhFast64 is sinh |x| with x's sign: |x| + |x|·z·P(z) (sinhFastP) up to
// 1, and (e - 1/e)/2 above, e = expFast64(|x|) and 1/e by VRCP14PD and two
// Newton steps: no division, where the reference takes two (1/e and its
// rational function's quotient) and blends three branches. Within 2 ulp of
// math.Sinh over the sweeps. Lanes with |x| > 707 and NaN are out.
func sinhFast64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	e, ok := expFast64(k, ax)
	big := k.mul(k.sub(e, reciprocal(k, e)), k.f(0.5))
	z := k.mul(ax, ax)
	small := k.fma(k.mul(ax, z), k.horner(z, sinhFastP...), ax)
	r = k.sel(k.cmp(gt, ax, k.f(1)), big, small)
	return k.xor(r, k.and(x, k.u(signBit))), ok
}

// keepZeros is y with x's zero lanes (±0) replaced by x (VFIXUPIMMPD/PS,
// one instruction; its table's response 1, "the source", for the zero
// class, 0, "keep", for every other): sin's r + r·z·P(z) is +0 at r = -0.
func keepZeros(k lang, y, x Op) Op {
	w := wideKern(k, "keepZeros")
	d := w.copy(y)
	w.pd(w.c.VFIXUPIMMPD, w.c.VFIXUPIMMPS, operand.U8(0), w.reg(w.u(1<<(4*2))), w.reg(x), d)
	return d
}

// cbrtFast64Magic is the high word whose value, less a third of a positive
// float64's high word, is that float's inverse cube root to within 3.5%
// over every binade (found by a search, as cbrt32Magic).
const cbrtFast64Magic = 0x553ef084

// cbrtFast64 is cbrt32's method in float64 (within an ulp of math.Cbrt
// over the sweeps, exact at exact cubes): on |x| (subnormal lanes scaled
// by 2^54, their result by 2^-18), y ≈ |x|^(-1/3) from the high word (the
// magic less a third of it, in float arithmetic through 2^52's mantissa),
// one step of the cubic series (3.5% → 2^-16) and one Newton step (2^-31),
// c = |x|·y² and a Newton step on c with the residual |x| - c³ by an FMA;
// x's sign put back. No division: a tenth of the reference's four. Zero
// lanes come out as zeros; infinite and NaN lanes are out.
func cbrtFast64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(math.Inf(1)))
	sub := k.cmp(lt, ax, k.f(minNormal))
	a := k.sel(sub, k.mul(ax, k.f(0x1p54)), ax)
	hi := k.sub(k.or(k.shr(a, 32), k.u(magic52Bits)), k.f(magic52))
	guess := k.fnma(hi, k.f(1.0/3), k.f(cbrtFast64Magic))
	y := k.shl(k.xor(k.add(guess, k.f(magic52)), k.u(magic52Bits)), 32)
	e := k.fnma(k.mul(k.mul(a, y), y), y, k.f(1))
	y = k.fma(k.mul(y, e), k.horner(e, 14.0/81, 2.0/9, 1.0/3), y)
	e = k.fnma(k.mul(k.mul(a, y), y), y, k.f(1))
	y = k.fma(k.mul(y, e), k.f(1.0/3), y)
	y2 := k.mul(y, y)
	c := k.mul(a, y2)
	c = k.fma(k.fnma(k.mul(c, c), c, a), k.mul(y2, k.f(1.0/3)), c)
	c = k.sel(sub, k.mul(c, k.f(0x1p-18)), c)
	return k.or(c, k.and(x, k.u(signBit))), ok
}

// asinFastMax bounds asinAcosFast64's asin domain (see there).
const asinFastMax = 0.99

// fast512Binary are the AVX-512 level's own float64 kernels of two
// operands (see fast512).
var fast512Binary = map[string]core2{
	"atan2": atan2Fast64,
	"pow":   powFast64,
}

// atanFastP is (atan(√z)/√z - 1)/z on z ∈ [0, 1/4] to degree 11, and
// asinFastP (asin(√z)/√z - 1)/z there to degree 12 (polyFit; TestFits
// measures both): the tails of atan(a) = a + a·z·P(z) for |a| ≤ 1/2 and
// of asin(s) for s ≤ 1/2, with z = a² (s²).
var (
	atanFastP = polyFit(atanTail, 0, 0.25, 11)
	asinFastP = polyFit(asinTail, 0, 0.25, 12)
)

// atanAngle is the angle in [0, π] of the point (x, y) from |x| = ax, |y|
// = ay and x < 0 (negx; nil: x ≥ 0), the sign of y left to the caller:
// with mx = max(ax, ay) and mn = min(ax, ay), a = mn/mx, or (mn - mx)/(mn
// + mx) where mn > mx/2 (one division either way, mn - mx exact, a in
// [-1/3, 1/2]), atan(a) = a + a·z·atanFastP(z), and the angle n·π/4 ±
// atan(a) with n from the octant (mn/mx's reduction, ay > ax and negx) and
// the sign from the reflections, summed as n·(π/4 in two parts) by two
// FMAs. The caller keeps mx a normal number far from overflow.
func atanAngle(k lang, ay, ax, negx Op) Op {
	mx, mn := k.max(ax, ay), k.min(ax, ay)
	mid := k.cmp(gt, mn, k.mul(mx, k.f(0.5)))
	a := k.div(k.sel(mid, k.sub(mn, mx), mn), k.sel(mid, k.add(mn, mx), mx))
	z := k.mul(a, a)
	t := k.fma(k.mul(a, z), k.horner(z, atanFastP...), a)
	swap := k.cmp(gt, ay, ax)
	flip := k.and(swap, k.u(signBit))
	turn := k.and(swap, k.f(2)) // the octant's multiple of π/4 but mid's
	if negx != nil {
		flip = k.xor(k.and(negx, k.u(signBit)), flip)
		turn = k.sel(swap, k.f(2), k.and(negx, k.f(4)))
	}
	n := k.add(turn, k.xor(k.and(mid, k.f(1)), flip))
	return k.fma(n, k.f(pio2Hi/2), k.fma(n, k.f(pio2Lo/2), k.xor(t, flip)))
}

// atanFast64 is atan x = atanAngle of the point (1, x) with x's sign put
// back: within 2 ulp of math.Atan over the sweeps, no branch of the
// reference's three computed. NaN lanes are out.
func atanFast64(k lang, x Op) (r, ok Op) {
	r = atanAngle(k, k.and(x, k.u(absMask)), k.f(1), nil)
	return k.or(r, k.and(x, k.u(signBit))), k.cmp(eq, x, x)
}

// atan2Fast64 is atan2(y, x) = atanAngle with y's sign put on (within 2
// ulp of scalar.Atan2 over the sweeps). Lanes with a NaN operand, or with
// max(|x|, |y|) below 2^-1000 (where mx/2 could round; both zero among
// them) or above 2^1022 (where mn + mx could overflow; infinities among
// them) are out.
func atan2Fast64(k lang, y, x Op) (r, ok Op) {
	ax, ay := k.and(x, k.u(absMask)), k.and(y, k.u(absMask))
	mx := k.max(ax, ay)
	ok = k.mAndNot(k.mAnd(k.cmp(ge, mx, k.f(0x1p-1000)), k.cmp(le, mx, k.f(0x1p1022))), k.cmp(unord, x, y))
	r = atanAngle(k, ay, ax, k.cmp(lt, x, k.f(0)))
	return k.or(r, k.and(y, k.u(signBit))), ok
}

// asinAcosFast64 is asin x, or acos x, from s = |x| and z = x² where |x| ≤
// 1/2, else s = √z and z = (1-|x|)/2 (exact): p = asin(s) = s +
// s·z·asinFastP(z), then asin |x| = p or π/2 - 2p, acos x = π/2 ∓ p, 2p or
// π - 2p, each n·(π/2 in two parts) ± p or 2p by two FMAs; asin takes x's
// sign. Lanes with |x| > 1 and NaN are out, and for asin those with |x| >
// 0.99, where math.Asin's own error (from its 1 - x²) reaches 12 ulp and
// the rule, measured against it, would not hold.
func asinAcosFast64(k lang, x Op, acos bool) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(le, ax, k.f(1))
	if !acos {
		ok = k.cmp(le, ax, k.f(asinFastMax))
	}
	big := k.cmp(gt, ax, k.f(0.5))
	z := k.sel(big, k.mul(k.sub(k.f(1), ax), k.f(0.5)), k.mul(x, x))
	s := k.sel(big, k.sqrt(z), ax)
	p := k.fma(k.mul(s, z), k.horner(z, asinFastP...), s)
	p = k.sel(big, k.add(p, p), p)
	var n, flip Op
	if acos {
		// small: π/2 - p·sign(x); big: 2p (x ≥ 0), π - 2p (x < 0)
		neg := k.and(x, k.u(signBit))
		flip = k.sel(big, neg, k.xor(neg, k.u(signBit)))
		n = k.sel(big, k.and(k.cmp(lt, x, k.f(0)), k.f(2)), k.f(1))
	} else {
		flip = k.and(big, k.u(signBit))
		n = k.and(big, k.f(1))
	}
	r = k.fma(n, k.f(pio2Hi), k.fma(n, k.f(pio2Lo), k.xor(p, flip)))
	if acos {
		return r, ok
	}
	return k.or(r, k.and(x, k.u(signBit))), ok
}

// asinhAcoshFastMax bounds asinhFast64's and acoshFast64's domain: x² is
// finite below it.
const asinhAcoshFastMax = 0x1p500

// asinhFast64 is asinh |x| = log1p(v), v = |x| + x²/(1 + √(1+x²)), with
// x's sign put back, over log1pTable: 1 + v is |x| + √(x²+1), and v's
// terms are positive, so that v is within an ulp everywhere (the
// reference's log(2|x|) and log(|x| + √(x²+1)) branches are this formula
// too). The quotient is x² times 1/(1 + q) by VRCP14PD and two Newton
// steps (2^-14, 2^-28, 2^-56), not a division: VDIVPD and VSQRTPD share
// the divider, and this is 8% faster (a Newton square root in place of
// VSQRTPD, 15% slower). Within 2 ulp of math.Asinh
// over the sweeps. Lanes with |x| > 2^500 and NaN are out.
func asinhFast64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(le, ax, k.f(asinhAcoshFastMax))
	d := k.add(k.sqrt(k.fma(ax, ax, k.f(1))), k.f(1))
	v := k.fma(k.mul(ax, ax), reciprocal(k, d), ax)
	return k.xor(log1pTable(k, v), k.and(x, k.u(signBit))), ok
}

// acoshFast64 is acosh x = log1p(t + √(t² + 2t)) with t = x - 1 (exact
// below 2) over log1pTable: x + √(x²-1) with x² - 1 = t² + 2t formed
// without cancelling, by one FMA (2t exact); no division. Within 2 ulp of math.Acosh over the
// sweeps. Lanes with x < 1, x > 2^500 and NaN are out.
func acoshFast64(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(1)), k.cmp(le, x, k.f(asinhAcoshFastMax)))
	t := k.sub(x, k.f(1))
	return log1pTable(k, k.add(t, k.sqrt(k.fma(t, t, k.add(t, t))))), ok
}

// rcp14 is 1/d to 2^-14 relative (VRCP14PD/PS).
func rcp14(k lang, d Op) Op {
	w := wideKern(k, "rcp14")
	v := w.vreg()
	w.pd(w.c.VRCP14PD, w.c.VRCP14PS, w.reg(d), v)
	return v
}

// reciprocal is 1/d to about 2^-56 relative (float32: 2^-28) for normal d
// whose inverse is normal: VRCP14PD/PS's 2^-14 refined by two Newton steps
// (float32: one), y += y·(1 - d·y).
func reciprocal(k lang, d Op) Op {
	y := rcp14(k, d)
	for range wideKern(k, "reciprocal").elem / 32 { // 2^-28 is float32's; float64 takes another step
		y = k.fma(y, k.fnma(d, y, k.f(1)), y)
	}
	return y
}
