package expr

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// NumPy's other reductions (all, any, the nan-ignoring family, ptp,
// count_nonzero, average, linalg.norm) are trees of the reduction table's
// reductions and the op table's ops, as Var is: each is evaluated and fused
// as those are (the elementwise operand trees fuse into the reductions, on
// the host and on a device) and differentiated by package grad through its
// parts. Every function takes the reductions' options (Axis, KeepDims).

// split returns the options of a composite's kept-dimension inner
// reductions (its axes and KeepDims) and of its outer ones (its axes and
// the caller's KeepDims).
func split(o reduceOptions) (inner, outer []ReduceOption) {
	inner = []ReduceOption{KeepDims()}
	if o.axes != nil {
		inner = append(inner, Axis(o.axes...))
		outer = append(outer, Axis(o.axes...))
	}
	if o.keepDims {
		outer = append(outer, KeepDims())
	}
	return inner, outer
}

// withoutNaN returns x with each NaN replaced by v (x itself for integers).
func withoutNaN[T tensor.Number](x Exp[T], v T) Exp[T] {
	if !tensor.IsFloat[T]() {
		return x
	}
	return Where(IsNaN(x), Scalar(v), x)
}

// All returns 1 where every element of x over the axes is nonzero (NaN
// counts as nonzero, as bool(nan)) and 0 elsewhere, in T (NumPy's all); over
// no elements 1. It is the product of x != 0.
func All[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return Prod(Ne(bare(x), Scalar[T](0)), opts...)
}

// Any returns 1 where some element of x over the axes is nonzero and 0
// elsewhere, in T (NumPy's any); over no elements 0. It is 1 minus the
// product of x == 0, so it cannot overflow as a count would.
func Any[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return Sub(Scalar[T](1), Prod(Eq(bare(x), Scalar[T](0)), opts...))
}

// NanSum returns the sum of x over the axes with NaN counted as 0 (NumPy's
// nansum; Sum for integers): 0 over no elements or only NaN.
func NanSum[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return Sum(withoutNaN(bare(x), 0), opts...)
}

// NanProd returns the product of x over the axes with NaN counted as 1
// (NumPy's nanprod): 1 over no elements or only NaN.
func NanProd[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return Prod(withoutNaN(bare(x), 1), opts...)
}

// nanCount returns the number of elements of x over the axes that are not
// NaN, in T.
func nanCount[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	return Sum(Sub(Scalar[T](1), IsNaN(x)), opts...)
}

// NanMean returns the mean of the elements of x over the axes that are not
// NaN (NumPy's nanmean): NaN where there are none (NumPy warns there).
func NanMean[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	return Div(NanSum(x, opts...), nanCount(x, opts...))
}

// NanVar returns the variance of the elements of x over the axes that are
// not NaN, with DDof (NumPy's nanvar): two-pass, as Var, the mean entering
// through StopGradient; NaN where the count minus ddof is not positive
// (NumPy's nanvar gives NaN there, where Var divides by 0).
func NanVar[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	o := options(opts)
	inner, outer := split(o)
	d := Where(IsNaN(x), Scalar[T](0), Sub(x, StopGradient(NanMean(x, inner...)))) // a NaN deviation of a number stays
	dof := SubScalar(nanCount(x, outer...), T(o.ddof))
	return Where(LeScalar(dof, 0), Scalar(T(math.NaN())), Div(Sum(Mul(d, d), outer...), dof))
}

// NanStd returns the square root of NanVar with the same options, with
// Std's zero gradient where the variance is 0.
func NanStd[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	return sqrtZeroSafe(NanVar(x, opts...))
}

// sqrtZeroSafe returns sqrt(v), taken of 1 where v is 0 and replaced by 0
// there, so that its gradient at 0 is 0 (PyTorch's std_backward) rather
// than 0 · Inf.
func sqrtZeroSafe[T tensor.Float](v Exp[T]) Exp[T] {
	zero := Eq(v, Scalar[T](0))
	return Where[T](zero, Scalar[T](0), Sqrt[T](Where[T](zero, Scalar[T](1), v)))
}

// allNaN returns 1 where every element of x over the axes is NaN.
func allNaN[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return All(IsNaN(x), opts...)
}

