package main

import (
	"math"
	"math/big"
)

// The kernels: each core takes one vector of lanes and returns the results
// and the mask of the lanes it computed (a false lane is out of the kernel's
// domain; the Go wrapper recomputes it with the scalar reference).
//
// The float64 cores reproduce their references (kernels/internal/vmath's ref.go)
// operation for operation, as ../doc.go explains; the float32 cores (all
// but pow's) are polynomials of their own in float32 arithmetic.

// Constants of the float64 references (the values of ../consts.go).
const (
	signBit        = 1 << 63
	absMask        = 1<<63 - 1
	fracMask       = 1<<52 - 1
	halfBits       = 0x3FE0000000000000 // 0.5
	magic52        = 0x1p52
	magic52Bits    = 0x4330000000000000
	magic52x15     = 0x1.8p52
	magic52x15Bits = 0x4338000000000000
	minNormal      = 0x1p-1022
	maxFloat       = math.MaxFloat64
	nanBits        = 0x7FF8000000000001 // math.NaN()

	expLog2e = 1.4426950408889634073599246810018920
	expLn2U  = 0.69314718055966295651160180568695068359375
	expLn2L  = 0.28235290563031577122588448175013436025525412068e-12
	expC3    = 1.6666666666666666667e-1
	expC4    = 4.1666666666666666667e-2
	expC5    = 8.3333333333333333333e-3
	expC6    = 1.3888888888888888889e-3
	expC7    = 1.9841269841269841270e-4
	expC8    = 2.4801587301587301587e-5

	logHSqrt2 = 7.07106781186547524401e-01
	logLn2Hi  = 6.93147180369123816490e-01
	logLn2Lo  = 1.90821492927058770002e-10
	logL1     = 6.666666666666735130e-01
	logL2     = 3.999999999940941908e-01
	logL3     = 2.857142874366239149e-01
	logL4     = 2.222219843214978396e-01
	logL5     = 1.818357216161805012e-01
	logL6     = 1.531383769920937332e-01
	logL7     = 1.479819860511658591e-01

	tanhBig = 0.5 * 8.8029691931113054295988e+01
	tanhP0  = -9.64399179425052238628e-1
	tanhP1  = -9.92877231001918586564e1
	tanhP2  = -1.61468768441708447952e3
	tanhQ0  = 1.12811678491632931402e2
	tanhQ1  = 2.23548839060100448583e3
	tanhQ2  = 4.84406305325125486048e3

	trigThreshold = 1 << 29
	fourOverPi    = 4 / math.Pi
	trigPI4A      = 7.85398125648498535156e-1
	trigPI4B      = 3.77489470793079817668e-8
	trigPI4C      = 2.69515142907905952645e-15
	sinC0         = 1.58962301576546568060e-10
	sinC1         = -2.50507477628578072866e-8
	sinC2         = 2.75573136213857245213e-6
	sinC3         = -1.98412698295895385996e-4
	sinC4         = 8.33333333332211858878e-3
	sinC5         = -1.66666666666666307295e-1
	cosC0         = -1.13585365213876817300e-11
	cosC1         = 2.08757008419747316778e-9
	cosC2         = -2.75573141792967388112e-7
	cosC3         = 2.48015872888517045348e-5
	cosC4         = -1.38888888888730564116e-3
	cosC5         = 4.16666666666665929218e-2
)

// exp64 is math.Exp's amd64 FMA path, lane by lane: n = rint(x·log2e) by
// the 1.5·2^52 trick, r = (x - n·ln2)/16 by two FMAs, expm1(r) by the
// degree-8 Taylor polynomial, four doublings expm1(2r) = expm1(r)·(expm1(r)+2),
// the last one adding 1, and a multiplication by 2^n. Lanes whose n is
// outside [-1022, 1023] (overflow, subnormal or zero results, NaN) are out.
func exp64(k lang, x Op) (r, ok Op) {
	t := k.add(k.mul(x, k.f(expLog2e)), k.f(magic52x15))
	n := k.sub(t, k.f(magic52x15))
	ok = k.mAnd(k.cmp(ge, n, k.f(-1022)), k.cmp(le, n, k.f(1023)))
	nn := k.xor(n, k.u(signBit))
	rr := k.fma(nn, k.f(expLn2U), x)
	rr = k.fma(nn, k.f(expLn2L), rr)
	rr = k.mul(rr, k.f(0.0625))
	p := k.horner(rr, expC8, expC7, expC6, expC5, expC4, expC3, 0.5, 1)
	e := k.mul(rr, p)
	for range 3 {
		e = k.mul(e, k.add(e, k.f(2)))
	}
	e = k.fma(e, k.add(e, k.f(2)), k.f(1))
	scale := k.shl(k.addI(t, k.u(1023)), 52)
	return k.mul(e, scale), ok
}

// log64 is math.Log's amd64 assembly (fdlibm's e_log.c), operation for
// operation without FMA, on positive normal lanes; zero, subnormal,
// negative, infinite and NaN lanes are out.
func log64(k lang, x Op) (r, ok Op) {
	ok, kk, f := logReduce(k, x, le)
	s := k.div(f, k.add(f, k.f(2)))
	s2 := k.mul(s, s)
	s4 := k.mul(s2, s2)
	mulAdd := func(acc Op, m Op, c float64) Op { return k.add(k.mul(acc, m), k.f(c)) }
	t1 := mulAdd(k.f(logL7), s4, logL5)
	t1 = mulAdd(t1, s4, logL3)
	t1 = k.mul(mulAdd(t1, s4, logL1), s2)
	t2 := mulAdd(k.f(logL6), s4, logL4)
	t2 = k.mul(mulAdd(t2, s4, logL2), s4)
	rr := k.add(t1, t2)
	hfsq := k.mul(k.mul(f, k.f(0.5)), f)
	u := k.add(k.mul(s, k.add(rr, hfsq)), k.mul(kk, k.f(logLn2Lo)))
	v := k.sub(k.sub(hfsq, u), f)
	return k.sub(k.mul(kk, k.f(logLn2Hi)), v), ok
}

// logReduce is the reduction of both logs: x = 2^kk·(1+f) with 1+f in
// [√2/2, √2), from x's exponent and fraction fields (1+f is moved up from
// [1/2, 1) when below √2/2 by pred: amd64's assembly compares with le, Go's
// log.go with lt), and the mask of the positive normal lanes.
func logReduce(k lang, x Op, pred uint8) (ok, kk, f Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(minNormal)), k.cmp(le, x, k.f(maxFloat)))
	kk, f = splitSqrt2(k, x, pred)
	return ok, kk, f
}

// splitSqrt2 is logReduce's split without the mask: x = 2^kk·(1+f) with
// 1+f in [√2/2, √2) for a positive normal x (pred as logReduce's).
func splitSqrt2(k lang, x Op, pred uint8) (kk, f Op) {
	f1 := k.or(k.and(x, k.u(fracMask)), k.u(halfBits))
	kk = k.sub(k.or(k.shr(x, 52), k.u(magic52Bits)), k.f(magic52+1022))
	small := k.cmp(pred, f1, k.f(logHSqrt2))
	kk = k.sel(small, k.sub(kk, k.f(1)), kk)
	f1 = k.sel(small, k.add(f1, f1), f1)
	return kk, k.sub(f1, k.f(1))
}

// tanh64 is math.Tanh: ±1 above 0.5·MAXLOG, 1 - 2/(exp(2|x|)+1) from
// 0.625 and the Cephes rational function below, all three computed and
// blended, one division serving both branches. Only NaN lanes are out.
func tanh64(k lang, x Op) (r, ok Op) { return tanhWith(k, x, exp64) }

// tanhArm64 is math.Tanh on arm64: tanh64 with arm64's exp (the rational
// function's additions of products are fused there as goMulAdd says).
func tanhArm64(k lang, x Op) (r, ok Op) { return tanhWith(k, x, expArm64) }

// tanhWith is tanh64 with the exp of the platform's math.Exp.
func tanhWith(k lang, x Op, exp core) (r, ok Op) {
	sg := k.and(x, k.u(signBit))
	z := k.and(x, k.u(absMask))
	s, _ := exp(k, k.mul(k.min(z, k.f(tanhBig)), k.f(2)))
	x2 := k.mul(x, x)
	p := k.goMulAdd(k.goMulAdd(k.f(tanhP0), x2, k.f(tanhP1), false), x2, k.f(tanhP2), false)
	// s+tanhQ[0] with s = x*x, a product with other uses
	q := k.goMulAdd(x, x, k.f(tanhQ0), true)
	q = k.goMulAdd(k.goMulAdd(q, x2, k.f(tanhQ1), false), x2, k.f(tanhQ2), false)
	isBig := k.cmp(ge, z, k.f(0.625))
	num := k.sel(isBig, k.f(2), k.mul(k.mul(x, x2), p))
	den := k.sel(isBig, k.add(s, k.f(1)), q)
	quo := k.div(num, den)
	big := k.xor(k.sub(k.f(1), quo), sg)
	sm := k.sel(k.cmp(eq, x, k.f(0)), x, k.add(x, quo))
	r = k.sel(isBig, big, sm)
	r = k.sel(k.cmp(gt, z, k.f(tanhBig)), k.xor(sg, k.f(1)), r)
	return r, k.cmp(eq, x, x)
}

// sigmoid64 is 1/(1+math.Exp(-x)); lanes out of exp's domain are out.
func sigmoid64(k lang, x Op) (r, ok Op) { return sigmoidWith(k, x, exp64) }

// sigmoidWith is sigmoid64 over the exp core exp.
func sigmoidWith(k lang, x Op, exp core) (r, ok Op) {
	e, ok := exp(k, k.xor(x, k.u(signBit)))
	return k.div(k.f(1), k.add(e, k.f(1))), ok
}

// trig64 is math.Sin (cos false) or math.Cos (cos true) below 2^29: the
// octant j = trunc(|x|·4/π) rounded up to even, the Cody–Waite reduction
// z = ((|x| - j·PI4A) - j·PI4B) - j·PI4C and the Cephes polynomials,
// contracted as the Go compiler contracts the reference (goMulAdd). Lanes at
// or above 2^29, Inf and NaN are out (the reference uses Payne–Hanek there).
func trig64(k lang, x Op, cos bool) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(trigThreshold))
	n := k.round(k.mul(ax, k.f(fourOverPi)), 3)
	odd := k.eqI(k.and(k.add(n, k.f(magic52)), k.u(1)), k.u(1))
	y := k.add(n, k.and(odd, k.f(1))) // j rounded up to even
	j := k.add(y, k.f(magic52))
	z := k.goMulSub(y, k.f(trigPI4C), k.goMulSub(y, k.f(trigPI4B), k.goMulSub(y, k.f(trigPI4A), ax)))
	zz := k.mul(z, z)
	ps := k.f(sinC0)
	var p Op
	for i, c := range []float64{sinC1, sinC2, sinC3, sinC4, sinC5} {
		if i == 0 {
			p = k.goMulAdd(ps, zz, k.f(c), false)
		} else {
			p = k.goMulAdd(p, zz, k.f(c), false)
		}
	}
	ys := k.goMulAdd(k.mul(z, zz), p, z, false)
	var pc Op
	for i, c := range []float64{cosC1, cosC2, cosC3, cosC4, cosC5} {
		if i == 0 {
			pc = k.goMulAdd(k.f(cosC0), zz, k.f(c), false)
		} else {
			pc = k.goMulAdd(pc, zz, k.f(c), false)
		}
	}
	yc := k.goMulAdd(k.mul(zz, zz), pc, k.goMulSub(zz, k.f(0.5), k.f(1)), false)
	sel := k.eqI(k.and(j, k.u(2)), k.u(2)) // octant 2 or 6 after rounding to even
	var sg Op
	if cos {
		r = k.sel(sel, ys, yc)
		sg = k.and(k.xor(k.shl(j, 61), k.shl(j, 62)), k.u(signBit))
	} else {
		r = k.sel(sel, yc, ys)
		sg = k.xor(k.and(k.shl(j, 61), k.u(signBit)), k.and(x, k.u(signBit)))
	}
	return k.xor(r, sg), ok
}

