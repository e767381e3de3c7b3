package ops

import "fmt"

// Op names one elementwise operation. The zero Op is invalid.
type Op uint8

// The operations, grouped by arity.
const (
	Invalid Op = iota

	// Unary.
	Neg
	Abs
	Sqrt
	Exp
	Log
	Sin
	Cos
	Tanh
	Sigmoid
	ReLU
	Floor
	Ceil
	Trunc
	Rint
	Square
	Sign
	Reciprocal
	IsNaN
	IsFinite
	IsInf
	LogicalNot
	StopGradient
	Tan
	Arcsin
	Arccos
	Arctan
	Sinh
	Cosh
	Arcsinh
	Arccosh
	Arctanh
	Exp2
	Expm1
	Log2
	Log10
	Log1p
	Cbrt
	Erf
	Erfc
	Rsqrt
	Deg2rad
	Rad2deg
	Fabs
	Positive
	Invert
	Signbit
	Spacing
	Logb

	// Binary.
	Add
	Sub
	Mul
	Div
	FloorDiv
	Mod
	Pow
	Maximum
	Minimum
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	LogicalAnd
	LogicalOr
	LogicalXor
	Arctan2
	Hypot
	Copysign
	Nextafter
	Fmax
	Fmin
	Fmod
	Logaddexp
	Logaddexp2
	Heaviside
	BitwiseAnd
	BitwiseOr
	BitwiseXor
	LeftShift
	RightShift
	Gcd
	Lcm
	Ldexp
	FloatPower

	// Ternary.
	Where
	Clamp

	count
)

// Domain is the set of element types an op accepts.
type Domain uint8

const (
	// AnyNumber ops accept every integer and floating-point type.
	AnyNumber Domain = iota
	// FloatOnly ops accept float32 and float64 (and types defined on them).
	FloatOnly
	// IntOnly ops accept the integer types only: the bitwise ops, the
	// shifts, gcd and lcm, which NumPy refuses for floats.
	IntOnly
)

// Accepts reports whether the domain holds a floating-point element type
// (float true) or an integer one (float false).
func (d Domain) Accepts(float bool) bool {
	switch d {
	case FloatOnly:
		return float
	case IntOnly:
		return !float
	}
	return true
}

// String names the domain as the element types it accepts, for messages.
func (d Domain) String() string {
	switch d {
	case FloatOnly:
		return "floating-point types"
	case IntOnly:
		return "integer types"
	}
	return "every number type"
}

// Def is one row of the op table. Go and CUDA are expressions over the
// operands a, b and c (in that order) that compute the result, whose type is
// T in both languages. Go helpers come from package internal/scalar (written
// scalar.Name); CUDA helpers come from Prelude.
type Def struct {
	Name   string // lower-case name, as NumPy spells the function: "add", "exp", "where"
	Infix  string // the operator when trees print the op infix ("+"), else ""
	Arity  int    // number of operands, 1 to 3
	Domain Domain // element types accepted
	Go     string // Go definition
	CUDA   string // CUDA C definition
	Cost   int    // rough time per element relative to an add, for the CPU's parallel threshold (0 means 1)
	// SIMD is the float32/float64 lane definition for the SIMD build
	// (GOEXPERIMENT=simd on amd64): an expression over simd/archsimd vectors
	// a, b and c of one type, using their methods and the lane helpers
	// (laneHelpers in internal/ops/gen/simd.go, written into
	// kernels/internal/loops/loops_simd_gen.go per vector type). It must give the Go column's result
	// bit for bit. Empty: no lane loop.
	SIMD string
	// GoName is the name of package expr's function for the op (generated
	// into expr/ops_gen.go with its Chain method and, for two or three
	// operands, its XxxScalar forms). Method is the Chain method's name where
	// it differs from GoName: the exp op's function is Exponential, as Exp
	// is the expression interface, but its method is Chain.Exp.
	GoName, Method string
	// Params names the operands in the expr function's signature and in Doc:
	// empty means "x" for one operand and "x, y" for two.
	Params string
	// Doc is the rest of the expr function's doc comment after its name, a
	// sentence about the operands Params names: "returns x + y." The Chain
	// method's comment is the same sentence with the first operand read as
	// the chain, c.
	Doc string
	// CLI lists the names the demo CLI (cmd/exprdemo) offers the op under, as
	// NumPy spells them; empty means Name alone.
	CLI []string
	// CLIKeepsDType marks the unary ops whose result keeps the argument's
	// dtype in the CLI, bools included, as NumPy's do (abs, floor, round…);
	// the other unary ops of every domain compute bools in int8, as NumPy's
	// ufuncs without a bool loop (square, sign).
	CLIKeepsDType bool
	// CLIFloat lists the CLI names under which NumPy computes the op in a
	// float dtype even for integers (its rint has float loops only, while
	// round keeps integers): the op's FloatOnly domain does the same for
	// every name.
	CLIFloat []string
	// Truth marks the ops whose result is a truth value (1 or 0 in T): the
	// comparisons, the isnan family and the logical ops. The CLI gives them
	// NumPy's bool dtype.
	Truth bool
	// VMath names the kernels/internal/vmath slice function (Exp gives Exp64 and
	// Exp32) that computes the op for float32/float64 in the SIMD build. It
	// follows the Go column's algorithm step by step and gives its bits (any
	// NaN for NaN); its documented bound is 4 ulp. Empty: none.
	VMath string
	// Grad is the op's derivative for reverse-mode differentiation (package
	// grad): one expression per operand, in order, giving the gradient that
	// flows into that operand from g, the gradient flowing into the op's
	// value. It is Go expression syntax over the operands a, b and c, the
	// op's value out and g: + - * / and the comparisons, && and || (truth
	// values, 1 or 0), unary - and !, float literals, and calls of the ops
	// by their Name (cos(a), where(a, g, 0)). Each is linear in g and reads
	// it once. "" means no gradient flows into that operand: the op is
	// constant in it almost everywhere (floor, sign, comparisons) or it is a
	// condition (where's first operand). The generator writes each rule into
	// grad/rules_gen.go as a function building the derivative's tree, so
	// the gradient is evaluated and fused like any other tree.
	Grad []string
}

