package tensor

import (
	"fmt"
	"math"
	"slices"

	"github.com/laze-go/laze/shape"
)

// None stands for an omitted bound in Slice, as Python's None in a[::-1]: the
// start of the walk (the first element for a positive step, the last for a
// negative one) or its end.
const None = math.MinInt

// Transpose returns a view with dimensions d0 and d1 swapped (negative
// numbers count from the end). It panics with a DimensionError when either is
// out of range.
func (t *Tensor[T]) Transpose(d0, d1 int) *Tensor[T] {
	a := shape.MustAxis("Transpose", d0, len(t.geometry("Transpose")))
	b := shape.MustAxis("Transpose", d1, len(t.shape))
	v := t.view(t.offset, t.shape, t.strides)
	v.shape[a], v.shape[b] = v.shape[b], v.shape[a]
	v.strides[a], v.strides[b] = v.strides[b], v.strides[a]
	return v
}

// T returns the view with the order of all dimensions reversed, as NumPy's
// .T: the matrix transpose of a 2-D tensor, and the tensor itself (as a new
// view) for rank 0 or 1.
func (t *Tensor[T]) T() *Tensor[T] {
	n := len(t.geometry("T"))
	v := header(t.st, t.offset, n)
	for i := range n {
		v.shape[i] = t.shape[n-1-i]
		v.strides[i] = t.strides[n-1-i]
	}
	return v
}

// Permute returns a view whose dimension i is dimension dims[i] of t, as
// PyTorch's permute and NumPy's transpose(axes). dims must be a permutation of
// the dimensions (negative numbers count from the end); otherwise it panics
// with a DimensionError.
func (t *Tensor[T]) Permute(dims ...int) *Tensor[T] {
	n := len(t.geometry("Permute"))
	if len(dims) != n {
		panic(&shape.DimensionError{Op: "Permute", Dim: len(dims), NDim: n,
			Reason: fmt.Sprintf("%d dimensions given for a tensor of rank %d", len(dims), n)})
	}
	v := header(t.st, t.offset, n)
	var seenBuf [16]bool
	seen := seenBuf[:]
	if n > len(seenBuf) {
		seen = make([]bool, n)
	}
	for i, d := range dims {
		a := shape.MustAxis("Permute", d, n)
		if seen[a] {
			panic(&shape.DimensionError{Op: "Permute", Dim: d, NDim: n, Reason: "repeated"})
		}
		seen[a] = true
		v.shape[i] = t.shape[a]
		v.strides[i] = t.strides[a]
	}
	return v
}

// View returns a tensor of the given dimensions over the same storage, as
// PyTorch's view: one dimension may be -1 and is then inferred. The element
// count must not change (ShapeError otherwise). A view exists when the
// tensor is contiguous, and more generally when every group of dimensions
// that is merged or split is contiguous within itself; otherwise View returns
// a NotContiguousError, and Reshape (which copies) is the remedy.
func (t *Tensor[T]) View(dims ...int) (*Tensor[T], error) {
	target, err := inferShape[T]("View", t.geometry("View"), dims)
	if err != nil {
		return nil, err
	}
	strides, ok := viewStrides(t.shape, t.strides, target)
	if !ok {
		return nil, &shape.NotContiguousError{Op: "View", Shape: t.Shape(), Strides: t.Strides(),
			Reason: "its strides do not allow shape " + target.String() + " without a copy; use Reshape"}
	}
	return t.view(t.offset, target, strides), nil
}

// Reshape returns a tensor of the given dimensions (one may be -1) with the
// same elements in row-major order: a view when View can make one, else a
// contiguous copy (NumPy's and PyTorch's reshape). It returns a ShapeError
// when the element count would change, and a DeviceError when t is in a
// device's memory and no view exists: that copy takes a kernel, which the
// evaluator launches for expr.Reshape.
func (t *Tensor[T]) Reshape(dims ...int) (*Tensor[T], error) {
	target, err := inferShape[T]("Reshape", t.geometry("Reshape"), dims)
	if err != nil {
		return nil, err
	}
	if strides, ok := viewStrides(t.shape, t.strides, target); ok {
		return t.view(t.offset, target, strides), nil
	}
	if d := t.st.device; !d.IsCPU() {
		return nil, &shape.DeviceError{Op: "Reshape", Devices: []fmt.Stringer{d},
			Reason: fmt.Sprintf("shape %v with strides %v has no view as %v, and the copy of a device tensor takes a kernel: use expr.Reshape", t.shape, t.strides, target)}
	}
	c := t.Clone()
	return c.view(0, target, shape.ContiguousStrides(target, shape.RowMajor)), nil
}

