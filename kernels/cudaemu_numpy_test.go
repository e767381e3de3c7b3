package kernels

import (
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// TestEmulatedNumPyFunctions runs NumPy's reductions, ufunc methods and the
// integer-only ops (trees of the table's reductions and ops, expr's
// numpyreduce.go and ufunc.go) through the generated CUDA in the emulator
// and compares with the host: each tree is one or more device reductions
// with its elementwise operand fused in.
func TestEmulatedNumPyFunctions(t *testing.T) {
	planCacheOff.Store(true)
	defer planCacheOff.Store(false)
	b := emulator(t)
	defer emuTuning()()
	for _, c := range numpyEmuCases[float32](50, 1e-4) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range numpyEmuCases[float64](60, 1e-12) {
		c.name = "float64/" + c.name
		c.run(t, b)
	}
	x := emuTensor(emuRandom[int16](70, 0), 37, 29)
	shifts := emuTensor(func(k int) int16 { return int16(k%40 - 10) }, 37, 29)
	for _, c := range []emuCase[int16, int16]{
		{name: "int16/bitwise_and_shifts", operands: tensors(x, shifts), dst: []int{37, 29},
			build: into(func(x []*tensor.Tensor[int16]) expr.Exp[int16] {
				return expr.BitwiseXor(expr.LeftShift[int16](x[0], x[1]), expr.Of(expr.RightShift[int16](x[0], x[1])).BitwiseOr(expr.Invert[int16](x[1])))
			})},
		{name: "int16/gcd_lcm", operands: tensors(x, shifts), dst: []int{37, 29},
			build: into(func(x []*tensor.Tensor[int16]) expr.Exp[int16] {
				return expr.Add(expr.Gcd[int16](x[0], x[1]), expr.Lcm[int16](x[1], x[0]))
			})},
		{name: "int16/bitwise_or.reduce", operands: tensors(x), dst: []int{29},
			build: into(func(x []*tensor.Tensor[int16]) expr.Exp[int16] {
				return expr.UfuncReduce[int16](ops.BitwiseOr, expr.Slice[int16](x[0], 0, 0, 6, 1))
			})},
	} {
		c.run(t, b)
	}
}

// numpyEmuCases are NumPy's reductions over a 37x29 matrix with NaNs.
func numpyEmuCases[T tensor.Float](seed uint64, tol float64) []emuCase[T, T] {
	rand := emuRandom[T](seed, 4)
	m := emuTensor(func(k int) T {
		if k%7 == 3 {
			return T(math.NaN())
		}
		return rand(k)
	}, 37, 29)
	over := func(f func(x expr.Exp[T]) expr.Exp[T]) func([]*tensor.Tensor[T], *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
		return into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return f(x[0]) })
	}
	return []emuCase[T, T]{
		{name: "nanmean", operands: tensors(m), dst: []int{29}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] { return expr.NanMean(x, expr.Axis(0)) })},
		{name: "nanstd", operands: tensors(m), dst: []int{37}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] { return expr.NanStd(x, expr.Axis(1), expr.DDof(1)) })},
		{name: "nanmax", operands: tensors(m), dst: []int{37, 1}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] { return expr.NanMax(x, expr.Axis(1), expr.KeepDims()) })},
		{name: "all_any", operands: tensors(m), dst: []int{29}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] {
				return expr.Add(expr.All(expr.GtScalar(x, -3), expr.Axis(0)), expr.Any(expr.GtScalar(x, 3.9), expr.Axis(0)))
			})},
		{name: "vector_norm", operands: tensors(m), dst: []int{37}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] {
				return expr.VectorNorm(expr.NanSum(x, expr.Axis(1), expr.KeepDims()), 3, expr.Axis(1))
			})},
		{name: "matrix_norm", operands: tensors(m), dst: []int{}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] {
				return expr.Add(expr.MatrixNorm(expr.NanCumSum(x, 1), math.Inf(1)), expr.FrobeniusNorm(expr.Abs(x)))
			})},
		{name: "subtract.reduce", operands: tensors(m), dst: []int{29}, tol: tol,
			build: over(func(x expr.Exp[T]) expr.Exp[T] { return expr.UfuncReduce(ops.Sub, expr.Slice(x, 0, 0, 5, 1)) })},
	}
}