func sin64(k lang, x Op) (Op, Op) { return trig64(k, x, false) }
func cos64(k lang, x Op) (Op, Op) { return trig64(k, x, true) }

// The float32 kernels compute in float32 lanes, eight to a 256-bit vector,
// with polynomials of their own (Cephes's single-precision ones, evaluated
// with FMAs); they are within a few ulp of the float32 references
// float32(f(float64(x))), which the tests measure.

// Cephes expf: e^r = 1 + r + r²·P(r) on |r| ≤ ln2/2.
var expfP = []float64{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}

const (
	expfLo  = -87.0 // e^x is a normal float32 above it, n >= -126
	expfHi  = 88.37 // n = rint(x·log2e) <= 127 below it
	ln2fHi  = 0.693359375
	ln2fLo  = -2.12194440e-4
	log2ef  = 1.44269504088896341
	sqrt2f  = 1.41421356237309504880
	tanhfHi = 10.0 // tanh(x) rounds to 1 in float32 from 9.1
)

// Cephes logf: log(1+f) = f - f²/2 + f³·P(f) for 1+f in [√2/2, √2).
var logfP = []float64{7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
	-1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1}

// exp32 is e^x = 2^n·e^r with n = rint(x·log2e) and r = x - n·ln2 (ln 2 in
// two parts, two FMAs), e^r by Cephes's degree-7 polynomial and 2^n built in
// the exponent field. Lanes outside [-87, 88.37] (where the result or 2^n
// would leave the normal range) and NaN are out.
func exp32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(expfLo)), k.cmp(le, x, k.f(expfHi)))
	return expf(k, x), ok
}

// expf is exp32 without the domain mask, for arguments known to be in it.
func expf(k lang, x Op) Op {
	n := k.round(k.mul(x, k.f(log2ef)), 0)
	rr := k.fnma(n, k.f(ln2fHi), x)
	rr = k.fnma(n, k.f(ln2fLo), rr)
	p := k.horner(rr, expfP...)
	y := k.add(k.fma(p, k.mul(rr, rr), rr), k.f(1))
	return timesPow2f(k, y, n)
}

// pow2f is 2^n for float32 lanes holding integers n in [-126, 127]: the
// exponent field built from n (three instructions), or on the 512-bit
// target VSCALEFPS of 1 (one).
func pow2f(k lang, n Op) Op {
	if hasGetMant(k) {
		return scaleF(k, k.f(1), n)
	}
	return k.shl(k.addI(k.toInt(n), k.u(127)), 23)
}

// timesPow2f is y·2^n (pow2f's n), exact where the result is normal: one
// VSCALEFPS on the 512-bit target.
func timesPow2f(k lang, y, n Op) Op {
	if hasGetMant(k) {
		return scaleF(k, y, n)
	}
	return k.mul(y, pow2f(k, n))
}

// log32 splits x = 2^e·m with m in [√2/2, √2), f = m - 1 (exact), and
// computes log(1+f) by Cephes's polynomial and e·ln2 in two parts. Lanes
// that are not positive normal numbers (zero, subnormal, negative, Inf,
// NaN) are out.
func log32(k lang, x Op) (r, ok Op) { return logf(k, x), logfDomain(k, x) }

// logf is log32 without the domain mask, for arguments known to be in it
// (a mask computed and dropped would still cost its instructions).
func logf(k lang, x Op) Op {
	e, f, z, y := logfParts(k, x)
	y = k.fma(e, k.f(ln2fLo), y)
	y = k.fnma(z, k.f(0.5), y)
	r := k.add(f, y)
	return k.fma(e, k.f(ln2fHi), r)
}

// logfDomain is the mask of the float32 logs' domain: the positive normal
// lanes.
func logfDomain(k lang, x Op) Op {
	return k.mAnd(k.cmp(ge, x, k.f(0x1p-126)), k.cmp(le, x, k.f(math.MaxFloat32)))
}

// logfParts is the common part of the float32 logs: x = 2^e·(1+f) with 1+f
// in [√2/2, √2] (f exact), z = f² and y = f³·P(f) (Cephes's polynomial of
// log(1+f) = f - z/2 + y).
func logfParts(k lang, x Op) (e, f, z, y Op) {
	var m Op
	if hasGetMant(k) { // the same m and e, in two instructions
		m, e = getMant(k, x), getExp(k, x)
	} else {
		e = k.sub(k.toFloat(k.shr(x, 23)), k.f(127))
		m = k.or(k.and(x, k.u(1<<23-1)), k.u(0x3f800000))
	}
	big := k.cmp(gt, m, k.f(sqrt2f))
	m = k.sel(big, k.mul(m, k.f(0.5)), m)
	e = k.add(e, k.and(big, k.f(1)))
	f = k.sub(m, k.f(1))
	z = k.mul(f, f)
	y = k.mul(k.mul(k.horner(f, logfP...), f), z)
	return e, f, z, y
}

// tanh32 is expm1(2|x|)/(expm1(2|x|) + 2) with the sign put back, |x|
// clamped at 10 where tanh rounds to ±1: expm1_32 is accurate relative to
// its result near 0, so one formula serves every |x| (tiny x: 2x/2). Only
// NaN lanes are out.
func tanh32(k lang, x Op) (r, ok Op) {
	z := k.and(x, k.u(1<<31-1))
	sg := k.and(x, k.u(1<<31))
	zc := k.min(z, k.f(tanhfHi))
	em := expm1fCore(k, k.add(zc, zc)) // 2zc in [0, 20]: no clamp, and +0 at 0
	r = k.div(em, k.add(em, k.f(2)))
	return k.xor(r, sg), k.cmp(eq, x, x)
}

// sigmoid32 is 1/(1+e^{-x}) with -x clamped at -87 (where the result is 1
// in float32). Lanes below -87, whose result is subnormal or zero, and NaN
// are out.
func sigmoid32(k lang, x Op) (r, ok Op) {
	ok = k.cmp(ge, x, k.f(expfLo))
	e := expf(k, k.max(k.xor(x, k.u(1<<31)), k.f(expfLo)))
	return k.div(k.f(1), k.add(e, k.f(1))), ok
}

// Cephes sinf and cosf on [-π/4, π/4]: sin r = r + r³·S(r²), cos r =
// 1 - r²/2 + r⁴·C(r²).
var (
	sinfS = []float64{-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}
	cosfC = []float64{2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2}
)

const (
	trigfMax  = 0x1p13 // above it the lanes go to the reference (trig32, tan32)
	twoOverPi = 2 / math.Pi
	pio2Hi    = math.Pi / 2
)

// pio2Lo is π/2 - pio2Hi (π/2 to about 2^-107 in two float64s).
var pio2Lo = 6.123233995736766e-17

// trig32 is sin (cos false) or cos (cos true) of float32 lanes: the
// reduction r = x - j·π/2, j = rint(x·2/π), in float32 with π/2 in three
// float32 parts (pio2f) and three FMAs, the first exact (x - j·pio2f[0] is
// a multiple of 2^-23 below 1 for |x| ≥ 1, and Sterbenz's below), then
// Cephes's float32 polynomials, chosen and signed by the quadrant j. The
// three parts hold π/2 to 2^-72, enough below |x| = 2^13, where no float32
// is nearer a multiple of π/2 than about 2^-29 (TestExhaustive32 measures
// every input). Lanes at or above 2^13 in magnitude, Inf and NaN are out
// (the reference, in float64, gives them).
func trig32(k lang, x Op, cos bool) (r, ok Op) {
	ok, rv, q := reduce32(k, x)
	z := k.mul(rv, rv)
	s := k.fma(k.mul(k.horner(z, sinfS...), z), rv, rv)
	cc := k.fma(k.mul(k.horner(z, cosfC...), z), z, k.fnma(z, k.f(0.5), k.f(1)))
	if cos {
		q = k.addI(q, k.u(1)) // cos x = sin(x + π/2)
	}
	r = k.sel(k.eqI(k.and(q, k.u(1)), k.u(1)), cc, s)
	r = k.xor(r, k.shl(k.shr(k.and(q, k.u(2)), 1), 31))
	if !cos {
		r = k.sel(k.cmp(eq, x, k.f(0)), x, r) // sin(±0) = ±0
	}
	return r, ok
}

// reduce32 is trig32's and tan32's reduction: r = x - j·π/2 with j =
// rint(x·2/π) (q, as integer lanes), π/2 in three float32 parts and three
// FMAs, and the mask of the lanes below 2^13 in magnitude.
func reduce32(k lang, x Op) (ok, r, q Op) {
	ok = k.cmp(lt, k.and(x, k.u(1<<31-1)), k.f(trigfMax))
	j := k.round(k.mul(x, k.f(twoOverPi)), 0)
	r = k.fnma(j, k.f(pio2f[0]), x)
	r = k.fnma(j, k.f(pio2f[1]), r)
	r = k.fnma(j, k.f(pio2f[2]), r)
	return ok, r, k.toInt(j)
}

// pio2f is π/2 as three float32s, each the rounding of what the ones
// before it leave (from π to 200 bits).
var pio2f = func() (p [3]float64) {
	rest, _, err := big.ParseFloat("1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267", 10, 300, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	for i := range p {
		f, _ := rest.Float32()
		p[i] = float64(f)
		rest.Sub(rest, new(big.Float).SetFloat64(p[i]))
	}
	return p
}()

func sin32(k lang, x Op) (Op, Op) { return trig32(k, x, false) }
func cos32(k lang, x Op) (Op, Op) { return trig32(k, x, true) }

// arm64's math.Exp is assembly of its own (exp_arm64.s), the algorithm of
// math's exp.go with fused multiply-adds; expArm64 reproduces it lane by
// lane, as exp64 reproduces amd64's.
const (
	expArmLog2e     = 1.44269504088896338700e+00
	expArmOverflow  = 7.09782712893383973096e+02
	expArmUnderflow = -7.45133219101941108420e+02
	expArmNearZero  = 0x1p-28
	expArmP1        = 1.66666666666666657415e-01
	expArmP2        = -2.77777777770155933842e-03
	expArmP3        = 6.61375632143793436117e-05
	expArmP4        = -1.65339022054652515390e-06
	expArmP5        = 4.13813679705723846039e-08
)

// expArm64 is exp_arm64.s: k = trunc(x·log2e ± 0.5) (one rounding, the sign
// of x choosing), hi = x - k·ln2Hi (fused), lo = k·ln2Lo, r = hi - lo,
// c = r - t·P(t) with t = r² (Horner with FMAs), y = 1 - ((lo - r·c/(2-c))
// - hi), and 2^k added to y's exponent field; 1 + x below |x| = 2^-28.
// Lanes whose result leaves the normal range, and NaN, are out.
func expArm64(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(le, x, k.f(expArmOverflow)), k.cmp(ge, x, k.f(expArmUnderflow)))
	kf := k.sel(k.cmp(lt, x, k.f(0)), k.fma(k.f(expArmLog2e), x, k.f(-0.5)), k.fma(k.f(expArmLog2e), x, k.f(0.5)))
	kf = k.round(kf, 3)
	hi := k.fnma(kf, k.f(logLn2Hi), x)
	lo := k.mul(kf, k.f(logLn2Lo))
	rr := k.sub(hi, lo)
	t := k.mul(rr, rr)
	c := k.fnma(k.horner(t, expArmP5, expArmP4, expArmP3, expArmP2, expArmP1), t, rr)
	y := k.sub(k.f(1), k.sub(k.sub(lo, k.div(k.mul(rr, c), k.sub(k.f(2), c))), hi))
	ki := k.toInt(kf)
	e := k.add(k.toFloat(k.shr(y, 52)), kf) // the result's exponent field
	ok = k.mAnd(ok, k.mAnd(k.cmp(ge, e, k.f(1)), k.cmp(le, e, k.f(2046))))
	r = k.addI(y, k.shl(ki, 52))
	small := k.cmp(lt, k.and(x, k.u(absMask)), k.f(expArmNearZero))
	return k.sel(small, k.add(x, k.f(1)), r), k.mOr(ok, small)
}

