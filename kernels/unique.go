package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Nonzero, FlatNonzero, Unique and UniqueCounts are NumPy's nonzero,
// flatnonzero and unique: functions whose result's length depends on the
// values, so they are eager, as MaskedSelect is — they evaluate x (a tree
// is evaluated first, a tensor read in place) and return new tensors,
// where SearchSorted (expr) is a lazy node, its result having v's shape.
// They run on the CPU: an x on a device is a DeviceError (copy it with
// To). An allocation that fails is a *shape.NodeError naming the call and
// the node, wrapping the *shape.MemoryError.

// Nonzero returns the indices of x's nonzero elements, one int64 tensor per
// axis of x, each of the count of nonzero elements, in row-major (C)
// order: numpy.nonzero(x), whose tuple is the slice. An element is nonzero
// as bool(x) says: a NaN is, -0 is not. A 0-d x is a ShapeError (NumPy
// 1.17–2.0 read it as 1-d with a DeprecationWarning, NumPy 2.1 raises):
// FlatNonzero of it, or Nonzero of Reshape(x, 1), gives the old answer.
func Nonzero[T tensor.Number](x expr.Exp[T]) (_ []*tensor.Tensor[int64], err error) {
	const call = "Nonzero"
	defer recoverAllocation(&err)
	defer blame(call, x)
	data, s, done, err := eagerValues(call, x)
	if err != nil {
		return nil, err
	}
	defer done()
	if len(s) == 0 {
		return nil, &shape.ShapeError{Op: call, Shapes: []shape.Shape{s},
			Reason: "nonzero of a 0-d array is not allowed (as NumPy 2.1): use FlatNonzero, or Nonzero of Reshape(x, 1)"}
	}
	count := 0
	for _, v := range data {
		if v != 0 {
			count++
		}
	}
	out := make([][]int64, len(s))
	for d := range out {
		out[d] = make([]int64, 0, count)
	}
	index := make([]int64, len(s)) // the row-major counter of k
	for k, v := range data {
		if v != 0 {
			for d, i := range index {
				out[d] = append(out[d], i)
			}
		}
		if k+1 < len(data) {
			for d := len(index) - 1; d >= 0; d-- {
				if index[d]++; index[d] < int64(s[d]) {
					break
				}
				index[d] = 0
			}
		}
	}
	ts := make([]*tensor.Tensor[int64], len(s))
	for d, o := range out {
		if ts[d], err = tensor.FromSlice(o, []int{count}); err != nil {
			return nil, atNode(call, x, err)
		}
	}
	return ts, nil
}

// FlatNonzero returns the positions of x's nonzero elements in x flattened
// (row-major), as numpy.flatnonzero(x): a 1-D int64 tensor. A 0-d x is
// read as one element, as NumPy does.
func FlatNonzero[T tensor.Number](x expr.Exp[T]) (_ *tensor.Tensor[int64], err error) {
	const call = "FlatNonzero"
	defer recoverAllocation(&err)
	defer blame(call, x)
	data, _, done, err := eagerValues(call, x)
	if err != nil {
		return nil, err
	}
	defer done()
	out := []int64{}
	for k, v := range data {
		if v != 0 {
			out = append(out, int64(k))
		}
	}
	r, err := tensor.FromSlice(out, []int{len(out)})
	if err != nil {
		return nil, atNode(call, x, err)
	}
	return r, nil
}

// Unique returns x's distinct elements, sorted, as a 1-D tensor:
// numpy.unique(x) (x flattened). The order is Sort's, expr.SortLess: every
// NaN is one, at the end (NumPy's equal_nan=True, its default since 1.21);
// -0 and +0 are one, the first of them in x. Of several NaNs, the first in
// x is kept.
func Unique[T tensor.Number](x expr.Exp[T]) (_ *tensor.Tensor[T], err error) {
	v, _, err := unique("Unique", x, false)
	return v, err
}

// UniqueCounts is Unique with the number of times each value occurs in x:
// numpy.unique(x, return_counts=True). counts is int64, of values' length;
// the NaN at the end counts every NaN of x.
func UniqueCounts[T tensor.Number](x expr.Exp[T]) (values *tensor.Tensor[T], counts *tensor.Tensor[int64], err error) {
	return unique("UniqueCounts", x, true)
}

func unique[T tensor.Number](call string, x expr.Exp[T], withCounts bool) (_ *tensor.Tensor[T], _ *tensor.Tensor[int64], err error) {
	defer recoverAllocation(&err)
	defer blame(call, x)
	data, _, done, err := eagerValues(call, x)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	sorted := make([]T, len(data))
	cpu.Sort(sorted, data, 1, len(data), 1) // stable, NaNs last
	vals, counts := []T{}, []int64{}
	for k, v := range sorted {
		// v opens a run unless it equals the previous value, or both
		// are NaN.
		if k == 0 || !(v == sorted[k-1] || v != v && sorted[k-1] != sorted[k-1]) {
			vals = append(vals, v)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
	}
	vt, err := tensor.FromSlice(vals, []int{len(vals)})
	if err != nil {
		return nil, nil, atNode(call, x, err)
	}
	if !withCounts {
		return vt, nil, nil
	}
	ct, err := tensor.FromSlice(counts, []int{len(counts)})
	if err != nil {
		return nil, nil, atNode(call, x, err)
	}
	return vt, ct, nil
}

// eagerValues checks x, refuses a device, and returns its elements in
// row-major order and its shape, with the function that gives back the
// memory of its value once read.
func eagerValues[T tensor.Number](call string, x expr.Exp[T]) ([]T, shape.Shape, func(), error) {
	info, err := expr.Check(x)
	if err != nil {
		return nil, nil, nil, shape.Rename(err, call)
	}
	if !info.Device.IsCPU() {
		return nil, nil, nil, &shape.DeviceError{Op: call, Devices: []fmt.Stringer{info.Device},
			Reason: call + " runs on the CPU; copy the tensor to it with To"}
	}
	t, done, err := evalOrSelf(x)
	if err != nil {
		return nil, nil, nil, shape.Rename(err, call)
	}
	return flat(call, x, t), info.Shape, done, nil
}
