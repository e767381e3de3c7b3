package tensor

import (
	"fmt"
	"slices"

	"github.com/laze-go/laze/shape"
)

// This file holds the views NumPy names that the PyTorch-style methods of
// views.go do not: flip, swapaxes, moveaxis, expand_dims and diagonal. Each
// is O(1) (new shape and strides over the same storage, never a copy) and,
// like the methods of views.go, panics with a DimensionError or an
// ArgumentError on an argument that does not fit the tensor (a programming
// error, see docs/design.md).

// Flip returns the view with the order of the elements along each of dims
// reversed (negative numbers count from the end), or along every dimension
// when none is given, as numpy.flip: Flip(0) is a[::-1], with a negative
// stride. It panics with a DimensionError when a dimension is out of range
// or repeated.
func (t *Tensor[T]) Flip(dims ...int) *Tensor[T] {
	n := len(t.geometry("Flip"))
	axes := distinctAxes("Flip", dims, n)
	if len(dims) == 0 {
		axes = allAxes(n)
	}
	v := t
	for _, d := range axes {
		v = v.Slice(d, None, None, -1)
	}
	if v == t {
		v = t.view(t.offset, t.shape, t.strides)
	}
	return v
}

// SwapAxes returns the view with dimensions a and b swapped, as
// numpy.swapaxes (the same view as Transpose(a, b)).
func (t *Tensor[T]) SwapAxes(a, b int) *Tensor[T] { return t.Transpose(a, b) }

// MoveAxis returns the view with dimensions source moved to positions
// destination, the other dimensions keeping their order, as numpy.moveaxis:
// MoveAxis([]int{0}, []int{-1}) of a (2, 3, 4) tensor has shape (3, 4, 2).
// Negative numbers count from the end. It panics with an ArgumentError when
// the two lists differ in length and a DimensionError when a dimension is
// out of range or repeated in either list.
func (t *Tensor[T]) MoveAxis(source, destination []int) *Tensor[T] {
	return t.Permute(MoveAxisOrder(t.geometry("MoveAxis").Clone(), source, destination)...)
}

// MoveAxisOrder returns the permutation (as Permute takes it) that moves
// dimensions source of a tensor of shape s to positions destination, as
// numpy.moveaxis does. It panics as MoveAxis does.
func MoveAxisOrder(s shape.Shape, source, destination []int) []int {
	n := len(s)
	if len(source) != len(destination) {
		panic(&shape.ArgumentError{Op: "MoveAxis", Name: "destination", Value: destination,
			Reason: fmt.Sprintf("%d positions for the %d dimensions of source %v", len(destination), len(source), source)})
	}
	src := distinctAxes("MoveAxis", source, n)
	dst := distinctAxes("MoveAxis", destination, n)
	order := make([]int, 0, n)
	for d := range n {
		if !slices.Contains(src, d) {
			order = append(order, d)
		}
	}
	pairs := make([][2]int, len(src))
	for i := range src {
		pairs[i] = [2]int{dst[i], src[i]}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
	for _, p := range pairs {
		order = slices.Insert(order, p[0], p[1])
	}
	return order
}

// ExpandDims returns the view with a dimension of size 1 inserted at each
// of axes, positions in the result (negative numbers count from its end),
// as numpy.expand_dims: ExpandDims(0, -1) of a (3,) tensor has shape (1, 3,
// 1). It panics with a DimensionError when a position is out of range for
// the result or repeated.
func (t *Tensor[T]) ExpandDims(axes ...int) *Tensor[T] {
	n := len(t.geometry("ExpandDims"))
	at := distinctAxes("ExpandDims", axes, n+len(axes))
	slices.Sort(at)
	v := t.view(t.offset, t.shape, t.strides)
	for _, d := range at { // in increasing order, each lands where asked
		v = v.Unsqueeze(d)
	}
	return v
}

// Diagonal returns the view of the diagonal of each matrix that dimensions
// axis1 and axis2 form, as numpy.diagonal: the elements [i, i+offset]
// (offset ≥ 0) or [i-offset, i] (offset < 0) of those two dimensions,
// which are removed, and the diagonal appended as the last dimension. Its
// length is 0 when offset is past either side. The view writes through to
// t's diagonal. It panics with a DimensionError when an axis is out of
// range or the two are the same.
func (t *Tensor[T]) Diagonal(offset, axis1, axis2 int) *Tensor[T] {
	n := len(t.geometry("Diagonal"))
	a := shape.MustAxis("Diagonal", axis1, n)
	b := shape.MustAxis("Diagonal", axis2, n)
	if a == b {
		panic(&shape.DimensionError{Op: "Diagonal", Dim: axis2, NDim: n,
			Reason: fmt.Sprintf("axis1 (%d) and axis2 (%d) are the same dimension", axis1, axis2)})
	}
	first, length := DiagonalSpan(t.shape[a], t.shape[b], offset)
	v := header(t.st, t.offset, n-1)
	j := 0
	for d := range n {
		if d != a && d != b {
			v.shape[j], v.strides[j] = t.shape[d], t.strides[d]
			j++
		}
	}
	v.shape[n-2] = length
	v.strides[n-2] = 1
	if length > 0 {
		v.offset = moveOffset(moveOffset(t.offset, first[0], t.strides[a]), first[1], t.strides[b])
	}
	if s, ok := shape.CheckedAdd(t.strides[a], t.strides[b]); ok && length > 1 {
		v.strides[n-2] = s // (the sum overflows only for an empty tensor's strides)
	}
	return v
}

// DiagonalSpan returns where the diagonal at offset of an r×c matrix
// starts (its row and column) and how many elements it has, as
// numpy.diagonal counts them.
func DiagonalSpan(r, c, offset int) (first [2]int, length int) {
	if offset >= 0 {
		if offset < c {
			first, length = [2]int{0, offset}, min(r, c-offset)
		}
		return first, length
	}
	if offset > -r { // -offset < r, written so that MinInt cannot overflow
		first, length = [2]int{-offset, 0}, min(r+offset, c)
	}
	return first, length
}

// distinctAxes normalises dims (negative numbers count from the end) for a
// tensor of rank n, panicking with a DimensionError for one out of range
// or repeated.
func distinctAxes(op string, dims []int, n int) []int {
	out := make([]int, len(dims))
	for i, d := range dims {
		a := shape.MustAxis(op, d, n)
		if slices.Contains(out[:i], a) {
			panic(&shape.DimensionError{Op: op, Dim: d, NDim: n, Reason: "repeated"})
		}
		out[i] = a
	}
	return out
}

// allAxes returns 0, 1, …, n-1.
func allAxes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
