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

// concatCases are concatenations and stacks on the device: written part by
// part into the destination's slices, inside a tree, and overlapping the
// destination (a rotation of an operand copied to the destination first).
func concatCases[T tensor.Number](seed uint64) []emuCase[T, T] {
	r := func(k uint64, dims ...int) *tensor.Tensor[T] { return emuTensor(emuRandom[T](seed+k, 2), dims...) }
	return []emuCase[T, T]{
		{name: "concatenate_rows", operands: tensors(r(1, 7, 29), r(2, 5, 29)), dst: []int{12, 29}, key: "map",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Concatenate[T](0, x[0], x[1]) })},
		{name: "concatenate_columns_of_trees", operands: tensors(r(3, 9, 4), r(4, 9, 6)), dst: []int{9, 10}, key: "map",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Concatenate[T](1, expr.Of[T](x[0]).AddScalar(1), expr.Mul[T](x[1], x[1]))
			})},
		{name: "stack_in_a_tree", operands: tensors(r(5, 8, 3), r(6, 8, 3)), dst: []int{2, 8, 3}, key: "map",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Of(expr.Stack[T](0, x[0], x[1])).Sub(x[1])
			})},
		{name: "rotate_in_place", operands: tensors(r(7, 40)), dst: []int{40}, key: "map",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				if err := Assign(d, expr.Of[T](x[0])); err != nil {
					panic(err)
				}
				return d, expr.Concatenate[T](0, d.Narrow(0, 3, 37), d.Narrow(0, 0, 3))
			}},
	}
}

// TestEmulatedConcatenations runs concatenations in the emulator; results
// are exact (copies and elementwise trees).
func TestEmulatedConcatenations(t *testing.T) {
	planCacheOff.Store(true)
	defer planCacheOff.Store(false)
	b := emulator(t)
	for _, c := range concatCases[float32](90) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range concatCases[int16](100) {
		c.name = "int16/" + c.name
		c.run(t, b)
	}
}
