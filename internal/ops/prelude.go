package ops

// Prelude is the CUDA C++ that every generated kernel starts with: the
// helpers the table's CUDA column calls, overloaded so that each has the same
// meaning per element type as its Go definition in internal/scalar. An
// include guard lets several kernels' sources share one translation unit.
const Prelude = `#ifndef LAZE_PRELUDE
#define LAZE_PRELUDE
// The generic helpers compare with zero, which is pointless for unsigned T.
#pragma nv_diag_suppress 186
// laze_wrapneg is -a for an integer T, wrapping at the most negative value
// (as Go does) where C++ would overflow, which it leaves undefined.
template <typename T> __device__ __forceinline__ T laze_wrapneg(T a) { return (T)(0ULL - (unsigned long long)a); }
template <typename T> __device__ __forceinline__ T laze_abs(T a) { return a < (T)0 ? laze_wrapneg(a) : a; }
__device__ __forceinline__ float laze_abs(float a) { return fabsf(a); }
__device__ __forceinline__ double laze_abs(double a) { return fabs(a); }

// laze_relu is laze_max(a, 0): NaN stays NaN, -0 gives +0.
template <typename T> __device__ __forceinline__ T laze_relu(T a) { return (a > (T)0 || a != a) ? a : (T)0; }

// Integer division and remainder by zero give 0; by -1 (signed T) they give
// -a, wrapping (MinInt / -1 = MinInt), and 0, where C++'s / and % overflow.
template <typename T> __device__ __forceinline__ T laze_div(T a, T b) {
  if (b == (T)0) return (T)0;
  if ((T)-1 < (T)0 && b == (T)-1) return laze_wrapneg(a);
  T q = a / b;
  T r = a - q * b;
  if (r != (T)0 && ((r < (T)0) != (b < (T)0))) q--;
  return q;
}
__device__ __forceinline__ float laze_div(float a, float b) { return a / b; }
__device__ __forceinline__ double laze_div(double a, double b) { return a / b; }

// The float helpers are NumPy's npy_floor_divide and npy_remainder (its
// divmod), each in the type's own precision as NumPy's float32 loops are.
template <typename T> __device__ __forceinline__ T laze_floordiv(T a, T b) { return laze_div(a, b); }
__device__ __forceinline__ double laze_floordiv(double a, double b) {
  if (b == 0.0) return a / b;
  double m = fmod(a, b);
  double q = (a - m) / b;
  if (m != 0.0 && ((b < 0.0) != (m < 0.0))) q -= 1.0;
  if (q == 0.0) return copysign(0.0, a / b);
  double f = floor(q);
  return (q - f > 0.5) ? f + 1.0 : f;
}
__device__ __forceinline__ float laze_floordiv(float a, float b) {
  if (b == 0.0f) return a / b;
  float m = fmodf(a, b);
  float q = (a - m) / b;
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) q -= 1.0f;
  if (q == 0.0f) return copysignf(0.0f, a / b);
  float f = floorf(q);
  return (q - f > 0.5f) ? f + 1.0f : f;
}

template <typename T> __device__ __forceinline__ T laze_mod(T a, T b) {
  if (b == (T)0 || ((T)-1 < (T)0 && b == (T)-1)) return (T)0;
  T r = a % b;
  if (r != (T)0 && ((r < (T)0) != (b < (T)0))) r += b;
  return r;
}
__device__ __forceinline__ double laze_mod(double a, double b) {
  double r = fmod(a, b);
  if (r == 0.0) return copysign(0.0, b);
  if ((r < 0.0) != (b < 0.0)) r += b;
  return r;
}
__device__ __forceinline__ float laze_mod(float a, float b) {
  float r = fmodf(a, b);
  if (r == 0.0f) return copysignf(0.0f, b);
  if ((r < 0.0f) != (b < 0.0f)) r += b;
  return r;
}

template <typename T> __device__ __forceinline__ T laze_pow(T a, T b) {
  if (b < (T)0) {
    if (a == (T)1) return (T)1;
    if (a + (T)1 == (T)0) return (b - (b / (T)2) * (T)2 != (T)0) ? a : (T)1;
    return (T)0;
  }
  T result = (T)1;
  while (b > (T)0) {
    if (b - (b / (T)2) * (T)2 != (T)0) result *= a;
    a *= a;
    b /= (T)2;
  }
  return result;
}
__device__ __forceinline__ float laze_pow(float a, float b) { return (float)pow((double)a, (double)b); }
__device__ __forceinline__ double laze_pow(double a, double b) { return pow(a, b); }

template <typename T> __device__ __forceinline__ T laze_max(T a, T b) { return (a > b || a != a) ? a : b; }
template <typename T> __device__ __forceinline__ T laze_min(T a, T b) { return (a < b || a != a) ? a : b; }

// laze_fmax and laze_fmin ignore a NaN operand (NumPy's fmax, fmin).
template <typename T> __device__ __forceinline__ T laze_fmax(T a, T b) { return (b != b || a > b) ? a : b; }
template <typename T> __device__ __forceinline__ T laze_fmin(T a, T b) { return (b != b || a < b) ? a : b; }

// laze_fmod is C's fmod; integers give 0 for a zero divisor (as NumPy) and
// for -1 (signed T), where C++'s % overflows.
template <typename T> __device__ __forceinline__ T laze_fmod(T a, T b) {
  if (b == (T)0 || ((T)-1 < (T)0 && b == (T)-1)) return (T)0;
  return a % b;
}
__device__ __forceinline__ double laze_fmod(double a, double b) { return fmod(a, b); }
__device__ __forceinline__ float laze_fmod(float a, float b) { return (float)fmod((double)a, (double)b); }

// laze_logaddexp and laze_logaddexp2 are NumPy's npy_logaddexp and
// npy_logaddexp2, computed in double as scalar.LogAddExp does.
__device__ __forceinline__ double laze_logaddexp(double x, double y) {
  if (x == y) return x + 0.6931471805599453;
  double d = x - y;
  if (d > 0) return x + log1p(exp(-d));
  if (d <= 0) return y + log1p(exp(d));
  return d;
}
__device__ __forceinline__ float laze_logaddexp(float a, float b) { return (float)laze_logaddexp((double)a, (double)b); }
__device__ __forceinline__ double laze_logaddexp2(double x, double y) {
  if (x == y) return x + 1.0;
  double d = x - y;
  if (d > 0) return x + log1p(exp2(-d)) / 0.6931471805599453;
  if (d <= 0) return y + log1p(exp2(d)) / 0.6931471805599453;
  return d;
}
__device__ __forceinline__ float laze_logaddexp2(float a, float b) { return (float)laze_logaddexp2((double)a, (double)b); }

// laze_heaviside is 0 below 0, 1 above, h0 at ±0 and NaN for NaN.
template <typename T> __device__ __forceinline__ T laze_heaviside(T a, T h0) {
  return a < (T)0 ? (T)0 : a > (T)0 ? (T)1 : a == (T)0 ? h0 : a;
}

// laze_better is ArgBetter (reduce.go): whether v at index vi replaces best
// at index bi in an arg reduction; is_max picks argmax over argmin.
template <typename T> __device__ __forceinline__ bool laze_better(bool is_max, T v, long long vi, T best, long long bi) {
  const bool vn = v != v, bn = best != best;
  if (vn || bn) return (vn && bn) ? vi < bi : vn;
  if (v == best) return vi < bi;
  return is_max ? v > best : v < best;
}

// The rounding helpers are C's exactly rounded floor, ceil, trunc and rint
// (rint rounds halves to even in the default rounding mode) on floats and
// the identity on integers.
template <typename T> __device__ __forceinline__ T laze_floor(T a) { return a; }
__device__ __forceinline__ float laze_floor(float a) { return floorf(a); }
__device__ __forceinline__ double laze_floor(double a) { return floor(a); }
template <typename T> __device__ __forceinline__ T laze_ceil(T a) { return a; }
__device__ __forceinline__ float laze_ceil(float a) { return ceilf(a); }
__device__ __forceinline__ double laze_ceil(double a) { return ceil(a); }
template <typename T> __device__ __forceinline__ T laze_trunc(T a) { return a; }
__device__ __forceinline__ float laze_trunc(float a) { return truncf(a); }
__device__ __forceinline__ double laze_trunc(double a) { return trunc(a); }
template <typename T> __device__ __forceinline__ T laze_rint(T a) { return a; }
__device__ __forceinline__ float laze_rint(float a) { return rintf(a); }
__device__ __forceinline__ double laze_rint(double a) { return rint(a); }

// laze_sign is -1, 0 or 1 (+0 for -0); NaN stays NaN.
template <typename T> __device__ __forceinline__ T laze_sign(T a) {
  return a > (T)0 ? (T)1 : a < (T)0 ? (T)-1 : a == (T)0 ? (T)0 : a;
}

// laze_reciprocal is 1 / a; integers give the truncated quotient (1 for 1,
// -1 for -1, else 0, and 0 for 0).
template <typename T> __device__ __forceinline__ T laze_reciprocal(T a) {
  if (a == (T)1) return (T)1;
  if (a < (T)0 && a + (T)1 == (T)0) return a;
  return (T)0;
}
__device__ __forceinline__ float laze_reciprocal(float a) { return 1.0f / a; }
__device__ __forceinline__ double laze_reciprocal(double a) { return 1.0 / a; }

// laze_isfinite and laze_isinf compare |a| with the largest finite value
// (NaN compares false); integers are always finite.
template <typename T> __device__ __forceinline__ bool laze_isfinite(T a) { (void)a; return true; }
__device__ __forceinline__ bool laze_isfinite(float a) { return fabsf(a) <= 3.40282347e+38f; }
__device__ __forceinline__ bool laze_isfinite(double a) { return fabs(a) <= 1.7976931348623157e+308; }
template <typename T> __device__ __forceinline__ bool laze_isinf(T a) { (void)a; return false; }
__device__ __forceinline__ bool laze_isinf(float a) { return fabsf(a) > 3.40282347e+38f; }
__device__ __forceinline__ bool laze_isinf(double a) { return fabs(a) > 1.7976931348623157e+308; }

__device__ __forceinline__ float laze_sigmoid(float a) { return (float)(1.0 / (1.0 + exp(-(double)a))); }
__device__ __forceinline__ double laze_sigmoid(double a) { return 1.0 / (1.0 + exp(-a)); }

// laze_signbit is the sign bit: signbit for floats (-0 and -NaN count),
// a < 0 for integers.
template <typename T> __device__ __forceinline__ bool laze_signbit(T a) { return a < (T)0; }
__device__ __forceinline__ bool laze_signbit(float a) { return signbit(a); }
__device__ __forceinline__ bool laze_signbit(double a) { return signbit(a); }

// laze_log2 is log2, exact at powers of two: CUDA's double log2(8) is
// 2.9999999999999996 (within its documented ulp), NumPy's and Go's 3.
template <typename T> __device__ __forceinline__ T laze_log2(T a) {
  int e;
  T m = frexp(a, &e);
  return m == (T)0.5 ? (T)(e - 1) : log2(a);
}

// laze_nextafter is C's nextafter, b itself where a == b: CUDA's double
// nextafter(0, -0) gives +0, C and NumPy -0.
template <typename T> __device__ __forceinline__ T laze_nextafter(T a, T b) { return a == b ? b : nextafter(a, b); }

// laze_spacing is NumPy's spacing: the step to the next value away from
// zero, NaN at the infinities.
template <typename T> __device__ __forceinline__ T laze_spacing(T a) { (void)a; return (T)0; }
__device__ __forceinline__ float laze_spacing(float a) {
  if (laze_isinf(a)) return nanf("");
  float n = nextafterf(a, a < 0.0f ? -3.40282347e+38f : 3.40282347e+38f);
  return n == a ? a * 2.0f : n - a; // past the largest finite value: ±Inf
}
__device__ __forceinline__ double laze_spacing(double a) {
  if (laze_isinf(a)) return nan("");
  double n = nextafter(a, a < 0.0 ? -1.7976931348623157e+308 : 1.7976931348623157e+308);
  return n == a ? a * 2.0 : n - a;
}

// laze_ldexp is x * 2**n with n truncated and clamped to ±4096 (beyond every
// float's range), NaN for a NaN n.
template <typename T> __device__ __forceinline__ T laze_ldexp(T a, T b) { (void)b; return a; }
__device__ __forceinline__ double laze_ldexp(double a, double b) {
  if (b != b) return b;
  return ldexp(a, (int)fmax(-4096.0, fmin(4096.0, b)));
}
__device__ __forceinline__ float laze_ldexp(float a, float b) { return (float)laze_ldexp((double)a, (double)b); }

// The shifts follow NumPy's npy_lshift and npy_rshift: a count that is
// negative or at least the width gives 0, or -1 for a negative a shifted
// right; the left shift works on the unsigned bits, so it wraps.
template <typename T> __device__ __forceinline__ bool laze_shift_out(T b) {
  return b < (T)0 || (unsigned long long)b >= 8 * sizeof(T);
}
template <typename T> __device__ __forceinline__ T laze_lshift(T a, T b) {
  return laze_shift_out(b) ? (T)0 : (T)((unsigned long long)a << (unsigned long long)b);
}
template <typename T> __device__ __forceinline__ T laze_rshift(T a, T b) {
  if (laze_shift_out(b)) return a < (T)0 ? (T)-1 : (T)0;
  return (T)(a >> b);
}

// laze_gcd is Euclid's algorithm on the magnitudes as unsigned numbers of
// T's width (the most negative value's magnitude wraps back, as NumPy's);
// laze_lcm is |a / gcd * b|, wrapping.
template <typename T> __device__ __forceinline__ unsigned long long laze_magnitude(T a) {
  return (unsigned long long)laze_abs(a) & (~0ULL >> (64 - 8 * sizeof(T)));
}
template <typename T> __device__ __forceinline__ T laze_gcd(T a, T b) {
  unsigned long long x = laze_magnitude(a), y = laze_magnitude(b);
  while (y != 0) { unsigned long long t = x % y; x = y; y = t; }
  return (T)x;
}
template <typename T> __device__ __forceinline__ T laze_lcm(T a, T b) {
  T g = laze_gcd(a, b);
  if (g == (T)0) return (T)0;
  return laze_abs((T)((unsigned long long)(T)(a / g) * (unsigned long long)b));
}
#endif
`
