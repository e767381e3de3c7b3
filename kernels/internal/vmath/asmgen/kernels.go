package main

import "math"

// The kernels: each core takes one vector of lanes and returns the results
// and the mask of the lanes it computed (a false lane is out of the kernel's
// domain; the Go wrapper recomputes it with the scalar reference).
//
// The float64 cores reproduce their references (kernels/internal/vmath's ref.go)
// operation for operation, as ../doc.go explains; the float32 cores (exp,
// log, tanh, sigmoid) are polynomials of their own in float32 arithmetic.

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

	powMaxY = 1 << 31
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
	f1 := k.or(k.and(x, k.u(fracMask)), k.u(halfBits))
	kk = k.sub(k.or(k.shr(x, 52), k.u(magic52Bits)), k.f(magic52+1022))
	small := k.cmp(pred, f1, k.f(logHSqrt2))
	kk = k.sel(small, k.sub(kk, k.f(1)), kk)
	f1 = k.sel(small, k.add(f1, f1), f1)
	return ok, kk, k.sub(f1, k.f(1))
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
func sigmoid64(k lang, x Op) (r, ok Op) {
	e, ok := exp64(k, k.xor(x, k.u(signBit)))
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

// pow64 is math.Pow (as scalar.Pow calls it) for finite normal x and finite
// |y| < 2^31: Modf(|y|), the fractional part as exp(yf·log x) with the two
// cores above, the integer part by the same successive squarings of
// Frexp(x) (a loop that runs while some lane has bits left), the reciprocal
// for y < 0 and Ldexp as an exponent addition. The special cases y = 0,
// x = 1, y = 1, y = ±1/2 and x < 0 with a non-integer y are blended in;
// other special operands and results outside the normal range are out.
func pow64(k lang, x, y Op) (r, ok Op) { return powWith(k, x, y, exp64, log64) }

// powArm64 is math.Pow on arm64: pow64 over arm64's exp and log.
func powArm64(k lang, x, y Op) (r, ok Op) { return powWith(k, x, y, expArm64, logArm64) }

// powWith is pow64 with the exp and log of the platform's math.
func powWith(k lang, x, y Op, exp, log core) (r, ok Op) {
	one := k.f(1)
	zero := k.f(0)
	ax := k.and(x, k.u(absMask))
	ay := k.and(y, k.u(absMask)) // recomputed after the loop, to keep registers free
	yi := k.round(k.min(ay, k.f(powMaxY)), 3)
	yf := k.sub(ay, yi)
	up := k.cmp(gt, yf, k.f(0.5))
	yf = k.sel(up, k.sub(yf, one), yf)
	yi = k.sel(up, k.add(yi, one), yi)
	lg, _ := log(k, x)
	okIn := k.mAnd(k.mAnd(k.cmp(ge, ax, k.f(minNormal)), k.cmp(le, ax, k.f(maxFloat))), k.cmp(lt, ay, k.f(powMaxY)))
	useExp := k.mAnd(k.mAnd(k.cmp(neq, yf, zero), k.cmp(gt, x, zero)), okIn)
	a1, _ := exp(k, k.and(useExp, k.mul(yf, lg)))
	x1 := k.or(k.and(x, k.u(signBit|fracMask)), k.u(halfBits))
	xe := k.sub(k.or(k.and(k.shr(x, 52), k.u(0x7ff)), k.u(magic52Bits)), k.f(magic52+1022))
	i := k.and(k.add(yi, k.f(magic52)), k.u(fracMask))
	ae, bad := zero, zero
	k.whileNonzero(&i, []*Op{&a1, &ae, &x1, &xe, &bad}, func() {
		// a lane with bits left whose exponent ran out of range is out
		oob := k.mOr(k.cmp(lt, xe, k.f(-4096)), k.cmp(gt, xe, k.f(4096)))
		bad = k.mOr(k.mAndNot(oob, k.eqI(i, k.u(0))), bad)
		odd := k.eqI(k.and(i, k.u(1)), k.u(1))
		a1 = k.sel(odd, k.mul(a1, x1), a1)
		ae = k.sel(odd, k.add(ae, xe), ae)
		x1 = k.mul(x1, x1)
		xe = k.add(xe, xe)
		lt5 := k.cmp(lt, x1, k.f(0.5))
		x1 = k.sel(lt5, k.add(x1, x1), x1)
		xe = k.sel(lt5, k.sub(xe, one), xe)
		i = k.shr(i, 1)
	})
	neg := k.cmp(lt, y, zero)
	a1 = k.sel(neg, k.div(one, a1), a1)
	ae = k.sel(neg, k.sub(zero, ae), ae)
	ea := k.sub(k.or(k.and(k.shr(a1, 52), k.u(0x7ff)), k.u(magic52Bits)), k.f(magic52))
	fe := k.add(ea, ae)
	okOut := k.mAnd(k.cmp(ge, fe, one), k.cmp(le, fe, k.f(2046)))
	aeb := k.shl(k.subI(k.add(ae, k.f(magic52x15)), k.u(magic52x15Bits)), 52)
	r = k.addI(a1, aeb)
	// special cases, lowest priority first
	ay = k.and(y, k.u(absMask))
	ax = k.and(x, k.u(absMask))
	fracNeg := k.mAnd(k.cmp(neq, k.round(ay, 3), ay), k.cmp(lt, x, zero))
	r = k.sel(fracNeg, k.u(nanBits), r)
	sq := k.sqrt(x)
	r = k.sel(k.cmp(eq, y, k.f(0.5)), sq, r)
	r = k.sel(k.cmp(eq, y, k.f(-0.5)), k.div(one, sq), r)
	// ok: in the domain, and a normal result or one of the cases above
	good := k.mOr(k.mAndNot(okOut, bad), k.mOr(fracNeg, k.cmp(eq, ay, k.f(0.5))))
	good = k.mAnd(good, k.mAnd(k.mAnd(k.cmp(ge, ax, k.f(minNormal)), k.cmp(le, ax, k.f(maxFloat))), k.cmp(lt, ay, k.f(powMaxY))))
	yOne := k.cmp(eq, y, one)
	r = k.sel(yOne, x, r)
	isOne := k.mOr(k.cmp(eq, y, zero), k.cmp(eq, x, one))
	r = k.sel(isOne, one, r)
	return r, k.mOr(good, k.mOr(yOne, isOne))
}

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
	tanhf1  = 0.625
	tanhfHi = 10.0 // tanh(x) rounds to 1 in float32 from 9.1
)

