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

var inf = math.Inf(1)

// evalBoth evaluates e with kernels.Eval and element by element with At,
// and fails unless both give want (relative tolerance 1e-15 for float64,
// 1e-6 for float32; NaN equals NaN) in the shape wantShape.
func evalBoth[T tensor.Float](t *testing.T, name string, e expr.Exp[T], wantShape shape.Shape, want []float64) {
	t.Helper()
	tol := 1e-15
	if tensor.ItemSize[T]() == 4 {
		tol = 1e-6
	}
	opts := cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateApprox(tol, 0)}
	out, err := kernels.Eval(e)
	if err != nil {
		t.Fatalf("%s: Eval: %v", name, err)
	}
	if !out.Shape().Equal(wantShape) {
		t.Fatalf("%s: shape %v, want %v", name, out.Shape(), wantShape)
	}
	got := make([]float64, 0, len(want))
	for _, v := range out.Contiguous().Data() {
		got = append(got, float64(v))
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("%s: Eval (-want +got):\n%s", name, diff)
	}
	var at []float64
	idx := make([]int, len(wantShape))
	for range len(want) {
		at = append(at, float64(e.At(idx...)))
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < wantShape[d] {
				break
			}
			idx[d] = 0
		}
	}
	if diff := cmp.Diff(want, at, opts); diff != "" {
		t.Errorf("%s: At (-want +got):\n%s", name, diff)
	}
}

