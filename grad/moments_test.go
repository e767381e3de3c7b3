package grad_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
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

// TestVarStdWithNoDegreesOfFreedom checks the gradients of Var and Std
// where N - ddof ≤ 0 (the forward value divides by max(N - ddof, 0) = 0)
// against PyTorch's, derived by hand from torch/csrc/autograd/
// FunctionsManual.cpp. var_backward has two paths there:
//
//   - over all dimensions (dim=None, laze's Var without Axis, or a 0-d x),
//     with dof = N - correction ≤ 0:
//     grad * where(self == self.mean(), NaN, +Inf), whatever the sign of
//     x - mean and whether dof is 0 or negative;
//   - over named dimensions (Axis):
//     (2 / (N - correction)) * grad * (self - self.mean(dim, keepdim)),
//     where 2/0 is +Inf (±Inf off the mean, NaN on it, 0·Inf) and a
//     negative N - correction gives a finite gradient.
//
// std_backward is var_backward of (grad / (2·std)) masked to 0 where std
// is 0. With N - ddof ≤ 0 std is +Inf (sum of squared deviations > 0, so
// grad / (2·std) is 0) or NaN (all deviations 0: 0/0, not masked), so its
// gradient is 0 · (2/dof) · (x - mean) = 0 over named axes with a negative
// N - ddof, and NaN everywhere else.
func TestVarStdWithNoDegreesOfFreedom(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// x1's mean, 2, is one of its elements. x2's mean over all axes, 3, is
	// x2[0, 2]; its row means are 2 (x2[0, 1]) and 4 (none); its column
	// means are 3, 1 and 5. x3's second row is constant.
	x1 := []float64{1, 2, 3}
	x2 := []float64{1, 2, 3, 5, 0, 7}
	x3 := []float64{1, 2, 3, 5, 5, 5}
	type loss = func(t *testing.T, x expr.Exp[float64]) expr.Exp[float64]
	// w weighs the elements of out: the gradient flowing into out is w.
	w := func(out func(expr.Exp[float64]) expr.Exp[float64], w ...float64) loss {
		return func(t *testing.T, x expr.Exp[float64]) expr.Exp[float64] { return weighted(t, out(x), w) }
	}
	v := func(opts ...expr.ReduceOption) func(expr.Exp[float64]) expr.Exp[float64] {
		return func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Var(x, opts...) }
	}
	s := func(opts ...expr.ReduceOption) func(expr.Exp[float64]) expr.Exp[float64] {
		return func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Std(x, opts...) }
	}
	tests := []struct {
		name string
		x    []float64
		dims []int
		loss loss
		want []float64
	}{
		// var over all axes: grad * where(x == mean, NaN, +Inf).
		{"var, all axes, ddof N", x1, []int{3}, w(v(expr.DDof(3)), 1), []float64{inf, nan, inf}},
		{"var, all axes, ddof N+1", x1, []int{3}, w(v(expr.DDof(4)), 1), []float64{inf, nan, inf}},
		{"var of 2x3, all axes, ddof N, grad -2", x2, []int{2, 3}, w(v(expr.DDof(6)), -2),
			[]float64{-inf, -inf, nan, -inf, -inf, -inf}},
		{"var of 2x3, all axes, ddof N+1, grad -2", x2, []int{2, 3}, w(v(expr.DDof(7)), -2),
			[]float64{-inf, -inf, nan, -inf, -inf, -inf}},
		{"var, all axes, ddof N, grad 0", x1, []int{3}, w(v(expr.DDof(3)), 0), []float64{nan, nan, nan}},
		// var over named axes: (2/(N - ddof)) * grad * (x - mean).
		// x1 - mean = [-1 0 1]; 2/0 = +Inf.
		{"var, axis 0, ddof N", x1, []int{3}, w(v(expr.Axis(0), expr.DDof(3)), 1), []float64{-inf, nan, inf}},
		// 2/(3 - 4) = -2: -2 · [-1 0 1].
		{"var, axis 0, ddof N+1", x1, []int{3}, w(v(expr.Axis(0), expr.DDof(4)), 1), []float64{2, 0, -2}},
		{"var, axis 0, ddof N, grad 0", x1, []int{3}, w(v(expr.Axis(0), expr.DDof(3)), 0), []float64{nan, nan, nan}},
		// Rows: x - mean = [-1 0 1] and [1 -4 3], grad 1 and -2.
		{"var of 2x3, axis 1, ddof N", x2, []int{2, 3}, w(v(expr.Axis(1), expr.DDof(3)), 1, -2),
			[]float64{-inf, nan, inf, -inf, inf, -inf}},
		// -2 · 1 · [-1 0 1] and -2 · -2 · [1 -4 3].
		{"var of 2x3, axis 1, ddof N+1", x2, []int{2, 3}, w(v(expr.Axis(1), expr.DDof(4)), 1, -2),
			[]float64{2, 0, -2, 4, -16, 12}},
		// Columns (N = 2): x - mean = [[-2 1 -2] [2 -1 2]]; 2/(2 - 3) = -2.
		{"var of 2x3, axis 0 keepdims, ddof N+1", x2, []int{2, 3}, w(v(expr.Axis(0), expr.KeepDims(), expr.DDof(3)), 1, 1, 1),
			[]float64{4, -2, 4, -4, 2, -4}},
		// A constant row: x - mean = 0, so 0 with a negative N - ddof.
		{"var of 2x3 with a constant row, axis 1, ddof N+1", x3, []int{2, 3}, w(v(expr.Axis(1), expr.DDof(4)), 1, -2),
			[]float64{2, 0, -2, 0, 0, 0}},
		// std: grad / (2·std) is 0 (std = +Inf), then var_backward.
		{"std, all axes, ddof N+1", x1, []int{3}, w(s(expr.DDof(4)), 1), []float64{nan, nan, nan}},
		{"std of 2x3, all axes, ddof N", x2, []int{2, 3}, w(s(expr.DDof(6)), -2),
			[]float64{nan, nan, nan, nan, nan, nan}},
		{"std, axis 0, ddof N", x1, []int{3}, w(s(expr.Axis(0), expr.DDof(3)), 1), []float64{nan, nan, nan}},
		{"std, axis 0, ddof N+1", x1, []int{3}, w(s(expr.Axis(0), expr.DDof(4)), 1), []float64{0, 0, 0}},
		{"std of 2x3, axis 1, ddof N+1", x2, []int{2, 3}, w(s(expr.Axis(1), expr.DDof(4)), 1, -2),
			[]float64{0, 0, 0, 0, 0, 0}},
		// The constant row's variance is 0/0 = NaN, so is its std (not
		// masked: NaN is not 0), and grad / (2·std) is NaN.
		{"std of 2x3 with a constant row, axis 1, ddof N+1", x3, []int{2, 3}, w(s(expr.Axis(1), expr.DDof(4)), 1, -2),
			[]float64{0, 0, 0, nan, nan, nan}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := tens(t, tt.x, tt.dims...)
			got := gradValues(t, tt.loss(t, x), x)[0]
			if diff := cmp.Diff(tt.want, got, closeTo); diff != "" {
				t.Errorf("gradient (-PyTorch +laze):\n%s", diff)
			}
		})
	}
	// float32: the same rules, 2/(N - ddof) in float32.
	inf32, nan32 := float32(inf), float32(nan)
	x32, err := tensor.FromSlice([]float32{1, 2, 3}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		loss expr.Exp[float32]
		want []float32
	}{
		{"float32 var, all axes, ddof N", expr.Var[float32](x32, expr.DDof(3)), []float32{inf32, nan32, inf32}},
		{"float32 var, axis 0, ddof N", expr.Var[float32](x32, expr.Axis(0), expr.DDof(3)), []float32{-inf32, nan32, inf32}},
		{"float32 var, axis 0, ddof N+2", expr.Var[float32](x32, expr.Axis(0), expr.DDof(5)), []float32{1, 0, -1}},
		{"float32 std, axis 0, ddof N+1", expr.Std[float32](x32, expr.Axis(0), expr.DDof(4)), []float32{0, 0, 0}},
	} {
		if diff := cmp.Diff(tt.want, gradValues(t, tt.loss, x32)[0], closeTo); diff != "" {
			t.Errorf("%s: gradient (-PyTorch +laze):\n%s", tt.name, diff)
		}
	}
}
