package expr

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// ViewKind names the view a View node takes of its operand. Each is the
// tensor method of the same name (tensor/views.go), with the same arguments
// and the same errors.
type ViewKind uint8

// The views. Args holds the tensor method's arguments in order.
const (
	ViewT           ViewKind = iota + 1 // T(): all dimensions reversed; no Args
	ViewTranspose                       // Transpose(d0, d1)
	ViewPermute                         // Permute(dims...)
	ViewReshape                         // Reshape(dims...): one dimension may be -1
	ViewSlice                           // Slice(dim, start, end, step), tensor.None for an omitted bound
	ViewIndex                           // Index(dim, i)
	ViewExpand                          // Expand(dims...): -1 keeps a size
	ViewSqueeze                         // Squeeze(dims...)
	ViewUnsqueeze                       // Unsqueeze(dim)
	ViewFlip                            // Flip(dims...): none for every dimension
	ViewMoveAxis                        // MoveAxis(source, destination): Args holds len(source), source, then destination
	ViewExpandDims                      // ExpandDims(axes...)
	ViewDiagonal                        // Diagonal(offset, axis1, axis2)
	ViewBroadcastTo                     // BroadcastTo(shape): Args holds the shape
	ViewRavel                           // Flatten(): the row-major elements as one dimension; no Args
)

var viewNames = [...]string{ViewT: "T", ViewTranspose: "Transpose", ViewPermute: "Permute",
	ViewReshape: "Reshape", ViewSlice: "Slice", ViewIndex: "Index", ViewExpand: "Expand",
	ViewSqueeze: "Squeeze", ViewUnsqueeze: "Unsqueeze", ViewFlip: "Flip", ViewMoveAxis: "MoveAxis",
	ViewExpandDims: "ExpandDims", ViewDiagonal: "Diagonal", ViewBroadcastTo: "BroadcastTo", ViewRavel: "Ravel"}

// String returns the tensor method's name: "Transpose", "Reshape".
func (k ViewKind) String() string {
	if int(k) < len(viewNames) && viewNames[k] != "" {
		return viewNames[k]
	}
	return "ViewKind(" + strconv.Itoa(int(k)) + ")"
}

// View is a view of X: X's elements rearranged, selected or repeated as the
// tensor method Kind does to a tensor (a transpose, a slice, a reshape…),
// without computing anything. Evaluators push views down through the
// elementwise nodes to the tensors, where they become tensor views
// (PushViews); (a + b).T is evaluated as a.T + b.T.
type View[T tensor.Number] struct {
	Kind ViewKind
	Args []int
	X    Exp[T]
}

func view[T tensor.Number](k ViewKind, x Exp[T], args ...int) Exp[T] {
	return &View[T]{Kind: k, Args: slices.Clone(args), X: bare(x)}
}

// T returns the view of x with the order of all dimensions reversed, as the
// tensor method T (NumPy's .T).
func T[E tensor.Number](x Exp[E]) Exp[E] { return view(ViewT, x) }

// Transpose returns the view of x with dimensions d0 and d1 swapped, as the
// tensor method Transpose.
func Transpose[T tensor.Number](x Exp[T], d0, d1 int) Exp[T] { return view(ViewTranspose, x, d0, d1) }

// Permute returns the view of x whose dimension i is dimension dims[i] of x,
// as the tensor method Permute.
func Permute[T tensor.Number](x Exp[T], dims ...int) Exp[T] {
	return view(ViewPermute, x, dims...)
}

// Reshape returns x's elements, in row-major order, in the given dimensions
// (one may be -1), as the tensor method Reshape: evaluators read it as a
// view where the strides allow one, and copy (only the operand that needs
// it) where they do not.
func Reshape[T tensor.Number](x Exp[T], dims ...int) Exp[T] {
	return view(ViewReshape, x, dims...)
}

