package expr_test

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestTriangles checks Tril and Triu of a stack of two 3×4 matrices (with
// a NaN above the diagonal, which tril must zero) against NumPy's values.
func TestTriangles(t *testing.T) {
	x := tensor.Arange[float64](0, 24, 1)
	x.Set(math.NaN(), 3)
	m, _ := x.View(2, 3, 4)
	nan := math.NaN()
	tests := []struct {
		name string
		e    expr.Exp[float64]
		want []float64
	}{
		{"np.tril(x)", expr.Tril[float64](m, 0), []float64{0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0, 12, 0, 0, 0, 16, 17, 0, 0, 20, 21, 22, 0}},
		{"np.triu(x)", expr.Triu[float64](m, 0), []float64{0, 1, 2, nan, 0, 5, 6, 7, 0, 0, 10, 11, 12, 13, 14, 15, 0, 17, 18, 19, 0, 0, 22, 23}},
		{"np.tril(x, 1)", expr.Tril[float64](m, 1), []float64{0, 1, 0, 0, 4, 5, 6, 0, 8, 9, 10, 11, 12, 13, 0, 0, 16, 17, 18, 0, 20, 21, 22, 23}},
		{"np.triu(x, 1)", expr.Triu[float64](m, 1), []float64{0, 1, 2, nan, 0, 0, 6, 7, 0, 0, 0, 11, 0, 13, 14, 15, 0, 0, 18, 19, 0, 0, 0, 23}},
		{"np.tril(x, -1)", expr.Tril[float64](m, -1), []float64{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 20, 21, 0, 0}},
		{"np.triu(x, -1)", expr.Triu[float64](m, -1), []float64{0, 1, 2, nan, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 0, 21, 22, 23}},
		{"np.triu(x, -sys.maxsize-1)", expr.Triu[float64](m, math.MinInt), values(m)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := kernels.Eval(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.Data(), cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("(-numpy +laze):\n%s", diff)
			}
		})
	}
	_, err := expr.Check(expr.Tril[float64](tensor.Zeros[float64](3), 0))
	var ae *shape.ArgumentError
	if !errors.As(err, &ae) || err.Error() != "laze: Check: at node np.tril(x): tril: x = (3,): needs at least 2 dimensions" {
		t.Errorf("tril of a vector: %v, want an ArgumentError naming its shape", err)
	}
}

func values(t *tensor.Tensor[float64]) []float64 { return t.Contiguous().Data() }
