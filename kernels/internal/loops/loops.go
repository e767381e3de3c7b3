package loops

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/vmath"
	"github.com/laze-go/laze/tensor"
)

// The package's surface, as kernels' CPU executor calls it. The loops
// themselves are generated from the op table (loops_gen.go, the scalar
// loops; loops_vmath_gen.go and loops_simd_gen.go, the vector dispatch)
// and by kernels/internal/vmath/asmgen (zlanes_amd64.*, the AVX2 lane
// assembly); these names and block.go's (a reduction's folds of a block,
// a block's gather and store) are all kernels uses (ApproxFloat32 serves
// its tests).

// PatVV and PatVVV are the operand patterns of a binary and a ternary op
// whose operands are all vectors: the patterns Pattern gives for a scalar
// mask of 0, which the fusion of pairs and triples requires.
const (
	PatVV  = patVV
	PatVVV = patVVV
)

// Pattern returns the operand pattern of an op of the given arity (1 to
// 3) whose operands are scalars where mask has a bit set (bit i: operand
// i): the pat the Compute functions take. It is 0 when every operand is a
// scalar, which no loop computes (the value is a constant).
func Pattern(arity, mask int) uint8 { return patternCodes[arity][mask] }

// Compute sets d to op over the block's operands args in pattern pat, with
// the vector code the selected ISA level has (kernels/internal/isa) and
// the scalar loop for the rest.
func Compute[T tensor.Number](op ops.Op, pat uint8, d []T, args *[3]Value[T]) {
	compute(op, pat, d, args)
}

// FusedPair returns the number of the fused loop computing op2(op1(a, b),
// c) in one pass, or 0 when there is none.
func FusedPair(op1, op2 ops.Op) uint8 { return fusedPair(op1, op2) }

// ComputeFused is Compute for the fused pair numbered pair.
func ComputeFused[T tensor.Number](pair, pat uint8, d []T, args *[3]Value[T]) {
	computeFused(pair, pat, d, args)
}

// FusedTriple returns the number of the fused loop computing
// op3(op2(op1(x, y), z), w) over four vectors, or 0 when there is none.
func FusedTriple(op1, op2, op3 ops.Op) uint8 { return fusedTriple(op1, op2, op3) }

// ComputeTriple is Compute for the fused triple numbered triple, whose four
// operands are vectors.
func ComputeTriple[T tensor.Number](triple uint8, d, x, y, z, w []T) {
	computeTriple(triple, d, x, y, z, w)
}

// LanesOn reports whether the selected level runs the AVX2 lane assembly
// (the executor streams long rows in blocks that suit it).
func LanesOn() bool { return lanesOn() }

// ApproxFloat32 reports whether the lane loops compute op in float32 with
// kernels/internal/vmath's float32 polynomials (every op of the table with
// a VMath kernel but those of vmathThroughFloat64: exp, log, tanh,
// sigmoid, sin, cos, log10, log2, cosh, sinh, exp2, expm1, log1p, tan,
// arctan, arcsin, arccos, arcsinh, arccosh, arctanh, cbrt, arctan2, power,
// float_power), whose results are
// within vmath's 4-ulp rule of the scalar loop's rather than equal to them,
// where vmath.Approx32 says they run.
func ApproxFloat32(op ops.Op) bool {
	return op.Def().VMath != "" && !vmathThroughFloat64[op]
}

// ApproxFloat64 reports whether the lane loops compute op in float64 with a
// kernels/internal/vmath kernel of the selected level's own (vmath.Approx64:
// most float64 functions at the AVX-512 level, and power at every vector
// level), whose results are within vmath's 4-ulp rule of
// the scalar loop's rather than equal to them.
func ApproxFloat64(op ops.Op) bool {
	name := op.Def().VMath
	return name != "" && vmath.Approx64(name)
}

// vmathThroughFloat64 are the ops whose float32 vmath kernels compute in
// float64 (or run a float64 kernel over converted blocks) and so give the
// scalar loop's bits: erf, erfc and the functions of two operands but
// arctan2 and pow (pow and float_power, the same function on floats, have
// a float32 kernel of their own in float64 lanes, within an ulp).
var vmathThroughFloat64 = map[ops.Op]bool{ops.Erf: true, ops.Erfc: true, ops.Hypot: true,
	ops.Logaddexp: true, ops.Logaddexp2: true}
