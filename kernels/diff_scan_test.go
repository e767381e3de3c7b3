package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// scan makes a cumulative sum or product whose result broadcasts to dims
// (is dims when full) over a random subtree, along a random axis (counted
// from the end half the time); nil for a scalar result or an operand too
// large. Both the evaluator and the oracle fold each line first element
// first, so even float results agree exactly.
func (sc *scene[T]) scan(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	out := dims
	if !full {
		out = ownShape(src, dims)
	}
	if n, _ := out.Size(); len(out) == 0 || n > maxOperand {
		return nil
	}
	axis := src.next(len(out))
	if src.next(2) == 0 {
		axis -= len(out)
	}
	op := ops.Sum
	if src.next(2) == 0 && !(tensor.IsFloat[T]() && sc.rounding) { // float products grow past any tolerance
		op = ops.Prod
	}
	sc.nested++
	x := sc.node(src, out, depth-1, true)
	sc.nested--
	return &expr.Scan[T]{Op: op, X: x, Axis: axis}
}

// concatenation makes a concatenation (of one to three parts, some maybe
// empty) or a stack whose result broadcasts to dims (is dims when full),
// each part a random subtree; nil for a scalar result.
func (sc *scene[T]) concatenation(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	out := dims
	if !full {
		out = ownShape(src, dims)
	}
	if len(out) == 0 {
		return nil
	}
	d := src.next(len(out))
	axis := d
	if src.next(2) == 0 {
		axis -= len(out)
	}
	sc.nested++
	defer func() { sc.nested-- }()
	if out[d] > 0 && out[d] <= 3 && src.next(2) == 0 {
		part := append(append(shape.Shape{}, out[:d]...), out[d+1:]...)
		parts := make([]expr.Exp[T], out[d])
		for i := range parts {
			parts[i] = sc.node(src, part, depth-1, true)
		}
		return &expr.Concatenation[T]{Axis: axis, Parts: parts, Stack: true}
	}
	var parts []expr.Exp[T]
	left := out[d]
	for k := 1 + src.next(3); k > 0; k-- {
		n := left
		if k > 1 {
			n = src.next(left + 1)
		}
		left -= n
		part := out.Clone()
		part[d] = n
		parts = append(parts, sc.node(src, part, depth-1, true))
	}
	return &expr.Concatenation[T]{Axis: axis, Parts: parts}
}
