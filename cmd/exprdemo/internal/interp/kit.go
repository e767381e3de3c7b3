package interp

import (
	"io"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// kit builds and evaluates the nodes of one element type T. Nodes cross
// its methods as any holding an expr.Exp[T] (an expr.Exp[S] for convert's
// argument, an expr.Exp[int64] for argReduce's result).
type kit interface {
	constant(v float64, i int64, isInt bool) any
	named(name string, x any) any
	op(op expr.Op, args ...any) any
	matmul(x, y any) any
	reduce(op expr.ReduceOp, x any, axes []int, keep bool) any
	argReduce(op expr.ReduceOp, x any, axes []int, keep bool) any
	convert(x any) any
	evaluate(x any, s shape.Shape, a alloc.Allocator) (any, error)
	explain(x any, s shape.Shape, a alloc.Allocator) (string, error)
	cudaSource(x any, s shape.Shape, a alloc.Allocator) (string, error)
	toDevice(t any, dev alloc.Device) (any, error)
	write(w io.Writer, t any, asBool bool) error
	views
	generators
}

// kitOf is the kit of element type T.
type kitOf[T tensor.Number] struct{}

// kitFor returns the kit of d's element type (uint8 for bool).
func kitFor(d DType) kit {
	switch d {
	case Bool, Uint8:
		return kitOf[uint8]{}
	case Int8:
		return kitOf[int8]{}
	case Int16:
		return kitOf[int16]{}
	case Int32:
		return kitOf[int32]{}
	case Int64:
		return kitOf[int64]{}
	case Uint16:
		return kitOf[uint16]{}
	case Uint32:
		return kitOf[uint32]{}
	case Uint64:
		return kitOf[uint64]{}
	case Float32:
		return kitOf[float32]{}
	}
	return kitOf[float64]{}
}

// constant converts a Python number to T, as NumPy does when a Python
// scalar meets an array of T (the range was checked by the caller).
func (kitOf[T]) constant(v float64, i int64, isInt bool) any {
	if isInt {
		return expr.Scalar(T(i))
	}
	return expr.Scalar(T(v))
}

func (kitOf[T]) named(name string, x any) any { return expr.Name(name, x.(expr.Exp[T])) }

func (kitOf[T]) op(op expr.Op, args ...any) any {
	xs := make([]expr.Exp[T], len(args))
	for i, x := range args {
		xs[i] = x.(expr.Exp[T])
	}
	return expr.Apply(op, xs...)
}

func (kitOf[T]) matmul(x, y any) any { return expr.MatMul(x.(expr.Exp[T]), y.(expr.Exp[T])) }

func (kitOf[T]) reduce(op expr.ReduceOp, x any, axes []int, keep bool) any {
	return &expr.Reduction[T]{Op: op, X: x.(expr.Exp[T]), Axes: axes, KeepDims: keep}
}

func (kitOf[T]) argReduce(op expr.ReduceOp, x any, axes []int, keep bool) any {
	return &expr.ArgReduction[T]{Op: op, X: x.(expr.Exp[T]), Axes: axes, KeepDims: keep}
}

// convert casts x, an expr.Exp[S] of any element type S, to T.
func (kitOf[T]) convert(x any) any {
	switch x := x.(type) {
	case expr.Exp[T]:
		return x
	case expr.Exp[uint8]:
		return expr.Cast[T](x)
	case expr.Exp[int8]:
		return expr.Cast[T](x)
	case expr.Exp[int16]:
		return expr.Cast[T](x)
	case expr.Exp[int32]:
		return expr.Cast[T](x)
	case expr.Exp[int64]:
		return expr.Cast[T](x)
	case expr.Exp[uint16]:
		return expr.Cast[T](x)
	case expr.Exp[uint32]:
		return expr.Cast[T](x)
	case expr.Exp[uint64]:
		return expr.Cast[T](x)
	case expr.Exp[float32]:
		return expr.Cast[T](x)
	case expr.Exp[float64]:
		return expr.Cast[T](x)
	}
	panic("interp: convert: not a laze expression")
}

// evaluate computes x, of shape s, into a new tensor from allocator a (on
// a's device). A laze error the destination's constructor panics with (a
// size that overflows, an allocation that fails) is returned.
func (kitOf[T]) evaluate(x any, s shape.Shape, a alloc.Allocator) (_ any, err error) {
	defer func() {
		if r := recover(); r != nil {
			if err = LazeError(r); err == nil {
				panic(r)
			}
		}
	}()
	dst := tensor.Empty[T](s, tensor.WithAllocator(a))
	if err := kernels.Assign(dst, x.(expr.Exp[T])); err != nil {
		return nil, err
	}
	return dst, nil
}

// write writes t, a *tensor.Tensor[T], to w as an .npy file; asBool
// writes a uint8 tensor as NumPy bools.
func (kitOf[T]) write(w io.Writer, t any, asBool bool) error {
	var opts []npy.WriteOption
	if asBool {
		opts = append(opts, npy.AsBool())
	}
	host, err := t.(*tensor.Tensor[T]).To(alloc.CPU)
	if err != nil {
		return err
	}
	return npy.Write(w, host, opts...)
}

// toDevice copies t, a *tensor.Tensor[T], to dev.
func (kitOf[T]) toDevice(t any, dev alloc.Device) (any, error) {
	return t.(*tensor.Tensor[T]).To(dev)
}

// cudaSource returns the CUDA source of the kernels evaluate would launch
// with allocator a: on a's device when that is a GPU.
func (kitOf[T]) cudaSource(x any, s shape.Shape, a alloc.Allocator) (string, error) {
	return onDestination(s, a, func(dst *tensor.Tensor[T]) (string, error) {
		return kernels.CUDASource(dst, x.(expr.Exp[T]))
	})
}

// explain describes how evaluate would compute x with allocator a.
func (kitOf[T]) explain(x any, s shape.Shape, a alloc.Allocator) (string, error) {
	return onDestination(s, a, func(dst *tensor.Tensor[T]) (string, error) {
		return kernels.Explain(dst, x.(expr.Exp[T]))
	})
}

// onDestination calls f with a destination of shape s from allocator a,
// on the device evaluate's result would be (Explain refuses a CPU
// destination for a GPU tree), and gives it back after. A laze error the
// allocation panics with is returned.
func onDestination[T tensor.Number](s shape.Shape, a alloc.Allocator, f func(*tensor.Tensor[T]) (string, error)) (_ string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if err = LazeError(r); err == nil {
				panic(r)
			}
		}
	}()
	dst := tensor.Empty[T](s, tensor.WithAllocator(a))
	defer func() { _ = dst.Release() }()
	return f(dst)
}
