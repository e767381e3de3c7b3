package expr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// NumPy's structured functions built from views, generators and the nodes
// that exist (issue 32, point 4); docs/design.md says which each is:
//
//   - Trace: a sum over a Diagonal view (no copy);
//   - Diff: slices subtracted, n times (views, fused);
//   - Outer: two reshapes broadcast together (views, fused);
//   - Tile and Repeat: a broadcast view reshaped (the repeated elements
//     are not a strided view), which the evaluator reads by running the
//     pass in the unmerged shape where the tree is elementwise around it
//     (no copy), and copies once elsewhere, as NumPy does;
//   - Roll: two slices joined, which the evaluator writes piece by piece
//     where the tree is elementwise around it (no copy), and computes as
//     a concatenation step elsewhere.

// Trace returns the sums of the diagonals at offset of the matrices that
// dimensions axis1 and axis2 of x form, as numpy.trace(x, offset, axis1,
// axis2): Sum(Diagonal(x, offset, axis1, axis2), last axis).
func Trace[T tensor.Number](x Exp[T], offset, axis1, axis2 int) Exp[T] {
	return Sum(Diagonal(x, offset, axis1, axis2), Axis(-1))
}

// Diff returns the n-th discrete difference along axis, as numpy.diff(x,
// n, axis): x[1:] - x[:-1] along axis, n times; the axis loses n elements
// (none left when n is at least its size). A negative n is an
// ArgumentError at Check.
func Diff[T tensor.Number](x Exp[T], n, axis int) Exp[T] {
	if n < 0 {
		return failedNode[T](fmt.Sprintf("np.diff(x, %d)", n),
			&shape.ArgumentError{Op: "diff", Name: "n", Value: n, Reason: "must be non-negative"})
	}
	if xs, err := new(Shapes).Of(x); err == nil {
		if d, err := shape.Axis("diff", axis, len(xs)); err == nil {
			n = min(n, xs[d]) // past the axis's size the result is empty already
		}
	}
	for range n {
		x = Sub(Slice(x, axis, 1, tensor.None, 1), Slice(x, axis, tensor.None, -1, 1))
	}
	return x
}

// Outer returns the outer product of x and y, flattened first, as
// numpy.outer: out[i, j] = x[i]·y[j], a fused product of two broadcast
// views.
func Outer[T tensor.Number](x, y Exp[T]) Exp[T] {
	return Mul(Unsqueeze(Ravel(x), 1), Unsqueeze(Ravel(y), 0))
}

// Repeat returns x with each element along axis repeated repeats times,
// as numpy.repeat(x, repeats, axis): a size-1 dimension inserted after
// axis, broadcast to repeats and merged back. The merge is not a strided
// view: where the tree around it is elementwise the evaluator runs the
// pass in the unmerged shape (the destination split), elsewhere it copies
// the broadcast operand once. A negative
// repeats or an axis out of range is an error at Check.
func Repeat[T tensor.Number](x Exp[T], repeats, axis int) Exp[T] {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x // the tree reports x's own error
	}
	text := fmt.Sprintf("np.repeat(x, %d, %d)", repeats, axis)
	d, err := shape.Axis("repeat", axis, len(xs))
	if err == nil && repeats < 0 {
		err = &shape.ArgumentError{Op: "repeat", Name: "repeats", Value: repeats, Reason: "must be non-negative"}
	}
	if err != nil {
		return failedNode[T](text, err)
	}
	wide := slices.Insert(slices.Clone(xs), d+1, repeats)
	out := slices.Clone(xs)
	out[d] *= repeats
	return Reshape(BroadcastTo(ExpandDims(x, d+1), wide...), out...)
}

// Tile returns x repeated reps[i] times along each dimension, as
// numpy.tile(x, reps): x and reps are first given the same rank (leading
// dimensions of 1), then each dimension is broadcast to reps[i] copies
// and merged, evaluated as Repeat's merge is.
func Tile[T tensor.Number](x Exp[T], reps ...int) Exp[T] {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x
	}
	for i, r := range reps {
		if r < 0 {
			return failedNode[T](fmt.Sprintf("np.tile(x, %v)", reps),
				&shape.ArgumentError{Op: "tile", Name: fmt.Sprintf("reps[%d]", i), Value: r, Reason: "must be non-negative"})
		}
	}
	rank := max(len(xs), len(reps))
	own := append(make(shape.Shape, rank-len(xs)), xs...)
	times := append(make([]int, rank-len(reps)), reps...)
	for i := range rank - len(xs) {
		own[i] = 1
	}
	for i := range rank - len(reps) {
		times[i] = 1
	}
	// (own[0], own[1], …) → (1, own[0], 1, own[1], …) → (times[0], own[0], …) → (times[0]·own[0], …)
	interleaved := make([]int, 0, 2*rank)
	wide := make([]int, 0, 2*rank)
	out := make([]int, rank)
	for i := range rank {
		interleaved = append(interleaved, 1, own[i])
		wide = append(wide, times[i], own[i])
		out[i] = times[i] * own[i]
	}
	return Reshape(BroadcastTo(Reshape(x, interleaved...), wide...), out...)
}

// Roll returns x with its elements shifted by shift places along axis,
// those pushed past the end coming back at the start, as numpy.roll(x,
// shift, axis): the last shift elements joined before the rest (a
// concatenation, which the evaluator writes piece by piece where the tree
// around it is elementwise). An axis out of range is an error at Check.
func Roll[T tensor.Number](x Exp[T], shift, axis int) Exp[T] {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x
	}
	d, err := shape.Axis("roll", axis, len(xs))
	if err != nil {
		return failedNode[T](fmt.Sprintf("np.roll(x, %d, %d)", shift, axis), err)
	}
	n := xs[d]
	if n == 0 {
		return x
	}
	s := ((shift % n) + n) % n
	if s == 0 {
		return x
	}
	return Concatenate(d, Slice(x, d, n-s, tensor.None, 1), Slice(x, d, tensor.None, n-s, 1))
}

// failed is a node that stands for a call whose arguments make no array:
// Check reports err at it.
type failed[T tensor.Number] struct {
	text string
	err  error
}

func failedNode[T tensor.Number](text string, err error) Exp[T] {
	return &failed[T]{text: text, err: err}
}

// Shape panics with the error Check returns.
func (f *failed[T]) Shape() shape.Shape { return mustShape(f) }

// At panics with the error Check returns.
func (f *failed[T]) At(...int) T {
	mustShape(f)
	var zero T
	return zero
}

func (f *failed[T]) String() string            { return f.text }
func (f *failed[T]) render(b *strings.Builder) { b.WriteString(f.text) }

func (f *failed[T]) checkNode(cc *checking) (info, error) {
	return info{}, &shape.NodeError{Op: cc.call, Node: f.text, Err: f.err}
}