// Slice returns the view of dimension dim of x from start towards end in
// steps of step, with Python's slice rules, as the tensor method Slice
// (tensor.None stands for an omitted bound).
func Slice[T tensor.Number](x Exp[T], dim, start, end, step int) Exp[T] {
	return view(ViewSlice, x, dim, start, end, step)
}

// Index returns the view of x at position i of dimension dim, that dimension
// removed, as the tensor method Index.
func Index[T tensor.Number](x Exp[T], dim, i int) Exp[T] { return view(ViewIndex, x, dim, i) }

// Expand returns x with size-1 dimensions stretched to the given sizes (-1
// keeps a size; new leading dimensions may be added), as the tensor method
// Expand.
func Expand[T tensor.Number](x Exp[T], dims ...int) Exp[T] { return view(ViewExpand, x, dims...) }

// Squeeze returns x without the given size-1 dimensions, or without every
// size-1 dimension when none are given, as the tensor method Squeeze.
func Squeeze[T tensor.Number](x Exp[T], dims ...int) Exp[T] {
	return view(ViewSqueeze, x, dims...)
}

// Unsqueeze returns x with a new dimension of size 1 at position dim, as the
// tensor method Unsqueeze.
func Unsqueeze[T tensor.Number](x Exp[T], dim int) Exp[T] { return view(ViewUnsqueeze, x, dim) }

// Flip returns the view of x with the order of the elements along each of
// dims reversed, or along every dimension when none is given, as
// numpy.flip and the tensor method Flip.
func Flip[T tensor.Number](x Exp[T], dims ...int) Exp[T] { return view(ViewFlip, x, dims...) }

// SwapAxes returns the view of x with dimensions a and b swapped, as
// numpy.swapaxes: the same view as Transpose(x, a, b).
func SwapAxes[T tensor.Number](x Exp[T], a, b int) Exp[T] { return view(ViewTranspose, x, a, b) }

// MoveAxis returns the view of x with dimensions source moved to positions
// destination, the others keeping their order, as numpy.moveaxis and the
// tensor method MoveAxis.
func MoveAxis[T tensor.Number](x Exp[T], source, destination []int) Exp[T] {
	return view(ViewMoveAxis, x, slices.Concat([]int{len(source)}, source, destination)...)
}

// ExpandDims returns the view of x with a dimension of size 1 at each of
// axes (positions in the result), as numpy.expand_dims and the tensor
// method ExpandDims.
func ExpandDims[T tensor.Number](x Exp[T], axes ...int) Exp[T] {
	return view(ViewExpandDims, x, axes...)
}

// Diagonal returns the view of the diagonals at offset of the matrices that
// dimensions axis1 and axis2 of x form, appended as the last dimension, as
// numpy.diagonal and the tensor method Diagonal.
func Diagonal[T tensor.Number](x Exp[T], offset, axis1, axis2 int) Exp[T] {
	return view(ViewDiagonal, x, offset, axis1, axis2)
}

// BroadcastTo returns the view of x broadcast to the shape dims by NumPy's
// rules (stride 0 on stretched and added dimensions), as numpy.broadcast_to
// and the tensor method BroadcastTo.
func BroadcastTo[T tensor.Number](x Exp[T], dims ...int) Exp[T] {
	return view(ViewBroadcastTo, x, dims...)
}

// Ravel returns x's elements in row-major order as one dimension, as
// numpy.ravel: a view where the strides allow one, and where they do not
// a copy of that operand alone, as Reshape(x, -1) (and, unlike it, of an
// operand with no element too). numpy.ndarray.flatten, which always
// copies, has the same value: an expression's value is never shared with
// its operands (see docs/design.md).
func Ravel[T tensor.Number](x Exp[T]) Exp[T] { return view(ViewRavel, x) }