// sigmoidArm64 is 1/(1+math.Exp(-x)) with arm64's exp.
func sigmoidArm64(k lang, x Op) (r, ok Op) {
	e, ok := expArm64(k, k.xor(x, k.u(signBit)))
	return k.div(k.f(1), k.add(e, k.f(1))), ok
}

// logArm64 is math.Log (log.go, fdlibm's e_log.c) as Go 1.26's arm64
// compiler builds it (go tool objdump), additions and subtractions of
// products fused: the reduction of log64 (with Go's f1 < √2/2), then
// s = f/(2+f), R = s²·T1(s⁴) + s⁴·T2(s⁴) with the first product fused into
// the sum, hfsq = 0.5·f·f fused into both of its uses, s·(hfsq+R) fused
// into the addition of k·ln2Lo, and k·ln2Hi - (hfsq - (…) - f). Where two
// products are added, which one is fused follows the compiler's operand
// order; a later compiler could pick the other. Positive normal lanes
// only, as log64.
func logArm64(k lang, x Op) (r, ok Op) {
	ok, kk, f := logReduce(k, x, lt)
	return logFused(k, kk, f), ok
}

// logFused is logArm64's arithmetic after the reduction x = 2^kk·(1+f).
func logFused(k lang, kk, f Op) Op {
	s := k.div(f, k.add(f, k.f(2)))
	s2 := k.mul(s, s)
	s4 := k.mul(s2, s2)
	t1 := k.fma(s4, k.fma(s4, k.fma(s4, k.f(logL7), k.f(logL5)), k.f(logL3)), k.f(logL1))
	t2 := k.mul(s4, k.fma(s4, k.fma(s4, k.f(logL6), k.f(logL4)), k.f(logL2)))
	rr := k.fma(s2, t1, t2)
	h := k.mul(f, k.f(0.5))
	u := k.fma(s, k.fma(h, f, rr), k.mul(kk, k.f(logLn2Lo)))
	v := k.sub(k.fma(h, f, k.xor(u, k.u(signBit))), f)
	return k.fma(kk, k.f(logLn2Hi), k.xor(v, k.u(signBit)))
}

// The logarithms to other bases. log10 is as math's log10.go computes it
// from math.Log: log and one multiplication by 1/ln10. log2 is
// scalar.Log2, not math.Log2: x = frac·2^exp with frac in [√½, √2) (Frexp's
// [½, 1) doubled below √½), then log(frac)·(1/ln2) + exp, the product
// rounded before the sum on every platform (scalar.Log2 converts it
// explicitly, so that Go fuses it nowhere). math.Log2 keeps frac in [½, 1),
// so that its terms cancel near 1 (hundreds of thousands of ulp).
const (
	invLn10 = 1 / math.Ln10
	invLn2  = 1 / math.Ln2
)

// log10_64 is math.Log10 on amd64: log64, then ·(1/ln10); log64's domain.
func log10_64(k lang, x Op) (r, ok Op) { return log10With(k, x, log64) }

// log10Arm64 is math.Log10 on arm64: logArm64, then ·(1/ln10).
func log10Arm64(k lang, x Op) (r, ok Op) { return log10With(k, x, logArm64) }

func log10With(k lang, x Op, log core) (r, ok Op) {
	r, ok = log(k, x)
	return k.mul(r, k.f(invLn10)), ok
}

// log2_64 is scalar.Log2 on amd64 (log64 of the fraction, a product and a
// sum); positive normal lanes only (Frexp normalizes subnormals: the
// reference does those).
func log2_64(k lang, x Op) (r, ok Op) { return log2With(k, x, log64) }

// log2Arm64 is scalar.Log2 on arm64, over logArm64.
func log2Arm64(k lang, x Op) (r, ok Op) { return log2With(k, x, logArm64) }

func log2With(k lang, x Op, log core) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(minNormal)), k.cmp(le, x, k.f(maxFloat)))
	frac := k.or(k.and(x, k.u(fracMask)), k.u(halfBits))
	e := k.sub(k.or(k.shr(x, 52), k.u(magic52Bits)), k.f(magic52+1022)) // Frexp's exp (x > 0)
	low := k.cmp(lt, frac, k.f(math.Sqrt2/2))
	frac = k.sel(low, k.add(frac, frac), frac)
	e = k.sel(low, k.sub(e, k.f(1)), e)
	lf, _ := log(k, frac)
	return k.add(k.mul(lf, k.f(invLn2)), e), ok
}

// The hyperbolic functions of math's sinh.go, over the platform's exp.
const (
	sinhP0 = -0.6307673640497716991184787251e+6
	sinhP1 = -0.8991272022039509355398013511e+5
	sinhP2 = -0.2894211355989563807284660366e+4
	sinhP3 = -0.2630563213397497062819489000e+2
	sinhQ0 = -0.6307673640497716991212077277e+6
	sinhQ1 = 0.1521517378790019070696485176e+5
	sinhQ2 = -0.173678953558233699533450911e+3
)

// cosh64 is math.Cosh: exp(|x|)·0.5 above 21, (e + 1/e)·0.5 with e =
// exp(|x|) below, both computed and blended; lanes out of exp's domain
// (|x| from about 709.4, NaN) are out.
func cosh64(k lang, x Op) (r, ok Op) { return coshWith(k, x, exp64) }

// coshArm64 is math.Cosh over arm64's exp.
func coshArm64(k lang, x Op) (r, ok Op) { return coshWith(k, x, expArm64) }

func coshWith(k lang, x Op, exp core) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	e, ok := exp(k, ax)
	big := k.mul(e, k.f(0.5))
	mid := k.mul(k.add(e, k.div(k.f(1), e)), k.f(0.5))
	return k.sel(k.cmp(gt, ax, k.f(21)), big, mid), ok
}

// sinh64 is math.Sinh on |x| with the sign put back: exp(|x|)·0.5 above
// 21, (e - 1/e)·0.5 above 1/2 and Hart & Cheney's rational function
// |x|·P(x²)/Q(x²) below, all computed and blended. The reference is Go:
// at GOAMD64=v3 (and on arm64) the compiler fuses every multiply-add of
// the rational function, Horner steps with constant addends included
// (go tool objdump), so each is goMulAdd with shared set, which fuses
// wherever the target fuses. Lanes out of exp's domain are out.
func sinh64(k lang, x Op) (r, ok Op) { return sinhWith(k, x, exp64) }

// sinhArm64 is math.Sinh over arm64's exp.
func sinhArm64(k lang, x Op) (r, ok Op) { return sinhWith(k, x, expArm64) }

func sinhWith(k lang, x Op, exp core) (r, ok Op) {
	sg := k.and(x, k.u(signBit))
	ax := k.and(x, k.u(absMask))
	e, ok := exp(k, ax)
	big := k.mul(e, k.f(0.5))
	mid := k.mul(k.sub(e, k.div(k.f(1), e)), k.f(0.5))
	sq := k.mul(ax, ax)
	madd := func(a, b Op, c float64) Op { return k.goMulAdd(a, b, k.f(c), true) }
	p := madd(madd(madd(k.f(sinhP3), sq, sinhP2), sq, sinhP1), sq, sinhP0)
	q := madd(madd(madd(ax, ax, sinhQ2), sq, sinhQ1), sq, sinhQ0)
	sm := k.div(k.mul(p, ax), q)
	r = k.sel(k.cmp(gt, ax, k.f(0.5)), mid, sm)
	r = k.sel(k.cmp(gt, ax, k.f(21)), big, r)
	return k.xor(r, sg), ok
}

// The float32 logarithms to other bases: Cephes's log10f and log2f over
// log32's reduction and polynomial (logfParts), the constants split so
// that the leading products are exact: log2 x = e + (f+y)·(1 + log2e-1),
// log10 x = e·log10(2) + (f+y)·log10(e) with both constants in two parts,
// summed smallest first with FMAs. Positive normal lanes only, as log32.
const (
	log2eM1f = 0.44269504088896340736 // log2(e) - 1
	l10eAf   = 4.3359375e-1           // log10(e) ≈ l10eAf + l10eBf
	l10eBf   = 7.00731903251827651129e-4
	l102Af   = 3.0078125e-1 // log10(2) ≈ l102Af + l102Bf
	l102Bf   = 2.48745663981195213739e-4
)

func log10_32(k lang, x Op) (r, ok Op) {
	ok = logfDomain(k, x)
	e, f, z, y := logfParts(k, x)
	y = k.fnma(z, k.f(0.5), y)
	r = k.mul(y, k.f(l10eBf))
	r = k.fma(f, k.f(l10eBf), r)
	r = k.fma(e, k.f(l102Bf), r)
	r = k.fma(y, k.f(l10eAf), r)
	r = k.fma(f, k.f(l10eAf), r)
	r = k.fma(e, k.f(l102Af), r)
	return r, ok
}

func log2_32(k lang, x Op) (r, ok Op) {
	ok = logfDomain(k, x)
	e, f, z, y := logfParts(k, x)
	y = k.fnma(z, k.f(0.5), y)
	r = k.mul(y, k.f(log2eM1f))
	r = k.fma(f, k.f(log2eM1f), r)
	r = k.add(r, y)
	r = k.add(r, f)
	r = k.add(r, e)
	return r, ok
}

// Cephes sinhf: sinh x = x + x³·P(x²) for |x| ≤ 1.
var sinhfP = []float64{2.03721912945e-4, 8.33028376239e-3, 1.66667160211e-1}

// cosh32 is Cephes's coshf: e/2 + 1/(2e) with e = e^|x| (expf). Lanes above
// 88.37 in magnitude (expf's domain: the result there is finite up to
// 89.4, the reference gives it) and NaN are out.
func cosh32(k lang, x Op) (r, ok Op) {
	z := k.and(x, k.u(1<<31-1))
	ok = k.cmp(le, z, k.f(expfHi))
	e := expf(k, z)
	return k.add(k.mul(e, k.f(0.5)), k.div(k.f(0.5), e)), ok
}

// sinh32 is Cephes's sinhf: x + x³·P(x²) up to |x| = 1 and ±(e/2 - 1/(2e))
// with e = e^|x| above, both computed and blended; the domain of cosh32.
func sinh32(k lang, x Op) (r, ok Op) {
	z := k.and(x, k.u(1<<31-1))
	sg := k.and(x, k.u(1<<31))
	ok = k.cmp(le, z, k.f(expfHi))
	e := expf(k, z)
	big := k.xor(k.mul(k.sub(e, inverse(k, e)), k.f(0.5)), sg)
	x2 := k.mul(x, x)
	sm := k.fma(k.mul(k.horner(x2, sinhfP...), x2), x, x) // ±0 at ±0: P·x² is +0, times x and plus x keeps x's sign
	return k.sel(k.cmp(gt, z, k.f(1)), big, sm), ok
}

// inverse is 1/e for a positive normal e: a division, or on the 512-bit
// target VRCP14PS/PD and Newton (reciprocal), where the divider's
// throughput would bound a short kernel (a subnormal inverse comes out
// near, not exact: sinh's is far below e's ulp there).
func inverse(k lang, e Op) Op {
	if hasGetMant(k) {
		return reciprocal(k, e)
	}
	return k.div(k.f(1), e)
}

