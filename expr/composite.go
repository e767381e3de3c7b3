package expr

import (
	"github.com/laze-go/laze/tensor"
)

// The functions in this file build trees of existing nodes: they add no node
// type, so every evaluator runs them as it runs any tree, the reductions
// materialised and the elementwise rest fused around them.

// DDof sets the "delta degrees of freedom" of Var and Std: the sum of
// squared deviations is divided by N - ddof, where N is the number of
// elements reduced (NumPy's ddof; 0 by default, 1 for the unbiased sample
// variance). Reductions other than Var and Std ignore it.
func DDof(ddof int) ReduceOption { return func(o *reduceOptions) { o.ddof = ddof } }

// WithShapes has Var and Std ask s for their operand's shape (see Shapes),
// which they need for the number of elements they divide by: without it
// each call checks its operand's whole tree, so that building a chain of
// them d deep (the variance of a variance…, or one per node of a deep
// tree) checks O(d²) nodes; code that builds many over one tree shares one
// Shapes, and each node is checked once. The other reductions ignore it.
func WithShapes(s *Shapes) ReduceOption { return func(o *reduceOptions) { o.shapes = s } }

// Var returns the variance of x over all axes, or over those Axis names,
// with NumPy's rule: the mean of the squared deviations from the mean,
// sum(|x - mean(x)|²) / (N - ddof), with N the number of elements reduced
// and ddof set by DDof (0 by default). As in NumPy, N - ddof ≤ 0 divides by
// zero (NumPy clamps N - ddof at 0): the result is +Inf, or NaN where every
// deviation is 0 (a single element with DDof(1)). The variance of no
// elements is an error, as Mean's is.
//
// The tree is two-pass, never E[x²] - E[x]²: the mean is reduced first
// (materialised, with KeepDims), then the squared deviations from it are
// summed in a second reduction whose operand tree (x - mean)² is fused. N
// is read from x's shape when Var is called (checking x, or asking the
// Shapes given by WithShapes).
//
// The mean enters the deviations through StopGradient: the variance's
// derivative through the mean is 0 (the deviations sum to 0), so package
// grad differentiates (x - mean)² / (N - ddof) alone and gives PyTorch's
// var_backward, 2·g·(x - mean) / (N - ddof). Where N - ddof ≤ 0 the tree
// is built so that its gradient is PyTorch's too, which differs there from
// the derivative of the clamped division: see varNoDOF.
func Var[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	o := options(opts)
	inner := []ReduceOption{KeepDims()}
	outer := []ReduceOption{}
	if o.axes != nil {
		inner = append(inner, Axis(o.axes...))
		outer = append(outer, Axis(o.axes...))
	}
	if o.keepDims {
		outer = append(outer, KeepDims())
	}
	m := Mean(x, inner...)
	d := Sub(x, StopGradient(m))
	n, rank := reducedCount(x, o.axes, o.shapes)
	dof := n - o.ddof
	if dof <= 0 {
		return varNoDOF(x, m, d, dof, o.axes == nil || rank == 0, outer)
	}
	return Div[T](Sum[T](Mul[T](d, d), outer...), Scalar(T(dof)))
}

// varNoDOF is Var where dof = N - ddof ≤ 0: the sum of squared deviations
// d = x - mean divided by 0 (+Inf, or NaN where it is 0), with the
// gradient of PyTorch's var_backward, which is not that division's:
//
//   - over all axes (PyTorch's dim=None; all is also set for a 0-d x, as
//     PyTorch tests self.dim() == 0): g·where(x == mean, NaN, +Inf), for
//     any dof ≤ 0. That is (g/0)·(x != mean), the gradient of
//     sum(z·(x != mean)) / 0 with z = x - StopGradient(x), which is 0 but
//     has derivative 1. So the tree is sum(StopGradient(d²) + z·(x !=
//     mean)) / 0, whose terms z·(x != mean) add +0 to each d² (exactly,
//     for a finite x; a non-finite x gives NaN either way).
//   - over named axes, dof = 0: 2·(g/0)·d, the tree's own gradient.
//   - over named axes, dof < 0: 2·g·d / dof, finite. The tree is
//     StopGradient(sum(d²)) / 0 plus sum(z·StopGradient(d)) · (2/dof), a
//     term whose value is ±0 and whose gradient is that; where it is not
//     finite (x - mean overflows), 0 is added instead, so that the value
//     stays +Inf.
//
// Each tree's value is that of sum(d²) / 0. These are the straight-through
// constructions (value of one tree, gradient of another) that PyTorch users
// write with detach.
func varNoDOF[T tensor.Float](x, m, d Exp[T], dof int, all bool, outer []ReduceOption) Exp[T] {
	zero := Scalar(T(0))
	z := Sub(x, StopGradient(x)) // 0, with derivative 1
	switch {
	case all:
		e := Add[T](StopGradient(Mul(d, d)), Mul[T](z, Ne(x, m)))
		return Div[T](Sum(e, outer...), zero)
	case dof == 0:
		return Div[T](Sum[T](Mul(d, d), outer...), zero)
	}
	v := Div[T](StopGradient(Sum[T](Mul(d, d), outer...)), zero)
	s := Mul[T](Sum[T](Mul(z, StopGradient(d)), outer...), Scalar(T(2/float64(dof))))
	return Add(v, Where[T](IsFinite(s), s, zero))
}