// Flatten returns the elements as a 1-D tensor: a view when possible, else a
// copy.
func (t *Tensor[T]) Flatten() *Tensor[T] {
	t.geometry("Flatten")
	v, err := t.Reshape(-1)
	if err != nil {
		panic(err) // cannot happen: -1 always matches
	}
	return v
}

// FlatTo1D returns the 1-D view of the elements (mshadow's FlatTo1D). It
// returns a NotContiguousError when no view exists.
func (t *Tensor[T]) FlatTo1D() (*Tensor[T], error) {
	t.geometry("FlatTo1D")
	return t.View(-1)
}

// FlatTo2D returns the 2-D view that folds all leading dimensions and keeps
// the last (mshadow's FlatTo2D): (2,3,4) becomes (6,4). It returns a
// NotContiguousError when no view exists.
func (t *Tensor[T]) FlatTo2D() (*Tensor[T], error) {
	return t.View(t.geometry("FlatTo2D").FlatTo2D()...)
}

// Index returns the view at position i of dimension dim, with that dimension
// removed (mshadow's t[i] is Index(0, i)). Negative dim and i count from the
// end. It panics with a DimensionError or IndexError when out of range.
func (t *Tensor[T]) Index(dim, i int) *Tensor[T] {
	d := shape.MustAxis("Index", dim, len(t.geometry("Index")))
	j, err := shape.Index("Index", d, i, t.shape[d])
	if err != nil {
		panic(err)
	}
	v := header(t.st, t.moved(j, t.strides[d]), len(t.shape)-1)
	copy(v.shape, t.shape[:d])
	copy(v.shape[d:], t.shape[d+1:])
	copy(v.strides, t.strides[:d])
	copy(v.strides[d:], t.strides[d+1:])
	return v
}

// Slice returns the view of dimension dim from start towards end (excluded)
// in steps of step, with Python's slice rules: negative start and end count
// from the end, bounds past either end are clamped, a negative step walks
// backwards, and None stands for an omitted bound. So Slice(0, None, None, -1)
// is a[::-1] and Slice(1, 1, None, 2) is a[:, 1::2]. It panics with an
// ArgumentError when step is 0 and a DimensionError when dim is out of range.
func (t *Tensor[T]) Slice(dim, start, end, step int) *Tensor[T] {
	d := shape.MustAxis("Slice", dim, len(t.geometry("Slice")))
	if step == 0 {
		panic(&shape.ArgumentError{Op: "Slice", Name: "step", Value: 0, Reason: "must not be zero"})
	}
	first, count := SliceIndices(t.shape[d], start, end, step)
	v := t.view(t.offset, t.shape, t.strides)
	if count > 0 {
		v.offset = t.moved(first, t.strides[d])
	}
	v.shape[d] = count
	v.strides[d] = scaledStride[T](t.strides[d], step)
	return v
}

// SliceIndices applies Python's slice rules for a dimension of size n and
// returns the first index visited and how many are visited. step must not be
// 0.
func SliceIndices(n, start, end, step int) (first, count int) {
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	clampBound := func(b, omitted int) int {
		switch {
		case b == None:
			return omitted
		case b < 0:
			return max(b+n, lower)
		default:
			return min(b, upper)
		}
	}
	if step > 0 {
		first, end = clampBound(start, lower), clampBound(end, upper)
		if end > first {
			count = (end-first-1)/step + 1
		}
	} else {
		first, end = clampBound(start, upper), clampBound(end, lower)
		if first > end {
			// Unsigned, so that -step is right for step = MinInt too.
			count = int(uint(first-end-1)/uint(-step)) + 1
		}
	}
	return first, count
}

