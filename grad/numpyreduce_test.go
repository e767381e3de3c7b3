package grad_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestNumPyReductionGradients checks the gradients of expr's NumPy
// reductions (trees of the table's reductions and ops) against PyTorch's
// (torch.nansum, nanmean, linalg.vector_norm, matrix_norm, amax…): a NaN
// element gets 0; the norms' derivatives are x/‖x‖, sign(x), and the sign
// at the extreme.
func TestNumPyReductionGradients(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name  string
		in    []float64
		shape []int
		f     func(x expr.Exp[float64]) expr.Exp[float64]
		want  []float64
	}{
		{"nansum", []float64{1, nan, 3}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.NanSum(x) }, []float64{1, 0, 1}},
		{"nanprod", []float64{2, nan, 3}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.NanProd(x) }, []float64{3, 0, 2}},
		{"nanmean", []float64{1, nan, 3}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.NanMean(x) }, []float64{0.5, 0, 0.5}},
		{"nanstd", []float64{1, 3, nan}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.NanStd(x) }, []float64{-0.5, 0.5, 0}},
		{"nanmax", []float64{1, nan, 3}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.NanMax(x) }, []float64{0, 0, 1}},
		{"ptp", []float64{1, 5, 3}, []int{3}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Ptp(x) }, []float64{-1, 1, 0}},
		{"average", []float64{1, 2}, []int{2}, func(x expr.Exp[float64]) expr.Exp[float64] {
			w, _ := tensor.FromSlice([]float64{1, 3}, []int{2})
			return expr.Average(x, w)
		}, []float64{0.25, 0.75}},
		{"norm 2", []float64{3, 4}, []int{2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.VectorNorm(x, 2) }, []float64{0.6, 0.8}},
		{"norm 1", []float64{3, -4}, []int{2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.VectorNorm(x, 1) }, []float64{1, -1}},
		{"norm inf", []float64{3, -4}, []int{2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.VectorNorm(x, math.Inf(1)) }, []float64{0, -1}},
		{"norm 3", []float64{1, 2}, []int{2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.VectorNorm(x, 3) }, []float64{1 / math.Pow(9, 2./3), 4 / math.Pow(9, 2./3)}},
		{"fro", []float64{3, 0, 0, 4}, []int{2, 2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.FrobeniusNorm(x) }, []float64{0.6, 0, 0, 0.8}},
		{"matrix 1", []float64{1, -5, 2, 3}, []int{2, 2}, func(x expr.Exp[float64]) expr.Exp[float64] { return expr.MatrixNorm(x, 1) }, []float64{0, -1, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, _ := tensor.FromSlice(tt.in, tt.shape)
			got := gradValues(t, tt.f(x), x)
			if diff := cmp.Diff([][]float64{tt.want}, got, closeTo); diff != "" {
				t.Errorf("gradient (-PyTorch +laze):\n%s", diff)
			}
		})
	}
}
