package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// cudaCase is one tree whose CUDA source is generated in a test.
type cudaCase struct {
	name string
	src  func() (string, error)
}

// opNode applies op to the first Arity operands.
func opNode[T tensor.Number](op ops.Op, x ...expr.Exp[T]) expr.Exp[T] {
	switch op.Arity() {
	case 1:
		return &expr.Unary[T]{Op: op, X: x[0]}
	case 2:
		return &expr.Binary[T]{Op: op, X: x[0], Y: x[1]}
	}
	return &expr.Ternary[T]{Op: op, X: x[0], Y: x[1], Z: x[2]}
}

// layoutCases returns, for one op and element type, the op's tree over
// operands in each layout the generator distinguishes: contiguous (the
// flat path), broadcast and transposed (the strided path), a scalar
// parameter, and the op folded by a sum and compared by an argmax (the
// reduction paths).
func layoutCases[T tensor.Number](op ops.Op) []cudaCase {
	a := tensor.Arange[T](1, 13, 1)
	a34, _ := a.View(3, 4)
	b34 := tensor.Ones[T](3, 4)
	row := tensor.Ones[T](4)
	a43 := tensor.Ones[T](4, 3)
	dst := tensor.Zeros[T](3, 4)
	name := fmt.Sprintf("%v/%s", op, tensor.DTypeOf[T]().String())
	tree := func(x ...expr.Exp[T]) expr.Exp[T] { return opNode(op, x...) }
	return []cudaCase{
		{name + "/contiguous", func() (string, error) { return CUDASource(dst, tree(a34, b34, b34)) }},
		{name + "/broadcast", func() (string, error) { return CUDASource(dst, tree(a34, row, b34)) }},
		{name + "/transposed", func() (string, error) { return CUDASource(dst, tree(a43.T(), a34, row)) }},
		{name + "/scalar", func() (string, error) { return CUDASource(dst, tree(a34, expr.Scalar(T(2)), expr.Scalar(T(3)))) }},
		{name + "/sum", func() (string, error) {
			return CUDASource(tensor.Zeros[T](3), expr.Of[T](expr.Sum(tree(a34, b34, row), expr.Axis(1))))
		}},
		{name + "/argmax", func() (string, error) {
			return CUDASource(tensor.Zeros[int64](4), expr.Of[int64](expr.ArgMax(tree(a34, row, b34), expr.Axis(0))))
		}},
	}
}

// cudaCasesOf lists every op's layout cases for T, leaving out the ops T's
// domain excludes.
func cudaCasesOf[T tensor.Number]() []cudaCase {
	var cases []cudaCase
	for _, op := range ops.All() {
		if !op.Def().Domain.Accepts(tensor.IsFloat[T]()) {
			continue
		}
		cases = append(cases, layoutCases[T](op)...)
	}
	return cases
}

// cudaDTypes lists the element types whose kernels are compiled in tests:
// the four the GPU backend is measured on and one of each other C type.
var cudaDTypes = []struct {
	name  string
	cases func() []cudaCase
}{
	{"float32", cudaCasesOf[float32]},
	{"float64", cudaCasesOf[float64]},
	{"int32", cudaCasesOf[int32]},
	{"int64", cudaCasesOf[int64]},
	{"int8", cudaCasesOf[int8]},
	{"int16", cudaCasesOf[int16]},
	{"uint8", cudaCasesOf[uint8]},
	{"uint16", cudaCasesOf[uint16]},
	{"uint32", cudaCasesOf[uint32]},
	{"uint64", cudaCasesOf[uint64]},
}