// NanMax returns the largest element of x over the axes ignoring NaN
// (NumPy's nanmax): NaN where every element is NaN; over no elements an
// error, as Max's. Its gradient is Max's, none flowing to the NaNs.
func NanMax[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return nanExtreme(bare(x), true, opts)
}

// NanMin returns the smallest element of x over the axes ignoring NaN
// (NumPy's nanmin), as NanMax.
func NanMin[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	return nanExtreme(bare(x), false, opts)
}

func nanExtreme[T tensor.Number](x Exp[T], largest bool, opts []ReduceOption) Exp[T] {
	if !tensor.IsFloat[T]() {
		if largest {
			return Max(x, opts...)
		}
		return Min(x, opts...)
	}
	if largest {
		return Where(allNaN(x, opts...), Scalar(T(math.NaN())), Max(withoutNaN(x, T(math.Inf(-1))), opts...))
	}
	return Where(allNaN(x, opts...), Scalar(T(math.NaN())), Min(withoutNaN(x, T(math.Inf(1))), opts...))
}

// NanArgMax returns the int64 index of the largest element of x ignoring
// NaN, over x flattened or along the one axis Axis names (NumPy's
// nanargmax): the first of equal ones. Where every element is NaN it gives
// -1, which is no index: NumPy raises a ValueError there, which a fused
// pass cannot do per line. As NumPy's, it is ArgMax of x with NaN replaced
// by -Inf, so where the largest number is -Inf a NaN before it is the
// index given (nanargmax([NaN, -Inf]) is 0).
func NanArgMax[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[int64] {
	return nanArgExtreme(bare(x), true, opts)
}

// NanArgMin returns the int64 index of the smallest element of x ignoring
// NaN (NumPy's nanargmin), as NanArgMax.
func NanArgMin[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[int64] {
	return nanArgExtreme(bare(x), false, opts)
}

func nanArgExtreme[T tensor.Number](x Exp[T], largest bool, opts []ReduceOption) Exp[int64] {
	if !tensor.IsFloat[T]() {
		if largest {
			return ArgMax(x, opts...)
		}
		return ArgMin(x, opts...)
	}
	_, outer := split(options(opts))
	none := Cast[int64](allNaN(x, outer...))
	if largest {
		return Where(none, Scalar[int64](-1), ArgMax(withoutNaN(x, T(math.Inf(-1))), opts...))
	}
	return Where(none, Scalar[int64](-1), ArgMin(withoutNaN(x, T(math.Inf(1))), opts...))
}

// NanCumSum returns the cumulative sum of x along axis with NaN counted as
// 0 (NumPy's nancumsum).
func NanCumSum[T tensor.Number](x Exp[T], axis int) Exp[T] {
	return CumSum(withoutNaN(bare(x), 0), axis)
}

// NanCumProd returns the cumulative product of x along axis with NaN
// counted as 1 (NumPy's nancumprod).
func NanCumProd[T tensor.Number](x Exp[T], axis int) Exp[T] {
	return CumProd(withoutNaN(bare(x), 1), axis)
}

// Ptp returns the range of x over the axes, Max - Min (NumPy's ptp:
// "peak to peak"); integers wrap as NumPy's do; over no elements an error.
func Ptp[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	return Sub(Max(x, opts...), Min(x, opts...))
}

// CountNonzero returns the int64 number of nonzero elements of x over the
// axes (NumPy's count_nonzero; NaN is nonzero).
func CountNonzero[T tensor.Number](x Exp[T], opts ...ReduceOption) Exp[int64] {
	return Sum(Cast[int64](Ne(bare(x), Scalar[T](0))), opts...)
}

// Average returns the weighted mean of x over the axes, sum(x·w) / sum(w),
// NumPy's average: weights broadcasts to x's shape (NumPy's 1-D weights
// along one axis a is weights reshaped to that axis, Reshape(w, n, 1, …, 1));
// nil weights give Mean. Weights that sum to 0 give ±Inf or NaN, where
// NumPy raises ZeroDivisionError.
func Average[T tensor.Float](x, weights Exp[T], opts ...ReduceOption) Exp[T] {
	x = bare(x)
	if weights == nil {
		return Mean(x, opts...)
	}
	w := bare(weights)
	if xs, err := new(Shapes).Of(x); err == nil {
		w = Expand(w, xs...) // a w that does not broadcast fails Check at the Expand
	}
	return Div(Sum(Mul(x, w), opts...), Sum(w, opts...))
}

// VectorNorm returns the ord-norm of x over the axes, as NumPy's
// linalg.norm of vectors and PyTorch's linalg.vector_norm: ord 2 is
// sqrt(sum(x²)) (unscaled, as NumPy), 1 sum(|x|), +Inf max(|x|), -Inf
// min(|x|), 0 the number of nonzero elements (in T), any other p
// sum(|x|^p)^(1/p). Without Axis it reduces every axis (x flattened). A
// NaN ord panics with an ArgumentError (the panic rule: an argument the
// caller holds). The 2-norm's gradient at a zero vector is NaN (0 · Inf),
// where PyTorch's is 0.
func VectorNorm[T tensor.Float](x Exp[T], ord float64, opts ...ReduceOption) Exp[T] {
	x = bare(x)
	switch {
	case ord != ord:
		panic(&shape.ArgumentError{Op: "expr.VectorNorm", Name: "ord", Value: ord, Reason: "a norm's order is a number or ±Inf"})
	case ord == 2:
		return Sqrt(Sum(Mul(x, x), opts...))
	case ord == 1:
		return Sum(Abs(x), opts...)
	case math.IsInf(ord, 1):
		return Max(Abs(x), opts...)
	case math.IsInf(ord, -1):
		return Min(Abs(x), opts...)
	case ord == 0:
		return Sum(Ne(x, Scalar[T](0)), opts...)
	}
	return PowScalar(Sum(PowScalar(Abs(x), T(ord)), opts...), T(1/ord))
}

// FrobeniusNorm returns sqrt(sum(x²)) over two axes, the last two by
// default (NumPy's linalg.norm(x, 'fro')).
func FrobeniusNorm[T tensor.Float](x Exp[T], opts ...ReduceOption) Exp[T] {
	o := matrixAxes("FrobeniusNorm", opts)
	return Sqrt(Sum(Mul(bare(x), bare(x)), matrixOptions(o, o.keepDims)...))
}

// MatrixNorm returns the ord-norm of the matrices x holds over two axes
// (the last two by default, or the two Axis names: rows, then columns), as
// NumPy's linalg.norm of matrices: ord 1 is the largest column sum of |x|,
// -1 the smallest, +Inf the largest row sum, -Inf the smallest. The norms
// from singular values (2, -2, 'nuc') and any other ord panic with an
// ArgumentError (laze computes no SVD). FrobeniusNorm is 'fro'.
func MatrixNorm[T tensor.Float](x Exp[T], ord float64, opts ...ReduceOption) Exp[T] {
	x = bare(x)
	o := matrixAxes("MatrixNorm", opts)
	summed := o.axes[0] // ord ±1: the column sums, down the rows
	switch {
	case math.IsInf(ord, 0):
		summed = o.axes[1] // ±Inf: the row sums, along the columns
	case ord != 1 && ord != -1:
		panic(&shape.ArgumentError{Op: "expr.MatrixNorm", Name: "ord", Value: ord,
			Reason: "laze computes the matrix norms 1, -1, Inf and -Inf (and FrobeniusNorm); 2, -2 and 'nuc' need singular values"})
	}
	sums := Sum(Abs(x), Axis(summed), KeepDims())
	both := matrixOptions(o, o.keepDims) // the extreme over both axes: the summed one has size 1 now
	if ord > 0 {
		return Max(sums, both...)
	}
	return Min(sums, both...)
}

// matrixAxes reads a matrix norm's options: two distinct axes, (-2, -1)
// when none are given; others panic with an ArgumentError.
func matrixAxes(name string, opts []ReduceOption) reduceOptions {
	o := options(opts)
	if o.axes == nil {
		o.axes = []int{-2, -1}
	}
	if len(o.axes) != 2 || o.axes[0] == o.axes[1] {
		panic(&shape.ArgumentError{Op: "expr." + name, Name: "axis", Value: shape.FormatInts(o.axes),
			Reason: fmt.Sprintf("a matrix norm takes two distinct axes, not %d", len(o.axes))})
	}
	return o
}

// matrixOptions returns the options reducing a matrix norm's two axes.
func matrixOptions(o reduceOptions, keep bool) []ReduceOption {
	opts := []ReduceOption{Axis(o.axes...)}
	if keep {
		opts = append(opts, KeepDims())
	}
	return opts
}