// Narrow returns the view of length elements of dimension dim starting at
// start (negative start counts from the end), as PyTorch's narrow. It panics
// with an IndexError when the range does not fit in the dimension, and with
// an ArgumentError when start+length does not even fit in an int.
func (t *Tensor[T]) Narrow(dim, start, length int) *Tensor[T] {
	d := shape.MustAxis("Narrow", dim, len(t.geometry("Narrow")))
	n := t.shape[d]
	s := start
	if s < 0 {
		s += n
	}
	if s < 0 || s > n {
		panic(&shape.IndexError{Op: "Narrow", Dim: d, Index: start, Size: n})
	}
	if length < 0 || length > n-s {
		end, ok := shape.CheckedAdd(s, length)
		if !ok {
			panic(&shape.ArgumentError{Op: "Narrow", Name: "length", Value: length,
				Reason: fmt.Sprintf("start %d + length overflows int (dimension %d has size %d)", s, d, n)})
		}
		panic(&shape.IndexError{Op: "Narrow", Dim: d, Index: end, Size: n})
	}
	return t.Slice(d, s, s+length, 1)
}

// Expand returns a view with size-1 dimensions stretched to the given sizes
// without copying (stride 0), as PyTorch's expand: -1 keeps a dimension's
// size, and new leading dimensions may be added. It returns a BroadcastError
// naming both shapes when a dimension of size other than 1 would change.
func (t *Tensor[T]) Expand(dims ...int) (*Tensor[T], error) {
	t.geometry("Expand")
	target := shape.Shape(slices.Clone(dims))
	lead := len(dims) - len(t.shape)
	for i, n := range target {
		if n >= 0 {
			continue
		}
		if n != -1 || i < lead {
			return nil, &shape.ArgumentError{Op: "Expand", Name: fmt.Sprintf("dims[%d]", i), Value: n,
				Reason: "only -1 (keep the size) is allowed, and only for an existing dimension"}
		}
		target[i] = t.shape[i-lead]
	}
	v, err := t.BroadcastTo(target)
	return v, shape.Rename(err, "Expand")
}

// BroadcastTo returns the view of t broadcast to shape s by NumPy's rules
// (stride 0 on stretched and added dimensions), as numpy.broadcast_to. It
// returns a BroadcastError naming both shapes when that is not possible, an
// ArgumentError for a negative size and an OverflowError when s is not a
// valid shape for T (its element count, or its byte count, does not fit in
// an int).
func (t *Tensor[T]) BroadcastTo(s shape.Shape) (*Tensor[T], error) {
	t.geometry("BroadcastTo")
	for i, n := range s {
		if n < 0 {
			return nil, &shape.ArgumentError{Op: "BroadcastTo", Name: fmt.Sprintf("shape[%d]", i), Value: n,
				Reason: "a dimension size must not be negative"}
		}
	}
	if _, err := validShape[T]("BroadcastTo", s); err != nil {
		return nil, err
	}
	strides, err := shape.BroadcastStrides(t.shape, t.strides, s)
	if err != nil {
		return nil, shape.Rename(err, "BroadcastTo")
	}
	return t.view(t.offset, s, strides), nil
}

// Squeeze returns a view without the given size-1 dimensions, or without
// every size-1 dimension when none are given. As in PyTorch, a named
// dimension whose size is not 1 is kept. It panics with a DimensionError when
// a dimension number is out of range.
func (t *Tensor[T]) Squeeze(dims ...int) *Tensor[T] {
	drop := make([]bool, len(t.geometry("Squeeze")))
	for i, n := range t.shape {
		drop[i] = n == 1 && len(dims) == 0
	}
	for _, d := range dims {
		a := shape.MustAxis("Squeeze", d, len(t.shape))
		drop[a] = t.shape[a] == 1
	}
	keep := 0
	for _, dropped := range drop {
		if !dropped {
			keep++
		}
	}
	v := header(t.st, t.offset, keep)
	j := 0
	for i, dropped := range drop {
		if !dropped {
			v.shape[j], v.strides[j] = t.shape[i], t.strides[i]
			j++
		}
	}
	return v
}