// table holds every op's definition; see the package doc.
var table = [count]Def{
	Neg: {Name: "neg", Infix: "-", Arity: 1, Go: "-a", CUDA: "-a", SIMD: "neg(a)",
		GoName: "Neg", CLI: []string{"negative"}, Doc: "returns -x; unsigned integers wrap, as in Go and NumPy.",
		Grad: []string{"-g"}},
	Abs: {Name: "abs", Arity: 1, Go: "scalar.Abs(a)", CUDA: "laze_abs(a)", SIMD: "abs(a)",
		GoName: "Abs", CLIKeepsDType: true, CLI: []string{"abs", "absolute"}, Doc: "returns |x|; see docs/design.md for the most negative integer.",
		Grad: []string{"g * sign(a)"}},
	Sqrt: {Name: "sqrt", Arity: 1, Domain: FloatOnly, Go: "T(math.Sqrt(float64(a)))", CUDA: "sqrt(a)", Cost: 2, SIMD: "a.Sqrt()",
		GoName: "Sqrt", Doc: "returns the square root of x (NaN below 0).",
		Grad: []string{"g / (2 * out)"}},
	Exp: {Name: "exp", Arity: 1, Domain: FloatOnly, Go: "T(math.Exp(float64(a)))", CUDA: "exp(a)", Cost: 16, VMath: "Exp",
		GoName: "Exponential", Method: "Exp", Doc: "returns e raised to x (NumPy's exp; the function's name is Exponential because Exp is the expression interface, the method's is Exp).",
		Grad: []string{"g * out"}},
	Log: {Name: "log", Arity: 1, Domain: FloatOnly, Go: "scalar.Log(a)", CUDA: "log(a)", Cost: 16, VMath: "Log",
		GoName: "Log", Doc: "returns the natural logarithm of x.",
		Grad: []string{"g / a"}},
	Sin: {Name: "sin", Arity: 1, Domain: FloatOnly, Go: "T(math.Sin(float64(a)))", CUDA: "sin(a)", Cost: 16, VMath: "Sin",
		GoName: "Sin", Doc: "returns the sine of x (radians).",
		Grad: []string{"g * cos(a)"}},
	Cos: {Name: "cos", Arity: 1, Domain: FloatOnly, Go: "T(math.Cos(float64(a)))", CUDA: "cos(a)", Cost: 16, VMath: "Cos",
		GoName: "Cos", Doc: "returns the cosine of x (radians).",
		Grad: []string{"-(g * sin(a))"}},
	Tanh: {Name: "tanh", Arity: 1, Domain: FloatOnly, Go: "T(math.Tanh(float64(a)))", CUDA: "tanh(a)", Cost: 16, VMath: "Tanh",
		GoName: "Tanh", Doc: "returns the hyperbolic tangent of x.",
		Grad: []string{"g * (1 - out*out)"}},
	Sigmoid: {Name: "sigmoid", Arity: 1, Domain: FloatOnly, Go: "T(1 / (1 + math.Exp(-float64(a))))", CUDA: "laze_sigmoid(a)", Cost: 16, VMath: "Sigmoid",
		GoName: "Sigmoid", Doc: "returns 1 / (1 + e**-x).",
		Grad: []string{"g * (out * (1 - out))"}},
	ReLU: {Name: "relu", Arity: 1, Go: "scalar.ReLU(a)", CUDA: "laze_relu(a)", SIMD: "relu(a)",
		GoName: "ReLU", CLIKeepsDType: true, Doc: "returns max(x, 0); NaN stays NaN.",
		Grad: []string{"where(a > 0, g, 0)"}},
	Floor: {Name: "floor", Arity: 1, Go: "scalar.Floor(a)", CUDA: "laze_floor(a)", SIMD: "floor(a)",
		GoName: "Floor", CLIKeepsDType: true, Doc: "returns the largest integer not above x, as math.Floor (-0, ±Inf and NaN stay themselves); integers stay themselves.",
		Grad: []string{""}},
	Ceil: {Name: "ceil", Arity: 1, Go: "scalar.Ceil(a)", CUDA: "laze_ceil(a)", SIMD: "ceil(a)",
		GoName: "Ceil", CLIKeepsDType: true, Doc: "returns the smallest integer not below x, as math.Ceil (ceil(-0.5) is -0); integers stay themselves.",
		Grad: []string{""}},
	Trunc: {Name: "trunc", Arity: 1, Go: "scalar.Trunc(a)", CUDA: "laze_trunc(a)", SIMD: "trunc(a)",
		GoName: "Trunc", CLIKeepsDType: true, Doc: "returns x rounded toward zero, as math.Trunc; integers stay themselves.",
		Grad: []string{""}},
	Rint: {Name: "rint", Arity: 1, Go: "scalar.Rint(a)", CUDA: "laze_rint(a)", SIMD: "rint(a)",
		GoName: "Rint", CLI: []string{"rint", "round"}, CLIKeepsDType: true, CLIFloat: []string{"rint"}, Doc: "returns x rounded to the nearest integer, halves to even (NumPy's rint and round, Go's math.RoundToEven: 0.5 is 0, 1.5 is 2); integers stay themselves.",
		Grad: []string{""}},
	Square: {Name: "square", Arity: 1, Go: "a * a", CUDA: "a * a", SIMD: "a.Mul(a)",
		GoName: "Square", Doc: "returns x * x; integers wrap on overflow, as NumPy's do.",
		Grad: []string{"g * (2 * a)"}},
	Sign: {Name: "sign", Arity: 1, Go: "scalar.Sign(a)", CUDA: "laze_sign(a)", SIMD: "sign(a)",
		GoName: "Sign", Doc: "returns -1 where x < 0, 1 where x > 0 and 0 where x is ±0 (+0 for both, as NumPy); NaN stays NaN.",
		Grad: []string{""}},
	Reciprocal: {Name: "reciprocal", Arity: 1, Go: "scalar.Reciprocal(a)", CUDA: "laze_reciprocal(a)", SIMD: "reciprocal(a)",
		GoName: "Reciprocal", Doc: "returns 1 / x; for integers the quotient truncated as NumPy's is (1 for 1, -1 for -1, 0 for every other value, 0 included, where NumPy's result is undefined).",
		Grad: []string{"-(g * (out * out))"}},
	IsNaN: {Name: "isnan", Arity: 1, Go: "scalar.Bool[T](a != a)", CUDA: "(T)(a != a)", SIMD: "truth(a.IsNaN())", Truth: true,
		GoName: "IsNaN", Doc: "returns 1 where x is NaN and 0 elsewhere, in T (0 for integers).",
		Grad: []string{""}},
	IsFinite: {Name: "isfinite", Arity: 1, Go: "scalar.Bool[T](scalar.IsFinite(a))", CUDA: "(T)laze_isfinite(a)", SIMD: "truth(isfinite(a))", Truth: true,
		GoName: "IsFinite", Doc: "returns 1 where x is neither ±Inf nor NaN and 0 elsewhere, in T (1 for integers).",
		Grad: []string{""}},
	IsInf: {Name: "isinf", Arity: 1, Go: "scalar.Bool[T](scalar.IsInf(a))", CUDA: "(T)laze_isinf(a)", SIMD: "truth(isinf(a))", Truth: true,
		GoName: "IsInf", Doc: "returns 1 where x is +Inf or -Inf and 0 elsewhere, in T (0 for integers).",
		Grad: []string{""}},
	LogicalNot: {Name: "logical_not", Arity: 1, Go: "scalar.Bool[T](a == 0)", CUDA: "(T)(a == (T)0)", SIMD: "truth(iszero(a))", Truth: true,
		GoName: "LogicalNot", Doc: "returns 1 where x is zero and 0 elsewhere, in T (NaN is nonzero, so true, as in NumPy).",
		Grad: []string{""}},
	StopGradient: {Name: "stop_gradient", Arity: 1, Go: "a", CUDA: "a", SIMD: "a",
		GoName: "StopGradient", CLIKeepsDType: true, Doc: "returns x, and passes no gradient to x: package grad treats the node as a constant (JAX's stop_gradient, PyTorch's detach). Evaluating it is the identity.",
		Grad: []string{""}},
	Tan: {Name: "tan", Arity: 1, Domain: FloatOnly, Go: "T(math.Tan(float64(a)))", CUDA: "tan(a)", Cost: 16, VMath: "Tan",
		GoName: "Tan", Doc: "returns the tangent of x (radians).",
		Grad: []string{"g * (1 + out*out)"}},
	Arcsin: {Name: "arcsin", Arity: 1, Domain: FloatOnly, Go: "T(math.Asin(float64(a)))", CUDA: "asin(a)", Cost: 16, VMath: "Asin",
		GoName: "Arcsin", CLI: []string{"arcsin", "asin"}, Doc: "returns the inverse sine of x, in [-π/2, π/2] (NaN outside [-1, 1]).",
		Grad: []string{"g / sqrt(1 - a*a)"}},
	Arccos: {Name: "arccos", Arity: 1, Domain: FloatOnly, Go: "scalar.Acos(a)", CUDA: "acos(a)", Cost: 16, VMath: "Acos",
		GoName: "Arccos", CLI: []string{"arccos", "acos"}, Doc: "returns the inverse cosine of x, in [0, π] (NaN outside [-1, 1]).",
		Grad: []string{"-(g / sqrt(1 - a*a))"}},
	Arctan: {Name: "arctan", Arity: 1, Domain: FloatOnly, Go: "T(math.Atan(float64(a)))", CUDA: "atan(a)", Cost: 16, VMath: "Atan",
		GoName: "Arctan", CLI: []string{"arctan", "atan"}, Doc: "returns the inverse tangent of x, in [-π/2, π/2].",
		Grad: []string{"g / (1 + a*a)"}},
	Sinh: {Name: "sinh", Arity: 1, Domain: FloatOnly, Go: "scalar.Sinh(a)", CUDA: "sinh(a)", Cost: 16, VMath: "Sinh",
		GoName: "Sinh", Doc: "returns the hyperbolic sine of x.",
		Grad: []string{"g * cosh(a)"}},
	Cosh: {Name: "cosh", Arity: 1, Domain: FloatOnly, Go: "scalar.Cosh(a)", CUDA: "cosh(a)", Cost: 16, VMath: "Cosh",
		GoName: "Cosh", Doc: "returns the hyperbolic cosine of x.",
		Grad: []string{"g * sinh(a)"}},
	Arcsinh: {Name: "arcsinh", Arity: 1, Domain: FloatOnly, Go: "T(math.Asinh(float64(a)))", CUDA: "asinh(a)", Cost: 16, VMath: "Asinh",
		GoName: "Arcsinh", CLI: []string{"arcsinh", "asinh"}, Doc: "returns the inverse hyperbolic sine of x.",
		Grad: []string{"g / sqrt(a*a + 1)"}},
	Arccosh: {Name: "arccosh", Arity: 1, Domain: FloatOnly, Go: "T(math.Acosh(float64(a)))", CUDA: "acosh(a)", Cost: 16, VMath: "Acosh",
		GoName: "Arccosh", CLI: []string{"arccosh", "acosh"}, Doc: "returns the inverse hyperbolic cosine of x, at least 0 (NaN below 1).",
		Grad: []string{"g / sqrt(a*a - 1)"}},
	Arctanh: {Name: "arctanh", Arity: 1, Domain: FloatOnly, Go: "T(math.Atanh(float64(a)))", CUDA: "atanh(a)", Cost: 16, VMath: "Atanh",
		GoName: "Arctanh", CLI: []string{"arctanh", "atanh"}, Doc: "returns the inverse hyperbolic tangent of x (±Inf at ±1, NaN outside [-1, 1]).",
		Grad: []string{"g / (1 - a*a)"}},
	Exp2: {Name: "exp2", Arity: 1, Domain: FloatOnly, Go: "T(math.Exp2(float64(a)))", CUDA: "exp2(a)", Cost: 16, VMath: "Exp2_",
		GoName: "Exp2", Doc: "returns 2 raised to x.",
		Grad: []string{"g * (out * 0.6931471805599453)"}},
	Expm1: {Name: "expm1", Arity: 1, Domain: FloatOnly, Go: "T(math.Expm1(float64(a)))", CUDA: "expm1(a)", Cost: 16, VMath: "Expm1_",
		GoName: "Expm1", Doc: "returns e raised to x, minus 1, accurate for x near 0.",
		Grad: []string{"g * (out + 1)"}},
	Log2: {Name: "log2", Arity: 1, Domain: FloatOnly, Go: "scalar.Log2(a)", CUDA: "laze_log2(a)", Cost: 16, VMath: "Log2_",
		GoName: "Log2", Doc: "returns the base-2 logarithm of x.",
		Grad: []string{"g / (a * 0.6931471805599453)"}},
	Log10: {Name: "log10", Arity: 1, Domain: FloatOnly, Go: "scalar.Log10(a)", CUDA: "log10(a)", Cost: 16, VMath: "Log10_",
		GoName: "Log10", Doc: "returns the base-10 logarithm of x.",
		Grad: []string{"g / (a * 2.302585092994046)"}},
	Log1p: {Name: "log1p", Arity: 1, Domain: FloatOnly, Go: "T(math.Log1p(float64(a)))", CUDA: "log1p(a)", Cost: 16, VMath: "Log1p",
		GoName: "Log1p", Doc: "returns the natural logarithm of 1 + x, accurate for x near 0 (-Inf at -1, NaN below).",
		Grad: []string{"g / (a + 1)"}},
	Cbrt: {Name: "cbrt", Arity: 1, Domain: FloatOnly, Go: "T(math.Cbrt(float64(a)))", CUDA: "cbrt(a)", Cost: 16, VMath: "Cbrt",
		GoName: "Cbrt", Doc: "returns the cube root of x (negative for negative x).",
		Grad: []string{"g / (3 * (out * out))"}},
	Erf: {Name: "erf", Arity: 1, Domain: FloatOnly, Go: "T(math.Erf(float64(a)))", CUDA: "erf(a)", Cost: 16, VMath: "Erf",
		GoName: "Erf", Doc: "returns the error function of x (scipy.special.erf, PyTorch's erf).",
		Grad: []string{"g * (1.1283791670955126 * exp(-(a * a)))"}},
	Erfc: {Name: "erfc", Arity: 1, Domain: FloatOnly, Go: "T(math.Erfc(float64(a)))", CUDA: "erfc(a)", Cost: 16, VMath: "Erfc",
		GoName: "Erfc", Doc: "returns the complementary error function of x, 1 - erf(x), accurate where erf(x) is near 1.",
		Grad: []string{"-(g * (1.1283791670955126 * exp(-(a * a))))"}},
	Rsqrt: {Name: "rsqrt", Arity: 1, Domain: FloatOnly, Go: "T(1 / math.Sqrt(float64(a)))", CUDA: "(T)(1.0 / sqrt((double)a))", Cost: 3,
		GoName: "Rsqrt", Doc: "returns 1 / sqrt(x), computed in float64 and rounded to T (PyTorch's rsqrt; ±Inf at ±0, NaN below 0).",
		Grad: []string{"-(g * out / (2 * a))"}},
	Deg2rad: {Name: "deg2rad", Arity: 1, Domain: FloatOnly, Go: "T(float64(a) * (math.Pi / 180))", CUDA: "(T)((double)a * 0.017453292519943295)",
		GoName: "Deg2rad", CLI: []string{"deg2rad", "radians"}, Doc: "returns x degrees in radians, x·π/180, rounded once from float64 (NumPy's deg2rad and radians).",
		Grad: []string{"g * 0.017453292519943295"}},
	Rad2deg: {Name: "rad2deg", Arity: 1, Domain: FloatOnly, Go: "T(float64(a) * (180 / math.Pi))", CUDA: "(T)((double)a * 57.29577951308232)",
		GoName: "Rad2deg", CLI: []string{"rad2deg", "degrees"}, Doc: "returns x radians in degrees, x·180/π, rounded once from float64 (NumPy's rad2deg and degrees).",
		Grad: []string{"g * 57.29577951308232"}},

	Fabs: {Name: "fabs", Arity: 1, Domain: FloatOnly, Go: "T(math.Abs(float64(a)))", CUDA: "fabs(a)", SIMD: "abs(a)",
		GoName: "Fabs", Doc: "returns |x| for floats (NumPy's fabs, which computes integers in a float dtype; Abs keeps them).",
		Grad: []string{"g * sign(a)"}},
	Positive: {Name: "positive", Arity: 1, Go: "a", CUDA: "a", SIMD: "a",
		GoName: "Positive", CLI: []string{"positive", "conj", "conjugate"}, Doc: "returns x (NumPy's positive, +x; conj and conjugate are the identity on real numbers).",
		Grad: []string{"g"}},
	Invert: {Name: "invert", Infix: "~", Arity: 1, Domain: IntOnly, Go: "scalar.Invert(a)", CUDA: "(T)(~a)",
		GoName: "Invert", CLI: []string{"invert", "bitwise_not", "bitwise_invert"}, Doc: "returns the bitwise complement of x, ^x in Go and ~x in NumPy (-x - 1 for signed integers).",
		Grad: []string{""}},
	Signbit: {Name: "signbit", Arity: 1, Go: "scalar.Bool[T](scalar.Signbit(a))", CUDA: "(T)laze_signbit(a)", Truth: true,
		GoName: "Signbit", Doc: "returns 1 where the sign bit of x is set and 0 elsewhere, in T: -0 and a NaN with its sign bit set count as negative; for integers, x < 0.",
		Grad: []string{""}},
	Spacing: {Name: "spacing", Arity: 1, Domain: FloatOnly, Go: "scalar.Spacing(a)", CUDA: "laze_spacing(a)", Cost: 2,
		GoName: "Spacing", Doc: "returns the distance from x to the next representable value away from zero, negative for negative x (NumPy's spacing: the smallest subnormal at ±0, NaN at ±Inf and NaN).",
		Grad: []string{""}},
	Logb: {Name: "logb", Arity: 1, Domain: FloatOnly, Go: "T(math.Logb(float64(a)))", CUDA: "logb(a)", Cost: 2,
		GoName: "Logb", Doc: "returns the binary exponent of x, floor(log2(|x|)) exactly, subnormals included (C's logb, Go's math.Logb: -Inf at ±0, +Inf at ±Inf). Frexp's exponent is Logb(x) + 1.",
		Grad: []string{""}},

	Add: {Name: "add", Infix: "+", Arity: 2, Go: "a + b", CUDA: "a + b", SIMD: "a.Add(b)",
		GoName: "Add", Doc: "returns x + y.",
		Grad: []string{"g", "g"}},
	Sub: {Name: "subtract", Infix: "-", Arity: 2, Go: "a - b", CUDA: "a - b", SIMD: "a.Sub(b)",
		GoName: "Sub", Doc: "returns x - y.",
		Grad: []string{"g", "-g"}},
	Mul: {Name: "multiply", Infix: "*", Arity: 2, Go: "a * b", CUDA: "a * b", SIMD: "a.Mul(b)",
		GoName: "Mul", Doc: "returns x * y.",
		Grad: []string{"g * b", "g * a"}},
	Div: {Name: "divide", Infix: "/", Arity: 2, Go: "scalar.Div(a, b)", CUDA: "laze_div(a, b)", Cost: 2, SIMD: "a.Div(b)",
		GoName: "Div", Doc: "returns x / y: integers use floor division and give 0 where y is 0 (NumPy's floor_divide); floats follow IEEE 754.",
		Grad: []string{"g / b", "-(g * out / b)"}},
	FloorDiv: {Name: "floor_divide", Infix: "//", Arity: 2, Go: "scalar.FloorDiv(a, b)", CUDA: "laze_floordiv(a, b)", Cost: 4,
		GoName: "FloorDiv", Doc: "returns the floor of x / y (NumPy's floor_divide, the // operator): for integers the same as Div; for floats NumPy's rule, so 1 // 0.1 is 9.",
		Grad: []string{"", ""}},
	Mod: {Name: "mod", Infix: "%", Arity: 2, Go: "scalar.Mod(a, b)", CUDA: "laze_mod(a, b)", Cost: 4,
		GoName: "Mod", CLI: []string{"mod", "remainder"}, Doc: "returns the remainder of Div, with the sign of y (NumPy's remainder, Python's %); integers give 0 where y is 0.",
		Grad: []string{"g", "-(g * floor_divide(a, b))"}},
	Pow: {Name: "power", Infix: "**", Arity: 2, Go: "scalar.Pow(a, b)", CUDA: "laze_pow(a, b)", Cost: 24, VMath: "Pow",
		GoName: "Pow", Doc: "returns x raised to y; see docs/design.md for integers.",
		Grad: []string{"where(b == 0, 0, g * (b * power(a, b - 1)))", "where(a == 0 && b >= 0, 0, g * (out * log(a)))"}},
	Maximum: {Name: "maximum", Arity: 2, Go: "scalar.Maximum(a, b)", CUDA: "laze_max(a, b)", SIMD: "maximum(a, b)",
		GoName: "Maximum", Doc: "returns the larger of x and y, NaN if either is NaN.",
		Grad: []string{"where(a == b, g / 2, where(a > b, g, 0))", "where(a == b, g / 2, where(b > a, g, 0))"}},
	Minimum: {Name: "minimum", Arity: 2, Go: "scalar.Minimum(a, b)", CUDA: "laze_min(a, b)", SIMD: "minimum(a, b)",
		GoName: "Minimum", Doc: "returns the smaller of x and y, NaN if either is NaN.",
		Grad: []string{"where(a == b, g / 2, where(a < b, g, 0))", "where(a == b, g / 2, where(b < a, g, 0))"}},
	Eq: {Name: "equal", Infix: "==", Arity: 2, Go: "scalar.Bool[T](a == b)", CUDA: "(T)(a == b)", SIMD: "truth(a.Equal(b))", Truth: true,
		GoName: "Eq", Doc: "returns 1 where x == y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	Ne: {Name: "not_equal", Infix: "!=", Arity: 2, Go: "scalar.Bool[T](a != b)", CUDA: "(T)(a != b)", SIMD: "truth(a.NotEqual(b))", Truth: true,
		GoName: "Ne", Doc: "returns 1 where x != y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	Lt: {Name: "less", Infix: "<", Arity: 2, Go: "scalar.Bool[T](a < b)", CUDA: "(T)(a < b)", SIMD: "truth(a.Less(b))", Truth: true,
		GoName: "Lt", Doc: "returns 1 where x < y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	Le: {Name: "less_equal", Infix: "<=", Arity: 2, Go: "scalar.Bool[T](a <= b)", CUDA: "(T)(a <= b)", SIMD: "truth(a.LessEqual(b))", Truth: true,
		GoName: "Le", Doc: "returns 1 where x <= y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	Gt: {Name: "greater", Infix: ">", Arity: 2, Go: "scalar.Bool[T](a > b)", CUDA: "(T)(a > b)", SIMD: "truth(a.Greater(b))", Truth: true,
		GoName: "Gt", Doc: "returns 1 where x > y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	Ge: {Name: "greater_equal", Infix: ">=", Arity: 2, Go: "scalar.Bool[T](a >= b)", CUDA: "(T)(a >= b)", SIMD: "truth(a.GreaterEqual(b))", Truth: true,
		GoName: "Ge", Doc: "returns 1 where x >= y and 0 elsewhere, in T.",
		Grad: []string{"", ""}},
	LogicalAnd: {Name: "logical_and", Arity: 2, Go: "scalar.Bool[T](a != 0 && b != 0)", CUDA: "(T)(a != (T)0 && b != (T)0)", SIMD: "truth(nonzero(a).And(nonzero(b)))", Truth: true,
		GoName: "LogicalAnd", Doc: "returns 1 where x and y are both nonzero and 0 elsewhere, in T (NaN is nonzero).",
		Grad: []string{"", ""}},
	LogicalOr: {Name: "logical_or", Arity: 2, Go: "scalar.Bool[T](a != 0 || b != 0)", CUDA: "(T)(a != (T)0 || b != (T)0)", SIMD: "truth(nonzero(a).Or(nonzero(b)))", Truth: true,
		GoName: "LogicalOr", Doc: "returns 1 where x or y is nonzero and 0 elsewhere, in T (NaN is nonzero).",
		Grad: []string{"", ""}},
	LogicalXor: {Name: "logical_xor", Arity: 2, Go: "scalar.Bool[T]((a != 0) != (b != 0))", CUDA: "(T)((a != (T)0) != (b != (T)0))", SIMD: "xor(a, b)", Truth: true,
		GoName: "LogicalXor", Doc: "returns 1 where exactly one of x and y is nonzero and 0 elsewhere, in T (NaN is nonzero).",
		Grad: []string{"", ""}},
	Arctan2: {Name: "arctan2", Arity: 2, Domain: FloatOnly, Go: "scalar.Atan2(a, b)", CUDA: "atan2(a, b)", Cost: 20, VMath: "Atan2_",
		GoName: "Arctan2", Params: "y, x", CLI: []string{"arctan2", "atan2"}, Doc: "returns the angle of the point (x, y) from the positive x axis, in radians in [-π, π], the quadrant from both signs (NumPy's arctan2(y, x)).",
		Grad: []string{"g * b / (a*a + b*b)", "-(g * a / (a*a + b*b))"}},
	Hypot: {Name: "hypot", Arity: 2, Domain: FloatOnly, Go: "T(math.Hypot(float64(a), float64(b)))", CUDA: "hypot(a, b)", Cost: 8, VMath: "Hypot",
		GoName: "Hypot", Doc: "returns sqrt(x*x + y*y) without overflow or underflow in between (+Inf if either is ±Inf, even beside NaN).",
		Grad: []string{"g * a / out", "g * b / out"}},
	Copysign: {Name: "copysign", Arity: 2, Domain: FloatOnly, Go: "T(math.Copysign(float64(a), float64(b)))", CUDA: "copysign(a, b)",
		GoName: "Copysign", Doc: "returns x with the sign of y (the sign bit: -0 and -NaN count as negative).",
		Grad: []string{"g * (sign(a) * sign(out))", ""}},
	Nextafter: {Name: "nextafter", Arity: 2, Domain: FloatOnly, Go: "scalar.Nextafter(a, b)", CUDA: "laze_nextafter(a, b)", Cost: 2,
		GoName: "Nextafter", Doc: "returns the next representable value after x toward y, in T (y itself where x == y, as C: nextafter(0, -0) is -0; NaN if either is NaN).",
		Grad: []string{"", ""}},
	Fmax: {Name: "fmax", Arity: 2, Go: "scalar.Fmax(a, b)", CUDA: "laze_fmax(a, b)",
		GoName: "Fmax", Doc: "returns the larger of x and y, ignoring a NaN: the other operand where one is NaN, NaN where both are (NumPy's fmax); of two equal operands the second.",
		Grad: []string{"where(a == b, g / 2, where(a > b || b != b, g, 0))", "where(a == b, g / 2, where(b > a || a != a, g, 0))"}},
	Fmin: {Name: "fmin", Arity: 2, Go: "scalar.Fmin(a, b)", CUDA: "laze_fmin(a, b)",
		GoName: "Fmin", Doc: "returns the smaller of x and y, ignoring a NaN: the other operand where one is NaN, NaN where both are (NumPy's fmin); of two equal operands the second.",
		Grad: []string{"where(a == b, g / 2, where(a < b || b != b, g, 0))", "where(a == b, g / 2, where(b < a || a != a, g, 0))"}},
	Fmod: {Name: "fmod", Arity: 2, Go: "scalar.Fmod(a, b)", CUDA: "laze_fmod(a, b)", Cost: 4,
		GoName: "Fmod", Doc: "returns the remainder of x / y truncated toward zero, with the sign of x (C's fmod, NumPy's fmod; Mod is Python's %); integers give 0 where y is 0, as NumPy.",
		Grad: []string{"g", "-(g * trunc(a / b))"}},
	Logaddexp: {Name: "logaddexp", Arity: 2, Domain: FloatOnly, Go: "scalar.LogAddExp(a, b)", CUDA: "laze_logaddexp(a, b)", Cost: 32, VMath: "Logaddexp",
		GoName: "Logaddexp", Doc: "returns log(exp(x) + exp(y)) without overflow, computed in float64 (NumPy's logaddexp; x + log(2) where x == y, infinities included).",
		Grad: []string{"g * exp(a - out)", "g * exp(b - out)"}},
	Logaddexp2: {Name: "logaddexp2", Arity: 2, Domain: FloatOnly, Go: "scalar.LogAddExp2(a, b)", CUDA: "laze_logaddexp2(a, b)", Cost: 32, VMath: "Logaddexp2_",
		GoName: "Logaddexp2", Doc: "returns log2(2**x + 2**y) without overflow, computed in float64 (NumPy's logaddexp2; x + 1 where x == y).",
		Grad: []string{"g * exp2(a - out)", "g * exp2(b - out)"}},
	Heaviside: {Name: "heaviside", Arity: 2, Domain: FloatOnly, Go: "scalar.Heaviside(a, b)", CUDA: "laze_heaviside(a, b)",
		GoName: "Heaviside", Params: "x, h0", Doc: "returns 0 where x < 0, 1 where x > 0 and h0 where x is ±0; NaN where x is NaN (NumPy's heaviside).",
		Grad: []string{"", ""}},

	BitwiseAnd: {Name: "bitwise_and", Infix: "&", Arity: 2, Domain: IntOnly, Go: "scalar.BitwiseAnd(a, b)", CUDA: "(T)(a & b)",
		GoName: "BitwiseAnd", Doc: "returns the bitwise and of x and y, x & y.",
		Grad: []string{"", ""}},
	BitwiseOr: {Name: "bitwise_or", Infix: "|", Arity: 2, Domain: IntOnly, Go: "scalar.BitwiseOr(a, b)", CUDA: "(T)(a | b)",
		GoName: "BitwiseOr", Doc: "returns the bitwise or of x and y, x | y.",
		Grad: []string{"", ""}},
	BitwiseXor: {Name: "bitwise_xor", Infix: "^", Arity: 2, Domain: IntOnly, Go: "scalar.BitwiseXor(a, b)", CUDA: "(T)(a ^ b)",
		GoName: "BitwiseXor", Doc: "returns the bitwise exclusive or of x and y, x ^ y.",
		Grad: []string{"", ""}},
	LeftShift: {Name: "left_shift", Infix: "<<", Arity: 2, Domain: IntOnly, Go: "scalar.LeftShift(a, b)", CUDA: "laze_lshift(a, b)",
		GoName: "LeftShift", CLI: []string{"left_shift", "bitwise_left_shift"}, Doc: "returns x shifted left by y bits, x << y, the bits past the type's width dropped; 0 where y is negative or at least the width (NumPy's left_shift).",
		Grad: []string{"", ""}},
	RightShift: {Name: "right_shift", Infix: ">>", Arity: 2, Domain: IntOnly, Go: "scalar.RightShift(a, b)", CUDA: "laze_rshift(a, b)",
		GoName: "RightShift", CLI: []string{"right_shift", "bitwise_right_shift"}, Doc: "returns x shifted right by y bits, x >> y, arithmetic for signed types; where y is negative or at least the width, -1 for negative x and 0 otherwise (NumPy's right_shift).",
		Grad: []string{"", ""}},
	Gcd: {Name: "gcd", Arity: 2, Domain: IntOnly, Go: "scalar.Gcd(a, b)", CUDA: "laze_gcd(a, b)", Cost: 16,
		GoName: "Gcd", Doc: "returns the greatest common divisor of |x| and |y|, 0 for gcd(0, 0); the most negative value's magnitude wraps, as in NumPy (gcd(-128, 0) is -128 in int8).",
		Grad: []string{"", ""}},
	Lcm: {Name: "lcm", Arity: 2, Domain: IntOnly, Go: "scalar.Lcm(a, b)", CUDA: "laze_lcm(a, b)", Cost: 16,
		GoName: "Lcm", Doc: "returns the least common multiple of |x| and |y|, |x / gcd(x, y) * y|, 0 where either is 0; it wraps on overflow, as NumPy's does.",
		Grad: []string{"", ""}},
	Ldexp: {Name: "ldexp", Arity: 2, Domain: FloatOnly, Go: "scalar.Ldexp(a, b)", CUDA: "laze_ldexp(a, b)", Cost: 2,
		GoName: "Ldexp", Params: "x, n", Doc: "returns x * 2**n exactly, rounded once (NumPy's ldexp); n is truncated to an integer, NaN where n is NaN.",
		Grad: []string{"ldexp(g, b)", ""}},
	FloatPower: {Name: "float_power", Arity: 2, Domain: FloatOnly, Go: "T(scalar.Pow(float64(a), float64(b)))", CUDA: "(T)laze_pow((double)a, (double)b)", Cost: 24, VMath: "Pow",
		GoName: "FloatPower", Doc: "returns x raised to y computed in float64 and rounded to T (NumPy's float_power, which gives float64 even for float32 operands: the CLI does too).",
		Grad: []string{"where(b == 0, 0, g * (b * float_power(a, b - 1)))", "where(a == 0 && b >= 0, 0, g * (out * log(a)))"}},

	Where: {Name: "where", Arity: 3, Go: "scalar.Where(a, b, c)", CUDA: "(a != (T)0 ? b : c)", SIMD: "where(a, b, c)",
		GoName: "Where", Params: "cond, x, y", Doc: "returns x where cond is nonzero and y elsewhere (NumPy's where); the three broadcast together.",
		Grad: []string{"", "where(a, g, 0)", "where(a, 0, g)"}},
	Clamp: {Name: "clip", Arity: 3, Go: "scalar.Minimum(scalar.Maximum(a, b), c)", CUDA: "laze_min(laze_max(a, b), c)", SIMD: "minimum(maximum(a, b), c)",
		GoName: "Clamp", Params: "x, lo, hi", Doc: "returns x limited to [lo, hi]: minimum(maximum(x, lo), hi), as NumPy's clip; the three broadcast together.",
		Grad: []string{"where(a >= b && a <= c, g, 0)", "where(a < b && b <= c, g, 0)", "where(a > c || b > c, g, 0)"}},
}

// Def returns op's row of the table. It panics when op is not a valid Op.
func (op Op) Def() Def {
	if !op.Valid() {
		panic(fmt.Sprintf("laze: ops: invalid op %d", uint8(op)))
	}
	return table[op]
}

// Valid reports whether op is one of the defined operations.
func (op Op) Valid() bool { return op > Invalid && op < count }

// Cost returns the op's rough time per element relative to an add (at
// least 1), which the CPU evaluator weighs against its parallel threshold.
func (op Op) Cost() int {
	if !op.Valid() {
		return 0
	}
	return max(table[op].Cost, 1)
}

// Arity returns the number of operands op takes, or 0 for an invalid op.
func (op Op) Arity() int {
	if !op.Valid() {
		return 0
	}
	return table[op].Arity
}

// String returns the op's name, or "op(N)" for an invalid op.
func (op Op) String() string {
	if !op.Valid() {
		return fmt.Sprintf("op(%d)", uint8(op))
	}
	return table[op].Name
}

// All returns every valid op, in table order.
func All() []Op {
	all := make([]Op, 0, count-1)
	for op := Invalid + 1; op < count; op++ {
		all = append(all, op)
	}
	return all
}
