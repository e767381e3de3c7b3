package grad

import (
	"fmt"
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// backwardAs passes the gradient of n, a node of element type S, on to its
// operands. It reports false when n is not of element type S.
func backwardAs[S tensor.Float](b *builder, n expr.Node) (bool, error) {
	e, ok := n.(expr.Exp[S])
	if !ok {
		return false, nil
	}
	g, _ := total[S](b, n)
	switch x := e.(type) {
	case *tensor.Tensor[S], *expr.Const[S], *expr.Generator[S]:
		return true, nil
	case expr.Elementwise[S]:
		op, xs, k := x.OpParts()
		elementwise(b, x, op, g, xs[:k]...)
	case *expr.Reduction[S]:
		return true, reduction(b, x, g)
	case *expr.MatProduct[S]:
		product(b, x, g)
	case *expr.View[S]:
		return true, viewRule(b, x, g)
	case *expr.Scan[S]:
		scanRule(b, x, g)
	case *expr.Concatenation[S]:
		return true, concatRule(b, x, g)
	case *expr.Gather[S]: // gather.go
		gatherRule(b, x, g)
	case *expr.ScatterAdd[S]: // gather.go
		scatterRule(b, x, g)
	case *expr.Sorting[S]: // sort.go
		sortRule(b, x, g)
	case *expr.Conversion[S, float64]:
		b.add(strip[float64](x.X), contribution{e: expr.Cast[float64](exact[S](g, b.shapeOf(x))), s: b.shapeOf(x)})
	case *expr.Conversion[S, float32]:
		b.add(strip[float32](x.X), contribution{e: expr.Cast[float32](exact[S](g, b.shapeOf(x))), s: b.shapeOf(x)})
	default:
		if floatOperands(n) {
			return true, &shape.ArgumentError{Op: "grad", Name: "node", Value: fmt.Sprintf("%T", n),
				Reason: "grad has no derivative for this node type"}
		}
		// A conversion from integers, or a node of integers: no gradient
		// flows through integers.
	}
	return true, nil
}

// floatOperands reports whether any operand of n has a floating-point
// element type.
func floatOperands(n expr.Node) bool {
	p, ok := n.(expr.Parent)
	if !ok {
		return false
	}
	for _, x := range p.Operands() {
		switch x.(type) {
		case expr.Exp[float64], expr.Exp[float32]:
			return true
		}
	}
	return false
}

// elementwise passes g through an op node out = op(xs...) by the op's Grad
// rules, then sums each operand's part over the dimensions it was
// broadcast along.
func elementwise[S tensor.Float](b *builder, out expr.Exp[S], op ops.Op, g contribution, xs ...expr.Exp[S]) {
	// The rules read the operands as the tree holds them (a Named one
	// keeps its name when the gradient is printed); gradients are gathered
	// by the node below the names.
	var args, read [3]expr.Exp[S]
	for i, x := range xs {
		args[i], read[i] = strip(x), x
	}
	ge := g.e.(expr.Exp[S])
	for i, x := range args[:len(xs)] {
		if !b.needs[x] {
			continue
		}
		c := opGradient(op, i, read[0], read[1], read[2], out, ge)
		if c == nil {
			continue
		}
		s := ruleShape(b, op, i, args[:len(xs)], out, g.s)
		// The rule's tree may be smaller than out (g constant along a
		// reduced dimension, the rule reading neither operand there): where
		// x was broadcast along such a dimension, each of its elements
		// still takes out's count of contributions, so stretch the tree to
		// out's shape before summing it back to x's.
		if os := b.shapeOf(out); !s.Equal(os) && !b.shapeOf(x).Equal(os) {
			c, s = exact[S](contribution{e: c, s: s}, os), os
		}
		b.add(x, unbroadcast[S](contribution{e: c, s: s}, b.shapeOf(x)))
	}
}

// ruleShape is the shape of the tree of op's Grad rule for operand i: the
// shapes of what it reads broadcast together.
func ruleShape[S tensor.Float](b *builder, op ops.Op, i int, args []expr.Exp[S], out expr.Exp[S], gs shape.Shape) shape.Shape {
	reads := ruleReads(op, i)
	s := gs
	for k, x := range args {
		if reads&(1<<k) != 0 {
			s = mustBroadcast(s, b.shapeOf(x))
		}
	}
	if reads&8 != 0 {
		s = mustBroadcast(s, b.shapeOf(out))
	}
	return s
}

func mustBroadcast(x, y shape.Shape) shape.Shape {
	s, err := shape.Broadcast(x, y)
	if err != nil {
		panic(err) // the tree passed Check: its shapes broadcast
	}
	return s
}

// unbroadcast sums c over the dimensions along which an operand of shape
// xs was broadcast to c's shape: the leading dimensions xs lacks, and those
// where xs has size 1 and c more. The result's shape broadcasts to xs.
func unbroadcast[S tensor.Float](c contribution, xs shape.Shape) contribution {
	lead := len(c.s) - len(xs)
	var axes []int
	for d, n := range c.s {
		if d < lead {
			if n != 1 {
				axes = append(axes, d)
			}
			continue
		}
		if xs[d-lead] == 1 && n != 1 {
			axes = append(axes, d)
		}
	}
	if len(axes) == 0 && lead <= 0 {
		return c
	}
	kept := c.s.Clone()
	for _, d := range axes {
		kept[d] = 1
	}
	e := c.e.(expr.Exp[S])
	if len(axes) > 0 {
		e = expr.Sum(e, expr.Axis(axes...), expr.KeepDims())
	}
	if lead > 0 {
		kept = kept[lead:]
		e = expr.Reshape(e, kept...)
	}
	return contribution{e: e, s: kept}
}

// reduction passes g through sum, mean, prod, max and min.
func reduction[S tensor.Float](b *builder, r *expr.Reduction[S], g contribution) error {
	x := strip(r.X)
	if !b.needs[x] {
		return nil
	}
	xs := b.shapeOf(x)
	geo, err := expr.ReduceShape(r.Op.String(), xs, r.Axes, r.KeepDims)
	if err != nil {
		return err
	}
	// g and the reduction's value with the reduced axes kept, so that they
	// broadcast against x; a constant g (the seed of a sum's gradient)
	// broadcasts as it is.
	var gk expr.Exp[S]
	gks := geo.Kept
	if k, ok := g.e.(*expr.Const[S]); ok {
		gk, gks = k, shape.Shape{}
	} else {
		gk = expr.Reshape(exact[S](g, geo.Result), geo.Kept...)
	}
	var c expr.Exp[S]
	cs := xs
	switch r.Op.Def().Grad { // the reduction table's rule (internal/ops/reduce.go)
	case ops.SpreadGradient:
		c, cs = gk, gks
	case ops.AverageGradient:
		c, cs = div(gk, expr.Scalar(S(geo.Count))), gks
	case ops.ShareGradient:
		// The gradient is shared evenly among the elements equal to the
		// extremum (PyTorch's amax and amin).
		hit := expr.Eq(r.X, expr.Reshape[S](r, geo.Kept...))
		c = expr.Div(mul(hit, gk), expr.Sum(hit, expr.Axis(geo.Axes...), expr.KeepDims()))
	case ops.ProductGradient:
		c = prodGradient(r.X, gk, geo)
	default:
		return &shape.ArgumentError{Op: "grad", Name: "reduction", Value: r.Op.String(), Reason: "has no derivative"}
	}
	b.add(x, contribution{e: c, s: cs})
	return nil
}

// prodGradient is the gradient of a product over geo's axes: the product of
// the other elements, times gk. It is computed without dividing by zero:
// where the reduced elements hold no zero it is prod/x; where they hold one
// zero, the product of the others at that zero and 0 elsewhere; where more,
// 0 everywhere.
func prodGradient[S tensor.Float](x, gk expr.Exp[S], geo expr.ReduceGeometry) expr.Exp[S] {
	axes, keep := expr.Axis(geo.Axes...), expr.KeepDims()
	zero := expr.EqScalar(x, 0)
	zeros := expr.Sum(zero, axes, keep)
	others := expr.Prod(expr.Where(zero, expr.Scalar(S(1)), x), axes, keep) // the product of the nonzero elements
	none := expr.Div(others, x)
	one := expr.Where(zero, others, expr.Scalar(S(0)))
	return expr.Mul(gk, expr.Where(expr.EqScalar(zeros, 0), none, expr.Where(expr.EqScalar(zeros, 1), one, expr.Scalar(S(0)))))
}

// product passes g through x @ y: g @ yᵀ to x and xᵀ @ g to y, each summed
// over the batch dimensions it was broadcast along, with NumPy's promotion
// of 1-D operands undone.
func product[S tensor.Float](b *builder, m *expr.MatProduct[S], g contribution) {
	x, y := strip(m.X), strip(m.Y)
	xs, ys := b.shapeOf(x), b.shapeOf(y)
	geo, err := expr.ProductShape(xs, ys)
	if err != nil {
		panic(err) // the tree passed Check
	}
	// The operands and g as matrices (batches of them).
	xm, ym := m.X, m.Y
	xms, yms := xs, ys
	if len(xs) == 1 {
		xms = shape.Shape{1, xs[0]}
		xm = expr.Reshape(xm, xms...)
	}
	if len(ys) == 1 {
		yms = shape.Shape{ys[0], 1}
		ym = expr.Reshape(ym, yms...)
	}
	gms := append(geo.Batch.Clone(), geo.M, geo.N)
	gm := expr.Reshape(exact[S](g, geo.Result), gms...)
	if b.needs[x] {
		c := expr.MatMul(gm, expr.Transpose(ym, -2, -1))
		cs := append(geo.Batch.Clone(), geo.M, geo.K)
		u := unbroadcast[S](contribution{e: c, s: cs}, xms)
		b.add(x, reshaped[S](u, xms, xs))
	}
	if b.needs[y] {
		c := expr.MatMul(expr.Transpose(xm, -2, -1), gm)
		cs := append(geo.Batch.Clone(), geo.K, geo.N)
		u := unbroadcast[S](contribution{e: c, s: cs}, yms)
		b.add(y, reshaped[S](u, yms, ys))
	}
}

// reshaped returns c, whose shape broadcasts to from, as a tree of shape to
// (of the same size as from).
func reshaped[S tensor.Float](c contribution, from, to shape.Shape) contribution {
	if from.Equal(to) {
		return c
	}
	return contribution{e: expr.Reshape(exact[S](c, from), to...), s: to}
}

// viewRule passes g through a view: the inverse rearrangement, zeros around
// a slice or an index, and a sum over expanded dimensions.
func viewRule[S tensor.Float](b *builder, v *expr.View[S], g contribution) error {
	x := strip(v.X)
	if !b.needs[x] {
		return nil
	}
	xs, vs := b.shapeOf(x), b.shapeOf(v)
	ge := exact[S](g, vs)
	a := v.Args
	var c expr.Exp[S]
	switch v.Kind {
	case expr.ViewT:
		c = expr.T(ge)
	case expr.ViewTranspose:
		c = expr.Transpose(ge, a[0], a[1])
	case expr.ViewPermute:
		inv := make([]int, len(a))
		for i, d := range a {
			if d < 0 {
				d += len(a)
			}
			inv[d] = i
		}
		c = expr.Permute(ge, inv...)
	case expr.ViewReshape, expr.ViewSqueeze, expr.ViewUnsqueeze, expr.ViewExpandDims, expr.ViewRavel:
		c = expr.Reshape(ge, xs...)
	case expr.ViewExpand, expr.ViewBroadcastTo:
		b.add(x, unbroadcast[S](contribution{e: ge, s: vs}, xs))
		return nil
	case expr.ViewFlip:
		c = expr.Flip(ge, a...)
	case expr.ViewMoveAxis:
		src, dst := v.MoveAxisArgs()
		c = expr.MoveAxis(ge, dst, src)
	case expr.ViewDiagonal:
		var ok bool
		if c, ok = diagonalGradient(ge, xs, a[0], a[1], a[2]); !ok {
			return nil
		}
	case expr.ViewIndex:
		d, err := shape.Axis("Index", a[0], len(xs))
		if err != nil {
			return err
		}
		i := a[1]
		if i < 0 {
			i += xs[d]
		}
		c = embed(expr.Unsqueeze(ge, d), d, xs, i, 1, 1)
	case expr.ViewSlice:
		d, err := shape.Axis("Slice", a[0], len(xs))
		if err != nil {
			return err
		}
		first, count := tensor.SliceIndices(xs[d], a[1], a[2], a[3])
		if count == 0 {
			return nil
		}
		step := a[3]
		if step < 0 { // the same elements, visited upwards
			ge = expr.Slice(ge, d, tensor.None, tensor.None, -1)
			first, step = first+(count-1)*step, -step
		}
		c = embed(ge, d, xs, first, count, step)
	default:
		return &shape.ArgumentError{Op: "grad", Name: "view", Value: v.Kind.String(), Reason: "has no derivative"}
	}
	b.add(x, contribution{e: c, s: xs})
	return nil
}

// diagonalGradient returns the tree of shape xs holding g (the gradient
// of x.Diagonal(offset, axis1, axis2)) on that diagonal and zeros
// elsewhere, or false when the diagonal has no element. With the two axes
// moved last and merged, the diagonal is every (m+1)-th element of a row
// of n·m from its first, which embed spreads g over.
func diagonalGradient[S tensor.Float](g expr.Exp[S], xs shape.Shape, offset, axis1, axis2 int) (expr.Exp[S], bool) {
	d0, d1 := shape.MustAxis("Diagonal", axis1, len(xs)), shape.MustAxis("Diagonal", axis2, len(xs))
	n, m := xs[d0], xs[d1]
	first, count := tensor.DiagonalSpan(n, m, offset)
	if count == 0 {
		return nil, false
	}
	moved := make(shape.Shape, 0, len(xs)+1) // xs without axes d0 and d1
	for d, size := range xs {
		if d != d0 && d != d1 {
			moved = append(moved, size)
		}
	}
	last := len(moved)
	flat := append(moved.Clone(), n*m)
	spread := embed(g, last, flat, first[0]*m+first[1], count, m+1)
	square := expr.Reshape(spread, append(moved.Clone(), n, m)...)
	return expr.MoveAxis(square, []int{last, last + 1}, []int{d0, d1}), true
}

// embed returns a tree of shape xs holding zeros but along dimension d at
// first, first+step, …, where it holds g's count elements (g has xs's
// shape but count along d).
func embed[S tensor.Float](g expr.Exp[S], d int, xs shape.Shape, first, count, step int) expr.Exp[S] {
	gs := xs.Clone()
	gs[d] = count
	if step > 1 { // spread: each element followed by step-1 zeros, the last zeros cut off
		wide := slices.Insert(gs.Clone(), d+1, 1)
		pad := slices.Insert(gs.Clone(), d+1, step-1)
		spread := expr.Concatenate(d+1, expr.Reshape(g, wide...), zeros[S](pad))
		flat := gs.Clone()
		flat[d] = count * step
		g = expr.Slice(expr.Reshape(spread, flat...), d, 0, (count-1)*step+1, 1)
		gs[d] = (count-1)*step + 1
	}
	parts := []expr.Exp[S]{}
	if first > 0 {
		before := gs.Clone()
		before[d] = first
		parts = append(parts, zeros[S](before))
	}
	parts = append(parts, g)
	if after := xs[d] - first - gs[d]; after > 0 {
		rest := gs.Clone()
		rest[d] = after
		parts = append(parts, zeros[S](rest))
	}
	if len(parts) == 1 {
		return g
	}
	return expr.Concatenate(d, parts...)
}

// scanRule passes g through a cumulative sum or product along an axis.
func scanRule[S tensor.Float](b *builder, s *expr.Scan[S], g contribution) {
	x := strip(s.X)
	if !b.needs[x] {
		return
	}
	xs := b.shapeOf(x)
	d := s.Axis
	if d < 0 {
		d += len(xs)
	}
	ge := exact[S](g, xs)
	var c expr.Exp[S]
	if s.Op == ops.Sum {
		c = reverseCumSum(ge, d)
	} else {
		c = cumProdGradient[S](s.X, s, ge, d)
	}
	b.add(x, contribution{e: c, s: xs})
}

// reverseCumSum sums g from each element to the end of its line along d.
func reverseCumSum[S tensor.Float](g expr.Exp[S], d int) expr.Exp[S] {
	flip := func(e expr.Exp[S]) expr.Exp[S] { return expr.Slice(e, d, tensor.None, tensor.None, -1) }
	return flip(expr.CumSum(flip(g), d))
}

// cumProdGradient is the gradient of out = cumprod(x) along d without
// dividing by zero: before a line's first zero it is the reverse cumulative
// sum of g*out over x; at the first zero, that of g times the cumulative
// product with the zero taken as 1; after it, 0.
func cumProdGradient[S tensor.Float](x, out, g expr.Exp[S], d int) expr.Exp[S] {
	zero := expr.EqScalar(x, 0)
	zerosSoFar := expr.CumSum(zero, d)
	before := expr.EqScalar(zerosSoFar, 0)
	firstZero := expr.Mul(zero, expr.EqScalar(zerosSoFar, 1))
	skipped := expr.CumProd(expr.Where(firstZero, expr.Scalar(S(1)), x), d)
	atBefore := expr.Div(reverseCumSum(expr.Mul(g, out), d), x)
	atFirst := reverseCumSum(expr.Mul(g, skipped), d)
	return expr.Where(before, atBefore, expr.Where(firstZero, atFirst, expr.Scalar(S(0))))
}

// concatRule passes to each part of a concatenation (or stack) its slice of
// g.
func concatRule[S tensor.Float](b *builder, c *expr.Concatenation[S], g contribution) error {
	cs := b.shapeOf(c)
	rank := len(cs)
	if c.Stack {
		rank--
	}
	d, err := c.ConcatAxis(rank)
	if err != nil {
		return err
	}
	ge := exact[S](g, cs)
	offset := 0
	for _, p := range c.Parts {
		x := strip(p)
		xs := b.shapeOf(x)
		if c.Stack {
			if b.needs[x] {
				b.add(x, contribution{e: expr.Index(ge, d, offset), s: xs})
			}
			offset++
			continue
		}
		if b.needs[x] {
			b.add(x, contribution{e: expr.Slice(ge, d, offset, offset+xs[d], 1), s: xs})
		}
		offset += xs[d]
	}
	return nil
}