// Unsqueeze returns a view with a new dimension of size 1 inserted at
// position dim, which may be from -(NDim+1) to NDim (negative counts from the
// end of the result). It panics with a DimensionError otherwise.
func (t *Tensor[T]) Unsqueeze(dim int) *Tensor[T] {
	n := len(t.geometry("Unsqueeze"))
	d := shape.MustAxis("Unsqueeze", dim, n+1)
	v := header(t.st, t.offset, n+1)
	copy(v.shape, t.shape[:d])
	copy(v.strides, t.strides[:d])
	v.shape[d] = 1
	v.strides[d] = 1
	if d < n {
		v.strides[d] = scaledStride[T](t.strides[d], t.shape[d])
	}
	copy(v.shape[d+1:], t.shape[d:])
	copy(v.strides[d+1:], t.strides[d:])
	return v
}

// inferShape resolves a requested shape for View or Reshape: at most one -1,
// which takes whatever size keeps the element count, and no other negative
// size.
func inferShape[T Number](op string, from shape.Shape, dims []int) (shape.Shape, error) {
	total, _ := from.Size()
	target := shape.Shape(slices.Clone(dims))
	infer := -1
	known := 1
	for i, n := range target {
		switch {
		case n == -1 && infer < 0:
			infer = i
		case n < 0:
			return nil, &shape.ArgumentError{Op: op, Name: fmt.Sprintf("dims[%d]", i), Value: n,
				Reason: "sizes must be non-negative, with at most one -1 to infer"}
		default:
			var ok bool
			if known, ok = mulNonNeg(known, n); !ok {
				return nil, &shape.OverflowError{Op: op, Shape: target, What: "element count"}
			}
		}
	}
	if infer >= 0 {
		if known == 0 || total%known != 0 {
			return nil, &shape.ShapeError{Op: op, Shapes: []shape.Shape{from.Clone(), target},
				Reason: "the -1 dimension cannot be inferred: the other sizes do not divide the element count"}
		}
		target[infer] = total / known
		known = total
	}
	if known != total {
		return nil, &shape.ShapeError{Op: op, Shapes: []shape.Shape{from.Clone(), target},
			Reason: fmt.Sprintf("element counts differ (%d vs %d)", total, known)}
	}
	if _, err := validShape[T](op, target); err != nil { // (0, 2^62, 2^62) has no elements but is no shape
		return nil, err
	}
	return target, nil
}

// moved returns t's offset moved by i·stride, the offset of a view that
// starts at index i of a dimension with that stride. For a tensor with
// elements the product and the sum lie within the storage; for an empty one
// (whose strides come from anywhere) they may not fit, and then the offset
// stays: no element is ever read through it.
func (t *Tensor[T]) moved(i, stride int) int { return moveOffset(t.offset, i, stride) }

// scaledStride returns stride·k, the stride of a view that steps k elements
// of a dimension at a time (Slice's step, Unsqueeze's size). When that is not
// a valid stride (its size in bytes does not fit in an int, as NumPy
// requires), the dimension has at most one element or the tensor none, so no
// element is addressed through it, and stride itself is returned.
func scaledStride[T Number](stride, k int) int {
	p, ok := shape.CheckedMul(stride, k)
	if limit := maxInt / ItemSize[T](); !ok || p > limit || p < -limit {
		return stride
	}
	return p
}

// viewStrides returns strides with which a tensor of shape from and the given
// strides is read as shape to without moving data, following PyTorch's rule:
// the old dimensions are cut into chunks, each contiguous within itself, and
// every chunk must be covered by whole new dimensions.
func viewStrides(from shape.Shape, strides []int, to shape.Shape) ([]int, bool) {
	out := make([]int, len(to))
	total, _ := from.Size()
	if total == 0 || len(from) == 0 {
		copy(out, shape.ContiguousStrides(to, shape.RowMajor))
		return out, true
	}
	viewD := len(to) - 1
	chunkBase := strides[len(from)-1]
	tensorNumel, viewNumel := 1, 1
	for d := len(from) - 1; d >= 0; d-- {
		tensorNumel *= from[d]
		chunkEnds := d == 0 || (from[d-1] != 1 && strides[d-1] != tensorNumel*chunkBase)
		if !chunkEnds {
			continue
		}
		for viewD >= 0 && (viewNumel < tensorNumel || to[viewD] == 1) {
			out[viewD] = viewNumel * chunkBase
			viewNumel *= to[viewD]
			viewD--
		}
		if viewNumel != tensorNumel {
			return nil, false
		}
		if d > 0 {
			chunkBase = strides[d-1]
			tensorNumel, viewNumel = 1, 1
		}
	}
	return out, viewD == -1
}