// Apply takes the view of t with t's own view method: a tensor sharing t's
// storage. For ViewReshape it is the tensor method View, which returns a
// NotContiguousError where only a copy would do (Reshape's fallback, which
// evaluators make themselves). Bad arguments give the errors the tensor
// method gives (returned here, where the method panics with them).
func (v *View[T]) Apply(t *tensor.Tensor[T]) (_ *tensor.Tensor[T], err error) {
	defer recoverShapeError(&err)
	a := v.Args
	arg := func(i int) int {
		if i < len(a) {
			return a[i]
		}
		panic(&shape.ArgumentError{Op: v.Kind.String(), Name: "arguments", Value: a,
			Reason: fmt.Sprintf("%s needs more arguments", v.Kind)})
	}
	switch v.Kind {
	case ViewT:
		return t.T(), nil
	case ViewTranspose:
		return t.Transpose(arg(0), arg(1)), nil
	case ViewPermute:
		return t.Permute(a...), nil
	case ViewReshape:
		r, err := t.View(a...)
		if err != nil {
			var nc *shape.NotContiguousError
			if errors.As(err, &nc) {
				nc.Op = "Reshape"
			} else {
				err = shape.Rename(err, "Reshape")
			}
		}
		return r, err
	case ViewSlice:
		return t.Slice(arg(0), arg(1), arg(2), arg(3)), nil
	case ViewIndex:
		return t.Index(arg(0), arg(1)), nil
	case ViewExpand:
		return t.Expand(a...)
	case ViewSqueeze:
		return t.Squeeze(a...), nil
	case ViewUnsqueeze:
		return t.Unsqueeze(arg(0)), nil
	case ViewFlip:
		return t.Flip(a...), nil
	case ViewMoveAxis:
		src, dst := moveAxisArgs(a)
		return t.MoveAxis(src, dst), nil
	case ViewExpandDims:
		return t.ExpandDims(a...), nil
	case ViewDiagonal:
		return t.Diagonal(arg(0), arg(1), arg(2)), nil
	case ViewBroadcastTo:
		return t.BroadcastTo(shape.Shape(a))
	case ViewRavel:
		r, err := t.View(t.Numel())
		if err != nil {
			err = shape.Rename(err, "Ravel")
			var nc *shape.NotContiguousError
			if errors.As(err, &nc) {
				nc.Op = "Ravel"
			}
		}
		return r, err
	}
	return nil, &shape.ArgumentError{Op: "View", Name: "kind", Value: v.Kind, Reason: "not a view kind"}
}

// moveAxisArgs splits a MoveAxis view's Args into source and destination.
// Args that do not hold them (made by hand) give lists of different
// lengths, which the tensor method refuses.
func moveAxisArgs(a []int) (source, destination []int) {
	if len(a) == 0 || a[0] < 0 || a[0] > len(a)-1 {
		return a, nil
	}
	return a[1 : 1+a[0]], a[1+a[0]:]
}

// MoveAxisArgs returns the source and destination dimensions of a
// MoveAxis view.
func (v *View[T]) MoveAxisArgs() (source, destination []int) { return moveAxisArgs(v.Args) }

// recoverShapeError turns a panic with one of package shape's typed errors
// (the tensor view methods' panics on bad arguments) into *err; any other
// panic goes on.
func recoverShapeError(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(error); ok {
		var ae *shape.ArgumentError
		var de *shape.DimensionError
		var ie *shape.IndexError
		if errors.As(e, &ae) || errors.As(e, &de) || errors.As(e, &ie) {
			*err = e
			return
		}
	}
	panic(r)
}

// viewShape returns the shape of the view of an operand of shape xs, or the
// tensor method's error. The geometry is the tensor method's own: it is
// applied to a one-element tensor broadcast to xs (stride 0 everywhere), which
// every view method accepts wherever it accepts a tensor of that shape (a
// reshape of it is always a view). The element is Go memory, not an
// allocator's block, so that checking never fails for want of memory.
func (v *View[T]) viewShape(xs shape.Shape) (shape.Shape, error) {
	one, err := tensor.Wrap(make([]T, 1), nil)
	if err != nil {
		return nil, err // unreachable: one element, shape ()
	}
	probe, err := one.BroadcastTo(xs)
	if err != nil {
		return nil, err
	}
	r, err := v.Apply(probe)
	if err != nil {
		return nil, err
	}
	return r.Shape(), nil
}