// Std returns the standard deviation of x, the square root of Var with the
// same options (axes, KeepDims, DDof).
//
// Where the variance is 0 the square root is taken of 1 instead and the
// result replaced by 0 (the same value), so that the gradient there is 0,
// as PyTorch's std_backward masks it (grad/(2·std) filled with 0 where std
// is 0), rather than 0 · Inf = NaN.
func Std[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	return sqrtZeroSafe(Var(x, opts...))
}

// reducedCount returns the number of elements of x a reduction over axes
// folds into each result element, and x's rank, or 1 and 0 when x or the
// axes are not valid (the tree built around it then fails Check with the
// fault). It asks shapes for x's shape, or checks x when shapes is nil.
func reducedCount(x Node, axes []int, shapes *Shapes) (count, rank int) {
	if shapes == nil {
		shapes = new(Shapes)
	}
	xs, err := shapes.Of(x)
	if err != nil {
		return 1, 0
	}
	g, err := ReduceShape("var", xs, axes, false)
	if err != nil {
		return 1, 0
	}
	return g.Count, len(xs)
}

// finiteOr0 returns m where it is finite and 0 where it is ±Inf or NaN
// (scipy's treatment of the maximum in logsumexp and log_softmax): m - m is
// 0 exactly for a finite m and NaN otherwise.
func finiteOr0[T tensor.Float](m Exp[T]) Exp[T] {
	return Where[T](Eq[T](Sub(m, m), Scalar[T](0)), m, Scalar[T](0))
}

// Softmax returns exp(x) / sum(exp(x)) along axis (negative counts from the
// end), computed stably as scipy.special.softmax does: with m the maximum
// along the axis, exp(x - m) / sum(exp(x - m)). So a line holding +Inf or
// NaN, or only -Inf, gives NaN throughout (scipy's and torch's result);
// a line of finite values never overflows.
//
// Evaluation: the maximum is one reduction (materialised, one value per
// line), the sum of exp(x - m) a second reduction with exp(x - m) fused into
// it, and the quotient one fused elementwise pass; none of them writes a
// temporary the size of x. On the host, when the destination shares no
// memory with x, the sum's pass also stores exp(x - m) into the destination
// and the quotient's pass reads it back from there, so exp runs once per
// element (package kernels, "the destination as scratch"); otherwise the
// quotient's pass computes exp(x - m) again. The result is the same bits
// either way.
func Softmax[T tensor.Float](x Exp[T], axis int) Exp[T] {
	x = bare(x)
	// The shift by the maximum changes no value of the result, so its
	// gradient is exactly 0: StopGradient keeps grad from computing it.
	e := Exponential(Sub(x, StopGradient(Max(x, Axis(axis), KeepDims()))))
	return Div[T](e, Sum[T](e, Axis(axis), KeepDims()))
}

// LogSoftmax returns log(softmax(x)) along axis, computed as scipy's
// log_softmax: with m the maximum along the axis (0 where that maximum is
// not finite), (x - m) - log(sum(exp(x - m))). A line of finite values
// never overflows or loses its small entries to log(0); a line of only -Inf
// gives NaN, and a +Inf entry gives NaN there and -Inf at the finite
// entries, as scipy.
//
// Evaluation: one reduction for the maximum, one for the sum (exp fused into
// it), one fused elementwise pass for the result.
func LogSoftmax[T tensor.Float](x Exp[T], axis int) Exp[T] {
	x = bare(x)
	t := Sub(x, StopGradient(finiteOr0(Max(x, Axis(axis), KeepDims()))))
	return Sub[T](t, Log[T](Sum[T](Exponential[T](t), Axis(axis), KeepDims())))
}

// LogSumExp returns log(sum(exp(x))) over all axes, or over those Axis
// names (KeepDims keeps them), computed as scipy.special.logsumexp: with m
// the maximum (0 where it is not finite), log(sum(exp(x - m))) + m. So no
// finite input overflows; only -Inf gives -Inf (log 0), a +Inf element
// gives +Inf, and NaN gives NaN. The logsumexp of no elements is an error,
// as Max's is.
//
// Evaluation: one reduction for the maximum (kept dimensions), one for the
// sum with exp(x - m) fused into it, and a small reduction of the maxima to
// the result's shape, fused with log and the addition.
func LogSumExp[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	o := options(opts)
	kept := []ReduceOption{KeepDims()}
	outer := []ReduceOption{}
	if o.axes != nil {
		kept = append(kept, Axis(o.axes...))
		outer = append(outer, Axis(o.axes...))
	}
	if o.keepDims {
		outer = append(outer, KeepDims())
	}
	// log(sum(exp(x - m))) + m does not depend on m: its gradient through m
	// is exactly 0, so StopGradient keeps grad from computing it (the
	// gradient is then softmax(x)·g alone, PyTorch's rule).
	m := StopGradient(finiteOr0(Max(x, kept...)))
	s := Sum[T](Exponential(Sub(x, m)), outer...)
	// m has the reduced axes with size 1; reducing it over them (one element
	// each) gives it the result's shape without a view.
	return Add[T](Log[T](s), Max(m, outer...))
}