// exp2_64 is math.Exp2: exp.go's exp2 and expmulti on amd64, where they
// are Go, and exp_arm64.s's archExp2 on arm64, which is the same algorithm
// with the same fusions as the compiler's at GOAMD64=v3 (go tool objdump):
// k = trunc(x ± 0.5) (the sign of x choosing), t = x - k, hi = t·ln2Hi,
// lo = -t·ln2Lo, r = hi - lo, c = r - s·P(s) with s = r² (P's Horner steps
// fused at v3 and on arm64, the last product subtracted separately on
// amd64 and fused on arm64: goMulSub), y = 1 - ((lo - r·c/(2-c)) - hi),
// and Ldexp(y, k) as an addition to y's exponent field. Lanes whose result
// is not a normal number, and NaN, are out.
func exp2_64(k lang, x Op) (r, ok Op) {
	kf := k.sel(k.cmp(lt, x, k.f(0)), k.sub(x, k.f(0.5)), k.add(x, k.f(0.5)))
	kf = k.round(kf, 3)
	t := k.sub(x, kf)
	hi := k.mul(t, k.f(logLn2Hi))
	lo := k.xor(k.mul(t, k.f(logLn2Lo)), k.u(signBit))
	rr := k.sub(hi, lo)
	s := k.mul(rr, rr)
	madd := func(a Op, c float64) Op { return k.goMulAdd(a, s, k.f(c), true) }
	p := madd(madd(madd(madd(k.f(expArmP5), expArmP4), expArmP3), expArmP2), expArmP1)
	c := k.goMulSub(p, s, rr)
	y := k.sub(k.f(1), k.sub(k.sub(lo, k.div(k.mul(rr, c), k.sub(k.f(2), c))), hi))
	ey := k.sub(k.or(k.shr(y, 52), k.u(magic52Bits)), k.f(magic52)) // y's exponent field (y > 0)
	fe := k.add(ey, kf)
	ok = k.mAnd(k.cmp(ge, fe, k.f(1)), k.cmp(le, fe, k.f(2046)))
	kb := k.shl(k.subI(k.add(kf, k.f(magic52x15)), k.u(magic52x15Bits)), 52)
	return k.addI(y, kb), ok
}

// Cephes exp2f: 2^f = 1 + f·P(f) on |f| ≤ 1/2.
var exp2fP = []float64{1.535336188319500e-4, 1.339887440266574e-3, 9.618437357674640e-3,
	5.550332471162809e-2, 2.402264791363012e-1, 6.931472028550421e-1}

// exp2_32 is Cephes's exp2f: n = rint(x), f = x - n (exact), 2^f = 1 +
// f·P(f) and 2^n built in the exponent field. Lanes outside [-126, 127.4]
// (where the result or 2^n would leave the normal range) and NaN are out.
func exp2_32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(-126)), k.cmp(le, x, k.f(127.4)))
	n := k.round(x, 0)
	f := k.sub(x, n)
	p := k.fma(k.horner(f, exp2fP...), f, k.f(1))
	return timesPow2f(k, p, n), ok
}

// math.Expm1 (expm1.go, fdlibm's s_expm1.c).
const (
	expm1Othreshold = 7.09782712893383973096e+02
	expm1Ln2X56     = 3.88162421113569373274e+01
	expm1Ln2HalfX3  = 1.03972077083991796413e+00
	expm1Ln2Half    = 3.46573590279972654709e-01
	expm1InvLn2     = 1.44269504088896338700e+00
	expm1Tiny       = 0x1p-54
	expm1Q1         = -3.33333333333331316428e-02
	expm1Q2         = 1.58730158725481460165e-03
	expm1Q3         = -7.93650757867487942473e-05
	expm1Q4         = 4.00821782732936239552e-06
	expm1Q5         = -2.01099218183624371326e-07
)

// expm1_64 is math.Expm1 on amd64, where it is Go; see expm1With.
func expm1_64(k lang, x Op) (r, ok Op) { return expm1With(k, x, false) }

// expm1Arm64 is math.Expm1 on arm64; see expm1With.
func expm1Arm64(k lang, x Op) (r, ok Op) { return expm1With(k, x, true) }

// expm1With is math.Expm1, every branch computed and blended: k = ±1 from
// |x| = ln2/2 to 3·ln2/2, trunc(x·(1/ln2) ± 0.5) above, and the reduction
// x' = hi - lo with its correction c (none below ln2/2: k = 0, x' = x);
// then R1 = 1 + hxs·Q(hxs) with hxs = x'·x'/2, t = 3 - R1·x'/2, e =
// hxs·(R1-t)/(6 - x'·t), and the six results of expm1.go by k, -1 from
// x ≤ -56·ln2 and x itself below 2^-54. The fusions are those of the
// compiler (go tool objdump): at GOAMD64=v3 (goMulAdd with shared) the
// Horner steps, 1 + hxs·Q and x·(1/ln2) + 0.5; on arm64 (arm) every
// addition or subtraction of a product, a·b - c included (FNMSUB), with the
// products x'·(x'/2) that stand for hxs recomputed inside the fused
// subtractions (goMulSub). Lanes from 709.78 (the overflow) and NaN are out.
func expm1With(k lang, x Op, arm bool) (r, ok Op) {
	// a·b - c: one FNMSUB on arm64, a product and a subtraction on amd64
	mulSubFrom := func(a, b, c Op) Op {
		if arm {
			return k.fma(a, b, k.xor(c, k.u(signBit)))
		}
		return k.sub(k.mul(a, b), c)
	}
	zero, one := k.f(0), k.f(1)
	ax := k.and(x, k.u(absMask))
	kp := k.goMulAdd(k.f(expm1InvLn2), x, k.f(0.5), true)
	kn := mulSubFrom(k.f(expm1InvLn2), x, k.f(0.5))
	kf := k.round(k.sel(k.cmp(lt, x, zero), kn, kp), 3)
	kf = k.sel(k.cmp(lt, ax, k.f(expm1Ln2HalfX3)), k.or(k.and(x, k.u(signBit)), one), kf) // ±1
	// x ∓ ln2Hi and ±ln2Lo where k = ±1 are this with t = ±1, exactly
	hi := k.goMulSub(kf, k.f(logLn2Hi), x)
	lo := k.mul(kf, k.f(logLn2Lo))
	xr := k.sub(hi, lo)
	c := k.sub(k.sub(hi, xr), lo)
	red := k.cmp(gt, ax, k.f(expm1Ln2Half))
	xr = k.sel(red, xr, x)
	c = k.sel(red, c, zero)
	kf = k.sel(red, kf, zero)

	hfx := k.mul(k.f(0.5), xr)
	hxs := k.mul(xr, hfx)
	madd := func(a Op, cc float64) Op { return k.goMulAdd(a, hxs, k.f(cc), true) }
	q := madd(madd(madd(madd(k.f(expm1Q5), expm1Q4), expm1Q3), expm1Q2), expm1Q1)
	r1 := k.goMulAdd(q, hxs, one, true)
	t := k.goMulSub(r1, hfx, k.f(3))
	qq := k.div(k.sub(r1, t), k.goMulSub(xr, t, k.f(6)))
	e := k.mul(hxs, qq)
	r0 := k.sub(xr, k.goMulSub(xr, hfx, k.mul(xr, e))) // k = 0
	e2 := mulSubFrom(mulSubFrom(hxs, qq, c), xr, c)    // x'·(e-c) - c
	e2 = k.goMulSub(xr, hfx, e2)                       // - hxs
	rm1 := mulSubFrom(k.sub(xr, e2), k.f(0.5), k.f(0.5))
	xe := k.sub(xr, e2)
	rp1 := k.sel(k.cmp(lt, xr, k.f(-0.25)), k.mul(k.f(-2), k.sub(e2, k.add(xr, k.f(0.5)))), k.add(one, k.add(xe, xe)))
	ki := k.subI(k.add(kf, k.f(magic52x15)), k.u(magic52x15Bits))
	kb := k.shl(ki, 52)
	p2 := k.shl(k.subI(k.u(1023), ki), 52) // 2^-k
	rbig := k.sub(k.addI(k.sub(one, k.sub(e2, xr)), kb), one)
	rmid := k.addI(k.sub(k.sub(one, p2), k.sub(e2, xr)), kb)
	rhi := k.addI(k.add(k.sub(xr, k.add(e2, p2)), one), kb)
	r = k.sel(k.cmp(lt, kf, k.f(20)), rmid, rhi)
	r = k.sel(k.mOr(k.cmp(le, kf, k.f(-2)), k.cmp(gt, kf, k.f(56))), rbig, r)
	r = k.sel(k.cmp(eq, kf, one), rp1, r)
	r = k.sel(k.cmp(eq, kf, k.f(-1)), rm1, r)
	r = k.sel(k.cmp(eq, kf, zero), r0, r)
	r = k.sel(k.cmp(lt, ax, k.f(expm1Tiny)), x, r)
	r = k.sel(k.cmp(le, x, k.f(-expm1Ln2X56)), k.f(-1), r)
	return r, k.cmp(lt, x, k.f(expm1Othreshold))
}

// expm1_32 is e^x - 1 = 2^n·expm1(r) + (2^n - 1) with n = rint(x·log2e)
// and r = x - n·ln2 as in expf, expm1(r) = r + r²·P(r) with expf's
// polynomial (accurate relative to r), and one FMA; ±0 kept. x is
// clamped at -87 (the result is -1 from -17.4). Lanes above 88.37 and NaN
// are out.
func expm1_32(k lang, x Op) (r, ok Op) { return expm1f(k, x), k.cmp(le, x, k.f(expfHi)) }

// expm1f is expm1_32 without the domain mask.
func expm1f(k lang, x Op) Op {
	return k.sel(k.cmp(eq, x, k.f(0)), x, expm1fCore(k, k.max(x, k.f(expfLo))))
}

// expm1fCore is expm1f's arithmetic for x at or above -87 (the clamp) and
// not above 88.37: e^x - 1 = 2^n·em + (2^n - 1), +0 at ±0.
func expm1fCore(k lang, xc Op) Op {
	n := k.round(k.mul(xc, k.f(log2ef)), 0)
	rr := k.fnma(n, k.f(ln2fHi), xc)
	rr = k.fnma(n, k.f(ln2fLo), rr)
	em := k.fma(k.horner(rr, expfP...), k.mul(rr, rr), rr)
	scale := pow2f(k, n)
	return k.fma(scale, em, k.sub(scale, k.f(1)))
}

// math.Log1p (log1p.go, fdlibm's s_log1p.c).
const (
	log1pSqrt2M1     = 4.142135623730950488017e-01
	log1pSqrt2HalfM1 = -2.928932188134524755992e-01
	log1pSmall       = 0x1p-29
	log1pTiny        = 0x1p-54
	log1pTwo53       = 0x1p53
	log1pSqrt2Bits   = 0x3ff6a09e667f3bcd // √2: the mantissa bound of the reduction
)

// log1p64 is math.Log1p on amd64, where it is Go; see log1pWith.
func log1p64(k lang, x Op) (r, ok Op) { return log1pWith(k, x, false) }

// log1pArm64 is math.Log1p on arm64; see log1pWith.
func log1pArm64(k lang, x Op) (r, ok Op) { return log1pWith(k, x, true) }