func from[T tensor.Number](t *testing.T, v []T, dims ...int) *tensor.Tensor[T] {
	t.Helper()
	x, err := tensor.FromSlice(v, dims)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestVarStd(t *testing.T) {
	v4 := from(t, []float64{1, 2, 3, 4}, 4)         // mean 2.5, squared deviations 2.25 .25 .25 2.25, sum 5
	m := from(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3) // rows: deviations -1 0 1, sum 2; columns: ±1.5, sum 4.5
	// Two-pass: 1e9 + (4, 7, 13, 16) has mean 1e9+10 and deviations -6 -3 3 6
	// (sum 90), all exact in float64; E[x²] - E[x]² would lose every digit
	// (x² ≈ 1e18, whose float64 spacing is 128).
	big := from(t, []float64{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}, 4)
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		{"var", expr.Var[float64](v4), shape.Shape{}, []float64{1.25}},
		{"var ddof=1", expr.Var[float64](v4, expr.DDof(1)), shape.Shape{}, []float64{5.0 / 3}},
		{"std", expr.Std[float64](v4), shape.Shape{}, []float64{math.Sqrt(1.25)}},
		{"std ddof=1", expr.Std[float64](v4, expr.DDof(1)), shape.Shape{}, []float64{math.Sqrt(5.0 / 3)}},
		{"var axis=1", expr.Var[float64](m, expr.Axis(1)), shape.Shape{2}, []float64{2.0 / 3, 2.0 / 3}},
		{"var axis=-1 ddof=1", expr.Var[float64](m, expr.Axis(-1), expr.DDof(1)), shape.Shape{2}, []float64{1, 1}},
		{"var axis=0 keepdims", expr.Var[float64](m, expr.Axis(0), expr.KeepDims()), shape.Shape{1, 3}, []float64{2.25, 2.25, 2.25}},
		{"var all of (2,3)", expr.Var[float64](m), shape.Shape{}, []float64{17.5 / 6}}, // mean 3.5: 6.25+2.25+.25+.25+2.25+6.25
		{"var axis=()", expr.Var[float64](m, expr.Axis()), shape.Shape{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"var two-pass", expr.Var[float64](big), shape.Shape{}, []float64{22.5}},
		{"std two-pass ddof=1", expr.Std[float64](big, expr.DDof(1)), shape.Shape{}, []float64{math.Sqrt(30)}},
		// NumPy divides by max(N - ddof, 0): a zero sum gives 0/0 = NaN, any other +Inf.
		{"one element ddof=1", expr.Var[float64](from(t, []float64{5}, 1), expr.DDof(1)), shape.Shape{}, []float64{math.NaN()}},
		{"ddof=N", expr.Var[float64](from(t, []float64{1, 3}, 2), expr.DDof(2)), shape.Shape{}, []float64{inf}},
		{"ddof>N", expr.Std[float64](from(t, []float64{1, 3}, 2), expr.DDof(5)), shape.Shape{}, []float64{inf}},
		// N - ddof < 0 builds other trees (for PyTorch's gradient) of the
		// same values: over all axes, over named ones, with a constant line,
		// and with a mean that overflows (x - mean is -Inf, so the squares
		// sum to +Inf).
		{"ddof>N, all axes", expr.Var[float64](v4, expr.DDof(5)), shape.Shape{}, []float64{inf}},
		{"ddof>N, all axes, constant", expr.Var[float64](from(t, []float64{5, 5}, 2), expr.DDof(3)), shape.Shape{}, []float64{math.NaN()}},
		{"ddof>N, axis=1", expr.Var[float64](from(t, []float64{1, 2, 3, 5, 5, 5}, 2, 3), expr.Axis(1), expr.DDof(4)), shape.Shape{2}, []float64{inf, math.NaN()}},
		{"ddof>N, axis=0 keepdims", expr.Var[float64](m, expr.Axis(0), expr.KeepDims(), expr.DDof(3)), shape.Shape{1, 3}, []float64{inf, inf, inf}},
		{"ddof=N, axis=0", expr.Var[float64](m, expr.Axis(0), expr.DDof(2)), shape.Shape{3}, []float64{inf, inf, inf}},
		{"ddof>N, axis=0, mean overflows", expr.Var[float64](from(t, []float64{1.5e308, 1.5e308}, 2), expr.Axis(0), expr.DDof(3)), shape.Shape{}, []float64{inf}},
		{"ddof>N, all axes, mean overflows", expr.Var[float64](from(t, []float64{1.5e308, 1.5e308}, 2), expr.DDof(3)), shape.Shape{}, []float64{inf}},
		{"ddof>N, axis=0, nan", expr.Var[float64](from(t, []float64{1, math.NaN()}, 2), expr.Axis(0), expr.DDof(3)), shape.Shape{}, []float64{math.NaN()}},
		{"ddof>N, 0-d, axis=()", expr.Var[float64](tensor.Full(2.0), expr.Axis(), expr.DDof(2)), shape.Shape{}, []float64{math.NaN()}},
		{"std ddof>N, axis=1", expr.Std[float64](from(t, []float64{1, 2, 3, 5, 5, 5}, 2, 3), expr.Axis(1), expr.DDof(4)), shape.Shape{2}, []float64{inf, math.NaN()}},
		{"negative ddof", expr.Var[float64](v4, expr.DDof(-1)), shape.Shape{}, []float64{1}},
		{"nan", expr.Var[float64](from(t, []float64{1, math.NaN()}, 2)), shape.Shape{}, []float64{math.NaN()}},
		{"inf", expr.Var[float64](from(t, []float64{1, inf}, 2)), shape.Shape{}, []float64{math.NaN()}}, // inf - inf
	}
	for _, tt := range tests {
		evalBoth(t, tt.name, tt.e, tt.shape, tt.want)
	}
	// float32: 1e4 + (4, 7, 13, 16) is exact in float32, and so is each step.
	f32 := from(t, []float32{1e4 + 4, 1e4 + 7, 1e4 + 13, 1e4 + 16}, 4)
	evalBoth(t, "float32 var", expr.Var[float32](f32), shape.Shape{}, []float64{22.5})
	evalBoth(t, "float32 std ddof=1", expr.Std[float32](f32, expr.DDof(1)), shape.Shape{}, []float64{math.Sqrt(30)})
}

func TestSoftmaxLogSumExp(t *testing.T) {
	ninf := math.Inf(-1)
	nan := math.NaN()
	// exp(-2), exp(-1), exp(0) over their sum 1.5032147244080551.
	s123 := []float64{0.09003057317038046, 0.24472847105479764, 0.6652409557748219}
	rows := from(t, []float64{1, 2, 3, 1000, 1001, 1002}, 2, 3)
	line := func(v ...float64) *tensor.Tensor[float64] { return from(t, v, len(v)) }
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		{"softmax", expr.Softmax[float64](line(1, 2, 3), 0), shape.Shape{3}, s123},
		{"softmax rows", expr.Softmax[float64](rows, -1), shape.Shape{2, 3}, append(append([]float64{}, s123...), s123...)},
		{"softmax columns", expr.Softmax[float64](from(t, []float64{0, 5, 0, 5}, 2, 2), 0), shape.Shape{2, 2}, []float64{0.5, 0.5, 0.5, 0.5}},
		{"softmax -inf entry", expr.Softmax[float64](line(ninf, 0), 0), shape.Shape{2}, []float64{0, 1}},
		{"softmax +inf entry", expr.Softmax[float64](line(inf, 0), 0), shape.Shape{2}, []float64{nan, nan}},
		{"softmax all -inf", expr.Softmax[float64](line(ninf, ninf), 0), shape.Shape{2}, []float64{nan, nan}},
		{"softmax nan", expr.Softmax[float64](line(nan, 0), 0), shape.Shape{2}, []float64{nan, nan}},
		{"log_softmax", expr.LogSoftmax[float64](line(1000, 1000), 0), shape.Shape{2}, []float64{-math.Ln2, -math.Ln2}},
		{"log_softmax tiny", expr.LogSoftmax[float64](line(0, -1000), 0), shape.Shape{2}, []float64{0, -1000}},
		{"log_softmax -inf entry", expr.LogSoftmax[float64](line(0, ninf), 0), shape.Shape{2}, []float64{0, ninf}},
		{"log_softmax all -inf", expr.LogSoftmax[float64](line(ninf, ninf), 0), shape.Shape{2}, []float64{nan, nan}},
		{"log_softmax +inf entry", expr.LogSoftmax[float64](line(inf, 1), 0), shape.Shape{2}, []float64{nan, ninf}},
		{"logsumexp", expr.LogSumExp[float64](line(1000, 1000)), shape.Shape{}, []float64{1000 + math.Ln2}},
		{"logsumexp axis=1", expr.LogSumExp[float64](from(t, []float64{0, 0, 1000, 1000}, 2, 2), expr.Axis(1)), shape.Shape{2}, []float64{math.Ln2, 1000 + math.Ln2}},
		{"logsumexp axis=0 keepdims", expr.LogSumExp[float64](from(t, []float64{0, 1000, 0, 1000}, 2, 2), expr.Axis(0), expr.KeepDims()), shape.Shape{1, 2}, []float64{math.Ln2, 1000 + math.Ln2}},
		{"logsumexp all -inf", expr.LogSumExp[float64](line(ninf, ninf)), shape.Shape{}, []float64{ninf}},
		{"logsumexp -inf entry", expr.LogSumExp[float64](line(ninf, 0)), shape.Shape{}, []float64{0}},
		{"logsumexp +inf entry", expr.LogSumExp[float64](line(inf, 1)), shape.Shape{}, []float64{inf}},
		{"logsumexp +inf and -inf", expr.LogSumExp[float64](line(inf, ninf)), shape.Shape{}, []float64{inf}},
		{"logsumexp nan", expr.LogSumExp[float64](line(nan, 1)), shape.Shape{}, []float64{nan}},
	}
	for _, tt := range tests {
		evalBoth(t, tt.name, tt.e, tt.shape, tt.want)
	}
	// float32: exp(88.8) overflows float32, so only the shifted form gives these.
	f := from(t, []float32{100, 100}, 2)
	evalBoth(t, "float32 softmax", expr.Softmax[float32](f, 0), shape.Shape{2}, []float64{0.5, 0.5})
	evalBoth(t, "float32 logsumexp", expr.LogSumExp[float32](f), shape.Shape{}, []float64{100 + math.Ln2})
	evalBoth(t, "float32 log_softmax", expr.LogSoftmax[float32](f, 0), shape.Shape{2}, []float64{-math.Ln2, -math.Ln2})
}

