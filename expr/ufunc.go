package expr

import (
	"fmt"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// NumPy's ufunc methods for every binary op of the table: reduce,
// accumulate and outer. Where the op is a reduction's fold (add, multiply,
// maximum, minimum, and logical_and, logical_or, fmax, fmin through All,
// Any, NanMax, NanMin) the reduction (or scan) of the table is used, over
// any axes; any other op folds left to right along one axis as NumPy's
// does, op(op(x[0], x[1]), x[2])…, a tree of the axis's length fused into
// one pass (its cost grows with that length: prefer a table reduction
// where one fits).

// UfuncReduce returns NumPy's op.reduce(x, axis): x folded with the binary
// op along the axes Axis names (axis 0 when none, as NumPy's default),
// KeepDims keeping them. Several axes are allowed where the op is a
// reduction's (add, multiply, maximum, minimum, logical_and, logical_or,
// fmax, fmin); another op takes one axis, and panics with an
// ArgumentError given several (NumPy: "not reorderable"), as for an op
// that is not binary. Over an empty axis the table reductions give their
// identity or fail Check as NumPy does; the left fold fails Check (NumPy:
// "no identity").
func UfuncReduce[T tensor.Number](op Op, x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	binaryOnly("UfuncReduce", op)
	o := options(opts)
	if o.axes == nil {
		o.axes = []int{0}
		opts = append(opts, Axis(0))
	}
	switch op {
	case ops.Add:
		return Sum(x, opts...)
	case ops.Mul:
		return Prod(x, opts...)
	case ops.Maximum:
		return Max(x, opts...)
	case ops.Minimum:
		return Min(x, opts...)
	case ops.LogicalAnd:
		return All(x, opts...)
	case ops.LogicalOr:
		return Any(x, opts...)
	case ops.Fmax:
		return NanMax(x, opts...)
	case ops.Fmin:
		return NanMin(x, opts...)
	}
	if len(o.axes) != 1 {
		panic(&shape.ArgumentError{Op: "expr.UfuncReduce", Name: "axis", Value: shape.FormatInts(o.axes),
			Reason: fmt.Sprintf("the reduction of %s is not reorderable, so it takes one axis (as NumPy)", op)})
	}
	acc := Index(x, o.axes[0], 0)
	for i := 1; i < axisLength(x, o.axes[0]); i++ {
		acc = node(op, acc, Index(x, o.axes[0], i))
	}
	if o.keepDims {
		return Unsqueeze(acc, o.axes[0])
	}
	return acc
}

// UfuncAccumulate returns NumPy's op.accumulate(x, axis): the running fold
// of the binary op along axis, of x's shape. add and multiply are CumSum
// and CumProd; any other op builds each running value from the one before,
// op(acc[k-1], x[k]), and stacks them (a tree whose size grows with the
// square of the axis's length when evaluated: for short axes).
func UfuncAccumulate[T tensor.Number](op Op, x Exp[T], axis int) Exp[T] {
	x = bare(x)
	binaryOnly("UfuncAccumulate", op)
	switch op {
	case ops.Add:
		return CumSum(x, axis)
	case ops.Mul:
		return CumProd(x, axis)
	}
	n := axisLength(x, axis)
	if n == 0 {
		return x
	}
	parts := []Exp[T]{Index(x, axis, 0)}
	for i := 1; i < n; i++ {
		parts = append(parts, node(op, parts[i-1], Index(x, axis, i)))
	}
	return Stack(axis, parts...)
}

// UfuncOuter returns NumPy's op.outer(x, y): op of every element of x with
// every element of y, of shape x's shape followed by y's (x gets y's rank
// of trailing axes of size 1, and the two broadcast).
func UfuncOuter[T tensor.Number](op Op, x, y Exp[T]) Exp[T] {
	x, y = bare(x), bare(y)
	binaryOnly("UfuncOuter", op)
	ys, err := new(Shapes).Of(y)
	if err != nil {
		return node(op, x, y) // y fails Check, and so the tree
	}
	for range ys {
		x = Unsqueeze(x, -1)
	}
	return node(op, x, y)
}

// binaryOnly panics with an ArgumentError when op is not a binary op.
func binaryOnly(name string, op Op) {
	if !op.Valid() || op.Arity() != 2 {
		panic(&shape.ArgumentError{Op: "expr." + name, Name: "op", Value: op, Reason: "a ufunc method takes a binary op"})
	}
}

// axisLength returns the length of x's axis (negative from the end), or 1
// when x or the axis is not valid (the tree built with it then fails Check
// at the view naming the fault).
func axisLength(x Node, axis int) int {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return 1
	}
	a, err := shape.Axis("reduce", axis, len(xs))
	if err != nil {
		return 1
	}
	return xs[a]
}