// Cephes logf: log(1+f) = f - f²/2 + f³·P(f) for 1+f in [√2/2, √2).
var logfP = []float64{7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
	-1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1}

// Cephes tanhf: tanh(x) = x + x³·P(x²) for |x| < 0.625.
var tanhfP = []float64{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}

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
	scale := k.shl(k.addI(k.toInt(n), k.u(127)), 23)
	return k.mul(y, scale)
}

// log32 splits x = 2^e·m with m in [√2/2, √2), f = m - 1 (exact), and
// computes log(1+f) by Cephes's polynomial and e·ln2 in two parts. Lanes
// that are not positive normal numbers (zero, subnormal, negative, Inf,
// NaN) are out.
func log32(k lang, x Op) (r, ok Op) {
	ok = k.mAnd(k.cmp(ge, x, k.f(0x1p-126)), k.cmp(le, x, k.f(math.MaxFloat32)))
	e := k.sub(k.toFloat(k.shr(x, 23)), k.f(127))
	m := k.or(k.and(x, k.u(1<<23-1)), k.u(0x3f800000))
	big := k.cmp(gt, m, k.f(sqrt2f))
	m = k.sel(big, k.mul(m, k.f(0.5)), m)
	e = k.add(e, k.and(big, k.f(1)))
	f := k.sub(m, k.f(1))
	z := k.mul(f, f)
	y := k.mul(k.mul(k.horner(f, logfP...), f), z)
	y = k.fma(e, k.f(ln2fLo), y)
	y = k.fnma(z, k.f(0.5), y)
	r = k.add(f, y)
	r = k.fma(e, k.f(ln2fHi), r)
	return r, ok
}

// tanh32 is x + x³·P(x²) below |x| = 0.625 and 1 - 2/(e^{2|x|}+1) above it,
// with |x| clamped at 10 where tanh rounds to ±1; both are computed and
// blended. Only NaN lanes are out.
func tanh32(k lang, x Op) (r, ok Op) {
	z := k.and(x, k.u(1<<31-1))
	sg := k.and(x, k.u(1<<31))
	zc := k.min(z, k.f(tanhfHi))
	s := expf(k, k.add(zc, zc))
	big := k.xor(k.sub(k.f(1), k.div(k.f(2), k.add(s, k.f(1)))), sg)
	x2 := k.mul(x, x)
	sm := k.fma(k.mul(k.horner(x2, tanhfP...), x2), x, x)
	sm = k.sel(k.cmp(eq, x, k.f(0)), x, sm)
	r = k.sel(k.cmp(ge, z, k.f(tanhf1)), big, sm)
	return r, k.cmp(eq, x, x)
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
	trigfMax  = 0x1p26 // above it the lanes go to the reference
	twoOverPi = 2 / math.Pi
	pio2Hi    = math.Pi / 2
)

// pio2Lo is π/2 - pio2Hi (π/2 to about 2^-107 in two float64s).
var pio2Lo = 6.123233995736766e-17

// trig32 is sin (cos false) or cos (cos true) of float32 lanes: each half is
// widened to float64 for the reduction r = x - j·π/2, j = rint(x·2/π), with
// π/2 in two parts and two FMAs (float32 could not reduce accurately near
// the zeros), then r, narrowed to float32, goes through Cephes's float32
// polynomials, a whole vector at a time, chosen and signed by the quadrant j.
// Lanes at or above 2^26 in magnitude, Inf and NaN are out.
func trig32(k lang, x Op, cos bool) (r, ok Op) {
	k64 := k.as(64)
	ok = k.cmp(lt, k.and(x, k.u(1<<31-1)), k.f(trigfMax))
	half := func(hi bool) (rr, j Op) {
		xd := k.widen(x, hi)
		j = k64.round(k64.mul(xd, k64.f(twoOverPi)), 0)
		rr = k64.fnma(j, k64.f(pio2Hi), xd)
		rr = k64.fnma(j, k64.f(pio2Lo), rr)
		return rr, j
	}
	rlo, jlo := half(false)
	rhi, jhi := half(true)
	rv, q := k.narrow(rlo, rhi), k.narrowInt(jlo, jhi)
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
	s := k.div(f, k.add(f, k.f(2)))
	s2 := k.mul(s, s)
	s4 := k.mul(s2, s2)
	t1 := k.fma(s4, k.fma(s4, k.fma(s4, k.f(logL7), k.f(logL5)), k.f(logL3)), k.f(logL1))
	t2 := k.mul(s4, k.fma(s4, k.fma(s4, k.f(logL6), k.f(logL4)), k.f(logL2)))
	rr := k.fma(s2, t1, t2)
	h := k.mul(f, k.f(0.5))
	u := k.fma(s, k.fma(h, f, rr), k.mul(kk, k.f(logLn2Lo)))
	v := k.sub(k.fma(h, f, k.xor(u, k.u(signBit))), f)
	return k.fma(kk, k.f(logLn2Hi), k.xor(v, k.u(signBit))), ok
}
