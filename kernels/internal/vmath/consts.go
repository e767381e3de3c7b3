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

	// powMaxY bounds |y| on the vector path of pow (the squaring loop runs
	// once per bit of the integer part).
	powMaxY = 1 << 31
)
