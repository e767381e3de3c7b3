package grad_test

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// The gradient of sum(x² · y) is 2xy with respect to x and x² with respect
// to y. Of returns trees that read the loss's own nodes and tensors:
// nothing is computed until they are evaluated, so a later change to y
// shows in the next evaluation.
func ExampleOf() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	y, _ := tensor.FromSlice([]float64{4, 5, 6}, []int{3})
	loss := expr.Sum(expr.Of(x).Square().Mul(y))
	g, err := grad.Of(loss, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	dx, _ := kernels.Eval(g[0])
	dy, _ := kernels.Eval(g[1])
	fmt.Println(dx, dy)

	y.Set(-1, 0) // the trees read y when they run
	dx, _ = kernels.Eval(g[0])
	fmt.Println(dx)
	// Output:
	// [ 8. 20. 36.] [1. 4. 9.]
	// [-2. 20. 36.]
}

// VJP weights the outputs of a tree of any shape: here the gradient of
// sum(v · sin(x)), which is v · cos(x).
func ExampleVJP() {
	x, _ := tensor.FromSlice([]float64{0, 1, 2}, []int{3})
	v, _ := tensor.FromSlice([]float64{1, 10, 100}, []int{3})
	g, err := grad.VJP(expr.Sin(x), v, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	dx, _ := kernels.Eval(g[0])
	fmt.Printf("%.4v\n", dx)
	// Output: [  1.       5.403  -41.6147]
}

// Logistic regression trained by gradient descent. The loss is the mean
// binary cross-entropy of the labels y under p = sigmoid(z), z = X·w + b,
// in the form softplus(z) - y·z, whose gradient with respect to z is
// p - y. Each step evaluates the gradients into tensors of their own
// before updating w and b, because the gradient trees read w and b.
func Example_logisticRegression() {
	// Eight points of two classes that a line separates: class 1 above
	// the line x0 + x1 = 1, class 0 below it.
	X, _ := tensor.FromSlice([]float64{
		2, 1, 1, 2, 1.5, 1.5, 3, 0, // class 1
		0, 0, -1, 1, 0.5, -0.5, -1, -1, // class 0
	}, []int{8, 2})
	y, _ := tensor.FromSlice([]float64{1, 1, 1, 1, 0, 0, 0, 0}, []int{8})
	w := tensor.Zeros[float64](2)
	b := tensor.Zeros[float64]()

	z := expr.Add(expr.MatMul(X, w), b)
	softplus := expr.Log(expr.AddScalar(expr.Exponential(z), 1))
	loss := expr.Mean(expr.Sub(softplus, expr.Mul(y, z)))
	g, err := grad.Of(loss, w, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	// One step is one call: AssignAll computes both updates as if before
	// writing either, so each reads w and b as they were (NumPy's rule),
	// and the nodes the two gradients share are computed once.
	const lr = 0.5
	params := []*tensor.Tensor[float64]{w, b}
	update := []expr.Exp[float64]{
		expr.Sub(w, expr.MulScalar(g[0], lr)),
		expr.Sub(b, expr.MulScalar(g[1], lr)),
	}
	for i := 0; i <= 100; i++ {
		if i%20 == 0 {
			l, _ := kernels.Eval(loss)
			fmt.Printf("step %3d: loss %.4f\n", i, l.Item())
		}
		if i == 100 {
			break
		}
		if err := kernels.AssignAll(params, update); err != nil {
			fmt.Println(err)
			return
		}
	}
	acc, _ := kernels.Eval(expr.Mean(expr.Eq(expr.GtScalar(z, 0), y)))
	fmt.Printf("w = %.3f, b = %.3f, accuracy %.2f\n", w, b.Item(), acc.Item())
	// Output:
	// step   0: loss 0.6931
	// step  20: loss 0.1524
	// step  40: loss 0.0894
	// step  60: loss 0.0626
	// step  80: loss 0.0479
	// step 100: loss 0.0387
	// w = [2.426 1.822], b = -2.448, accuracy 1.00
}