// log1pWith is math.Log1p, every branch computed and blended: x below
// 2^-54, x - x²/2 below 2^-29, f = x (k = 0, c = 0) between √2/2-1 and
// √2-1, and elsewhere u = 1+x (x itself from 2^53) with k its exponent,
// the rounding error c/u, and u's mantissa normalized into [√2/2, √2)
// (k+1 above √2), f = u - 1; then s = f/(2+f), R = z·Lp(z) with z = s²,
// hfsq = (f/2)·f, and the results of log1p.go for k = 0, f = 0 (a power of
// two) and the rest. The fusions follow the compiler (go tool objdump): at
// GOAMD64=v3 the Horner steps, R's product into hfsq+R, k·ln2Lo + c and
// s·(hfsq+R) + that (goMulAdd with shared); on arm64 (arm) every addition
// or subtraction of a product, with R rounded and hfsq recomputed as the
// fused product f·(f/2) inside them. Lanes at or below -1, +Inf and NaN
// are out.
func log1pWith(k lang, x Op, arm bool) (r, ok Op) {
	neg := func(a Op) Op { return k.xor(a, k.u(signBit)) }
	one, zero := k.f(1), k.f(0)
	ax := k.and(x, k.u(absMask))
	ok = k.mAnd(k.cmp(gt, x, k.f(-1)), k.cmp(le, x, k.f(maxFloat)))
	big := k.cmp(ge, ax, k.f(log1pTwo53))
	u := k.sel(big, x, k.add(one, x))
	ku := k.sub(k.or(k.shr(u, 52), k.u(magic52Bits)), k.f(magic52+1023)) // u's exponent (u > 0)
	cpos := k.sub(one, k.sub(u, x))
	cneg := k.sub(x, k.sub(u, one))
	c := k.div(k.sel(k.cmp(gt, ku, zero), cpos, cneg), u)
	c = k.sel(big, zero, c)
	m1 := k.or(k.and(u, k.u(fracMask)), k.u(0x3ff0000000000000))
	hiM := k.cmp(ge, m1, k.u(log1pSqrt2Bits))
	kf := k.sel(hiM, k.add(ku, one), ku)
	f := k.sub(k.sel(hiM, k.mul(m1, k.f(0.5)), m1), one) // m1/2 - 1 above √2
	// between √2/2-1 and √2-1: k = 0, f = x, c = 0
	pc := k.mAnd(k.cmp(lt, ax, k.f(log1pSqrt2M1)), k.cmp(gt, x, k.f(log1pSqrt2HalfM1)))
	f0 := k.cmp(eq, f, zero) // u a power of two (pc's lanes have k = 0: r0 below)
	f = k.sel(pc, x, f)
	c = k.sel(pc, zero, c)
	kf = k.sel(pc, zero, kf)

	h := k.mul(f, k.f(0.5))
	hfsq := k.mul(h, f)
	s := k.div(f, k.add(f, k.f(2)))
	z := k.mul(s, s)
	madd := func(a Op, cc float64) Op { return k.goMulAdd(a, z, k.f(cc), true) }
	p := madd(madd(madd(madd(madd(madd(k.f(logL7), logL6), logL5), logL4), logL3), logL2), logL1)
	var r0, rk Op
	if arm {
		hpr := k.fma(f, h, k.mul(z, p))
		r0 = k.sub(f, k.fnma(hpr, s, hfsq))
		t := k.fma(hpr, s, k.fma(kf, k.f(logLn2Lo), c))
		rk = k.fma(kf, k.f(logLn2Hi), neg(k.sub(k.fma(f, h, neg(t)), f)))
	} else {
		hpr := k.goMulAdd(p, z, hfsq, true)
		r0 = k.sub(f, k.sub(hfsq, k.mul(s, hpr)))
		t := k.goMulAdd(s, hpr, k.goMulAdd(kf, k.f(logLn2Lo), c, true), true)
		rk = k.sub(k.mul(kf, k.f(logLn2Hi)), k.sub(k.sub(hfsq, t), f))
	}
	rf0 := k.goMulAdd(kf, k.f(logLn2Hi), k.goMulAdd(kf, k.f(logLn2Lo), c, true), true)
	r = k.sel(f0, rf0, rk)
	r = k.sel(k.cmp(eq, kf, zero), r0, r)
	r = k.sel(k.cmp(lt, ax, k.f(log1pSmall)), k.goMulSub(k.mul(x, x), k.f(0.5), x), r)
	return k.sel(k.cmp(lt, ax, k.f(log1pTiny)), x, r), ok
}

// log1p32 is log(u) + c/u with u = 1+x rounded and c = its rounding error
// (log1pArg), log(u) by log32; ±0 kept. Lanes at or below -1, +Inf and NaN are out.
func log1p32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(gt, x, k.f(-1)), k.cmp(le, x, k.f(math.MaxFloat32)))
	return log1pf(k, x), ok
}

// log1pf is log1p32 without the domain mask.
func log1pf(k lang, x Op) Op {
	u, corr := log1pArg(k, x)
	return k.sel(k.cmp(eq, x, k.f(0)), x, k.add(logf(k, u), corr))
}

// log1pArg is u = 1 + v and corr = c/u, with c the rounding of 1 + v
// recovered exactly (1 - (u - v) from u = 2 up, v - (u - 1) below), so
// that log1p v = log u + corr to the element type's accuracy.
func log1pArg(k lang, v Op) (u, corr Op) {
	one := k.f(1)
	u = k.add(one, v)
	c := k.sel(k.cmp(ge, u, k.f(2)), k.sub(one, k.sub(u, v)), k.sub(v, k.sub(u, one)))
	return u, k.div(c, u)
}

// math.Tan (Cephes tan.c): the rational function of tan on [-π/4, π/4].
const (
	tanP0 = -1.30936939181383777646e4
	tanP1 = 1.15351664838587416140e6
	tanP2 = -1.79565251976484877988e7
	tanQ1 = 1.36812963470692954678e4
	tanQ2 = -1.32089234440210967447e6
	tanQ3 = 2.50083801823357915839e7
	tanQ4 = -5.38695755929454629881e7
	// tanSmall: below it (z² ≤ 1e-14) tan z is z
	tanSmall = 1e-14
)

// tan64 is math.Tan below 2^29 on |x| with the sign put back: trig64's
// octant and Cody–Waite reduction, z + z·(z²·P(z²)/Q(z²)) where z² > 1e-14
// (z elsewhere), and -1/y in octants 2 and 6 after rounding to even. The
// Go reference's products are fused as the compiler fuses them (goMulAdd,
// goMulSub: at GOAMD64=v3 Q's first step z·z + Q1 and z·q + z, not the
// Horner steps with a constant addend; every one on arm64), so tan64 is
// arm64's kernel as well. Lanes at or above 2^29, Inf and NaN are out.
func tan64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(trigThreshold))
	n := k.round(k.mul(ax, k.f(fourOverPi)), 3)
	odd := k.eqI(k.and(k.add(n, k.f(magic52)), k.u(1)), k.u(1))
	y := k.add(n, k.and(odd, k.f(1))) // j rounded up to even
	j := k.add(y, k.f(magic52))
	z := k.goMulSub(y, k.f(trigPI4C), k.goMulSub(y, k.f(trigPI4B), k.goMulSub(y, k.f(trigPI4A), ax)))
	zz := k.mul(z, z)
	p := k.mul(k.goMulAdd(k.goMulAdd(k.f(tanP0), zz, k.f(tanP1), false), zz, k.f(tanP2), false), zz)
	q := k.goMulAdd(z, z, k.f(tanQ1), true) // zz + Q1, zz = z·z with other uses
	for _, c := range []float64{tanQ2, tanQ3, tanQ4} {
		q = k.goMulAdd(q, zz, k.f(c), false)
	}
	t := k.goMulAdd(z, k.div(p, q), z, false)
	t = k.sel(k.cmp(gt, zz, k.f(tanSmall)), t, z)
	t = k.sel(k.eqI(k.and(j, k.u(2)), k.u(2)), k.div(k.f(-1), t), t)
	return k.xor(t, k.and(x, k.u(signBit))), ok
}

// Cephes tanf: tan r = r + r³·P(r²) on [-π/4, π/4].
var tanfP = []float64{9.38540185543e-3, 3.11992232697e-3, 2.44301354525e-2, 5.34112807005e-2,
	1.33387994085e-1, 3.33331568548e-1}

// tan32 is trig32's reduction (r = x - j·π/2 in float32, π/2 in three
// parts) and Cephes's tanf polynomial on every lane, tan r = r + r³·P(r²),
// and where j is odd -1/tan r, refined by a Newton step on the unrounded
// sum (where t is low in its binade, the rounding of t would otherwise
// count twice); ±0 kept. Lanes at or above 2^13 in magnitude, Inf and NaN
// are out.
func tan32(k lang, x Op) (r, ok Op) {
	ok, rv, q := reduce32(k, x)
	z := k.mul(rv, rv)
	tail := k.mul(k.mul(k.horner(z, tanfP...), z), rv)
	t := k.add(rv, tail)
	c := k.div(k.f(-1), t)
	c = k.fma(c, k.fma(c, tail, k.fma(c, rv, k.f(1))), c)
	t = k.sel(k.eqI(k.and(q, k.u(1)), k.u(1)), c, t)
	return k.sel(k.cmp(eq, x, k.f(0)), x, t), ok
}

// math.Atan (Cephes atan.c): the rational function of xatan on [0, 0.66].
const (
	atanP0       = -8.750608600031904122785e-01
	atanP1       = -1.615753718733365076637e+01
	atanP2       = -7.500855792314704667340e+01
	atanP3       = -1.228866684490136173410e+02
	atanP4       = -6.485021904942025371773e+01
	atanQ0       = +2.485846490142306297962e+01
	atanQ1       = +1.650270098316988542046e+02
	atanQ2       = +4.328810604912902668951e+02
	atanQ3       = +4.853903996359136964868e+02
	atanQ4       = +1.945506571482613964425e+02
	atanMorebits = 6.123233995736765886130e-17 // π/2 = float64(π/2) + atanMorebits
	atanTan3pio8 = 2.41421356237309504880
)

// satan is math's satan for x ≥ 0 (+Inf included): xatan of x up to 0.66,
// of 1/x above tan(3π/8) (then π/2 - · + Morebits) and of (x-1)/(x+1)
// between (π/4 + · + Morebits/2), the argument chosen first and xatan
// evaluated once (and the argument's one division): z = x², z·P(z)/Q(z),
// x·that + x. The compiler fuses
// every Horner step and the last multiply-add at GOAMD64=v3 and on arm64
// (go tool objdump): goMulAdd with shared.
func satan(k lang, x Op) Op {
	big := k.cmp(gt, x, k.f(atanTan3pio8))
	mid := k.mAndNot(k.cmp(gt, x, k.f(0.66)), big)
	one := k.f(1)
	// one division for the three arguments (x/1 is x)
	num := k.sel(big, one, k.sel(mid, k.sub(x, one), x))
	den := k.sel(big, x, k.sel(mid, k.add(x, one), one))
	a := k.div(num, den)
	madd := func(p, q Op, c float64) Op { return k.goMulAdd(p, q, k.f(c), true) }
	z := k.mul(a, a)
	p := madd(madd(madd(madd(k.f(atanP0), z, atanP1), z, atanP2), z, atanP3), z, atanP4)
	q := madd(a, a, atanQ0) // z + Q0, z = a·a with other uses
	for _, c := range []float64{atanQ1, atanQ2, atanQ3, atanQ4} {
		q = madd(q, z, c)
	}
	xa := k.goMulAdd(a, k.div(k.mul(z, p), q), a, true)
	r := k.sel(mid, k.add(k.add(k.f(math.Pi/4), xa), k.f(0.5*atanMorebits)), xa)
	return k.sel(big, k.add(k.sub(k.f(math.Pi/2), xa), k.f(atanMorebits)), r)
}

// atan64 is math.Atan: satan(|x|) with x's sign (atan(±0) = ±0 follows).
// Only NaN lanes are out.
func atan64(k lang, x Op) (r, ok Op) {
	r = satan(k, k.and(x, k.u(absMask)))
	return k.xor(r, k.and(x, k.u(signBit))), k.cmp(eq, x, x)
}

// asin64 is math.Asin: t = √(1 - x²) (the product subtracted as goMulSub
// says), π/2 - satan(t/|x|) above |x| = 0.7, satan(|x|/t) below, with
// x's sign. Lanes above 1 in magnitude (NaN) and NaN are out.
func asin64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	t := k.sqrt(k.goMulSub(ax, ax, k.f(1)))
	hi := k.cmp(gt, ax, k.f(0.7))
	s := satan(k, k.div(k.sel(hi, t, ax), k.sel(hi, ax, t)))
	r = k.sel(hi, k.sub(k.f(math.Pi/2), s), s)
	return k.xor(r, k.and(x, k.u(signBit))), k.cmp(le, ax, k.f(1))
}

// acos64 is scalar.Acos: 2·asin64(√((1-|x|)/2)) above ½ in magnitude (π
// minus it below -½), π/2 - asin64(x) between; asin64's domain.
// One asin64 serves both: its argument is √((1-|x|)/2) or x, lane by lane.
func acos64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	big := k.cmp(gt, ax, k.f(0.5))
	h, _ := asin64(k, k.sel(big, k.sqrt(k.mul(k.sub(k.f(1), ax), k.f(0.5))), x))
	twice := k.add(h, h)
	outer := k.sel(k.cmp(lt, x, k.f(0)), k.sub(k.f(math.Pi), twice), twice)
	return k.sel(big, outer, k.sub(k.f(math.Pi/2), h)), k.cmp(le, ax, k.f(1))
}