// Shape returns the shape of the view. It panics with the error Check
// returns when X's shape does not allow the view.
func (v *View[T]) Shape() shape.Shape { return mustShape(v) }

// Operands returns X.
func (v *View[T]) Operands() []Node { return []Node{v.X} }

func (v *View[T]) checkNode(cc *checking) (info, error) {
	in, err := checkOperand(v, cc, v.Kind.String(), 0, v.X)
	if err != nil {
		return info{}, err
	}
	s, err := v.viewShape(in.shape)
	if err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(v), Err: err}
	}
	in.shape = s
	return in, nil
}

// At returns the element of X that the view puts at index: the index is
// mapped back through the view (dimensions reordered, a slice's start and
// step applied, an indexed dimension put back, a reshape's row-major
// position recomputed in X's shape).
func (v *View[T]) At(index ...int) T {
	checkRank(v, index)
	return v.X.At(v.sourceIndex(v.X.Shape(), index)...)
}

// sourceIndex maps an index of the view to the index of X (of shape xs) it
// reads. The arguments have been checked (the view's shape is known).
func (v *View[T]) sourceIndex(xs shape.Shape, index []int) []int {
	a := v.Args
	n := len(xs)
	axis := func(d, rank int) int { return shape.MustAxis(v.Kind.String(), d, rank) }
	src := make([]int, n)
	switch v.Kind {
	case ViewT:
		for i := range n {
			src[i] = index[n-1-i]
		}
	case ViewTranspose:
		copy(src, index)
		d0, d1 := axis(a[0], n), axis(a[1], n)
		src[d0], src[d1] = index[d1], index[d0]
	case ViewPermute:
		for i, d := range a {
			src[axis(d, n)] = index[i]
		}
	case ViewReshape:
		out, _ := v.viewShape(xs)
		shape.Unravel(shape.Ravel(index, out), xs, src)
	case ViewSlice:
		copy(src, index)
		d := axis(a[0], n)
		first, _ := tensor.SliceIndices(xs[d], a[1], a[2], a[3])
		src[d] = first + index[d]*a[3]
	case ViewIndex:
		d := axis(a[0], n)
		i := a[1]
		if i < 0 {
			i += xs[d]
		}
		copy(src, index[:d])
		src[d] = i
		copy(src[d+1:], index[d:])
	case ViewExpand:
		return broadcastIndex(index, xs)
	case ViewSqueeze:
		drop := squeezed(xs, a)
		j := 0
		for d := range n {
			if !drop[d] {
				src[d] = index[j]
				j++
			}
		}
	case ViewUnsqueeze:
		d := axis(a[0], n+1)
		copy(src, index[:d])
		copy(src[d:], index[d+1:])
	case ViewFlip:
		copy(src, index)
		for _, d := range a {
			d = axis(d, n)
			src[d] = xs[d] - 1 - index[d]
		}
		if len(a) == 0 {
			for d := range src {
				src[d] = xs[d] - 1 - index[d]
			}
		}
	case ViewMoveAxis:
		from, to := moveAxisArgs(a)
		for i, d := range tensor.MoveAxisOrder(xs, from, to) {
			src[d] = index[i]
		}
	case ViewExpandDims:
		out := len(index)
		inserted := make([]bool, out)
		for _, d := range a {
			inserted[axis(d, out)] = true
		}
		j := 0
		for d, i := range index {
			if !inserted[d] {
				src[j] = i
				j++
			}
		}
	case ViewDiagonal:
		d0, d1 := axis(a[1], n), axis(a[2], n)
		first, _ := tensor.DiagonalSpan(xs[d0], xs[d1], a[0])
		j := 0
		for d := range n {
			if d != d0 && d != d1 {
				src[d] = index[j]
				j++
			}
		}
		src[d0], src[d1] = first[0]+index[n-2], first[1]+index[n-2]
	case ViewBroadcastTo:
		return broadcastIndex(index, xs)
	case ViewRavel:
		shape.Unravel(index[0], xs, src)
	}
	return src
}

