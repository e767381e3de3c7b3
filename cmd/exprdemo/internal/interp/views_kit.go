package interp

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// views are the O(1) views of a tensor held as an any (a
// *tensor.Tensor[T]); the caller has checked every argument, since the
// tensor methods panic on programming errors.
type views interface {
	permute(t any, perm []int) any
	index(t any, dim, i int) any
	slice(t any, dim, start, end, step int) any
	unsqueeze(t any, dim int) any
	reshape(t any, dims []int) (any, error)
	leafOf(x any) (any, bool)
	shapeOf(t any) shape.Shape
}

func (kitOf[T]) permute(t any, perm []int) any { return t.(*tensor.Tensor[T]).Permute(perm...) }
func (kitOf[T]) index(t any, dim, i int) any   { return t.(*tensor.Tensor[T]).Index(dim, i) }
func (kitOf[T]) slice(t any, dim, start, end, step int) any {
	return t.(*tensor.Tensor[T]).Slice(dim, start, end, step)
}
func (kitOf[T]) unsqueeze(t any, dim int) any { return t.(*tensor.Tensor[T]).Unsqueeze(dim) }
func (kitOf[T]) reshape(t any, dims []int) (any, error) {
	return t.(*tensor.Tensor[T]).Reshape(dims...)
}
func (kitOf[T]) shapeOf(t any) shape.Shape { return t.(*tensor.Tensor[T]).Shape() }

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
