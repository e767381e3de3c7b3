package expr

// The chain's view methods: each is the package function of the same name
// (view.go), with the chain as the operand, so that one spelling works on a
// tensor and on an expression: expr.Of(x).Sub(m).T() as x.T().

// T returns the view with the order of all dimensions reversed (see T).
func (c Chain[T]) T() Chain[T] { return Chain[T]{view(ViewT, c.E)} }

// Transpose returns the view with dimensions d0 and d1 swapped.
func (c Chain[T]) Transpose(d0, d1 int) Chain[T] { return Chain[T]{view(ViewTranspose, c.E, d0, d1)} }

// Permute returns the view whose dimension i is dimension dims[i].
func (c Chain[T]) Permute(dims ...int) Chain[T] { return Chain[T]{view(ViewPermute, c.E, dims...)} }

// Reshape returns the elements in the given dimensions (see Reshape).
func (c Chain[T]) Reshape(dims ...int) Chain[T] { return Chain[T]{view(ViewReshape, c.E, dims...)} }

// Slice returns the view of dimension dim from start towards end in steps of
// step (see Slice).
func (c Chain[T]) Slice(dim, start, end, step int) Chain[T] {
	return Chain[T]{view(ViewSlice, c.E, dim, start, end, step)}
}

// Index returns the view at position i of dimension dim, that dimension
// removed.
func (c Chain[T]) Index(dim, i int) Chain[T] { return Chain[T]{view(ViewIndex, c.E, dim, i)} }

// Expand returns the view with size-1 dimensions stretched (see Expand).
func (c Chain[T]) Expand(dims ...int) Chain[T] { return Chain[T]{view(ViewExpand, c.E, dims...)} }

// Squeeze returns the view without the given size-1 dimensions (all of them
// when none are given).
func (c Chain[T]) Squeeze(dims ...int) Chain[T] { return Chain[T]{view(ViewSqueeze, c.E, dims...)} }

// Unsqueeze returns the view with a new dimension of size 1 at dim.
func (c Chain[T]) Unsqueeze(dim int) Chain[T] { return Chain[T]{view(ViewUnsqueeze, c.E, dim)} }

// Flip returns the view with the elements along dims (all when none) in
// reverse order (see Flip).
func (c Chain[T]) Flip(dims ...int) Chain[T] { return Chain[T]{view(ViewFlip, c.E, dims...)} }

// SwapAxes returns the view with dimensions a and b swapped (see SwapAxes).
func (c Chain[T]) SwapAxes(a, b int) Chain[T] { return Chain[T]{SwapAxes(c.E, a, b)} }

// MoveAxis returns the view with dimensions source moved to positions
// destination (see MoveAxis).
func (c Chain[T]) MoveAxis(source, destination []int) Chain[T] {
	return Chain[T]{MoveAxis(c.E, source, destination)}
}

// ExpandDims returns the view with size-1 dimensions at axes (see
// ExpandDims).
func (c Chain[T]) ExpandDims(axes ...int) Chain[T] {
	return Chain[T]{view(ViewExpandDims, c.E, axes...)}
}

// Diagonal returns the view of the diagonals of dimensions axis1 and axis2
// (see Diagonal).
func (c Chain[T]) Diagonal(offset, axis1, axis2 int) Chain[T] {
	return Chain[T]{view(ViewDiagonal, c.E, offset, axis1, axis2)}
}

// BroadcastTo returns the view broadcast to dims (see BroadcastTo).
func (c Chain[T]) BroadcastTo(dims ...int) Chain[T] {
	return Chain[T]{view(ViewBroadcastTo, c.E, dims...)}
}

// Ravel returns the elements in row-major order as one dimension (see
// Ravel).
func (c Chain[T]) Ravel() Chain[T] { return Chain[T]{view(ViewRavel, c.E)} }
