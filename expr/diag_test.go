package expr_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestDiag checks Diag against the shapes and values NumPy 1.24 printed
// (/usr/bin/python3) for np.diag(v, k), v = [1., 2., 3.], np.diag(m, k),
// m = np.arange(9.).reshape(3, 3), and np.diag([nan, 1.]); and At
// against Eval.
func TestDiag(t *testing.T) {
	v, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
	nan, _ := tensor.FromSlice([]float64{math.NaN(), 1}, []int{2})
	ve := expr.Of[float64](v).AddScalar(0).E // an expression, not a tensor
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		{"np.diag(v)", expr.Diag[float64](v, 0), shape.Of(3, 3), []float64{1, 0, 0, 0, 2, 0, 0, 0, 3}},
		{"np.diag(v, 1)", expr.Diag(ve, 1), shape.Of(4, 4), []float64{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0}},
		{"np.diag(v, -2)", expr.Diag[float64](v, -2), shape.Of(5, 5),
			[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0}},
		{"np.diag(m)", expr.Diag[float64](m, 0), shape.Of(3), []float64{0, 4, 8}},
		{"np.diag(m, 1)", expr.Diag[float64](m, 1), shape.Of(2), []float64{1, 5}},
		{"np.diag(m, -1)", expr.Diag[float64](m, -1), shape.Of(2), []float64{3, 7}},
		{"np.diag(m, 5)", expr.Diag[float64](m, 5), shape.Of(0), []float64{}},
		{"np.diag([nan, 1.])", expr.Diag[float64](nan, 0), shape.Of(2, 2), []float64{math.NaN(), 0, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := kernels.Eval(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.shape, out.Shape()); diff != "" {
				t.Fatalf("shape (-numpy +laze):\n%s", diff)
			}
			got := out.Contiguous().Data()
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("values (-numpy +laze):\n%s", diff)
			}
			var at []float64
			for idx := range out.All() {
				at = append(at, tt.e.At(idx...))
			}
			if diff := cmp.Diff(got, at, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("At differs from Eval (-Eval +At):\n%s", diff)
			}
		})
	}
	x3 := tensor.Zeros[float64](2, 2, 2)
	_, err := expr.Check(expr.Diag[float64](x3, 0))
	if !errors.Is(err, shape.ErrInvalid) || fmt.Sprint(err) != "laze: Check: at node np.diag(x, 0): diag: x = (2,2,2): needs 1 or 2 dimensions" {
		t.Errorf("np.diag of 3 dimensions: %v", err)
	}
}
