package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/tensor"
)

// gradCase is an emulator case whose tree is the gradient of loss(x) with
// respect to x[wrt]: the backward pass, generated as CUDA like any tree.
func gradCase[T tensor.Float](name string, xs []*tensor.Tensor[T], wrt int, key string, tol float64, loss func(x []*tensor.Tensor[T]) expr.Exp[T]) emuCase[T, T] {
	return emuCase[T, T]{name: name, operands: xs, dst: xs[wrt].Shape(), key: key, tol: tol,
		build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
			gs, err := grad.Of(loss(x), x[wrt])
			if err != nil {
				panic(err)
			}
			return d, gs[0]
		}}
}

// TestEmulatedGradients runs gradient trees in the emulator against the CPU
// evaluator: an elementwise chain's backward pass is one kernel (its first
// launch is the whole gradient), and a loss with broadcasting and
// reductions gives kernels for those around the elementwise rest.
func TestEmulatedGradients(t *testing.T) {
	b := emulator(t)
	n := 1003
	a, bb, c, e := emuTensor(emuRandom[float64](1, 2), n), emuTensor(emuRandom[float64](2, 2), n),
		emuTensor(emuRandom[float64](3, 2), n), emuTensor(emuRandom[float64](4, 2), n)
	long8 := func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
		return expr.Sum(expr.Of(x[0]).Mul(x[1]).Add(x[2]).Tanh().Sub(expr.Of(x[3]).MulScalar(0.5).Exp().Mul(x[0])).Add(x[1]))
	}
	for i, name := range []string{"long8/da", "long8/db", "long8/dc", "long8/de"} {
		backward := gradCase(name, tensors(a, bb, c, e), i, "vec=2", 1e-12, long8)
		backward.launches = 1
		backward.run(t, b)
	}
	// Float products go to cuBLAS, which the emulator lacks: this loss has
	// broadcasting and reductions instead.
	xm, w, bias := emuTensor(emuRandom[float32](5, 1), 33, 17), emuTensor(emuRandom[float32](6, 1), 17), emuTensor(emuRandom[float32](7, 1), 33, 1)
	layer := func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
		h := expr.Of(x[0]).Mul(x[1]).Add(x[2]).Tanh()
		return expr.Mean(expr.Square(expr.Sub(h, expr.Max(h, expr.Axis(1), expr.KeepDims()))))
	}
	gradCase("layer/dw", tensors(xm, w, bias), 1, "", 1e-4, layer).run(t, b)
	gradCase("layer/dbias", tensors(xm, w, bias), 2, "", 1e-4, layer).run(t, b)
	// Var and Std: the mean through stop_gradient and, where N - ddof ≤ 0,
	// the trees that give PyTorch's var_backward (±Inf, NaN, finite).
	xv := emuTensor(emuRandom[float64](8, 2), 7, 5)
	for _, c := range []struct {
		name string
		loss func(x expr.Exp[float64]) expr.Exp[float64]
	}{
		{"var/axis1/ddof1", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Var(x, expr.Axis(1), expr.DDof(1))) }},
		{"var/all/ddofN+1", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Var(x, expr.DDof(36)) }},
		{"var/axis1/ddofN", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Var(x, expr.Axis(1), expr.DDof(5))) }},
		{"var/axis1/ddofN+1", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Var(x, expr.Axis(1), expr.DDof(6))) }},
		{"std/axis0/ddofN+1", func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Std(x, expr.Axis(0), expr.DDof(8))) }},
	} {
		gradCase(c.name, tensors(xv), 0, "", 1e-12, func(x []*tensor.Tensor[float64]) expr.Exp[float64] { return c.loss(x[0]) }).run(t, b)
	}
}