// Cephes atanf: atan x = x + x³·P(x²) on [0, tan(π/8)].
var atanfP = []float64{8.05374449538e-2, -1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1}

const (
	pio2fHi = float64(float32(math.Pi / 2)) // π/2 in two float32 parts
	pio2fLo = math.Pi/2 - pio2fHi
	pio4fHi = float64(float32(math.Pi / 4))
	pio4fLo = math.Pi/4 - pio4fHi
)

// atan32 is Cephes's atanf: atan(-1/x) + π/2 above tan(3π/8), atan((x-1)/
// (x+1)) + π/4 above tan(π/8), x + x³·P(x²), on |x| with the sign put
// back; the π/2 and π/4 in two parts, the low one added to the polynomial
// first. Only NaN lanes are out.
func atan32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	big := k.cmp(gt, ax, k.f(2.414213562373095))
	mid := k.mAndNot(k.cmp(gt, ax, k.f(0.4142135623730950)), big)
	one := k.f(1)
	num := k.sel(big, k.f(-1), k.sel(mid, k.sub(ax, one), ax))
	den := k.sel(big, ax, k.sel(mid, k.add(ax, one), one))
	a := k.div(num, den)
	yhi := k.sel(big, k.f(pio2fHi), k.and(mid, k.f(pio4fHi)))
	ylo := k.sel(big, k.f(pio2fLo), k.and(mid, k.f(pio4fLo)))
	z := k.mul(a, a)
	t := k.fma(k.mul(k.horner(z, atanfP...), z), a, k.add(a, ylo))
	r = k.add(yhi, t)
	return k.xor(r, k.and(x, k.u(1<<31))), k.cmp(eq, x, x)
}

// Cephes asinf: asin a = a + a³·P(a²) on [0, 1/2].
var asinfP = []float64{4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2, 7.4953002686e-2, 1.6666752422e-1}

// asinfCore is Cephes's asinf polynomial on a = |x| ≤ 1: a + a³·P(a²) up
// to 1/2, and above it asin a = π/2 - 2·asin √((1-a)/2); it returns that
// as the pair (hi, p) with asin a = hi - p (hi π/2 or 0, p the polynomial
// part doubled or negated), for the callers to add in the best order.
func asinfCore(k lang, a Op) (hi, p Op) {
	big := k.cmp(gt, a, k.f(0.5))
	z := k.sel(big, k.mul(k.sub(k.f(1), a), k.f(0.5)), k.mul(a, a))
	s := k.sel(big, k.sqrt(z), a)
	t := k.fma(k.mul(k.horner(z, asinfP...), z), s, s)
	return k.and(big, k.f(pio2fHi)), k.sel(big, k.add(t, t), k.xor(t, k.u(1<<31)))
}

// asin32 is Cephes's asinf with x's sign: the polynomial up to |x| = 1/2,
// π/2 - 2·asin √((1-|x|)/2) above, π/2 in two parts. Lanes above 1 in
// magnitude and NaN are out.
func asin32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	hi, p := asinfCore(k, ax)
	lo := k.and(k.cmp(gt, ax, k.f(0.5)), k.f(pio2fLo))
	r = k.add(hi, k.sub(lo, p))
	r = k.xor(r, k.and(x, k.u(1<<31)))
	return k.sel(k.cmp(eq, x, k.f(0)), x, r), k.cmp(le, ax, k.f(1))
}

// acos32 is Cephes's acosf: π - 2·asin √((1+x)/2) below -1/2, 2·asin
// √((1-x)/2) above 1/2 and π/2 - asin x between, with asinfCore and π/2 in
// two parts. Lanes above 1 in magnitude and NaN are out.
func acos32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	big := k.cmp(gt, ax, k.f(0.5))
	_, p := asinfCore(k, ax) // above 1/2: p = 2·asin √((1-|x|)/2)
	// between: π/2 - asin x = π/2 + p·sign(x) (p = -asin|x|)
	pm := k.xor(p, k.and(x, k.u(1<<31)))
	mid := k.add(k.f(pio2fHi), k.add(k.f(pio2fLo), pm))
	neg := k.add(k.f(2*pio2fHi), k.sub(k.f(2*pio2fLo), p)) // π - p
	r = k.sel(big, k.sel(k.cmp(lt, x, k.f(0)), neg, p), mid)
	return r, k.cmp(le, ax, k.f(1))
}

const (
	asinhLarge    = 1 << 28 // math.Asinh's Large: log(x) + ln2 above
	asinhNearZero = 1.0 / (1 << 28)
	asinhLn2      = 6.93147180559945286227e-01
)

// asinh64 is math.Asinh on amd64, where it is Go over math.Log (the
// assembly, log64) and math.Log1p (log1p64); see asinhWith.
func asinh64(k lang, x Op) (r, ok Op) { return asinhWith(k, x, log64, log1p64) }

// asinhArm64 is math.Asinh on arm64, over logArm64 and log1pArm64.
func asinhArm64(k lang, x Op) (r, ok Op) { return asinhWith(k, x, logArm64, log1pArm64) }

// asinhWith is math.Asinh on |x| with x's sign put back, its four branches
// computed and blended: log(|x|) + ln2 above 2^28, log(2|x| + 1/(√(x²+1) +
// |x|)) above 2, |x| below 2^-28 and log1p(|x| + x²/(1 + √(1+x²))) between.
// 2·|x| is |x|+|x| (the compiler's rewrite); x²+1 is one FMA at GOAMD64=v3
// and on arm64 in both branches (go tool objdump), x² in the numerator a
// product of its own. ±Inf and NaN lanes are out.
func asinhWith(k lang, x Op, log, log1p core) (r, ok Op) {
	one := k.f(1)
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(le, ax, k.f(maxFloat))
	q := k.sqrt(k.goMulAdd(ax, ax, one, true))
	lb, _ := log(k, k.add(k.add(ax, ax), k.div(one, k.add(q, ax))))
	lp, _ := log1p(k, k.add(ax, k.div(k.mul(ax, ax), k.add(one, q))))
	ll, _ := log(k, ax)
	r = k.sel(k.cmp(gt, ax, k.f(2)), lb, lp)
	r = k.sel(k.cmp(gt, ax, k.f(asinhLarge)), k.add(ll, k.f(asinhLn2)), r)
	r = k.sel(k.cmp(lt, ax, k.f(asinhNearZero)), ax, r)
	return k.xor(r, k.and(x, k.u(signBit))), ok
}

// asinh32 is asinhOneLog in float32 (over logf; the thresholds 2^12 and
// 2^-12, where log(2|x|) and |x| are within float32's half ulp).
func asinh32(k lang, x Op) (r, ok Op) { return asinhOneLog(k, x, oneLog32) }

// asinhOneLog is asinh on |x| with the sign put back, over one log: log(w)
// + a with w = |x| and a = ln2 above w.huge, w = |x| + √(x²+1) (two
// positive terms, w ≥ 4) above 2, and between w = 1 + v and a the
// correction log1p needs (log1pArg) for v = |x| + x²/(1 + √(1+x²)); |x|
// itself below w.tiny. ±Inf and NaN lanes are out.
func asinhOneLog(k lang, x Op, w oneLogWidth) (r, ok Op) {
	one := k.f(1)
	ax := k.and(x, k.u(w.sign-1))
	ok = k.cmp(le, ax, k.f(w.max))
	q := k.sqrt(k.fma(ax, ax, one))
	small, huge := k.cmp(le, ax, k.f(2)), k.cmp(gt, ax, k.f(w.huge))
	u, corr := log1pArg(k, k.add(ax, k.div(k.mul(ax, ax), k.add(one, q))))
	l := w.log(k, k.sel(small, u, k.sel(huge, ax, k.add(ax, q))))
	r = k.add(l, k.sel(small, corr, k.and(huge, k.f(w.ln2))))
	r = k.sel(k.cmp(lt, ax, k.f(w.tiny)), ax, r)
	return k.xor(r, k.and(x, k.u(w.sign))), ok
}

// oneLogWidth is what asinhOneLog and acoshOneLog take from an element
// width and a level: the sign bit, the largest finite value, the
// thresholds (log(2|x|) is asinh's and acosh's value above huge, |x| is
// asinh's below tiny), ln 2 rounded to the width, and the log, without its
// domain mask.
type oneLogWidth struct {
	sign                 uint64
	max, huge, tiny, ln2 float64
	log                  func(k lang, x Op) Op
}

// ln2f32 is ln 2 rounded to float32.
const ln2f32 = float64(float32(asinhLn2))

// oneLog32 is float32's oneLogWidth. (The AVX-512 level's float64 asinh
// and acosh are fast512.go's, over log1p.)
var oneLog32 = oneLogWidth{1 << 31, math.MaxFloat32, 1 << 12, 1.0 / (1 << 12), ln2f32, logf}

// acosh64 is math.Acosh on amd64, over log64 and log1p64; see acoshWith.
func acosh64(k lang, x Op) (r, ok Op) { return acoshWith(k, x, log64, log1p64, false) }

// acoshArm64 is math.Acosh on arm64, over logArm64 and log1pArm64.
func acoshArm64(k lang, x Op) (r, ok Op) { return acoshWith(k, x, logArm64, log1pArm64, true) }

// acoshWith is math.Acosh, its three branches computed where some lane
// needs them (ifAny: on inputs from 1 to 10, two vectors in three skip
// log1p's) and blended: log(x) + ln2 from 2^28, log(2x - 1/(x + √(x²-1)))
// above 2 and log1p(t + √(2t + t²)) with t = x-1 up to 2 (0 at 1 follows). 2·x and 2·t are x+x
// and t+t (the compiler's rewrite); t² + 2t is one FMA at GOAMD64=v3 and
// on arm64, x² - 1 one (FNMSUB) on arm64 only (arm; go tool objdump).
// Lanes below 1, +Inf and NaN are out.
func acoshWith(k lang, x Op, log, log1p core, arm bool) (r, ok Op) {
	one := k.f(1)
	ok = k.mAnd(k.cmp(ge, x, one), k.cmp(le, x, k.f(maxFloat)))
	r = x // every lane ≥ 1 takes one of the branches below
	ifAny(k, k.cmp(le, x, k.f(2)), []*Op{&r}, func() {
		t := k.sub(x, one)
		r, _ = log1p(k, k.add(t, k.sqrt(k.goMulAdd(t, t, k.add(t, t), true))))
	})
	above := k.cmp(gt, x, k.f(2))
	ifAny(k, above, []*Op{&r}, func() {
		var xx1 Op
		if arm {
			xx1 = k.fma(x, x, k.f(-1))
		} else {
			xx1 = k.sub(k.mul(x, x), one)
		}
		lb, _ := log(k, k.sub(k.add(x, x), k.div(one, k.add(x, k.sqrt(xx1)))))
		r = k.sel(above, lb, r)
	})
	huge := k.cmp(ge, x, k.f(asinhLarge))
	ifAny(k, huge, []*Op{&r}, func() {
		ll, _ := log(k, x)
		r = k.sel(huge, k.add(ll, k.f(asinhLn2)), r)
	})
	return r, ok
}

// ifAny runs body, which may assign the variables vars point to, where
// some lane of the mask m is set, and skips it otherwise: one branch for
// the whole vector (a whileNonzero that runs at most once), for a blend
// of costly branches that a vector seldom needs all of. What body sets
// in the lanes outside m must not matter: body blends by m, or (acosh's
// first branch) a later branch sets those lanes again.
func ifAny(k lang, m Op, vars []*Op, body func()) {
	if a, ok := avxOf(k); ok && a.kMasks() {
		a.ifMask(m, vars, body)
		return
	}
	i := k.sel(m, k.u(^uint64(0)), k.u(0))
	k.whileNonzero(&i, vars, func() {
		body()
		i = k.u(0)
	})
}

// acosh32 is acoshOneLog in float32 (over logf, from 2^12).
func acosh32(k lang, x Op) (r, ok Op) { return acoshOneLog(k, x, oneLog32) }

