package expr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// NumPy's contractions (issue 32, point 5): Dot, Inner, Tensordot and
// Einsum (einsum.go) are compositions of MatMul (matmul.go), views
// (Permute, Reshape, Squeeze, Diagonal) and Sum, with no node kind of their
// own, so that gradients, alias analysis and the CPU and GPU evaluators
// treat them as the nodes they are made of. Every pairwise contraction is
// lowered the same way (contractPair): the operands' axes permuted to
// (batch, free, contracted) and (batch, contracted, free), the free and
// contracted groups reshaped to one dimension each, one MatMul with the
// batch dimensions as its stack dimensions, and a reshape of the product
// back to the free dimensions. A contraction over no axis is an
// elementwise product of broadcast views instead, which fuses.
//
// Arguments that make no contraction (an axis out of range, dimensions of
// different sizes, subscripts that do not parse) give the unexported
// failed node, which Check reports as a NodeError wrapping the typed error.

// operandShapes returns the shapes of xs, checked, or, when one of them has
// none, the node to return in place of the contraction: a failed node for
// a missing (nil) operand, or the operand itself, whose own error Check
// then reports.
func operandShapes[T tensor.Number](op string, xs []Exp[T]) ([]shape.Shape, Exp[T]) {
	var sh Shapes
	out := make([]shape.Shape, len(xs))
	for i, x := range xs {
		if isNil(x) {
			reason := "an operand is missing"
			if x != nil {
				reason = "the operand is a nil pointer"
			}
			return nil, failedNode[T](op+"(…)", &shape.ArgumentError{Op: op, Name: fmt.Sprintf("operand %d", i),
				Value: nilValue(x), Reason: reason})
		}
		s, err := sh.Of(x)
		if err != nil {
			return nil, x
		}
		out[i] = s
	}
	return out, nil
}

// Dot returns the dot product of a and b with numpy.dot's rules: a 0-D
// operand multiplies the other elementwise; two 1-D operands give their
// inner product; a 2-D and a 2-D operand their matrix product; an N-D a
// and a 1-D b the sum over a's last axis; and in general (a of N ≥ 2
// dimensions, b of M ≥ 2)
//
//	dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m])
//
// computed as one GEMM (Tensordot over a's last and b's second-to-last
// axes), which with two 2-D operands is MatMul(a, b) itself. Sizes that do
// not match are a ShapeError naming both shapes at Check.
func Dot[T tensor.Number](a, b Exp[T]) Exp[T] {
	s, bad := operandShapes("dot", []Exp[T]{a, b})
	if bad != nil {
		return bad
	}
	as, bs := s[0], s[1]
	if len(as) == 0 || len(bs) == 0 {
		return Mul(a, b)
	}
	da, db := len(as)-1, max(len(bs)-2, 0)
	if as[da] != bs[db] {
		return failedNode[T](fmt.Sprintf("dot(%s, %s)", render(a), render(b)), &shape.ShapeError{Op: "dot",
			Shapes: []shape.Shape{as.Clone(), bs.Clone()},
			Reason: fmt.Sprintf("shapes not aligned: %d (dim %d) != %d (dim %d)", as[da], da, bs[db], db)})
	}
	if len(as) == 1 || len(bs) == 1 {
		// A vector: matmul's rules are dot's (the vector's dimension removed).
		return MatMul(a, b)
	}
	return tensordot(a, b, as, bs, []int{da}, []int{db})
}

// Inner returns the inner product of a and b over their last axes, as
// numpy.inner: a 0-D operand multiplies the other, and otherwise
//
//	inner(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, m, :])
//
// of shape a.shape[:-1] + b.shape[:-1] (Tensordot over both last axes).
// Last dimensions of different sizes are a ShapeError at Check.
func Inner[T tensor.Number](a, b Exp[T]) Exp[T] {
	s, bad := operandShapes("inner", []Exp[T]{a, b})
	if bad != nil {
		return bad
	}
	as, bs := s[0], s[1]
	if len(as) == 0 || len(bs) == 0 {
		return Mul(a, b)
	}
	if as[len(as)-1] != bs[len(bs)-1] {
		return failedNode[T](fmt.Sprintf("inner(%s, %s)", render(a), render(b)), &shape.ShapeError{Op: "inner",
			Shapes: []shape.Shape{as.Clone(), bs.Clone()},
			Reason: fmt.Sprintf("the last dimensions differ (%d and %d)", as[len(as)-1], bs[len(bs)-1])})
	}
	return tensordot(a, b, as, bs, []int{len(as) - 1}, []int{len(bs) - 1})
}

