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
)

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
	// a, b and c of one type, using their methods and the lane helpers neg,
	// abs, maximum, minimum, relu, truth and where (kernels/loops_simd_gen.go
	// defines them per vector type). It must give the Go column's result
	// bit for bit. Empty: no lane loop.
	SIMD string
	// VMath names the internal/vmath slice function (Exp gives Exp64 and
	// Exp32) that computes the op for float32/float64 in the SIMD build. It
	// follows the Go column's algorithm step by step and gives its bits (any
	// NaN for NaN); its documented bound is 4 ulp. Empty: none.
	VMath string
}

// table holds every op's definition; see the package doc.
var table = [count]Def{
	Neg:     {Name: "neg", Infix: "-", Arity: 1, Go: "-a", CUDA: "-a", SIMD: "neg(a)"},
	Abs:     {Name: "abs", Arity: 1, Go: "scalar.Abs(a)", CUDA: "laze_abs(a)", SIMD: "abs(a)"},
	Sqrt:    {Name: "sqrt", Arity: 1, Domain: FloatOnly, Go: "T(math.Sqrt(float64(a)))", CUDA: "sqrt(a)", Cost: 2, SIMD: "a.Sqrt()"},
	Exp:     {Name: "exp", Arity: 1, Domain: FloatOnly, Go: "T(math.Exp(float64(a)))", CUDA: "exp(a)", Cost: 16, VMath: "Exp"},
	Log:     {Name: "log", Arity: 1, Domain: FloatOnly, Go: "scalar.Log(a)", CUDA: "log(a)", Cost: 16, VMath: "Log"},
	Sin:     {Name: "sin", Arity: 1, Domain: FloatOnly, Go: "T(math.Sin(float64(a)))", CUDA: "sin(a)", Cost: 16, VMath: "Sin"},
	Cos:     {Name: "cos", Arity: 1, Domain: FloatOnly, Go: "T(math.Cos(float64(a)))", CUDA: "cos(a)", Cost: 16, VMath: "Cos"},
	Tanh:    {Name: "tanh", Arity: 1, Domain: FloatOnly, Go: "T(math.Tanh(float64(a)))", CUDA: "tanh(a)", Cost: 16, VMath: "Tanh"},
	Sigmoid: {Name: "sigmoid", Arity: 1, Domain: FloatOnly, Go: "T(1 / (1 + math.Exp(-float64(a))))", CUDA: "laze_sigmoid(a)", Cost: 16, VMath: "Sigmoid"},
	ReLU:    {Name: "relu", Arity: 1, Go: "scalar.ReLU(a)", CUDA: "laze_relu(a)", SIMD: "relu(a)"},

	Add:      {Name: "add", Infix: "+", Arity: 2, Go: "a + b", CUDA: "a + b", SIMD: "a.Add(b)"},
	Sub:      {Name: "subtract", Infix: "-", Arity: 2, Go: "a - b", CUDA: "a - b", SIMD: "a.Sub(b)"},
	Mul:      {Name: "multiply", Infix: "*", Arity: 2, Go: "a * b", CUDA: "a * b", SIMD: "a.Mul(b)"},
	Div:      {Name: "divide", Infix: "/", Arity: 2, Go: "scalar.Div(a, b)", CUDA: "laze_div(a, b)", Cost: 2, SIMD: "a.Div(b)"},
	FloorDiv: {Name: "floor_divide", Infix: "//", Arity: 2, Go: "scalar.FloorDiv(a, b)", CUDA: "laze_floordiv(a, b)", Cost: 4},
	Mod:      {Name: "mod", Infix: "%", Arity: 2, Go: "scalar.Mod(a, b)", CUDA: "laze_mod(a, b)", Cost: 4},
	Pow:      {Name: "power", Infix: "**", Arity: 2, Go: "scalar.Pow(a, b)", CUDA: "laze_pow(a, b)", Cost: 24, VMath: "Pow"},
	Maximum:  {Name: "maximum", Arity: 2, Go: "scalar.Maximum(a, b)", CUDA: "laze_max(a, b)", SIMD: "maximum(a, b)"},
	Minimum:  {Name: "minimum", Arity: 2, Go: "scalar.Minimum(a, b)", CUDA: "laze_min(a, b)", SIMD: "minimum(a, b)"},
	Eq:       {Name: "equal", Infix: "==", Arity: 2, Go: "scalar.Bool[T](a == b)", CUDA: "(T)(a == b)", SIMD: "truth(a.Equal(b))"},
	Ne:       {Name: "not_equal", Infix: "!=", Arity: 2, Go: "scalar.Bool[T](a != b)", CUDA: "(T)(a != b)", SIMD: "truth(a.NotEqual(b))"},
	Lt:       {Name: "less", Infix: "<", Arity: 2, Go: "scalar.Bool[T](a < b)", CUDA: "(T)(a < b)", SIMD: "truth(a.Less(b))"},
	Le:       {Name: "less_equal", Infix: "<=", Arity: 2, Go: "scalar.Bool[T](a <= b)", CUDA: "(T)(a <= b)", SIMD: "truth(a.LessEqual(b))"},
	Gt:       {Name: "greater", Infix: ">", Arity: 2, Go: "scalar.Bool[T](a > b)", CUDA: "(T)(a > b)", SIMD: "truth(a.Greater(b))"},
	Ge:       {Name: "greater_equal", Infix: ">=", Arity: 2, Go: "scalar.Bool[T](a >= b)", CUDA: "(T)(a >= b)", SIMD: "truth(a.GreaterEqual(b))"},

	Where: {Name: "where", Arity: 3, Go: "scalar.Where(a, b, c)", CUDA: "(a != (T)0 ? b : c)", SIMD: "where(a, b, c)"},
	Clamp: {Name: "clip", Arity: 3, Go: "scalar.Minimum(scalar.Maximum(a, b), c)", CUDA: "laze_min(laze_max(a, b), c)", SIMD: "minimum(maximum(a, b), c)"},
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
