package grad_test

import (
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/tensor"
)

// TestSortGradients checks the gradient of Sort (g gathered by the rank of
// each element, ArgSort of ArgSort) and of the selections built on it
// (Median, Quantile, TopK), with a random cotangent v, against finite
// differences of sum(v * out); the random values have no ties, so each
// function is differentiable there.
func TestSortGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 7))
	x, m := randTensor(r, 7), randTensor(r, 3, 4, 5)
	cases := []struct {
		name string
		out  expr.Exp[float64]
		wrt  []*tensor.Tensor[float64]
	}{
		{"sort", expr.Sort[float64](x, 0), []*tensor.Tensor[float64]{x}},
		{"sort along a middle axis", expr.Sort[float64](m, 1), []*tensor.Tensor[float64]{m}},
		{"sort of a tree", expr.Sort[float64](expr.Mul(m, m), -1), []*tensor.Tensor[float64]{m}},
		{"median, even", expr.Median[float64](m, 1, false), []*tensor.Tensor[float64]{m}},
		{"quantile", expr.Quantile[float64](m, 0.37, 2, true), []*tensor.Tensor[float64]{m}},
		{"topk", expr.TopK[float64](m, 2, 0), []*tensor.Tensor[float64]{m}},
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
			for i, w := range tc.wrt {
				if msg := gradientMismatch(got[i], numericGradient(t, loss, w), 1e-6, 1); msg != "" {
					t.Errorf("tensor %d: %s", i, msg)
				}
			}
		})
	}
}