// Tensordot returns the sum of the products of a's and b's elements over
// axes axesA of a and axesB of b, paired in order, as numpy.tensordot(a,
// b, axes=(axesA, axesB)): the result's dimensions are a's other
// dimensions, then b's, in order. It is one GEMM: the contracted axes
// permuted to the end of a and the front of b, each operand reshaped to a
// matrix, one MatMul, and the product reshaped back. Negative axes count
// from the end. Lists of different lengths or with an axis twice are an
// ArgumentError, an axis out of range a DimensionError, and paired
// dimensions of different sizes a ShapeError, each naming the axes and
// both shapes, at Check.
func Tensordot[T tensor.Number](a, b Exp[T], axesA, axesB []int) Exp[T] {
	s, bad := operandShapes("tensordot", []Exp[T]{a, b})
	if bad != nil {
		return bad
	}
	text := fmt.Sprintf("tensordot(%s, %s, axes=(%s, %s))", render(a), render(b), shape.FormatInts(axesA), shape.FormatInts(axesB))
	as, bs := s[0], s[1]
	if len(axesA) != len(axesB) {
		return failedNode[T](text, &shape.ArgumentError{Op: "tensordot", Name: "axes",
			Value: fmt.Sprintf("(%s, %s)", shape.FormatInts(axesA), shape.FormatInts(axesB)),
			Reason: fmt.Sprintf("%d axes of the first operand %v against %d of the second %v: the lists must have the same length",
				len(axesA), as, len(axesB), bs)})
	}
	na, err := contractedAxes(axesA, as, "first")
	if err == nil {
		var nb []int
		if nb, err = contractedAxes(axesB, bs, "second"); err == nil {
			for i := range na {
				if as[na[i]] != bs[nb[i]] {
					err = &shape.ShapeError{Op: "tensordot", Shapes: []shape.Shape{as.Clone(), bs.Clone()},
						Reason: fmt.Sprintf("shape-mismatch for sum: axis %d of the first has size %d, axis %d of the second size %d",
							axesA[i], as[na[i]], axesB[i], bs[nb[i]])}
					break
				}
			}
			axesB = nb
		}
	}
	if err != nil {
		return failedNode[T](text, err)
	}
	return tensordot(a, b, as, bs, na, axesB)
}

// TensordotN returns numpy.tensordot(a, b, axes=n): the sum over the last
// n axes of a and the first n of b (n = 0 is the outer product). A
// negative n, or one past either operand's rank, is an ArgumentError
// naming n and both shapes, at Check.
func TensordotN[T tensor.Number](a, b Exp[T], n int) Exp[T] {
	s, bad := operandShapes("tensordot", []Exp[T]{a, b})
	if bad != nil {
		return bad
	}
	as, bs := s[0], s[1]
	if n < 0 || n > len(as) || n > len(bs) {
		return failedNode[T](fmt.Sprintf("tensordot(%s, %s, axes=%d)", render(a), render(b), n), &shape.ArgumentError{
			Op: "tensordot", Name: "axes", Value: n,
			Reason: fmt.Sprintf("must be between 0 and the smaller rank of %v and %v", as, bs)})
	}
	axesA, axesB := make([]int, n), make([]int, n)
	for i := range n {
		axesA[i], axesB[i] = len(as)-n+i, i
	}
	return Tensordot(a, b, axesA, axesB)
}

// contractedAxes normalises the axes of operand which (of shape s): an
// axis out of range is a DimensionError, one given twice an
// ArgumentError, each naming the operand's shape.
func contractedAxes(axes []int, s shape.Shape, which string) ([]int, error) {
	out := make([]int, len(axes))
	for i, a := range axes {
		d := a
		if d < 0 {
			d += len(s)
		}
		if d < 0 || d >= len(s) {
			return nil, &shape.DimensionError{Op: "tensordot", Dim: a, NDim: len(s),
				Reason: fmt.Sprintf("out of range for the %s operand, of shape %v", which, s)}
		}
		if slices.Contains(out[:i], d) {
			return nil, &shape.ArgumentError{Op: "tensordot", Name: "axes", Value: shape.FormatInts(axes),
				Reason: fmt.Sprintf("axis %d of the %s operand, of shape %v, is given twice", a, which, s)}
		}
		out[i] = d
	}
	return out, nil
}

// tensordot contracts axes sumA of a (shape as) with axes sumB of b (shape
// bs), normalised and checked: a's other axes, then b's, are the result's.
func tensordot[T tensor.Number](a, b Exp[T], as, bs shape.Shape, sumA, sumB []int) Exp[T] {
	p := pairAxes{sumA: sumA, sumB: sumB}
	for d := range as {
		if !slices.Contains(sumA, d) {
			p.freeA = append(p.freeA, d)
		}
	}
	for d := range bs {
		if !slices.Contains(sumB, d) {
			p.freeB = append(p.freeB, d)
		}
	}
	return contractPair(a, b, as, bs, p)
}