// acoshOneLog is acosh over one log: log(w) + a with w = x and a = ln2
// from w.huge, w = x + √(x²-1) above 2 and, up to 2, w = 1 + v and a the
// correction log1p needs (log1pArg) for v = t + √(t² + 2t), t = x-1
// exact; x²-1 and t²+2t by FMAs, one square root of the branch's. Lanes
// below 1, +Inf and NaN are out.
func acoshOneLog(k lang, x Op, w oneLogWidth) (r, ok Op) {
	one := k.f(1)
	ok = k.mAnd(k.cmp(ge, x, one), k.cmp(le, x, k.f(w.max)))
	t := k.sub(x, one)
	small, huge := k.cmp(le, x, k.f(2)), k.cmp(ge, x, k.f(w.huge))
	s := k.sqrt(k.sel(small, k.fma(t, t, k.add(t, t)), k.fma(x, x, k.f(-1))))
	u, corr := log1pArg(k, k.add(t, s))
	l := w.log(k, k.sel(small, u, k.sel(huge, x, k.add(x, s))))
	return k.add(l, k.sel(small, corr, k.and(huge, k.f(w.ln2)))), ok
}

// atanh64 is math.Atanh on amd64, over log1p64; see atanhWith.
func atanh64(k lang, x Op) (r, ok Op) { return atanhWith(k, x, log1p64) }

// atanhArm64 is math.Atanh on arm64, over log1pArm64.
func atanhArm64(k lang, x Op) (r, ok Op) { return atanhWith(k, x, log1pArm64) }

// atanhWith is math.Atanh on |x| with x's sign put back, its three branches
// computed and blended: |x| below 2^-28, 0.5·log1p(t + t·|x|/(1-|x|)) with
// t = |x|+|x| below 1/2 and 0.5·log1p(t/(1-|x|)) from there, over one
// division. No multiply-add is fused, on amd64 or arm64 (go tool objdump).
// Lanes with |x| ≥ 1 and NaN are out.
func atanhWith(k lang, x Op, log1p core) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.cmp(lt, ax, k.f(1))
	t := k.add(ax, ax)
	lo := k.cmp(lt, ax, k.f(0.5))
	q := k.div(k.sel(lo, k.mul(t, ax), t), k.sub(k.f(1), ax))
	l, _ := log1p(k, k.sel(lo, k.add(t, q), q))
	r = k.sel(k.cmp(lt, ax, k.f(asinhNearZero)), ax, k.mul(k.f(0.5), l))
	return k.xor(r, k.and(x, k.u(signBit))), ok
}

// atanh32 is atanhWith in float32 over log1p32, with |x| itself below
// 2^-12 (where x³/3 is below half an ulp). Lanes with |x| ≥ 1 and NaN are
// out.
func atanh32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	ok = k.cmp(lt, ax, k.f(1))
	t := k.add(ax, ax)
	lo := k.cmp(lt, ax, k.f(0.5))
	q := k.div(k.sel(lo, k.mul(t, ax), t), k.sub(k.f(1), ax))
	l := log1pf(k, k.sel(lo, k.add(t, q), q))
	r = k.sel(k.cmp(lt, ax, k.f(1.0/(1<<12))), ax, k.mul(k.f(0.5), l))
	return k.xor(r, k.and(x, k.u(1<<31))), ok
}

// Constants of math.Cbrt (cbrt.go).
const (
	cbrtB1   = 715094163 // (682-0.03306235651)·2^20
	cbrtC    = 5.42857142857142815906e-01
	cbrtD    = -7.05306122448979611050e-01
	cbrtE    = 1.41428571428571436819e+00
	cbrtF    = 1.60714285714285720630e+00
	cbrtG    = 3.57142857142857150787e-01
	cbrtChop = 0xFFFFFFFFC << 28
)

// cbrt64 is math.Cbrt (cbrt.go, the same Go code on amd64 and arm64) on
// |x| with x's sign put back: the rough root from the bits divided by 3
// (divBy3) plus B1·2^32, the rational step to 23 bits, the chop to 22 bits
// plus 2^30 ulp, and one Newton step; C + r·t and t + t·r are
// multiply-adds the compiler fuses at GOAMD64=v3 and on arm64 (a named
// constant and a computed addend). Zero, subnormal, infinite and NaN lanes
// are out.
func cbrt64(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	ok = k.mAnd(k.cmp(ge, ax, k.f(minNormal)), k.cmp(lt, ax, k.f(math.Inf(1))))
	t := k.addI(divBy3(k, ax), k.u(cbrtB1<<32))
	q := k.div(k.mul(t, t), ax)
	s := k.goMulAdd(q, t, k.f(cbrtC), true)
	t = k.mul(t, k.add(k.f(cbrtG), k.div(k.f(cbrtF), k.add(k.add(s, k.f(cbrtE)), k.div(k.f(cbrtD), s)))))
	t = k.addI(k.and(t, k.u(cbrtChop)), k.u(1<<30))
	s = k.mul(t, t)
	q = k.div(ax, s)
	w := k.add(t, t)
	q = k.div(k.sub(q, t), k.add(w, q))
	t = k.goMulAdd(t, q, t, false)
	return k.or(t, k.and(x, k.u(signBit))), ok
}

// divBy3 is n/3 rounded down for integer lanes n below 2^63, exactly, in
// float64 arithmetic (neither target divides integers): n = hi·2^32 + lo
// with both halves converted exactly (OR-ing them into 2^52's mantissa),
// hi/3 as trunc(hi·(1/3) + 1/6) with one rounding (the true quotient's
// fraction, 0, 1/3 or 2/3, plus 1/6 stays 1/6 from an integer, far beyond
// the product's rounding error below 2^34), the remainder's 2^32·rem + lo
// (exact, below 3·2^32) divided the same way, and both quotients back to
// integer lanes through 2^52's mantissa.
func divBy3(k lang, n Op) Op {
	toFloat := func(u Op) Op { return k.sub(k.or(u, k.u(magic52Bits)), k.f(magic52)) }
	toInt := func(f Op) Op { return k.xor(k.add(f, k.f(magic52)), k.u(magic52Bits)) }
	third := func(f Op) Op { return k.round(k.fma(f, k.f(1.0/3), k.f(1.0/6)), 3) }
	hi := toFloat(k.shr(n, 32))
	lo := toFloat(k.and(n, k.u(1<<32-1)))
	qHi := third(hi)
	rem := k.fnma(qHi, k.f(3), hi)
	qLo := third(k.fma(rem, k.f(1<<32), lo))
	return k.or(k.shl(toInt(qHi), 32), toInt(qLo))
}

// cbrt32Magic is the integer whose bits, less a third of a positive
// float32's bits, are that float's inverse cube root to within 3.5% over
// every binade (chosen by a search for the smallest worst error).
const cbrt32Magic = 0x54a232b3

// cbrt32 is float32 cbrt in float32 lanes, a method of its own (within an
// ulp of float32(math.Cbrt(float64(x))) over all 2^32 inputs, exact at
// exact cubes): on |x| (subnormal lanes scaled by 2^24, their result by
// 2^-8), y ≈ |x|^(-1/3) from the bits (cbrt32Magic less a third of them,
// in float arithmetic: its roundings move the guess by a few units only),
// one step of y·(1 + e/3 + 2e²/9 + 14e³/81) with e = 1 - |x|·y³ (the
// series of (1-e)^(-1/3): 3.5% → 2^-16), c = |x|·y² and one Newton step
// on c with the residual |x| - c³ by an FMA (2^-30, then the rounding);
// x's sign put back. Zero lanes come out as zeros (y stays finite);
// infinite and NaN lanes are out.
func cbrt32(k lang, x Op) (r, ok Op) {
	ax := k.and(x, k.u(1<<31-1))
	ok = k.cmp(lt, ax, k.f(math.Inf(1)))
	sub := k.cmp(lt, ax, k.f(0x1p-126))
	a := k.sel(sub, k.mul(ax, k.f(0x1p24)), ax)
	y := k.toInt(k.fnma(k.toFloat(a), k.f(1.0/3), k.f(cbrt32Magic)))
	e := k.fnma(k.mul(k.mul(a, y), y), y, k.f(1))
	y = k.fma(k.mul(y, e), k.horner(e, 14.0/81, 2.0/9, 1.0/3), y)
	y2 := k.mul(y, y)
	c := k.mul(a, y2)
	res := k.fnma(k.mul(c, c), c, a)
	c = k.fma(res, k.mul(y2, k.f(1.0/3)), c)
	c = k.sel(sub, k.mul(c, k.f(0x1p-8)), c)
	return k.or(c, k.and(x, k.u(1<<31))), ok
}

// Constants of math.Erf and math.Erfc (erf.go): erx and the coefficients of
// each interval's rational function, lowest degree first.
const (
	erfErx      = 8.45062911510467529297e-01
	erfEfx      = 1.28379167095512586316e-01
	erfVeryTiny = 2.848094538889218e-306 // 0x0080000000000000
	erfSmall    = 1.0 / (1 << 28)
)

var (
	erfPP = []float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQQ = []float64{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfPA = []float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = []float64{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfRA = []float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = []float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfRB = []float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02}
	erfSB = []float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}
)

// goNested is c[0] + x·(c[1] + x·(… + x·c[n-1])) as Go compiles it: each
// step a multiply-add with a named constant, fused at GOAMD64=v3 and on
// arm64 (goMulAdd with shared).
func goNested(k lang, x Op, c []float64) Op {
	p := k.goMulAdd(x, k.f(c[len(c)-1]), k.f(c[len(c)-2]), true)
	for i := len(c) - 3; i >= 0; i-- {
		p = k.goMulAdd(x, p, k.f(c[i]), true)
	}
	return p
}

// erfTail is erf.go's r/x for 1.25 ≤ ax < 28 (erfc(ax) there; erf is 1 -
// it): s = 1/ax², R/S over [1.25, 1/0.35) or beyond, z = ax with the low
// 32 bits cleared, exp(-z·z - 0.5625)·exp((z-ax)(z+ax) + R/S) with the exp
// kernel (expOK: the lanes both exps computed).
func erfTail(k lang, ax Op, exp core) (r, expOK Op) {
	s := k.div(k.f(1), k.mul(ax, ax))
	near := k.cmp(lt, ax, k.f(1/0.35))
	rr := k.sel(near, goNested(k, s, erfRA), goNested(k, s, erfRB))
	ss := k.sel(near, goNested(k, s, erfSA), goNested(k, s, erfSB))
	z := k.and(ax, k.u(0xffffffff00000000))
	e1, ok1 := exp(k, k.goMulSub(z, z, k.f(-0.5625)))
	e2, ok2 := exp(k, k.goMulAdd(k.sub(z, ax), k.add(z, ax), k.div(rr, ss), false))
	return k.div(k.mul(e1, e2), ax), k.mAnd(ok1, ok2)
}

// erfSmallY is erf.go's y = P(z)/Q(z), z = ax², of |x| < 0.84375.
func erfSmallY(k lang, ax Op) Op {
	z := k.mul(ax, ax)
	return k.div(goNested(k, z, erfPP), goNested(k, z, erfQQ))
}

// erfMidPQ is erf.go's P/Q over s = ax - 1, of 0.84375 ≤ |x| < 1.25.
func erfMidPQ(k lang, ax Op) Op {
	s := k.sub(ax, k.f(1))
	return k.div(goNested(k, s, erfPA), goNested(k, s, erfQA))
}

func erf64(k lang, x Op) (r, ok Op) { return erfWith(k, x, exp64) }

// erfArm64 is math.Erf on arm64, over expArm64.
func erfArm64(k lang, x Op) (r, ok Op) { return erfWith(k, x, expArm64) }

