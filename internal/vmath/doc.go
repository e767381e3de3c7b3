// Package vmath evaluates the transcendental elementwise ops (exp, log,
// tanh, sigmoid, sin, cos, pow) over float64 and float32 slices with the
// vector instructions of simd/archsimd, giving the same results as the
// scalar build of the library, which computes them from the op table in
// internal/ops with package math and internal/scalar.
//
// # Method: the references, lane by lane
//
// Each kernel reproduces, operation for operation, the algorithm of its
// scalar reference on the amd64 port, so that on this port the results are
// not merely close but bit-identical (the tests measure 0 ulp everywhere):
//
//   - exp is math.Exp's amd64 assembly (exp_amd64.s, FMA path): n =
//     rint(x·log2 e) by the 1.5·2^52 rounding trick, r = (x - n·ln2)/16 with
//     ln 2 split in two (Cody–Waite) and two FMAs, expm1(r) by the degree-8
//     Taylor polynomial (coefficients 1/k!), four doublings
//     expm1(2r) = expm1(r)·(expm1(r)+2) of which the last adds 1, and 2^n
//     built in the exponent field.
//   - log is math.Log's amd64 assembly, which is fdlibm's e_log.c: x =
//     2^k·f with f in [√2/2, √2), s = (f-1)/(f+1), log(1+s)/(1-s) with
//     fdlibm's degree-14 (seven even terms Lg1..Lg7) minimax polynomial in
//     s, and ln 2 split in two; no FMA, as the assembly has none.
//   - tanh is math.Tanh (Cephes tanh.c): the rational function
//     x + x³·P(x²)/Q(x²) below |x| = 0.625, 1 - 2/(exp(2|x|)+1) above, ±1
//     beyond log(2^127)/2; both branches are computed and blended, sharing
//     one division.
//   - sigmoid is 1/(1+exp(-x)) with the exp above.
//   - sin and cos are math.Sin and math.Cos (Cephes sin.c): the octant j =
//     trunc(|x|·4/π) rounded up to even, the three-part Cody–Waite reduction
//     z = ((|x| - j·PI4A) - j·PI4B) - j·PI4C, and Cephes's degree-13 sin and
//     degree-14 cos polynomials on [-π/4, π/4], blended per lane by octant.
//   - pow is math.Pow as scalar.Pow calls it: Modf(|y|), the fractional part
//     as exp(yf·log x) with the two kernels above, the integer part by the
//     same successive squarings of Frexp(x) (a loop that runs while any lane
//     has bits left), the reciprocal for y < 0 and Ldexp as an exponent
//     addition. y = 0, x = 1, y = 1, y = ±1/2 (Sqrt) and negative bases with
//     non-integer exponents (NaN) are blended in.
//
// The coefficients are therefore the published ones the references use:
// Cephes (Moshier) for sin, cos and tanh, fdlibm (Sun) for log, the Taylor
// terms for exp; they are listed in consts.go. The code is this package's
// own.
//
// Where the references are compiled without FMA (log, tanh, sin, cos), the
// kernels use separate multiplies and adds so the roundings match. A
// program built with GOAMD64=v3 lets the compiler fuse the pure-Go
// references (math.Tanh, Sin, Cos, Pow's Go parts); the kernels then differ
// from them by rounding only, well within the rule below.
//
// # Accuracy rule and the scalar fix-up
//
// The contract is at most 4 ulp from the reference over the whole range,
// with NaN, ±Inf and ±0 (and the sign of zero) exactly as the reference
// gives them. Every kernel has a fast domain: exp where 2^n is a normal
// number (n in [-1022, 1023]), log on positive normal numbers, sin and cos
// below 2^29 (above it math uses Payne–Hanek reduction), pow on finite
// normal bases with |y| < 2^31 and normal results, tanh everywhere but NaN.
// A kernel returns, with its vector of results, a bit set of the lanes
// outside its domain; when it is not empty the loop stores the vector and
// recomputes just those lanes with the scalar reference (the inputs are
// saved first, so d may be x). Special values, overflow, underflow,
// subnormal inputs and outputs and huge trigonometric arguments are thus
// exact by construction, at the cost of a scalar call per such lane.
//
// float32 is computed by widening each half of a float32 vector to float64
// lanes, running the float64 kernel and narrowing back: the reference is
// float32(f(float64(x))), so this gives it bit for bit, with one kernel per
// function. Native float32 polynomials would process twice the lanes per
// instruction but could not match the float64-then-round reference exactly
// (and would need their own special-case handling). Measured (-cpu 1, one
// run, n = 1e5), the widened float32 functions run 2.5-12× faster than the
// scalar float32 loops (exp 2.6×, log 4.6×, sigmoid 5.6×, tanh 8×, sin and
// cos 11-12×, pow 3.9×); exact results and one kernel per function were
// judged worth more than the further factor of up to 2 native float32
// polynomials could bring, which remains an option for exp and log, the
// two where the widening costs most.
//
// # Widths and builds
//
// The kernels are written once, in gen/kernels.tmpl, against the AVX-512
// types (Float64x8, Float32x16, ...), with the loops in gen/loops.tmpl and
// the dispatch in gen/dispatch.tmpl; `go generate` (go run ./gen) writes
// zkernels_avx512.go as is and zkernels_avx2.go with the types halved
// (Float64x4, Float32x8, ...). The template uses only operations that
// AVX2 has for the halved types (integer conversion by the 2^52 tricks, no
// rounding or conversion instructions that need AVX-512). Constants are
// pre-broadcast arrays (the generator hoists them) so they load as memory
// operands.
//
// At start-up the package picks 8 float64 lanes (16 float32) when
// archsimd.X86.AVX512() reports AVX-512F/CD/BW/DQ/VL, else 4 (8) when it
// reports AVX2 and FMA, else the scalar loops; Width reports the choice.
// A tail shorter than a vector is copied into an array, computed as one
// vector and copied back (archsimd's SlicePart loads and stores would do,
// but trip checkptr under -race); the float32 pow loops do this for every
// vector.
//
// The vector files build only with GOEXPERIMENT=simd on amd64 (SIMD is then
// true); every other build gets the same API over plain scalar loops of the
// references (SIMD false, Width 1), so callers compile either way.
package vmath
