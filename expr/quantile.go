package expr

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Selection built on Sort (issue 32, point 6): each function is a Sort
// node and views of it, combined elementwise, so the sort is the one step
// and the rest fuses into the pass that reads it. Median and Quantile
// build a partial sort (Sorting.Kth: numpy.partition at the positions
// they read), which the evaluator selects in linear time.
//
//   - Median: the middle element of each sorted line, or the mean of the
//     two middle ones (numpy.median);
//   - Quantile, Percentile: the two sorted elements around the virtual
//     index q·(n-1), interpolated by NumPy's linear rule (numpy.quantile's
//     default method);
//   - TopK: the last k of each sorted line, flipped (torch.topk's values).
//
// A line that holds a NaN gives NaN, as NumPy; the sort puts the NaNs
// last, so the functions test the line's last element.

// Median returns the median of x along axis (negative counts from the end),
// as numpy.median(x, axis, keepdims=keepdims): the middle element of each
// sorted line, or for an even length the mean of the two middle ones,
// (a + b) / 2 in T; NaN for a line holding a NaN. With keepdims the axis
// stays, of size 1. An axis out of range, or an axis of size 0 (where
// NumPy warns and gives NaN), is an error at Check. NumPy's median without
// an axis is Median of Ravel(x) along 0.
func Median[T tensor.Float](x Exp[T], axis int, keepdims bool) Exp[T] {
	text := fmt.Sprintf("np.median(x, axis=%d)", axis)
	d, n, err := selectionAxis(x, "median", axis)
	if err != nil {
		return failedNode[T](text, err)
	}
	pick := picker(partialSort(x, d, selected(n, (n-1)/2, n/2)), d, keepdims)
	var m Exp[T]
	if n%2 == 1 {
		m = pick(n / 2)
	} else {
		m = DivScalar(Add(pick(n/2-1), pick(n/2)), 2)
	}
	return nanIfLast(pick(n-1), m)
}

// Quantile returns the q-th quantile of x along axis (negative counts from
// the end), as numpy.quantile(x, q, axis, keepdims=keepdims) with its
// default "linear" method: with i the virtual index q·(n-1) in float64, j
// its floor and g = i - j, the sorted elements a at j and b at j+1 (the
// last one when j is) combine as NumPy's lerp: a + (b-a)·g when g < 0.5,
// else b - (b-a)·(1-g). The arithmetic is in float64 (as NumPy's, whose
// quantile of float32 is float64), the result converted to T; q is a
// float, so the result is NumPy's for a float q: q = 1 of a line ending in
// +Inf is NaN there (inf - inf in the lerp; NumPy's integer q = 1 takes
// the element). A line holding a NaN gives NaN. q outside [0, 1] (or NaN), an axis out of range
// or of size 0 is an error at Check.
func Quantile[T tensor.Float](x Exp[T], q float64, axis int, keepdims bool) Exp[T] {
	return quantile(x, q, axis, keepdims, fmt.Sprintf("np.quantile(x, %v, axis=%d)", q, axis), "quantile", "q")
}

// Percentile returns the p-th percentile of x along axis, as
// numpy.percentile(x, p, axis, keepdims=keepdims): Quantile with q = p/100
// (p outside [0, 100] is an error at Check).
func Percentile[T tensor.Float](x Exp[T], p float64, axis int, keepdims bool) Exp[T] {
	return quantile(x, p/100, axis, keepdims, fmt.Sprintf("np.percentile(x, %v, axis=%d)", p, axis), "percentile", "p")
}

func quantile[T tensor.Float](x Exp[T], q float64, axis int, keepdims bool, text, name, param string) Exp[T] {
	if !(q >= 0 && q <= 1) {
		v := q
		if param == "p" {
			v *= 100
		}
		limit := "[0, 1]"
		if param == "p" {
			limit = "[0, 100]"
		}
		return failedNode[T](text, &shape.ArgumentError{Op: name, Name: param, Value: v, Reason: "must be in the range " + limit})
	}
	d, n, err := selectionAxis(x, name, axis)
	if err != nil {
		return failedNode[T](text, err)
	}
	// the product rounded on its own (the conversion): arm64's compiler
	// would otherwise fuse it into vi - j, and g would not be NumPy's
	vi := float64(float64(n-1) * q)
	j := math.Floor(vi)
	g := vi - j
	lo := int(j)
	hi := min(lo+1, n-1)
	if vi >= float64(n-1) {
		lo, hi = n-1, n-1
	}
	pick := picker(partialSort(x, d, selected(n, lo, hi)), d, keepdims)
	a, b := Cast[float64](pick(lo)), Cast[float64](pick(hi))
	diff := Sub(b, a)
	var r Exp[float64]
	if g < 0.5 {
		r = Add(a, MulScalar(diff, g))
	} else {
		r = Sub(b, MulScalar(diff, 1-g))
	}
	out, ok := r.(Exp[T])
	if !ok {
		out = Cast[T](r)
	}
	return nanIfLast(pick(n-1), out)
}

// TopK returns the k largest elements of x along axis (negative counts
// from the end), largest first, as torch.topk(x, k, axis).values: the
// last k elements of Sort(x, axis), flipped. NaNs count as the largest,
// as in PyTorch. k negative or beyond the axis's size, or an axis out of
// range, is an error at Check.
func TopK[T tensor.Number](x Exp[T], k, axis int) Exp[T] {
	text := fmt.Sprintf("topk(x, %d, axis=%d)", k, axis)
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x // the tree reports x's own error
	}
	d, err := shape.Axis("topk", axis, len(xs))
	if err == nil && (k < 0 || k > xs[d]) {
		err = &shape.ArgumentError{Op: "topk", Name: "k", Value: k,
			Reason: fmt.Sprintf("must be in [0, %d], the size of axis %d", xs[d], d)}
	}
	if err != nil {
		return failedNode[T](text, err)
	}
	return Flip(Slice(Sort(x, d), d, xs[d]-k, xs[d], 1), d)
}

// selectionAxis returns the axis normalised and its size, or the error of
// an axis out of range or of size 0.
func selectionAxis[T tensor.Number](x Exp[T], name string, axis int) (int, int, error) {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return 0, 0, err
	}
	d, err := shape.Axis(name, axis, len(xs))
	if err != nil {
		return 0, 0, err
	}
	if xs[d] == 0 {
		return 0, 0, &shape.ShapeError{Op: name, Shapes: []shape.Shape{xs.Clone()},
			Reason: fmt.Sprintf("axis %d has no elements to select from", d)}
	}
	return d, xs[d], nil
}

// selected returns the positions a selection of a line of n reads: lo and
// hi (lo <= hi), and the last, where the sort puts a NaN the line holds.
func selected(n, lo, hi int) []int {
	kth := []int{lo}
	if hi != lo {
		kth = append(kth, hi)
	}
	if n-1 != hi {
		kth = append(kth, n-1)
	}
	return kth
}

// picker returns the function giving the view of s at position k of
// dimension d: the dimension removed, or kept with size 1.
func picker[T tensor.Number](s Exp[T], d int, keepdims bool) func(k int) Exp[T] {
	return func(k int) Exp[T] {
		if keepdims {
			return Slice(s, d, k, k+1, 1)
		}
		return Index(s, d, k)
	}
}

// nanIfLast returns NaN where last (a sorted line's last element) is NaN,
// else v: NumPy's result for a line that holds a NaN.
func nanIfLast[T tensor.Float](last, v Exp[T]) Exp[T] {
	return Where(Ne(last, last), Scalar(T(math.NaN())), v)
}
