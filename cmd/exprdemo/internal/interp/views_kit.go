package interp

import (
	"errors"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// views are the views of an array held as an any: of a tensor
// (*tensor.Tensor[T]), an O(1) tensor view; of a computed expression
// (expr.Exp[T]), a lazy view node, which the evaluator pushes down to the
// expression's tensors. Each takes x's shape xs, known to the caller, and
// returns the view with its shape, found in O(rank) (see viewNode). The
// caller has checked every argument, since the tensor methods panic on
// programming errors; reshape, whose size the caller has not checked,
// returns the tensor method's error, and so does view (the views NumPy
// names: flip, squeeze, diagonal…), which takes any expr.ViewKind.
type views interface {
	permute(x any, xs shape.Shape, perm []int) (any, shape.Shape)
	transposed(x any, xs shape.Shape) (any, shape.Shape)
	index(x any, xs shape.Shape, dim, i int) (any, shape.Shape)
	slice(x any, xs shape.Shape, dim, start, end, step int) (any, shape.Shape)
	unsqueeze(x any, xs shape.Shape, dim int) (any, shape.Shape)
	reshape(x any, xs shape.Shape, dims []int) (any, shape.Shape, error)
	view(k expr.ViewKind, args []int, x any, xs shape.Shape) (any, shape.Shape, error)
	leafOf(x any) (any, bool)
	shapeOf(x any) shape.Shape
}

// viewNode returns the view node v of an operand of shape xs, with its
// shape: that of the same view of a probe, a one-element tensor broadcast
// to xs, as expr.Check finds it. v.Shape() would check the whole tree
// below v, so that a chain of n views, each asked its shape, would cost
// O(n²) ((a+1)[::-1][::-1]…); this costs O(rank) per view. The error is
// the tensor method's, for an argument the caller has not checked.
func viewNode[T tensor.Number](v expr.Exp[T], xs shape.Shape) (any, shape.Shape, error) {
	probe, err := tensor.Scalar(T(0)).BroadcastTo(xs)
	if err != nil {
		return nil, nil, err
	}
	r, err := v.(*expr.View[T]).Apply(probe)
	if err != nil {
		return nil, nil, err
	}
	return v, r.Shape(), nil
}

// checkedView is viewNode for the views whose arguments the caller has
// checked: an error would be a bug.
func checkedView[T tensor.Number](v expr.Exp[T], xs shape.Shape) (any, shape.Shape) {
	node, s, err := viewNode(v, xs)
	if err != nil {
		panic(err)
	}
	return node, s
}

func (kitOf[T]) permute(x any, xs shape.Shape, perm []int) (any, shape.Shape) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		r := t.Permute(perm...)
		return r, r.Shape()
	}
	return checkedView(expr.Permute(x.(expr.Exp[T]), perm...), xs)
}

// transposed is x.T: every dimension reversed.
func (kitOf[T]) transposed(x any, xs shape.Shape) (any, shape.Shape) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		r := t.T()
		return r, r.Shape()
	}
	return checkedView(expr.T(x.(expr.Exp[T])), xs)
}

func (kitOf[T]) index(x any, xs shape.Shape, dim, i int) (any, shape.Shape) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		r := t.Index(dim, i)
		return r, r.Shape()
	}
	return checkedView(expr.Index(x.(expr.Exp[T]), dim, i), xs)
}

func (kitOf[T]) slice(x any, xs shape.Shape, dim, start, end, step int) (any, shape.Shape) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		r := t.Slice(dim, start, end, step)
		return r, r.Shape()
	}
	return checkedView(expr.Slice(x.(expr.Exp[T]), dim, start, end, step), xs)
}

func (kitOf[T]) unsqueeze(x any, xs shape.Shape, dim int) (any, shape.Shape) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		r := t.Unsqueeze(dim)
		return r, r.Shape()
	}
	return checkedView(expr.Unsqueeze(x.(expr.Exp[T]), dim), xs)
}

// reshape is a view of a tensor when its strides allow, else a copy: on
// the host, tensor.Reshape's; in a device's memory, the evaluator's (a
// reshape node over the tensor, which it copies with a kernel). Of an
// expression it is a view node, checked here so that a bad size is
// reported at the call (with the tensor method's error).
func (kitOf[T]) reshape(x any, xs shape.Shape, dims []int) (any, shape.Shape, error) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		if !t.Device().IsCPU() {
			if r, err := t.View(dims...); err == nil {
				return r, r.Shape(), nil
			}
			return viewNode(expr.Reshape(expr.Of(t), dims...), xs)
		}
		r, err := t.Reshape(dims...)
		if err != nil {
			return nil, nil, err
		}
		return r, r.Shape(), nil
	}
	return viewNode(expr.Reshape(x.(expr.Exp[T]), dims...), xs)
}

// view takes the view of kind k, with the tensor method's arguments args,
// of x: of a tensor, the O(1) tensor view (expr.View.Apply); of an
// expression, a view node. A ravel that no view of a tensor gives is a
// copy, as reshape's: on the host, tensor.Flatten's; in a device's memory,
// the evaluator's (a view node over the tensor, which it copies with a
// kernel). A bad argument gives the tensor method's error (Apply returns
// what the method panics with), so that nothing here panics.
func (kitOf[T]) view(k expr.ViewKind, args []int, x any, xs shape.Shape) (any, shape.Shape, error) {
	t, ok := x.(*tensor.Tensor[T])
	if !ok {
		return viewNode(&expr.View[T]{Kind: k, Args: args, X: x.(expr.Exp[T])}, xs)
	}
	v := &expr.View[T]{Kind: k, Args: args, X: t}
	r, err := v.Apply(t)
	switch {
	case k == expr.ViewRavel && errors.Is(err, shape.ErrNotContiguous) && t.Device().IsCPU():
		r = t.Flatten()
	case k == expr.ViewRavel && errors.Is(err, shape.ErrNotContiguous):
		return viewNode(v, xs)
	case err != nil:
		return nil, nil, err
	}
	return r, r.Shape(), nil
}

// shapeOf returns the shape of x, a tensor (named or not). Of any other
// node it would check the whole tree below (see viewNode).
func (kitOf[T]) shapeOf(x any) shape.Shape { return x.(expr.Exp[T]).Shape() }

// leafOf returns the tensor x is, when it is one (named or not).
func (kitOf[T]) leafOf(x any) (any, bool) {
	switch n := x.(type) {
	case *tensor.Tensor[T]:
		return n, true
	case *expr.Named[T]:
		t, ok := n.X.(*tensor.Tensor[T])
		return t, ok
	}
	return nil, false
}