// pairAxes says how a pairwise contraction treats each axis of its two
// operands: batch axes (batchA[i] of a with batchB[i] of b) stay, in that
// order, first in the result; free axes of a, then of b, follow; and
// contracted axes (sumA[i] with sumB[i]) are summed over. Paired axes
// have the same size. Every axis of each operand is in one group.
type pairAxes struct {
	batchA, batchB []int
	freeA, freeB   []int
	sumA, sumB     []int
}

// contractPair lowers the contraction p of a and b (shapes as and bs) to
// one MatMul: a permuted to (batch, free, contracted) and b to (batch,
// contracted, free), the free and contracted groups reshaped to one
// dimension each (a group of free axes that is empty makes the operand a
// vector, which MatMul's rules handle without an added dimension), the
// product reshaped to (batch, free of a, free of b). Views that change
// nothing are left out, so that a plain matrix product is MatMul(a, b)
// itself. With no contracted axis it is the elementwise product of the
// operands' views broadcast against each other, and with batch axes but
// no free ones (a dot product per batch element) that product summed
// over the contracted axes: both fuse, with no GEMM.
func contractPair[T tensor.Number](a, b Exp[T], as, bs shape.Shape, p pairAxes) Exp[T] {
	pick := func(s shape.Shape, axes []int) []int {
		out := make([]int, len(axes))
		for i, d := range axes {
			out[i] = s[d]
		}
		return out
	}
	batch, freeA, freeB := pick(as, p.batchA), pick(as, p.freeA), pick(bs, p.freeB)
	result := slices.Concat(batch, freeA, freeB)
	if len(p.sumA) == 0 {
		x := reshapeTo(permuteTo(a, slices.Concat(p.batchA, p.freeA)), as, p.batchA, p.freeA,
			slices.Concat(batch, freeA, ones(len(freeB))))
		y := reshapeTo(permuteTo(b, slices.Concat(p.batchB, p.freeB)), bs, p.batchB, p.freeB,
			slices.Concat(batch, ones(len(freeA)), freeB))
		return Mul(x, y)
	}
	if len(batch) > 0 && len(freeA) == 0 && len(freeB) == 0 {
		// One dot product per batch element ("ij,ij->i"): a GEMM of 1×1
		// matrices would be a step of its own; the elementwise product
		// summed over the contracted axes is one fused pass.
		x := permuteTo(a, slices.Concat(p.batchA, p.sumA))
		y := permuteTo(b, slices.Concat(p.batchB, p.sumB))
		axes := make([]int, len(p.sumA))
		for i := range axes {
			axes[i] = len(batch) + i
		}
		return Sum(Mul(x, y), Axis(axes...))
	}
	k := product(pick(as, p.sumA))
	var x, y Exp[T]
	var xs, ys []int
	switch {
	case len(batch) == 0 && len(freeA) == 0:
		xs = []int{k}
	default:
		xs = slices.Concat(batch, []int{product(freeA), k})
	}
	switch {
	case len(batch) == 0 && len(freeB) == 0:
		ys = []int{k}
	default:
		ys = slices.Concat(batch, []int{k, product(freeB)})
	}
	x = reshapeTo(permuteTo(a, slices.Concat(p.batchA, p.freeA, p.sumA)), as, p.batchA, slices.Concat(p.freeA, p.sumA), xs)
	y = reshapeTo(permuteTo(b, slices.Concat(p.batchB, p.sumB, p.freeB)), bs, p.batchB, slices.Concat(p.sumB, p.freeB), ys)
	out := MatMul(x, y)
	g, _ := ProductShape(xs, ys) // the shapes multiply by construction
	if !g.Result.Equal(result) {
		return Reshape(out, result...)
	}
	return out
}

// permuteTo returns Permute(x, order...), or x when order is the identity.
func permuteTo[T tensor.Number](x Exp[T], order []int) Exp[T] {
	for i, d := range order {
		if i != d {
			return Permute(x, order...)
		}
	}
	return x
}

// reshapeTo returns Reshape(x, dims...) for x, which is an operand of
// shape s permuted to the axes lead then rest, or x when that shape is
// dims already.
func reshapeTo[T tensor.Number](x Exp[T], s shape.Shape, lead, rest []int, dims []int) Exp[T] {
	order := slices.Concat(lead, rest)
	if len(order) == len(dims) {
		same := true
		for i, d := range order {
			same = same && s[d] == dims[i]
		}
		if same {
			return x
		}
	}
	return Reshape(x, dims...)
}

// ones returns n ones.
func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// product returns the product of dims (1 for none). The dimensions come
// from checked shapes, whose element counts fit in an int.
func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

// formatLabels writes einsum labels as the subscripts name them.
func formatLabels(labels []int) string {
	var b strings.Builder
	for _, l := range labels {
		b.WriteString(labelName(l))
	}
	return b.String()
}