// erfWith is math.Erf (erf.go) on |x| with x's sign put back (every branch
// is odd exactly: -erx - P/Q and r/x - 1 are the negations of erx + P/Q and
// 1 - r/x), its branches computed and blended: x + efx·x below 2^-28, x +
// x·y below 0.84375, erx + P/Q below 1.25, 1 - r/x below 6 (erfTail), 1
// from there. Lanes below 2^-1016 in magnitude but zero (0.125·(8x +
// efx8·x) there), infinite and NaN lanes are out, and lanes whose exps
// left their domain.
func erfWith(k lang, x Op, exp core) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	tail, expOK := erfTail(k, ax, exp)
	small := k.cmp(lt, ax, k.f(0.84375))
	ok = k.mAnd(k.mAnd(k.cmp(lt, ax, k.f(math.Inf(1))),
		k.mOr(k.cmp(eq, ax, k.f(0)), k.cmp(ge, ax, k.f(erfVeryTiny)))),
		k.mOr(k.cmp(lt, ax, k.f(1.25)), k.mOr(k.cmp(ge, ax, k.f(6)), expOK)))
	lo := k.sel(k.cmp(lt, ax, k.f(erfSmall)), k.goMulAdd(k.f(erfEfx), ax, ax, false), k.goMulAdd(ax, erfSmallY(k, ax), ax, false))
	mid := k.add(k.f(erfErx), erfMidPQ(k, ax))
	hi := k.sel(k.cmp(lt, ax, k.f(6)), k.sub(k.f(1), tail), k.f(1))
	r = k.sel(small, lo, k.sel(k.cmp(lt, ax, k.f(1.25)), mid, hi))
	return k.xor(r, k.and(x, k.u(signBit))), ok
}

// via64 is a float32 core computing core64 on each half widened to
// float64 and rounding the results back: the reference's bits, where the
// reference is float32(f(float64(x))). ok32 gives the lanes computed, in
// float32 terms.
func via64(core64 core, ok32 func(k lang, x Op) Op) core {
	return func(k lang, x Op) (r, ok Op) {
		k64 := k.as(64)
		lo, _ := core64(k64, k.widen(x, false))
		hi, _ := core64(k64, k.widen(x, true))
		return k.narrow(lo, hi), ok32(k, x)
	}
}

// finite32 is the lanes of float32 x that are neither infinite nor NaN.
func finite32(k lang, x Op) Op {
	return k.cmp(lt, k.and(x, k.u(1<<31-1)), k.f(math.Inf(1)))
}

func erfc64(k lang, x Op) (r, ok Op) { return erfcWith(k, x, exp64) }

// erfcArm64 is math.Erfc on arm64, over expArm64.
func erfcArm64(k lang, x Op) (r, ok Op) { return erfcWith(k, x, expArm64) }

// erfcWith is math.Erfc (erf.go), its branches computed and blended, by
// ax = |x| and x's sign: 1 ∓ ax below 2^-56, 1 ∓ (ax + ax·y) below 1/4,
// 1 ∓ (0.5 + (ax·y + (ax - 0.5))) below 0.84375, (1 ± erx) ± P/Q below 1.25
// (1 + erx and 1 - erx are constants the compiler folds, as Go does), r/x
// or 2 - r/x below 28 (erfTail; 2 for x below -6), 0 or 2 from there.
// Infinite and NaN lanes are out, and lanes whose exps left their domain
// (x above about 26.6, where erfc underflows).
func erfcWith(k lang, x Op, exp core) (r, ok Op) {
	ax := k.and(x, k.u(absMask))
	neg := k.cmp(lt, x, k.f(0))
	tail, expOK := erfTail(k, ax, exp)
	ok = k.mAnd(k.cmp(lt, ax, k.f(math.Inf(1))),
		k.mOr(k.mOr(k.cmp(lt, ax, k.f(1.25)), k.cmp(ge, ax, k.f(28))),
			k.mOr(k.mAnd(neg, k.cmp(gt, ax, k.f(6))), expOK)))
	y := erfSmallY(k, ax)
	temp := k.sel(k.cmp(lt, ax, k.f(0.25)), k.goMulAdd(ax, y, ax, false),
		k.add(k.f(0.5), k.goMulAdd(ax, y, k.sub(ax, k.f(0.5)), false)))
	temp = k.sel(k.cmp(lt, ax, k.f(1.0/(1<<56))), ax, temp)
	lo := k.sel(neg, k.add(k.f(1), temp), k.sub(k.f(1), temp))
	pq := erfMidPQ(k, ax)
	mid := k.sel(neg, k.add(k.f(1+erfErx), pq), k.sub(k.f(1-erfErx), pq))
	hi := k.sel(neg, k.sub(k.f(2), tail), tail)
	hi = k.sel(k.mAnd(neg, k.cmp(gt, ax, k.f(6))), k.f(2), hi)
	hi = k.sel(k.cmp(ge, ax, k.f(28)), k.sel(neg, k.f(2), k.f(0)), hi)
	r = k.sel(k.cmp(lt, ax, k.f(0.84375)), lo, k.sel(k.cmp(lt, ax, k.f(1.25)), mid, hi))
	return r, ok
}

// below26_32 is the lanes of float32 x neither NaN nor 26 or more (erfc's
// float32 domain: erfc(x) is 0 in float32 from about 10.05 on, and the
// float64 kernel's exps stay in their domain below 26).
func below26_32(k lang, x Op) Op { return k.cmp(lt, x, k.f(26)) }

// hypot64 is math.Hypot on amd64, its assembly (hypot_amd64.s): p =
// max(|x|, |y|), q = min, p·√(1 + (q/p)²) with no multiply-add, 0 where p
// is 0. Lanes with an infinite or NaN operand are out.
func hypot64(k lang, x, y Op) (r, ok Op) { return hypotWith(k, x, y, false) }

// hypotArm64 is math.Hypot on arm64, its Go code (hypot.go), compiled with
// 1 + q·q fused.
func hypotArm64(k lang, x, y Op) (r, ok Op) { return hypotWith(k, x, y, true) }

func hypotWith(k lang, x, y Op, arm bool) (r, ok Op) {
	ax, ay := k.and(x, k.u(absMask)), k.and(y, k.u(absMask))
	inf := k.f(math.Inf(1))
	ok = k.mAnd(k.cmp(lt, ax, inf), k.cmp(lt, ay, inf))
	p, q := k.max(ax, ay), k.min(ax, ay)
	q = k.div(q, p)
	var s Op
	if arm {
		s = k.fma(q, q, k.f(1))
	} else {
		s = k.add(k.mul(q, q), k.f(1))
	}
	r = k.mul(p, k.sqrt(s))
	return k.sel(k.cmp(eq, p, k.f(0)), k.f(0), r), ok
}

// atan2_64 is scalar.Atan2, math.Atan2 (atan2.go) with y's sign put on the
// result: atan(y/x) with the atan kernel, plus π where x < 0 and the
// quotient's arctangent is at most 0, minus π where it is above. Lanes with
// a zero, infinite or NaN operand (math.Atan2's special cases) are out.
func atan2_64(k lang, y, x Op) (r, ok Op) { return atan2With(k, y, x, atan64) }

// atan2Arm64 is scalar.Atan2 on arm64 (the same Go code, fused as atan64
// says there).
func atan2Arm64(k lang, y, x Op) (r, ok Op) { return atan2With(k, y, x, atan64) }

func atan2With(k lang, y, x Op, atan core) (r, ok Op) {
	inf, zero := k.f(math.Inf(1)), k.f(0)
	ax, ay := k.and(x, k.u(absMask)), k.and(y, k.u(absMask))
	ok = k.mAnd(k.mAnd(k.cmp(lt, ax, inf), k.cmp(lt, ay, inf)),
		k.mAnd(k.cmp(neq, ax, zero), k.cmp(neq, ay, zero)))
	q, _ := atan(k, k.div(y, x))
	turn := k.sel(k.cmp(le, q, zero), k.add(q, k.f(math.Pi)), k.sub(q, k.f(math.Pi)))
	r = k.sel(k.cmp(lt, x, zero), turn, q)
	return k.or(k.and(r, k.u(absMask)), k.and(y, k.u(signBit))), ok
}

// atan2_32 is float32 atan2 in float32 lanes, a method of its own (within
// a few ulp of float32(math.Atan2(float64(y), float64(x))); the tests
// measure it): with mx = max(|x|, |y|) and mn = min(|x|, |y|), the ratio
// a = mn/mx, or (mn - mx)/(mn + mx) where mn > tan(π/8)·mx (one division
// either way, a within ±tan(π/8)), atan(a) by atan32's polynomial; then the
// angle is n·π/4 ± atan(a) with n from the octant (mn/mx's reduction, |y| >
// |x| and x < 0) and the sign from the reflections, summed as n·(π/4 in
// two float32 parts) by two FMAs; y's sign put on. Lanes with a NaN
// operand, with mx below 2^-100 (where tan(π/8)·mx could round and pick
// the wrong reduction; both zero among them) or above 2^126 (where mn + mx
// could overflow; infinities among them) are out.
func atan2_32(k lang, y, x Op) (r, ok Op) {
	signF := k.u(1 << 31)
	ax, ay := k.and(x, k.u(1<<31-1)), k.and(y, k.u(1<<31-1))
	mx, mn := k.max(ax, ay), k.min(ax, ay)
	ok = k.mAndNot(k.mAnd(k.cmp(ge, mx, k.f(0x1p-100)), k.cmp(le, mx, k.f(0x1p126))), k.cmp(unord, x, y))
	mid := k.cmp(gt, mn, k.mul(mx, k.f(0.4142135623730950)))
	a := k.div(k.sel(mid, k.sub(mn, mx), mn), k.sel(mid, k.add(mn, mx), mx))
	z := k.mul(a, a)
	t := k.fma(k.mul(k.horner(z, atanfP...), z), a, a)
	swap := k.cmp(gt, ay, ax)
	negx := k.cmp(lt, x, k.f(0))
	// the reflections: atan(a) subtracted where exactly one of swap and
	// negx holds
	flip := k.xor(k.and(negx, signF), k.and(swap, signF))
	n := k.add(k.sel(swap, k.f(2), k.and(negx, k.f(4))), k.xor(k.and(mid, k.f(1)), flip))
	r = k.fma(n, k.f(pio4fHi), k.fma(n, k.f(pio4fLo), k.xor(t, flip)))
	return k.or(r, k.and(y, signF)), ok
}

// logaddexp64 is scalar.LogAddExp: x + ln 2 where x == y, else max(x, y) +
// log1p(exp(-|x - y|)) with the exp and log1p kernels (the reference's
// two branches, x + log1p(exp(-d)) for d = x - y > 0 and y +
// log1p(exp(d)) for d ≤ 0, are that). Lanes with an infinite or NaN
// operand are out, and lanes where exp leaves its domain.
func logaddexp64(k lang, x, y Op) (r, ok Op) { return logaddexpWith(k, x, y, exp64, log1p64, false) }

// logaddexpArm64 is scalar.LogAddExp on arm64, over expArm64 and
// log1pArm64.
func logaddexpArm64(k lang, x, y Op) (r, ok Op) {
	return logaddexpWith(k, x, y, expArm64, log1pArm64, false)
}

// logaddexp2_64 is scalar.LogAddExp2: x + 1 where x == y, else max(x, y) +
// log1p(exp2(-|x - y|))/ln 2 with the exp2 and log1p kernels.
func logaddexp2_64(k lang, x, y Op) (r, ok Op) { return logaddexpWith(k, x, y, exp2_64, log1p64, true) }

// logaddexp2Arm64 is scalar.LogAddExp2 on arm64.
func logaddexp2Arm64(k lang, x, y Op) (r, ok Op) {
	return logaddexpWith(k, x, y, exp2_64, log1pArm64, true)
}

func logaddexpWith(k lang, x, y Op, exp, log1p core, base2 bool) (r, ok Op) {
	inf := k.f(math.Inf(1))
	d := k.sub(x, y)
	e, expOK := exp(k, k.or(d, k.u(signBit))) // -|d|
	ok = k.mAnd(k.mAnd(k.cmp(lt, k.and(x, k.u(absMask)), inf), k.cmp(lt, k.and(y, k.u(absMask)), inf)), expOK)
	l, _ := log1p(k, e)
	same := k.f(math.Ln2)
	if base2 {
		l = k.div(l, k.f(math.Ln2))
		same = k.f(1)
	}
	r = k.add(k.sel(k.cmp(gt, d, k.f(0)), x, y), l)
	return k.sel(k.cmp(eq, x, y), k.add(x, same), r), ok
}
