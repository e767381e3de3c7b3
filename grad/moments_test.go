package grad_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
)

// TestStdVarAtTheEdges checks the gradients of Std and Var where the
// variance is 0 or N - ddof ≤ 0 against PyTorch's (std_backward: grad /
// (2·std) filled with 0 where std is 0, then var_backward), derived by
// hand.
func TestStdVarAtTheEdges(t *testing.T) {
	nan := math.NaN()
	s14 := math.Sqrt(14)
	tests := []struct {
		name string
		x    []float64
		dims []int
		loss func(x expr.Exp[float64]) expr.Exp[float64]
		want []float64
	}{
		// Zero variance: PyTorch masks grad/(2·std) to 0.
		{"std of ones", []float64{1, 1, 1}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x) }, []float64{0, 0, 0}},
		{"std of ones, ddof 1", []float64{1, 1, 1}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x, expr.DDof(1)) }, []float64{0, 0, 0}},
		// Column 0 constant (std 0), column 1 [2 4]: std 1, gradient
		// (x - mean) / (N·std) = ∓1/2.
		{"std by column, one constant", []float64{1, 2, 1, 4}, []int{2, 2},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Std(x, expr.Axis(0))) },
			[]float64{0, -0.5, 0, 0.5}},
		// [1 2 4]: mean 7/3, var 14/9, std √14/3; gradient (x - mean) /
		// (N·std) = (x - 7/3) / √14.
		{"std", []float64{1, 2, 4}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x) },
			[]float64{(1 - 7.0/3) / s14, (2 - 7.0/3) / s14, (4 - 7.0/3) / s14}},
		// N - ddof = 0: std is +Inf; PyTorch's grad/(2·std) is 0, times
		// 2/0 = Inf: NaN everywhere.
		{"std, ddof N", []float64{1, 2, 4}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x, expr.DDof(3)) },
			[]float64{nan, nan, nan}},
		// A constant x with ddof N: std is 0/0 = NaN; NaN everywhere.
		{"std of ones, ddof N", []float64{1, 1, 1}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x, expr.DDof(3)) },
			[]float64{nan, nan, nan}},
		// The variance of a constant: 2/N · (x - mean) = 0.
		{"var of ones", []float64{1, 1, 1}, []int{3},
			func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Var(x) }, []float64{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := tens(t, tt.x, tt.dims...)
			got := gradValues(t, tt.loss(x), x)[0]
			if diff := cmp.Diff(tt.want, got, closeTo); diff != "" {
				t.Errorf("gradient (-PyTorch +laze):\n%s", diff)
			}
		})
	}
}
