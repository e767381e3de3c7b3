// Package opcases holds worked values for the op table (internal/ops): for
// each op, inputs with special values (signed zeros, infinities, NaN, the
// most negative integer, zero divisors) and what NumPy gives for them
// (NumPy 1.24 on x86-64; float64 and float32 arrays, so float32 results are
// those of NumPy's float32 loops), or, where a row's Note says so, laze's
// documented rule. The op table's tests (ops.Apply, and the CUDA prelude
// compiled for the host) and the evaluator's (kernels.Assign and Eval over
// tensors) check every case.
package opcases

import (
	"math"
	"strings"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// Float is one float case. Operands past the op's arity are 0. The float32
// case takes float32(A), float32(B) and float32(C) as its operands.
type Float struct {
	Op      ops.Op
	A, B, C float64
	F64     float64 // the float64 result
	F32     float32 // the float32 result
	Note    string  // where the value is not NumPy's, why
}

// Int is one integer case, for the element type named by DType ("int64",
// "int8" or "uint8"); operands and result are that type's values.
type Int struct {
	DType   string
	Op      ops.Op
	A, B, C int64
	Want    int64
	Note    string
}

// Refused reports whether the evaluators refuse the case with an
// ArgumentError before writing anything: a signed integer raised to a
// negative power (NumPy's ValueError). Want is then the value of ops.Apply,
// the generated loops and the CUDA helper, which stay total.
func (c Int) Refused() bool {
	return c.Op == ops.Pow && c.B < 0 && strings.HasPrefix(c.DType, "int")
}

var (
	inf   = math.Inf(1)
	nan   = math.NaN()
	nz    = math.Copysign(0, -1)
	inf32 = float32(inf)
	nan32 = float32(nan)
	nz32  = float32(nz)
)

// Floats hold the cases whose results are exact: the results must match
// bit for bit (the sign of a zero included); any NaN matches any NaN.
var Floats = []Float{
	// remainder (NumPy's npy_remainder): fmod, plus b when the signs differ;
	// a zero takes b's sign; x % ±0, ±Inf % y and NaN give NaN.
	{ops.Mod, 7, 2, 0, 1, 1, ""},
	{ops.Mod, -7.5, 2, 0, 0.5, 0.5, ""},
	{ops.Mod, 7.5, -2, 0, -0.5, -0.5, ""},
	{ops.Mod, -7.5, -2, 0, -1.5, -1.5, ""},
	{ops.Mod, -4, 2, 0, 0, 0, ""},
	{ops.Mod, 4, -2, 0, nz, nz32, ""},
	{ops.Mod, 4, 2, 0, 0, 0, ""},
	{ops.Mod, -4, -2, 0, nz, nz32, ""},
	{ops.Mod, 0, 5, 0, 0, 0, ""},
	{ops.Mod, nz, 5, 0, 0, 0, ""},
	{ops.Mod, 0, -5, 0, nz, nz32, ""},
	{ops.Mod, nz, -5, 0, nz, nz32, ""},
	{ops.Mod, 5, 0, 0, nan, nan32, ""},
	{ops.Mod, 5, nz, 0, nan, nan32, ""},
	{ops.Mod, 0, 0, 0, nan, nan32, ""},
	{ops.Mod, -5, nz, 0, nan, nan32, ""},
	{ops.Mod, inf, 2, 0, nan, nan32, ""},
	{ops.Mod, -inf, 2, 0, nan, nan32, ""},
	{ops.Mod, inf, -2, 0, nan, nan32, ""},
	{ops.Mod, inf, inf, 0, nan, nan32, ""},
	{ops.Mod, 5, inf, 0, 5, 5, ""},
	{ops.Mod, -5, inf, 0, inf, inf32, ""},
	{ops.Mod, 5, -inf, 0, -inf, -inf32, ""},
	{ops.Mod, -5, -inf, 0, -5, -5, ""},
	{ops.Mod, 0, inf, 0, 0, 0, ""},
	{ops.Mod, nz, inf, 0, 0, 0, ""},
	{ops.Mod, 0, -inf, 0, nz, nz32, ""},
	{ops.Mod, nan, 2, 0, nan, nan32, ""},
	{ops.Mod, 2, nan, 0, nan, nan32, ""},
	{ops.Mod, 1, 0.1, 0, 0.09999999999999995, 0.09999999, ""},
	{ops.Mod, -1e-30, 1, 0, 1, 1, ""},
	{ops.Mod, 5e-324, -1, 0, -1, nz32, ""},
	{ops.Mod, 1e+300, 3, 0, 0, nan32, ""},

	// floor_divide (npy_floor_divide): a / b when b is ±0, else divmod's
	// rounded quotient, computed in T; a zero quotient takes the sign of a / b.
	{ops.FloorDiv, 7, 2, 0, 3, 3, ""},
	{ops.FloorDiv, -7, 2, 0, -4, -4, ""},
	{ops.FloorDiv, 7, -2, 0, -4, -4, ""},
	{ops.FloorDiv, -7.5, -2, 0, 3, 3, ""},
	{ops.FloorDiv, 1, 0.1, 0, 9, 9, ""},
	{ops.FloorDiv, -1, 0.1, 0, -10, -10, ""},
	{ops.FloorDiv, 0.3, 0.1, 0, 2, 3, ""},
	{ops.FloorDiv, nz, 1, 0, nz, nz32, ""},
	{ops.FloorDiv, 0, -5, 0, nz, nz32, ""},
	{ops.FloorDiv, 0, 5, 0, 0, 0, ""},
	{ops.FloorDiv, nz, -5, 0, 0, 0, ""},
	{ops.FloorDiv, 1, 2, 0, 0, 0, ""},
	{ops.FloorDiv, -1, 2, 0, -1, -1, ""},
	{ops.FloorDiv, 1, -2, 0, -1, -1, ""},
	{ops.FloorDiv, -1, -2, 0, 0, 0, ""},
	{ops.FloorDiv, 5, 0, 0, inf, inf32, ""},
	{ops.FloorDiv, -5, 0, 0, -inf, -inf32, ""},
	{ops.FloorDiv, 5, nz, 0, -inf, -inf32, ""},
	{ops.FloorDiv, 0, 0, 0, nan, nan32, ""},
	{ops.FloorDiv, nan, 0, 0, nan, nan32, ""},
	{ops.FloorDiv, inf, 0, 0, inf, inf32, ""},
	{ops.FloorDiv, inf, 2, 0, nan, nan32, ""},
	{ops.FloorDiv, -inf, 2, 0, nan, nan32, ""},
	{ops.FloorDiv, inf, inf, 0, nan, nan32, ""},
	{ops.FloorDiv, 5, inf, 0, 0, 0, ""},
	{ops.FloorDiv, -5, inf, 0, -1, -1, ""},
	{ops.FloorDiv, 5, -inf, 0, -1, -1, ""},
	{ops.FloorDiv, -5, -inf, 0, 0, 0, ""},
	{ops.FloorDiv, nz, inf, 0, nz, nz32, ""},
	{ops.FloorDiv, 0, -inf, 0, nz, nz32, ""},
	{ops.FloorDiv, nan, 1, 0, nan, nan32, ""},
	{ops.FloorDiv, 1, nan, 0, nan, nan32, ""},
	{ops.FloorDiv, -17495336, -1.3223328590393066, 0, 13230659, 13230660, ""},
	{ops.FloorDiv, 1e+300, 1e-10, 0, inf, nan32, ""},

	// true divide: IEEE 754.
	{ops.Div, 1, 0, 0, inf, inf32, ""},
	{ops.Div, -1, 0, 0, -inf, -inf32, ""},
	{ops.Div, 1, nz, 0, -inf, -inf32, ""},
	{ops.Div, 0, 0, 0, nan, nan32, ""},
	{ops.Div, nz, 5, 0, nz, nz32, ""},
	{ops.Div, inf, inf, 0, nan, nan32, ""},
	{ops.Div, 1, inf, 0, 0, 0, ""},
	{ops.Div, -1, inf, 0, nz, nz32, ""},
	{ops.Div, 3, 2, 0, 1.5, 1.5, ""},

	// add, subtract, multiply: IEEE 754, signed zeros included.
	{ops.Add, nz, nz, 0, nz, nz32, ""},
	{ops.Add, 0, nz, 0, 0, 0, ""},
	{ops.Add, inf, -inf, 0, nan, nan32, ""},
	{ops.Add, 1e+308, 1e+308, 0, inf, inf32, ""},
	{ops.Add, nan, 1, 0, nan, nan32, ""},
	{ops.Sub, 0, 0, 0, 0, 0, ""},
	{ops.Sub, nz, 0, 0, nz, nz32, ""},
	{ops.Sub, nz, nz, 0, 0, 0, ""},
	{ops.Sub, inf, inf, 0, nan, nan32, ""},
	{ops.Mul, nz, 5, 0, nz, nz32, ""},
	{ops.Mul, 0, inf, 0, nan, nan32, ""},
	{ops.Mul, -2, 0, 0, nz, nz32, ""},
	{ops.Mul, 1e+200, 1e+200, 0, inf, inf32, ""},
	{ops.Mul, nz, nz, 0, 0, 0, ""},

	// power: C99's pow special values.
	{ops.Pow, 0, -1, 0, inf, inf32, ""},
	{ops.Pow, nz, -1, 0, -inf, -inf32, ""},
	{ops.Pow, nz, -2, 0, inf, inf32, ""},
	{ops.Pow, 0, -inf, 0, inf, inf32, ""},
	{ops.Pow, nz, -0.5, 0, inf, inf32, ""},
	{ops.Pow, -8, 0.3333333333333333, 0, nan, nan32, ""},
	{ops.Pow, 1, nan, 0, 1, 1, ""},
	{ops.Pow, nan, 0, 0, 1, 1, ""},
	{ops.Pow, nan, nz, 0, 1, 1, ""},
	{ops.Pow, -1, inf, 0, 1, 1, ""},
	{ops.Pow, -1, -inf, 0, 1, 1, ""},
	{ops.Pow, -inf, -1, 0, nz, nz32, ""},
	{ops.Pow, -inf, -2, 0, 0, 0, ""},
	{ops.Pow, -inf, 3, 0, -inf, -inf32, ""},
	{ops.Pow, -inf, 0.5, 0, inf, inf32, ""},
	{ops.Pow, inf, -0.5, 0, 0, 0, ""},
	{ops.Pow, nz, 3, 0, nz, nz32, ""},
	{ops.Pow, nz, 0.5, 0, 0, 0, ""},
	{ops.Pow, -2, 3, 0, -8, -8, ""},
	{ops.Pow, -2, 0.5, 0, nan, nan32, ""},
	{ops.Pow, 2, 1024, 0, inf, inf32, ""},
	{ops.Pow, 2, -1075, 0, 0, 0, ""},
	{ops.Pow, 0.5, inf, 0, 0, 0, ""},
	{ops.Pow, 2, -inf, 0, 0, 0, ""},
	{ops.Pow, 2, 10, 0, 1024, 1024, ""},
	{ops.Pow, 4, 0.5, 0, 2, 2, ""},
	{ops.Pow, 2e-323, 0.5, 0, 4.445517498970155e-162, 0, ""},
	{ops.Pow, 2e-323, 2, 0, 0, 0, ""},

	// maximum, minimum: a NaN wins; of two equal operands (±0) the second.
	{ops.Maximum, 0, nz, 0, nz, nz32, ""},
	{ops.Maximum, nz, 0, 0, 0, 0, ""},
	{ops.Maximum, nan, 1, 0, nan, nan32, ""},
	{ops.Maximum, 1, nan, 0, nan, nan32, ""},
	{ops.Maximum, -inf, inf, 0, inf, inf32, ""},
	{ops.Minimum, 0, nz, 0, nz, nz32, ""},
	{ops.Minimum, nz, 0, 0, 0, 0, ""},
	{ops.Minimum, nan, 1, 0, nan, nan32, ""},
	{ops.Minimum, 1, nan, 0, nan, nan32, ""},
	{ops.Minimum, -inf, inf, 0, -inf, -inf32, ""},

	// comparisons: 1 or 0 in T; NaN compares false (not_equal true).
	{ops.Eq, nan, nan, 0, 0, 0, ""},
	{ops.Ne, nan, nan, 0, 1, 1, ""},
	{ops.Eq, 0, nz, 0, 1, 1, ""},
	{ops.Lt, nz, 0, 0, 0, 0, ""},
	{ops.Le, nan, 1, 0, 0, 0, ""},
	{ops.Ge, inf, inf, 0, 1, 1, ""},
	{ops.Gt, 1, nan, 0, 0, 0, ""},
	{ops.Lt, -inf, inf, 0, 1, 1, ""},

	// unary ops: signed zeros, infinities, NaN, overflow and underflow.
	{ops.Neg, 0, 0, 0, nz, nz32, ""},
	{ops.Neg, nz, 0, 0, 0, 0, ""},
	{ops.Neg, inf, 0, 0, -inf, -inf32, ""},
	{ops.Neg, nan, 0, 0, nan, nan32, ""},
	{ops.Abs, nz, 0, 0, 0, 0, ""},
	{ops.Abs, -inf, 0, 0, inf, inf32, ""},
	{ops.Abs, nan, 0, 0, nan, nan32, ""},
	{ops.Abs, -2.5, 0, 0, 2.5, 2.5, ""},
	{ops.Sqrt, nz, 0, 0, nz, nz32, ""},
	{ops.Sqrt, -1, 0, 0, nan, nan32, ""},
	{ops.Sqrt, inf, 0, 0, inf, inf32, ""},
	{ops.Sqrt, 4, 0, 0, 2, 2, ""},
	{ops.Sqrt, -inf, 0, 0, nan, nan32, ""},
	{ops.Sqrt, nan, 0, 0, nan, nan32, ""},
	{ops.Exp, -inf, 0, 0, 0, 0, ""},
	{ops.Exp, inf, 0, 0, inf, inf32, ""},
	{ops.Exp, 0, 0, 0, 1, 1, ""},
	{ops.Exp, nz, 0, 0, 1, 1, ""},
	{ops.Exp, nan, 0, 0, nan, nan32, ""},
	{ops.Exp, 710, 0, 0, inf, inf32, ""},
	{ops.Exp, -746, 0, 0, 0, 0, ""},
	{ops.Log, 0, 0, 0, -inf, -inf32, ""},
	{ops.Log, nz, 0, 0, -inf, -inf32, ""},
	{ops.Log, -1, 0, 0, nan, nan32, ""},
	{ops.Log, inf, 0, 0, inf, inf32, ""},
	{ops.Log, 1, 0, 0, 0, 0, ""},
	{ops.Log, nan, 0, 0, nan, nan32, ""},
	{ops.Log, -inf, 0, 0, nan, nan32, ""},
	{ops.Sin, nz, 0, 0, nz, nz32, ""},
	{ops.Sin, inf, 0, 0, nan, nan32, ""},
	{ops.Sin, nan, 0, 0, nan, nan32, ""},
	{ops.Cos, inf, 0, 0, nan, nan32, ""},
	{ops.Cos, nz, 0, 0, 1, 1, ""},
	{ops.Tanh, nz, 0, 0, nz, nz32, ""},
	{ops.Tanh, inf, 0, 0, 1, 1, ""},
	{ops.Tanh, -inf, 0, 0, -1, -1, ""},
	{ops.Tanh, nan, 0, 0, nan, nan32, ""},
	{ops.Sigmoid, -inf, 0, 0, 0, 0, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.Sigmoid, inf, 0, 0, 1, 1, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.Sigmoid, 0, 0, 0, 0.5, 0.5, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.Sigmoid, nan, 0, 0, nan, nan32, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.Sigmoid, -1000, 0, 0, 0, 0, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.Sigmoid, 1000, 0, 0, 1, 1, "no NumPy function: 1/(1+np.exp(-x))"},
	{ops.ReLU, nz, 0, 0, 0, 0, "no NumPy function: np.maximum(x, 0)"},
	{ops.ReLU, nan, 0, 0, nan, nan32, "no NumPy function: np.maximum(x, 0)"},
	{ops.ReLU, -inf, 0, 0, 0, 0, "no NumPy function: np.maximum(x, 0)"},
	{ops.ReLU, inf, 0, 0, inf, inf32, "no NumPy function: np.maximum(x, 0)"},
	{ops.ReLU, -3, 0, 0, 0, 0, "no NumPy function: np.maximum(x, 0)"},
	{ops.ReLU, 2, 0, 0, 2, 2, "no NumPy function: np.maximum(x, 0)"},

	// where: NaN counts as true; clip is minimum(maximum(x, lo), hi).
	{ops.Where, nan, 1, 2, 1, 1, ""},
	{ops.Where, nz, 1, 2, 2, 2, ""},
	{ops.Where, inf, 1, 2, 1, 1, ""},
	{ops.Where, 0, 1, 2, 2, 2, ""},
	{ops.Clamp, nz, 0, 1, 0, 0, ""},
	{ops.Clamp, 0, nz, 1, nz, nz32, ""},
	{ops.Clamp, 0, -1, nz, nz, nz32, ""},
	{ops.Clamp, nz, -1, 0, 0, 0, ""},
	{ops.Clamp, nan, 0, 1, nan, nan32, ""},
	{ops.Clamp, 0.5, nan, 1, nan, nan32, ""},
	{ops.Clamp, 0.5, 0, nan, nan, nan32, ""},
	{ops.Clamp, 5, 3, 1, 1, 1, ""},
	{ops.Clamp, -inf, 0, 1, 0, 0, ""},

	// floor, ceil, trunc, rint (C99's, exact): -0, ±Inf and NaN stay
	// themselves; rint rounds halves to even; 2^52+1 and 1e300 have no
	// fraction (float32: 2^52+1 rounds to 2^52 before the op). The largest
	// double below 0.5 rounds to 0 (in float32 it is 0.5, which rounds to 0).
	{ops.Floor, 1.5, 0, 0, 1, 1, ""},
	{ops.Floor, -1.5, 0, 0, -2, -2, ""},
	{ops.Floor, -0.5, 0, 0, -1, -1, ""},
	{ops.Floor, nz, 0, 0, nz, nz32, ""},
	{ops.Floor, inf, 0, 0, inf, inf32, ""},
	{ops.Floor, -inf, 0, 0, -inf, -inf32, ""},
	{ops.Floor, nan, 0, 0, nan, nan32, ""},
	{ops.Floor, 4503599627370497, 0, 0, 4503599627370497, 4503599627370496, ""},
	{ops.Floor, -1e300, 0, 0, -1e300, -inf32, ""},
	{ops.Floor, 0.49999999999999994, 0, 0, 0, 0, ""},
	{ops.Ceil, 0.5, 0, 0, 1, 1, ""},
	{ops.Ceil, -0.5, 0, 0, nz, nz32, ""},
	{ops.Ceil, -1.5, 0, 0, -1, -1, ""},
	{ops.Ceil, nz, 0, 0, nz, nz32, ""},
	{ops.Ceil, -inf, 0, 0, -inf, -inf32, ""},
	{ops.Ceil, nan, 0, 0, nan, nan32, ""},
	{ops.Ceil, 4503599627370497, 0, 0, 4503599627370497, 4503599627370496, ""},
	{ops.Trunc, 1.7, 0, 0, 1, 1, ""},
	{ops.Trunc, -1.7, 0, 0, -1, -1, ""},
	{ops.Trunc, -0.5, 0, 0, nz, nz32, ""},
	{ops.Trunc, inf, 0, 0, inf, inf32, ""},
	{ops.Trunc, nan, 0, 0, nan, nan32, ""},
	{ops.Rint, 0.5, 0, 0, 0, 0, ""},
	{ops.Rint, 1.5, 0, 0, 2, 2, ""},
	{ops.Rint, 2.5, 0, 0, 2, 2, ""},
	{ops.Rint, -0.5, 0, 0, nz, nz32, ""},
	{ops.Rint, -1.5, 0, 0, -2, -2, ""},
	{ops.Rint, -2.5, 0, 0, -2, -2, ""},
	{ops.Rint, 2.6, 0, 0, 3, 3, ""},
	{ops.Rint, nz, 0, 0, nz, nz32, ""},
	{ops.Rint, 0.49999999999999994, 0, 0, 0, 0, ""},
	{ops.Rint, 4503599627370497, 0, 0, 4503599627370497, 4503599627370496, ""},
	{ops.Rint, -inf, 0, 0, -inf, -inf32, ""},
	{ops.Rint, nan, 0, 0, nan, nan32, ""},

	// square is x*x; sign is -1, 0 (+0 for -0) or 1, NaN for NaN;
	// reciprocal is 1/x (1/±0 is ±Inf).
	{ops.Square, -3, 0, 0, 9, 9, ""},
	{ops.Square, nz, 0, 0, 0, 0, ""},
	{ops.Square, -inf, 0, 0, inf, inf32, ""},
	{ops.Square, 1e200, 0, 0, inf, inf32, ""},
	{ops.Square, nan, 0, 0, nan, nan32, ""},
	{ops.Sign, 5, 0, 0, 1, 1, ""},
	{ops.Sign, -5, 0, 0, -1, -1, ""},
	{ops.Sign, 0, 0, 0, 0, 0, ""},
	{ops.Sign, nz, 0, 0, 0, 0, ""},
	{ops.Sign, inf, 0, 0, 1, 1, ""},
	{ops.Sign, -inf, 0, 0, -1, -1, ""},
	{ops.Sign, 5e-324, 0, 0, 1, 0, ""},
	{ops.Sign, nan, 0, 0, nan, nan32, ""},
	{ops.Reciprocal, 2, 0, 0, 0.5, 0.5, ""},
	{ops.Reciprocal, -4, 0, 0, -0.25, -0.25, ""},
	{ops.Reciprocal, 0, 0, 0, inf, inf32, ""},
	{ops.Reciprocal, nz, 0, 0, -inf, -inf32, ""},
	{ops.Reciprocal, inf, 0, 0, 0, 0, ""},
	{ops.Reciprocal, -inf, 0, 0, nz, nz32, ""},
	{ops.Reciprocal, nan, 0, 0, nan, nan32, ""},

	// isnan, isfinite, isinf: 1 or 0 in T. math.MaxFloat64 is finite in
	// float64 and +Inf once converted to float32.
	{ops.IsNaN, nan, 0, 0, 1, 1, ""},
	{ops.IsNaN, inf, 0, 0, 0, 0, ""},
	{ops.IsNaN, nz, 0, 0, 0, 0, ""},
	{ops.IsFinite, 1, 0, 0, 1, 1, ""},
	{ops.IsFinite, nz, 0, 0, 1, 1, ""},
	{ops.IsFinite, inf, 0, 0, 0, 0, ""},
	{ops.IsFinite, -inf, 0, 0, 0, 0, ""},
	{ops.IsFinite, nan, 0, 0, 0, 0, ""},
	{ops.IsFinite, math.MaxFloat64, 0, 0, 1, 0, ""},
	{ops.IsFinite, math.MaxFloat32, 0, 0, 1, 1, ""},
	{ops.IsInf, inf, 0, 0, 1, 1, ""},
	{ops.IsInf, -inf, 0, 0, 1, 1, ""},
	{ops.IsInf, nan, 0, 0, 0, 0, ""},
	{ops.IsInf, math.MaxFloat64, 0, 0, 0, 1, ""},
	{ops.IsInf, -math.MaxFloat32, 0, 0, 0, 0, ""},

	// logical ops: nonzero (NaN included) is true; 1 or 0 in T.
	{ops.LogicalNot, 0, 0, 0, 1, 1, ""},
	{ops.LogicalNot, nz, 0, 0, 1, 1, ""},
	{ops.LogicalNot, nan, 0, 0, 0, 0, ""},
	{ops.LogicalNot, -2, 0, 0, 0, 0, ""},

	// stop_gradient is the identity (jax.lax.stop_gradient's value; NumPy
	// has no such function): the sign of a zero, ±Inf and NaN stay; a
	// float64 beyond float32's range is +Inf once converted.
	{ops.StopGradient, 1.5, 0, 0, 1.5, 1.5, "not a NumPy function: the identity"},
	{ops.StopGradient, nz, 0, 0, nz, nz32, "not a NumPy function: the identity"},
	{ops.StopGradient, -inf, 0, 0, -inf, -inf32, "not a NumPy function: the identity"},
	{ops.StopGradient, nan, 0, 0, nan, nan32, "not a NumPy function: the identity"},
	{ops.StopGradient, math.MaxFloat64, 0, 0, math.MaxFloat64, inf32, "not a NumPy function: the identity"},
	{ops.LogicalAnd, 1, 2, 0, 1, 1, ""},
	{ops.LogicalAnd, 0, 2, 0, 0, 0, ""},
	{ops.LogicalAnd, nan, -inf, 0, 1, 1, ""},
	{ops.LogicalAnd, nz, nan, 0, 0, 0, ""},
	{ops.LogicalOr, 0, nz, 0, 0, 0, ""},
	{ops.LogicalOr, 0, nan, 0, 1, 1, ""},
	{ops.LogicalOr, -3, 0, 0, 1, 1, ""},
	{ops.LogicalXor, 1, 2, 0, 0, 0, ""},
	{ops.LogicalXor, 0, 2, 0, 1, 1, ""},
	{ops.LogicalXor, nan, nz, 0, 1, 1, ""},
	{ops.LogicalXor, nan, inf, 0, 0, 0, ""},
	{ops.LogicalXor, 0, nz, 0, 0, 0, ""},
}

// Inexact holds cases whose results come from a transcendental function,
// whose last bits differ between math libraries (Go's, glibc's, CUDA's,
// NumPy's own SIMD loops); they must match within a relative 1e-13 (float64)
// or 1e-6 (float32), or exactly where the result is 0, infinite or NaN.
// Their inputs are subnormal, which math.Log and math.Pow on amd64 get wrong
// by orders of magnitude (golang/go#56600).
var Inexact = []Float{
	{ops.Log, 5e-324, 0, 0, -744.4400719213812, -inf32, ""},
	{ops.Pow, 1e-310, -0.25, 0, 3.1622776601683816e+77, inf32, ""},
	{ops.Pow, 1e-310, 0.1, 0, 9.999999999999957e-32, 0, ""},
}

// Ints hold the integer cases; results must match exactly.
var Ints = []Int{
	{"int64", ops.FloorDiv, -7, 2, 0, -4, ""},
	{"int64", ops.FloorDiv, 7, -2, 0, -4, ""},
	{"int64", ops.FloorDiv, -7, -2, 0, 3, ""},
	{"int64", ops.FloorDiv, 7, 0, 0, 0, ""},
	{"int64", ops.FloorDiv, -7, 0, 0, 0, ""},
	{"int64", ops.FloorDiv, 0, 0, 0, 0, ""},
	{"int64", ops.FloorDiv, math.MinInt64, -1, 0, math.MinInt64, ""},
	{"int64", ops.FloorDiv, math.MinInt64, math.MaxInt64, 0, -2, ""},
	{"int64", ops.FloorDiv, math.MaxInt64, -1, 0, -9223372036854775807, ""},
	{"int64", ops.Mod, -7, 2, 0, 1, ""},
	{"int64", ops.Mod, 7, -2, 0, -1, ""},
	{"int64", ops.Mod, -7, -2, 0, -1, ""},
	{"int64", ops.Mod, 7, 0, 0, 0, ""},
	{"int64", ops.Mod, math.MinInt64, -1, 0, 0, ""},
	{"int64", ops.Mod, math.MinInt64, math.MaxInt64, 0, 9223372036854775806, ""},
	{"int64", ops.Mod, -6, 3, 0, 0, ""},
	{"int64", ops.Div, -7, 2, 0, -4, "NumPy's divide of integers gives a float (-3.5); laze's is floor_divide"},
	{"int64", ops.Div, 7, 0, 0, 0, "as floor_divide (NumPy's divide gives inf)"},
	{"int64", ops.Div, math.MinInt64, -1, 0, math.MinInt64, "as floor_divide"},
	{"int64", ops.Abs, math.MinInt64, 0, 0, math.MinInt64, ""},
	{"int64", ops.Neg, math.MinInt64, 0, 0, math.MinInt64, ""},
	{"int64", ops.Add, math.MaxInt64, 1, 0, math.MinInt64, ""},
	{"int64", ops.Mul, math.MaxInt64, 2, 0, -2, ""},
	{"int64", ops.Pow, 2, 63, 0, math.MinInt64, ""},
	{"int64", ops.Pow, 2, 64, 0, 0, ""},
	{"int64", ops.Pow, 3, 40, 0, -6289078614652622815, ""},
	{"int64", ops.Pow, 0, 0, 0, 1, ""},
	{"int64", ops.Pow, -3, 3, 0, -27, ""},
	{"int64", ops.Pow, 2, -1, 0, 0, "NumPy raises ValueError, as the evaluators do (Refused); ops.Apply gives the integer part of the real result"},
	{"int64", ops.Pow, 1, -5, 0, 1, "NumPy raises ValueError, as the evaluators do (Refused); ops.Apply gives the integer part of the real result"},
	{"int64", ops.Pow, -1, -3, 0, -1, "NumPy raises ValueError, as the evaluators do (Refused); ops.Apply gives the integer part of the real result"},
	{"int64", ops.Pow, -1, -2, 0, 1, "NumPy raises ValueError, as the evaluators do (Refused); ops.Apply gives the integer part of the real result"},
	{"int64", ops.Maximum, -1, 1, 0, 1, ""},
	{"int64", ops.Where, 0, 1, 2, 2, ""},
	{"int64", ops.Clamp, 5, 0, 3, 3, ""},
	{"int64", ops.ReLU, -3, 0, 0, 0, ""},
	{"int8", ops.FloorDiv, -128, -1, 0, -128, ""},
	{"int8", ops.Mod, -128, -1, 0, 0, ""},
	{"int8", ops.Mod, -128, 127, 0, 126, ""},
	{"int8", ops.FloorDiv, -128, 127, 0, -2, ""},
	{"int8", ops.FloorDiv, -7, 0, 0, 0, ""},
	{"int8", ops.Mod, -7, 0, 0, 0, ""},
	{"int8", ops.Abs, -128, 0, 0, -128, ""},
	{"int8", ops.Neg, -128, 0, 0, -128, ""},
	{"int8", ops.Pow, 2, 7, 0, -128, ""},
	{"int8", ops.Add, 127, 1, 0, -128, ""},
	{"int8", ops.Mul, -128, -1, 0, -128, ""},
	{"uint8", ops.Neg, 1, 0, 0, 255, ""},
	{"uint8", ops.Sub, 0, 1, 0, 255, ""},
	{"uint8", ops.FloorDiv, 7, 0, 0, 0, ""},
	{"uint8", ops.Mod, 7, 0, 0, 0, ""},
	{"uint8", ops.Mod, 255, 16, 0, 15, ""},
	{"uint8", ops.FloorDiv, 255, 16, 0, 15, ""},
	{"uint8", ops.Pow, 3, 5, 0, 243, ""},
	{"uint8", ops.Pow, 2, 8, 0, 0, ""},
	{"uint8", ops.Abs, 200, 0, 0, 200, ""},
	{"uint8", ops.Mul, 16, 16, 0, 0, ""},
	{"int64", ops.Floor, math.MinInt64, 0, 0, math.MinInt64, "NumPy before 2.1 gives a float array of the same value"},
	{"int8", ops.Ceil, -128, 0, 0, -128, "NumPy before 2.1 gives a float array of the same value"},
	{"uint8", ops.Trunc, 255, 0, 0, 255, "NumPy before 2.1 gives a float array of the same value"},
	{"int8", ops.Rint, -7, 0, 0, -7, "NumPy's rint gives a float array of the same value"},
	{"int8", ops.Square, 12, 0, 0, -112, ""},
	{"int8", ops.Square, -128, 0, 0, 0, ""},
	{"uint8", ops.Square, 16, 0, 0, 0, ""},
	{"int64", ops.Square, 3037000500, 0, 0, -9223372036709301616, ""},
	{"int8", ops.Sign, -128, 0, 0, -1, ""},
	{"int8", ops.Sign, 0, 0, 0, 0, ""},
	{"int64", ops.Sign, math.MaxInt64, 0, 0, 1, ""},
	{"uint8", ops.Sign, 255, 0, 0, 1, ""},
	{"uint8", ops.Sign, 0, 0, 0, 0, ""},
	{"int64", ops.Reciprocal, 1, 0, 0, 1, ""},
	{"int64", ops.Reciprocal, -1, 0, 0, -1, ""},
	{"int64", ops.Reciprocal, 2, 0, 0, 0, ""},
	{"int64", ops.Reciprocal, -2, 0, 0, 0, ""},
	{"int64", ops.Reciprocal, 0, 0, 0, 0, "NumPy's result is undefined (1.0/0 converted to an integer); laze gives 0, as for x / 0"},
	{"int8", ops.Reciprocal, -128, 0, 0, 0, ""},
	{"uint8", ops.Reciprocal, 255, 0, 0, 0, ""},
	{"uint8", ops.Reciprocal, 1, 0, 0, 1, ""},
	{"int8", ops.IsNaN, -128, 0, 0, 0, ""},
	{"int64", ops.IsFinite, math.MaxInt64, 0, 0, 1, ""},
	{"uint8", ops.IsInf, 255, 0, 0, 0, ""},
	{"int8", ops.LogicalNot, 0, 0, 0, 1, ""},
	{"int8", ops.LogicalNot, -128, 0, 0, 0, ""},
	{"uint8", ops.LogicalNot, 255, 0, 0, 0, ""},
	{"int8", ops.StopGradient, -128, 0, 0, -128, "not a NumPy function: the identity"},
	{"uint8", ops.StopGradient, 255, 0, 0, 255, "not a NumPy function: the identity"},
	{"int64", ops.StopGradient, math.MinInt64, 0, 0, math.MinInt64, "not a NumPy function: the identity"},
	{"int8", ops.LogicalAnd, -128, 1, 0, 1, ""},
	{"int8", ops.LogicalAnd, 0, 5, 0, 0, ""},
	{"uint8", ops.LogicalOr, 0, 0, 0, 0, ""},
	{"uint8", ops.LogicalOr, 0, 255, 0, 1, ""},
	{"int64", ops.LogicalXor, math.MinInt64, 1, 0, 0, ""},
	{"int64", ops.LogicalXor, 0, 7, 0, 1, ""},
}

// Same reports whether got is want: for floats the same value with the same
// sign (so -0 is not +0), any NaN matching any NaN.
func Same[T tensor.Number](got, want T) bool {
	if got != got || want != want {
		return got != got && want != want
	}
	return got == want && math.Signbit(float64(got)) == math.Signbit(float64(want))
}

// Near reports whether got is Same as want or, where want is finite and
// nonzero, within a relative 1e-13 of it (1e-6 for float32).
func Near[T tensor.Float](got, want T) bool {
	w := float64(want)
	if w == 0 || math.IsInf(w, 0) || w != w {
		return Same(got, want)
	}
	tol := 1e-13
	if unsafe.Sizeof(want) == 4 {
		tol = 1e-6
	}
	return math.Abs(float64(got)-w) <= tol*math.Abs(w)
}

// Exact is the go-cmp option that compares float64 and float32 values with
// Same.
var Exact = cmp.Options{cmp.Comparer(Same[float64]), cmp.Comparer(Same[float32])}

// Approx is the go-cmp option that compares float64 and float32 values with
// Near.
var Approx = cmp.Options{cmp.Comparer(func(x, y float64) bool { return Near(x, y) || Near(y, x) }),
	cmp.Comparer(func(x, y float32) bool { return Near(x, y) || Near(y, x) })}