// squeezed returns which dimensions of xs Squeeze(dims...) drops: the named
// size-1 dimensions, or every size-1 dimension when none are named.
func squeezed(xs shape.Shape, dims []int) []bool {
	drop := make([]bool, len(xs))
	for d, n := range xs {
		drop[d] = n == 1 && len(dims) == 0
	}
	for _, d := range dims {
		a := shape.MustAxis("Squeeze", d, len(xs))
		drop[a] = xs[a] == 1
	}
	return drop
}

// String prints the view as NumPy writes it: "x.T", "x[:, 1:5:2]",
// "x.reshape(2, 3)".
func (v *View[T]) String() string { return render(v) }

func (v *View[T]) render(b *strings.Builder) {
	renderTo(b, v.X)
	renderView(b, v.Kind, v.Args)
}

// renderView prints a view of kind k with arguments a as it follows its
// operand: ".T", "[:, 1:5:2]", ".reshape(2, 3)".
func renderView(b *strings.Builder, k ViewKind, a []int) {
	ints := func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ", ")
	}
	bound := func(x int) string {
		if x == tensor.None {
			return ""
		}
		return strconv.Itoa(x)
	}
	// index prints x[:, :, sel] with sel at dimension d (negative d as ":, ...").
	index := func(d int, sel string) string {
		if d < 0 {
			return "[..., " + sel + strings.Repeat(", :", -d-1) + "]"
		}
		return "[" + strings.Repeat(":, ", d) + sel + "]"
	}
	switch {
	case k == ViewT:
		b.WriteString(".T")
	case k == ViewTranspose && len(a) == 2:
		fmt.Fprintf(b, ".swapaxes(%d, %d)", a[0], a[1])
	case k == ViewPermute:
		b.WriteString(".transpose(" + ints(a) + ")")
	case k == ViewReshape:
		b.WriteString(".reshape(" + ints(a) + ")")
	case k == ViewSlice && len(a) == 4:
		sel := bound(a[1]) + ":" + bound(a[2])
		if a[3] != 1 {
			sel += ":" + strconv.Itoa(a[3])
		}
		b.WriteString(index(a[0], sel))
	case k == ViewIndex && len(a) == 2:
		b.WriteString(index(a[0], strconv.Itoa(a[1])))
	case k == ViewExpand:
		b.WriteString(".expand(" + ints(a) + ")")
	case k == ViewSqueeze:
		b.WriteString(".squeeze(" + ints(a) + ")")
	case k == ViewUnsqueeze && len(a) == 1:
		fmt.Fprintf(b, ".unsqueeze(%d)", a[0])
	case k == ViewFlip && len(a) == 1:
		b.WriteString(index(a[0], "::-1"))
	case k == ViewFlip:
		b.WriteString(".flip(" + ints(a) + ")")
	case k == ViewMoveAxis:
		src, dst := moveAxisArgs(a)
		fmt.Fprintf(b, ".moveaxis((%s), (%s))", ints(src), ints(dst))
	case k == ViewExpandDims:
		b.WriteString(".expand_dims(" + ints(a) + ")")
	case k == ViewDiagonal && len(a) == 3:
		fmt.Fprintf(b, ".diagonal(%d, %d, %d)", a[0], a[1], a[2])
	case k == ViewBroadcastTo:
		b.WriteString(".broadcast_to((" + ints(a) + "))")
	case k == ViewRavel:
		b.WriteString(".ravel()")
	default:
		fmt.Fprintf(b, ".%s(%s)", k, ints(a))
	}
}
