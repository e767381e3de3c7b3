package main

import (
	"fmt"
	"io"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"

	"github.com/laze-go/laze/tensor"
)

// tour prints the built-in examples. Each step shows the NumPy expression it
// mirrors.
func tour(w io.Writer) error {
	a, err := tensor.Arange[int64](0, 24, 1).View(2, 3, 4)
	if err != nil {
		return err
	}
	show := func(expr string, v any) { fmt.Fprintf(w, ">>> %s\n%v\n\n", expr, v) }
	showMeta := func(expr string, v any) { fmt.Fprintf(w, ">>> %s\n%+v\n\n", expr, v) }

	showMeta("a = np.arange(24).reshape(2, 3, 4)", a)
	showMeta("a.transpose(0, 2)   # a view: only shape and strides change", a.Transpose(0, 2))
	show("a[1]", a.Index(0, 1))
	show("a[:, ::2, ::-1]", a.Slice(1, tensor.None, tensor.None, 2).Slice(2, tensor.None, tensor.None, -1))
	showMeta("a.transpose(2, 0, 1)", a.Permute(2, 0, 1))
	r, err := a.Permute(2, 0, 1).Reshape(4, -1)
	if err != nil {
		return err
	}
	show("a.transpose(2, 0, 1).reshape(4, -1)   # not viewable: a copy", r)

	m, err := tensor.Linspace(0.0, 1.0, 6).View(2, 3)
	if err != nil {
		return err
	}
	show("m = np.linspace(0, 1, 6).reshape(2, 3)", m)
	show("m.T", m.T())
	col, err := tensor.Arange[float64](1, 4, 1).View(3, 1)
	if err != nil {
		return err
	}
	e, err := col.Expand(3, 4)
	if err != nil {
		return err
	}
	showMeta("np.broadcast_to(np.arange(1., 4.).reshape(3, 1), (3, 4))   # stride 0", e)

	m.T().Index(0, 1).Fill(-1)
	show("m.T[1] = -1; m   # writes through a view reach the base", m)
	show("np.arange(2000)   # summarised past 1000 elements", tensor.Arange[int64](0, 2000, 1))
	return exprTour(w, show)
}

// exprTour shows that a tree computes nothing until Assign, then evaluates
// one with broadcasting into a view of another tensor, and one that
// overlaps its destination.
func exprTour(w io.Writer, show func(string, any)) error {
	x, err := tensor.Arange[float64](0, 6, 1).View(2, 3)
	if err != nil {
		return err
	}
	b, err := tensor.FromSlice([]float64{10, 20, 30}, []int{3})
	if err != nil {
		return err
	}
	e := expr.Of(expr.Name("x", x)).MulScalar(2).Add(expr.Name("b", b)).ReLU()
	fmt.Fprintf(w, ">>> e = relu(x*2 + b)   # a tree: nothing computed yet\n%v   shape %v\n\n", e, e.Shape())
	x.Set(-100, 0, 0)
	out := tensor.Zeros[float64](3, 3)
	if err := kernels.Assign(out.Slice(1, 1, tensor.None, 1).T(), e); err != nil {
		return err
	}
	show("x[0, 0] = -100; out[:, 1:].T = e   # evaluated now, one fused pass into a view", out)
	if err := kernels.Assign(x, expr.Of(x.Slice(1, tensor.None, tensor.None, -1)).AddScalar(1)); err != nil {
		return err
	}
	show("x[...] = x[:, ::-1] + 1   # overlaps its destination: NumPy's result", x)
	return productTour(w, show, x)
}

// productTour shows a matrix product and a reduction in one tree: the
// product and the sum are computed first, the rest fuses around them.
func productTour(w io.Writer, show func(string, any), x *tensor.Tensor[float64]) error {
	m, err := tensor.Arange[float64](0, 12, 1).View(3, 4)
	if err != nil {
		return err
	}
	X, M := expr.Name("x", x), expr.Name("w", m)
	e := expr.Of[float64](expr.MatMul[float64](X, M)).Sub(expr.Mean[float64](M, expr.Axis(0))).ReLU()
	fmt.Fprintf(w, ">>> w = np.arange(12.).reshape(3, 4)\n>>> e = relu(x @ w - w.mean(axis=0))   # a product and a reduction in one tree\n%v   shape %v\n\n", e, e.Shape())
	r, err := kernels.Eval[float64](e)
	if err != nil {
		return err
	}
	show("e   # the product and the mean first, then one pass", r)
	s, err := kernels.Eval[float64](expr.Sum[float64](expr.Of[float64](X).Mul(X), expr.Axis(1), expr.KeepDims()))
	if err != nil {
		return err
	}
	show("(x * x).sum(axis=1, keepdims=True)   # the operand is never stored", s)
	fmt.Fprintln(w, "Evaluate your own: exprdemo eval -rand a=2x3 -rand b=3 'relu(a @ a.T).sum(axis=0) + b[:2]'")
	return nil
}
