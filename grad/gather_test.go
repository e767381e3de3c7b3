package grad_test

import (
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestGatherGradients checks the gradients of gathers (take,
// take_along_axis, integer-array indexing with repeated and negative
// indices) and of add.at, with a random cotangent v, against finite
// differences of sum(v * out).
func TestGatherGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 6))
	x, m := randTensor(r, 3, 4), randTensor(r, 2, 3, 4)
	idx := func(vs []int64, dims ...int) *tensor.Tensor[int64] {
		ix, err := tensor.FromSlice(vs, shape.Shape(dims))
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	vals := randTensor(r, 3)
	cases := []struct {
		name string
		out  expr.Exp[float64]
		wrt  []*tensor.Tensor[float64]
	}{
		{"take, repeated", expr.Take[float64](x, idx([]int64{2, 0, 2, -1}, 2, 2), 1), []*tensor.Tensor[float64]{x}},
		{"x[i, :, j]", expr.IndexArrays[float64](m, idx([]int64{1, 0, 1}, 3), nil, idx([]int64{3, 3, 0}, 3)), []*tensor.Tensor[float64]{m}},
		{"take_along_axis", expr.TakeAlongAxis[float64](x, idx([]int64{1, 1, 0, 2, 2, -1, 2, 0}, 2, 4), 0), []*tensor.Tensor[float64]{x}},
		{"exp of a take", expr.Exponential(expr.Take[float64](expr.Mul(x, x), idx([]int64{0, 0, 1}, 3), 0)), []*tensor.Tensor[float64]{x}},
		{"add.at", expr.AddAt[float64](x, 1, vals, idx([]int64{0, 2, 0}, 3)), []*tensor.Tensor[float64]{x, vals}},
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
