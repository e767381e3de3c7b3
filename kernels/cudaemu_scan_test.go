package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// scanCases are cumulative sums and products along each kind of axis (the
// first, a middle one, the last), of a tensor, of a tree, of a transposed
// view (copied first), inside a larger tree, and with no elements.
func scanCases[T tensor.Number](seed uint64) []emuCase[T, T] {
	r := func(k uint64, dims ...int) *tensor.Tensor[T] { return emuTensor(emuRandom[T](seed+k, 2), dims...) }
	scanOf := func(op func(expr.Exp[T], int) expr.Exp[T], axis int, f func(x []*tensor.Tensor[T]) expr.Exp[T]) func([]*tensor.Tensor[T], *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
		return into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return op(f(x), axis) })
	}
	first := func(x []*tensor.Tensor[T]) expr.Exp[T] { return x[0] }
	return []emuCase[T, T]{
		{name: "cumsum_last", operands: tensors(r(1, 37, 29)), dst: []int{37, 29}, key: "scan sum", build: scanOf(expr.CumSum[T], -1, first)},
		{name: "cumsum_first", operands: tensors(r(2, 37, 29)), dst: []int{37, 29}, key: "scan sum", build: scanOf(expr.CumSum[T], 0, first)},
		{name: "cumprod_middle", operands: tensors(r(3, 5, 7, 9)), dst: []int{5, 7, 9}, key: "scan prod", build: scanOf(expr.CumProd[T], 1, first)},
		{name: "cumsum_of_tree", operands: tensors(r(4, 300), r(5, 300)), dst: []int{300}, key: "map",
			build: scanOf(expr.CumSum[T], 0, func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Mul[T](x[0], x[1]) })},
		{name: "cumsum_transposed", operands: tensors(r(6, 13, 11)), dst: []int{11, 13}, key: "map",
			build: scanOf(expr.CumSum[T], 1, func(x []*tensor.Tensor[T]) expr.Exp[T] { return x[0].T() })},
		{name: "in_a_tree", operands: tensors(r(7, 17, 19)), dst: []int{17, 19}, key: "scan prod",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Of(expr.CumProd[T](x[0], 0)).Add(x[0])
			})},
	}
}

// TestEmulatedScans runs the scan kernel in the emulator. Results are
// exact: each line is folded in the same order on both sides.
func TestEmulatedScans(t *testing.T) {
	planCacheOff.Store(true)
	defer planCacheOff.Store(false)
	b := emulator(t)
	for _, c := range scanCases[float32](50) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range scanCases[float64](60) {
		c.name = "float64/" + c.name
		c.run(t, b)
	}
	for _, c := range scanCases[int8](70) {
		c.name = "int8/" + c.name
		c.run(t, b)
	}
	for _, c := range scanCases[uint32](80) {
		c.name = "uint32/" + c.name
		c.run(t, b)
	}
}
