package main

import (
	"math"
	"math/big"
	"strings"
)

// The AVX-512 level's own float64 kernels. Where a function has one
// (fast512), the 512-bit target computes it with a shorter algorithm than
// its reference's (a table and a low-degree polynomial, the method of the
// vector libraries NumPy dispatches to), held to the package's accuracy
// rule (at most 4 ulp from the reference; NaN, ±Inf, ±0 and the lanes out
// of the fast domain exact, by the scalar fix-up) rather than to the
// reference's bits. The AVX2, NEON and scalar levels keep the references'
// algorithms, bit for bit. ../doc.go says why and what each costs.
var fast512 = map[string]core{
	"exp":  expFast64,
	"tanh": func(k lang, x Op) (Op, Op) { return tanhWith(contracted{k}, x, expFast64) },
	"cosh": func(k lang, x Op) (Op, Op) { return coshWith(contracted{k}, x, expFast64) },
	"sinh": func(k lang, x Op) (Op, Op) { return sinhWith(contracted{k}, x, expFast64) },
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

// fastNames are the exported stems (Exp for exp) of the functions with a
// fast512 kernel on target t, sorted.
func fastNames(t target) []string {
	var names []string
	for _, u := range unaries {
		if _, fast := fastCore(u, t); fast {
			names = append(names, strings.ToUpper(u.Name[:1])+u.Name[1:])
		}
	}
	return names
}

// lookup16 is table[idx & 15] lane by lane (VPERMI2PD, which reads the low
// four bits of each 64-bit index lane): the 512-bit float64 target only.
func lookup16(k lang, idx Op, table [16]float64) Op {
	if c, ok := k.(contracted); ok {
		k = c.lang
	}
	a, ok := k.(avx)
	if !ok || !a.k.wide() || a.k.elem != 64 {
		panic("lookup16: a 512-bit float64 kernel only")
	}
	var lo, hi [8]uint64
	for i := range 8 {
		lo[i] = math.Float64bits(table[i])
		hi[i] = math.Float64bits(table[8+i])
	}
	first := a.k.load(a.k.pool.table(lo[:]))
	d := a.k.copy(idx)
	a.k.c.VPERMI2PD(a.k.pool.table(hi[:]), first, d)
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

// expFast64 is e^x = 2^(n>>4)·2^((n&15)/16)·e^r with n = rint(16x/ln2)
// (the 1.5·2^52 trick: n in t's low bits), r = x - n·ln2/16 by two FMAs
// (|r| ≤ ln2/32), e^r - 1 = q = r + r²·P(r) (expFastP), the table's entry
// T = hi + lo by lookup16, hi + (hi·q + lo) by an FMA and an addition, and
// 2^(n>>4) added to the exponent field (t's bits with the low four cleared,
// shifted into place). The last addition's rounding is nearly all the
// error: about half an ulp. Lanes with |x| > 707 and NaN are out (the
// reference gives them: overflow, subnormal results, the last 2.8 of each
// side's range).
func expFast64(k lang, x Op) (r, ok Op) {
	ok = k.cmp(le, k.and(x, k.u(absMask)), k.f(expFastMax))
	t := k.fma(x, k.f(expFastInvStep), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	rr := k.fnma(n, k.f(expFastStepHi), x)
	rr = k.fnma(n, k.f(expFastStepLo), rr)
	hi := lookup16(k, t, exp2Sixteenths)
	lo := lookup16(k, t, exp2SixteenthsLo)
	p := k.horner(rr, expFastP...)
	q := k.fma(k.mul(rr, rr), p, rr)
	y := k.add(hi, k.fma(hi, q, lo))
	scale := k.shl(k.and(t, k.u(^uint64(15))), 48)
	return k.addI(y, scale), ok
}
