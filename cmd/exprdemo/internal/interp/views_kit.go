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
// expression's tensors. The caller has checked every argument, since the
// tensor methods panic on programming errors.
type views interface {
	permute(x any, perm []int) any
	transposed(x any) any
	index(x any, dim, i int) any
	slice(x any, dim, start, end, step int) any
	unsqueeze(x any, dim int) any
	reshape(x any, dims []int) (any, error)
	leafOf(x any) (any, bool)
	shapeOf(x any) shape.Shape
}

func (kitOf[T]) permute(x any, perm []int) any {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.Permute(perm...)
	}
	return expr.Permute(x.(expr.Exp[T]), perm...)
}

// transposed is x.T: every dimension reversed.
func (kitOf[T]) transposed(x any) any {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.T()
	}
	return expr.T(x.(expr.Exp[T]))
}

func (kitOf[T]) index(x any, dim, i int) any {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.Index(dim, i)
	}
	return expr.Index(x.(expr.Exp[T]), dim, i)
}

func (kitOf[T]) slice(x any, dim, start, end, step int) any {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.Slice(dim, start, end, step)
	}
	return expr.Slice(x.(expr.Exp[T]), dim, start, end, step)
}

func (kitOf[T]) unsqueeze(x any, dim int) any {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.Unsqueeze(dim)
	}
	return expr.Unsqueeze(x.(expr.Exp[T]), dim)
}

// reshape is a view of a tensor when its strides allow, else a copy; of an
// expression, a view node, checked here so that a bad size is reported at
// the call (with the tensor method's error).
func (kitOf[T]) reshape(x any, dims []int) (any, error) {
	if t, ok := x.(*tensor.Tensor[T]); ok {
		return t.Reshape(dims...)
	}
	v := expr.Reshape(x.(expr.Exp[T]), dims...)
	if _, err := expr.Check(v); err != nil {
		var ne *shape.NodeError
		if errors.As(err, &ne) {
			return nil, ne.Err
		}
		return nil, err
	}
	return v, nil
}

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
