package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// The node kinds of package expr, as this package evaluates them. Lowering
// (lowering.node, lower.go) turns a tensor, a constant, an op node
// (expr.Elementwise), a view and a matrix product into the instructions of
// the pass it is lowering, looks through names and chains, and reads the
// nodes whose operand has another element type (casts, arg reductions:
// expr.Foreign) through cast.go; every other kind runs as steps of its own
// into a temporary that the pass then reads, and stepsOf is its one table: a new
// kind of that sort is a row here and a file of its own holding the
// function that computes it and its steps (run on the CPU, launch on a
// device, describe for Explain). The alias analysis reads every kind
// through expr.Parent's operands and needs no row. See docs/design.md,
// "How to add a node kind".

// stepsOf returns the function that computes n into a tensor of its own,
// for a node kind that runs as steps of its own, or nil.
func stepsOf[T tensor.Number](ev *evaluation, n expr.Exp[T]) func() (*tensor.Tensor[T], error) {
	switch n := n.(type) {
	case *expr.Reduction[T]: // reduce.go
		return func() (*tensor.Tensor[T], error) { return reduce(ev, n) }
	case *expr.Scan[T]: // scan.go
		return func() (*tensor.Tensor[T], error) { return scan(ev, n) }
	case *expr.Gather[T]: // gather.go
		return func() (*tensor.Tensor[T], error) { return gather(ev, n) }
	case *expr.ScatterAdd[T]: // scatter.go
		return func() (*tensor.Tensor[T], error) { return scatterAdd(ev, n) }
	case *expr.Concatenation[T]: // concat.go
		return func() (*tensor.Tensor[T], error) { return concatenated(ev, n) }
	case *expr.Sorting[T]: // sort.go
		return func() (*tensor.Tensor[T], error) { return sortValues(ev, n) }
	}
	return nil
}
