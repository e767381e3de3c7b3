package vmath

import "math"

// Constants of the kernels. The polynomial coefficients are the ones the
// reference implementations use (see doc.go), so that the vector kernels
// reproduce them bit for bit.
const (
	signBit        = 1 << 63
	absMask        = 1<<63 - 1
	fracMask       = 1<<52 - 1
	halfBits       = 0x3FE0000000000000 // 0.5
	magic52        = 0x1p52             // x + 2^52 - 2^52 rounds 0 <= x < 2^52 to an integer
	magic52Bits    = 0x4330000000000000 // 2^52, whose low mantissa bits hold an integer added to it
	magic52x15     = 0x1.8p52           // 1.5·2^52 rounds |x| < 2^51 to an integer, two's complement in the low bits
	magic52x15Bits = 0x4338000000000000
	minNormal      = 0x1p-1022
	maxFloat       = math.MaxFloat64
	nanBits        = 0x7FF8000000000001 // math.NaN()

	// math.Exp, amd64 (exp_amd64.s): Cody–Waite split of ln 2, Taylor terms 1/k!.
	expLog2e = 1.4426950408889634073599246810018920
	expLn2U  = 0.69314718055966295651160180568695068359375
	expLn2L  = 0.28235290563031577122588448175013436025525412068e-12
	expC3    = 1.6666666666666666667e-1
	expC4    = 4.1666666666666666667e-2
	expC5    = 8.3333333333333333333e-3
	expC6    = 1.3888888888888888889e-3
	expC7    = 1.9841269841269841270e-4
	expC8    = 2.4801587301587301587e-5

	// math.Log, amd64 (log_amd64.s, fdlibm e_log.c): Lg1..Lg7 and the split of ln 2.
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

	// math.Tanh (Cephes tanh.c).
	tanhBig = 0.5 * 8.8029691931113054295988e+01 // 0.5·MAXLOG, log(2^127)/2
	tanhP0  = -9.64399179425052238628e-1
	tanhP1  = -9.92877231001918586564e1
	tanhP2  = -1.61468768441708447952e3
	tanhQ0  = 1.12811678491632931402e2
	tanhQ1  = 2.23548839060100448583e3
	tanhQ2  = 4.84406305325125486048e3

	// math.Sin and math.Cos (Cephes sin.c): π/4 in three parts and the
	// minimax polynomials of sin and cos on [-π/4, π/4].
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

	// math.Log10 and math.Log2 (log10.go): the factors 1/ln10 and 1/ln2.
	invLn10 = 1 / math.Ln10
	invLn2  = 1 / math.Ln2

	// math.Sinh (sinh.go): Hart & Cheney's rational function #2029.
	sinhP0 = -0.6307673640497716991184787251e+6
	sinhP1 = -0.8991272022039509355398013511e+5
	sinhP2 = -0.2894211355989563807284660366e+4
	sinhP3 = -0.2630563213397497062819489000e+2
	sinhQ0 = -0.6307673640497716991212077277e+6
	sinhQ1 = 0.1521517378790019070696485176e+5
	sinhQ2 = -0.173678953558233699533450911e+3

	// math.Exp2 (exp.go's exp2 and expmulti): the polynomial of
	// r·(e^r+1)/(e^r-1), as in fdlibm's e_exp.c.
	exp2P1 = 1.66666666666666657415e-01
	exp2P2 = -2.77777777770155933842e-03
	exp2P3 = 6.61375632143793436117e-05
	exp2P4 = -1.65339022054652515390e-06
	exp2P5 = 4.13813679705723846039e-08

	// math.Expm1 (expm1.go, fdlibm's s_expm1.c).
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

	// math.Log1p (log1p.go, fdlibm's s_log1p.c), with log's Lg1..Lg7 as
	// Lp1..Lp7 and its split of ln 2.
	log1pSqrt2M1     = 4.142135623730950488017e-01
	log1pSqrt2HalfM1 = -2.928932188134524755992e-01
	log1pSmall       = 0x1p-29
	log1pTiny        = 0x1p-54
	log1pTwo53       = 0x1p53
	log1pSqrt2Bits   = 0x3ff6a09e667f3bcd // √2: the mantissa bound of the reduction

	// math.Tan (Cephes tan.c): the rational function on [-π/4, π/4].
	tanP0    = -1.30936939181383777646e4
	tanP1    = 1.15351664838587416140e6
	tanP2    = -1.79565251976484877988e7
	tanQ1    = 1.36812963470692954678e4
	tanQ2    = -1.32089234440210967447e6
	tanQ3    = 2.50083801823357915839e7
	tanQ4    = -5.38695755929454629881e7
	tanSmall = 1e-14 // tan z is z where z² ≤ tanSmall

	// math.Atan, math.Asin, math.Acos (Cephes atan.c, asin.c): xatan's
	// rational function on [0, 0.66] and the low part of π/2.
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
	atanTan3pio8 = 2.41421356237309504880      // tan(3π/8)

	// math.Asinh: log(x) + ln2 above asinhLarge, x below asinhNearZero.
	asinhLarge    = 1 << 28
	asinhNearZero = 1.0 / (1 << 28)
	asinhLn2      = 6.93147180559945286227e-01

	// powMaxY bounds |y| on the vector path of pow (the squaring loop runs
	// once per bit of the integer part).
	powMaxY = 1 << 31
)