func TestCompositeErrors(t *testing.T) {
	m := tensor.Zeros[float64](2, 3)
	var dim *shape.DimensionError
	var se *shape.ShapeError
	tests := []struct {
		name   string
		e      expr.Exp[float64]
		target any
	}{
		{"var axis", expr.Var[float64](m, expr.Axis(2)), &dim},
		{"std axis", expr.Std[float64](m, expr.Axis(-3)), &dim},
		{"softmax axis", expr.Softmax[float64](m, 2), &dim},
		{"log_softmax axis", expr.LogSoftmax[float64](m, -3), &dim},
		{"logsumexp axis", expr.LogSumExp[float64](m, expr.Axis(5)), &dim},
		{"var empty", expr.Var[float64](tensor.Zeros[float64](0, 3), expr.Axis(0)), &se},
		{"logsumexp empty", expr.LogSumExp[float64](tensor.Zeros[float64](3, 0), expr.Axis(1)), &se},
	}
	for _, tt := range tests {
		_, err := expr.Check(tt.e)
		if err == nil || !errors.As(err, tt.target) {
			t.Errorf("%s: Check = %v, want %T", tt.name, err, tt.target)
		}
	}
}

func TestScanConcatString(t *testing.T) {
	a := expr.Name[float64]("a", tensor.Zeros[float64](2, 3))
	b := expr.Name[float64]("b", tensor.Zeros[float64](1, 3))
	tests := []struct {
		e    expr.Node
		want string
	}{
		{expr.CumSum[float64](a, 1), "cumsum(a, axis=1)"},
		{expr.CumProd[float64](expr.Of[float64](a).Neg(), -1), "cumprod((-a), axis=-1)"},
		{expr.Concatenate[float64](0, a, b), "concatenate((a, b), axis=0)"},
		{expr.Stack[float64](-1, a), "stack((a,), axis=-1)"},
	}
	for _, tt := range tests {
		if got := tt.e.(interface{ String() string }).String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
	var parts []string
	expr.Walk(expr.Concatenate[float64](0, a, expr.CumSum[float64](b, 0)), func(n expr.Node, depth int) bool {
		parts = append(parts, n.Shape().String())
		return true
	})
	// A Named node's tensor is visited too.
	if diff := cmp.Diff([]string{"(3,3)", "(2,3)", "(2,3)", "(1,3)", "(1,3)", "(1,3)"}, parts); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
}
