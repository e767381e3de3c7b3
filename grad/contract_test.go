package grad_test

import (
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/tensor"
)

// TestContractionGradients checks the gradients of einsums, Dot and
// Tensordot (trees of MatMul, views and Sum, with no rule of their own)
// with a random cotangent v against finite differences of sum(v * out):
// matrix and batched products, a transposed operand, a trace, a diagonal,
// "..." broadcasting, size-1 broadcasting, an operand used twice and a
// three-operand chain.
func TestContractionGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 5))
	a, b, c := randTensor(r, 2, 3), randTensor(r, 3, 4), randTensor(r, 4, 2)
	sq, bt := randTensor(r, 3, 3), randTensor(r, 2, 3, 4)
	row := randTensor(r, 1, 3)
	t3, bt2 := randTensor(r, 2, 3, 4), randTensor(r, 2, 4, 2)
	cases := []struct {
		name string
		out  expr.Exp[float64]
		wrt  []*tensor.Tensor[float64]
	}{
		{"ij,jk->ik", expr.Einsum[float64]("ij,jk->ik", a, b), []*tensor.Tensor[float64]{a, b}},
		{"ij,kj->ik", expr.Einsum[float64]("ij,kj->ik", a, a), []*tensor.Tensor[float64]{a}},
		{"bij,bjk->bik", expr.Einsum[float64]("bij,bjk->bik", bt, bt2), []*tensor.Tensor[float64]{bt, bt2}},
		{"bji,jk->bik", expr.Einsum[float64]("bji,jk->bik", bt, randTensor(r, 3, 2)), []*tensor.Tensor[float64]{bt}},
		{"ii (trace)", expr.Einsum[float64]("ii", sq), []*tensor.Tensor[float64]{sq}},
		{"ii->i (diagonal) times j", expr.Einsum[float64]("ii,ij->ij", sq, expr.T[float64](a)), []*tensor.Tensor[float64]{sq, a}},
		{"...j,jk", expr.Einsum("...j,jk", expr.Permute[float64](bt, 0, 2, 1), expr.T[float64](a)), []*tensor.Tensor[float64]{bt, a}},
		{"ij,ij->ij broadcast", expr.Einsum[float64]("ij,ij->ij", row, a), []*tensor.Tensor[float64]{row, a}},
		{"ij,jk,kl->il", expr.Einsum[float64]("ij,jk,kl->il", a, b, c), []*tensor.Tensor[float64]{a, b, c}},
		{"tanh of ij,ij->i", expr.Tanh(expr.Einsum[float64]("ij,ij->i", a, a)), []*tensor.Tensor[float64]{a}},
		{"dot", expr.Dot[float64](t3, c), []*tensor.Tensor[float64]{t3, c}},
		{"tensordot", expr.Tensordot[float64](t3, b, []int{1, 2}, []int{0, 1}), []*tensor.Tensor[float64]{t3, b}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := randTensor(r, shapeOf(t, tc.out)...)
			gs, err := grad.VJP(tc.out, v, tc.wrt...)
			if err != nil {
				t.Fatal(err)
			}
			got := evalGrads(t, gs, tc.wrt)
			loss := expr.Sum(expr.Mul(v, tc.out))
			for i, x := range tc.wrt {
				if msg := gradientMismatch(got[i], numericGradient(t, loss, x), 1e-6, 1); msg != "" {
					t.Errorf("tensor %d: %s", i, msg)
				}
			}
		})
	}
}
