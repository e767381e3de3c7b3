package expr_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// q1 is the input of quantileTable: a NaN in row 2 (column 0), +Inf in
// row 3 (column 4), ties in row 1.
var q1 = []string{"0.5", "-2.25", "7.0", "3.125", "0.001", "4.0", "4.0", "-1.0", "0.0", "2.5", "nan", "1.0", "2.0", "3.0", "4.0", "9.0", "8.0", "7.0", "6.0", "inf"}

// quantileTable holds np.quantile(q1, q, axis, keepdims=...),
// np.percentile(q1, q, ...) and np.median(q1, axis, keepdims=...) as NumPy
// 1.24 printed them (/usr/bin/python3), q a float (NumPy's float path:
// q = 1.0 of a line ending in +Inf is NaN, inf - inf in its lerp, where an
// integer q = 1 takes the element). "-nan" is the NaN of inf - inf; NaN
// signs are not compared (they are the hardware's).
var quantileTable = []struct {
	fn    string
	q     float64
	axis  int
	keep  bool
	shape shape.Shape
	want  []string
}{
	{"quantile", 0.0, 0, false, shape.Of(5), []string{"nan", "-2.25", "-1.0", "0.0", "0.001"}},
	{"quantile", 0.0, 0, true, shape.Of(1, 5), []string{"nan", "-2.25", "-1.0", "0.0", "0.001"}},
	{"quantile", 0.0, 1, false, shape.Of(4), []string{"-2.25", "-1.0", "nan", "6.0"}},
	{"quantile", 0.0, 1, true, shape.Of(4, 1), []string{"-2.25", "-1.0", "nan", "6.0"}},
	{"quantile", 0.0, -1, false, shape.Of(4), []string{"-2.25", "-1.0", "nan", "6.0"}},
	{"quantile", 0.0, -1, true, shape.Of(4, 1), []string{"-2.25", "-1.0", "nan", "6.0"}},
	{"quantile", 0.25, 0, false, shape.Of(5), []string{"nan", "0.1875", "1.25", "2.25", "1.8752499999999999"}},
	{"quantile", 0.25, 0, true, shape.Of(1, 5), []string{"nan", "0.1875", "1.25", "2.25", "1.8752499999999999"}},
	{"quantile", 0.25, 1, false, shape.Of(4), []string{"0.001", "0.0", "nan", "7.0"}},
	{"quantile", 0.25, 1, true, shape.Of(4, 1), []string{"0.001", "0.0", "nan", "7.0"}},
	{"quantile", 0.25, -1, false, shape.Of(4), []string{"0.001", "0.0", "nan", "7.0"}},
	{"quantile", 0.25, -1, true, shape.Of(4, 1), []string{"0.001", "0.0", "nan", "7.0"}},
	{"quantile", 0.37, 0, false, shape.Of(5), []string{"nan", "1.3299999999999996", "2.5499999999999994", "3.01375", "2.665"}},
	{"quantile", 0.37, 0, true, shape.Of(1, 5), []string{"nan", "1.3299999999999996", "2.5499999999999994", "3.01375", "2.665"}},
	{"quantile", 0.37, 1, false, shape.Of(4), []string{"0.24051999999999998", "1.2", "nan", "7.48"}},
	{"quantile", 0.37, 1, true, shape.Of(4, 1), []string{"0.24051999999999998", "1.2", "nan", "7.48"}},
	{"quantile", 0.37, -1, false, shape.Of(4), []string{"0.24051999999999998", "1.2", "nan", "7.48"}},
	{"quantile", 0.37, -1, true, shape.Of(4, 1), []string{"0.24051999999999998", "1.2", "nan", "7.48"}},
	{"quantile", 0.5, 0, false, shape.Of(5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
	{"quantile", 0.5, 0, true, shape.Of(1, 5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
	{"quantile", 0.5, 1, false, shape.Of(4), []string{"0.5", "2.5", "nan", "8.0"}},
	{"quantile", 0.5, 1, true, shape.Of(4, 1), []string{"0.5", "2.5", "nan", "8.0"}},
	{"quantile", 0.5, -1, false, shape.Of(4), []string{"0.5", "2.5", "nan", "8.0"}},
	{"quantile", 0.5, -1, true, shape.Of(4, 1), []string{"0.5", "2.5", "nan", "8.0"}},
	{"quantile", 0.9, 0, false, shape.Of(5), []string{"nan", "6.800000000000001", "7.0", "5.1375", "-nan"}},
	{"quantile", 0.9, 0, true, shape.Of(1, 5), []string{"nan", "6.800000000000001", "7.0", "5.1375", "-nan"}},
	{"quantile", 0.9, 1, false, shape.Of(4), []string{"5.45", "4.0", "nan", "-nan"}},
	{"quantile", 0.9, 1, true, shape.Of(4, 1), []string{"5.45", "4.0", "nan", "-nan"}},
	{"quantile", 0.9, -1, false, shape.Of(4), []string{"5.45", "4.0", "nan", "-nan"}},
	{"quantile", 0.9, -1, true, shape.Of(4, 1), []string{"5.45", "4.0", "nan", "-nan"}},
	{"quantile", 1.0, 0, false, shape.Of(5), []string{"nan", "8.0", "7.0", "6.0", "-nan"}},
	{"quantile", 1.0, 0, true, shape.Of(1, 5), []string{"nan", "8.0", "7.0", "6.0", "-nan"}},
	{"quantile", 1.0, 1, false, shape.Of(4), []string{"7.0", "4.0", "nan", "-nan"}},
	{"quantile", 1.0, 1, true, shape.Of(4, 1), []string{"7.0", "4.0", "nan", "-nan"}},
	{"quantile", 1.0, -1, false, shape.Of(4), []string{"7.0", "4.0", "nan", "-nan"}},
	{"quantile", 1.0, -1, true, shape.Of(4, 1), []string{"7.0", "4.0", "nan", "-nan"}},
	{"percentile", 33, 1, false, shape.Of(4), []string{"0.16068000000000005", "0.8000000000000002", "nan", "7.32"}},
	{"percentile", 33, 1, true, shape.Of(4, 1), []string{"0.16068000000000005", "0.8000000000000002", "nan", "7.32"}},
	{"percentile", 90, 1, false, shape.Of(4), []string{"5.45", "4.0", "nan", "-nan"}},
	{"percentile", 90, 1, true, shape.Of(4, 1), []string{"5.45", "4.0", "nan", "-nan"}},
	{"percentile", 12.5, 1, false, shape.Of(4), []string{"-1.1245", "-0.5", "nan", "6.5"}},
	{"percentile", 12.5, 1, true, shape.Of(4, 1), []string{"-1.1245", "-0.5", "nan", "6.5"}},
	{"median", 0, 0, false, shape.Of(5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
	{"median", 0, 0, true, shape.Of(1, 5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
	{"median", 0, 1, false, shape.Of(4), []string{"0.5", "2.5", "nan", "8.0"}},
	{"median", 0, 1, true, shape.Of(4, 1), []string{"0.5", "2.5", "nan", "8.0"}},
	{"median", 0, -2, false, shape.Of(5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
	{"median", 0, -2, true, shape.Of(1, 5), []string{"nan", "2.5", "4.5", "3.0625", "3.25"}},
}

func q1Tensor[T tensor.Float]() *tensor.Tensor[T] {
	data := make([]T, len(q1))
	for i, s := range q1 {
		data[i] = T(parseNumPy(s))
	}
	t, err := tensor.FromSlice(data, shape.Of(4, 5))
	if err != nil {
		panic(err)
	}
	return t
}

// evalShown evaluates e and returns its shape and values as the tables
// print them, NaN signs left out.
func evalShown[T tensor.Number](e expr.Exp[T]) (shape.Shape, []string, error) {
	out, err := kernels.Eval(e)
	if err != nil {
		return nil, nil, err
	}
	vals := []string{}
	for _, v := range out.Contiguous().Data() {
		vals = append(vals, showNumPy(float64(v), false))
	}
	return out.Shape(), vals, nil
}

// TestQuantilesMatchNumPy checks Quantile, Percentile and Median against
// NumPy: every axis, keepdims, a line with a NaN (NaN), a line ending in
// +Inf (NumPy's lerp gives NaN above the middle), ties.
func TestQuantilesMatchNumPy(t *testing.T) {
	x := q1Tensor[float64]()
	for _, tt := range quantileTable {
		t.Run(fmt.Sprintf("%s/%v/axis=%d/keep=%t", tt.fn, tt.q, tt.axis, tt.keep), func(t *testing.T) {
			var e expr.Exp[float64]
			switch tt.fn {
			case "quantile":
				e = expr.Quantile[float64](x, tt.q, tt.axis, tt.keep)
			case "percentile":
				e = expr.Percentile[float64](x, tt.q, tt.axis, tt.keep)
			default:
				e = expr.Median[float64](x, tt.axis, tt.keep)
			}
			s, got, err := evalShown(e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.shape, s); diff != "" {
				t.Errorf("shape (-numpy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(shown(tt.want, false), got); diff != "" {
				t.Errorf("values (-numpy +laze):\n%s", diff)
			}
		})
	}
}

// TestQuantilesFloat32 checks the float32 forms against NumPy 1.24: its
// quantile of float32 is computed (and returned) in float64, here
// converted to float32; its median is float32 arithmetic. The even median
// is of q1's first four columns.
func TestQuantilesFloat32(t *testing.T) {
	x := q1Tensor[float32]()
	f32 := func(vals ...float64) []string {
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = showNumPy(float64(float32(v)), false)
		}
		return out
	}
	for _, tt := range []struct {
		name string
		e    expr.Exp[float32]
		want []string
	}{
		{"quantile 0.37", expr.Quantile[float32](x, 0.37, 1, false), f32(0.24052000045776367, 1.2000000476837158, math.NaN(), 7.480000019073486)},
		{"median axis 0", expr.Median[float32](x, 0, false), f32(math.NaN(), 2.5, 4.5, 3.0625, 3.25)},
		{"median even", expr.Median[float32](x.Narrow(1, 0, 4), 1, false), f32(1.8125, 2.0, math.NaN(), 7.5)},
	} {
		_, got, err := evalShown(tt.e)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-numpy +laze):\n%s", tt.name, diff)
		}
	}
}

// topKTable holds np.flip(np.sort(q1, axis), axis) cut to k along the
// axis, NumPy 1.24's spelling of torch.topk(x, k, axis).values (NaN the
// largest, as torch).
var topKTable = []struct {
	k, axis int
	shape   shape.Shape
	want    []string
}{
	{0, 1, shape.Of(4, 0), []string{}},
	{1, 1, shape.Of(4, 1), []string{"7.0", "4.0", "nan", "inf"}},
	{3, 1, shape.Of(4, 3), []string{"7.0", "3.125", "0.5", "4.0", "4.0", "2.5", "nan", "4.0", "3.0", "inf", "9.0", "8.0"}},
	{5, 1, shape.Of(4, 5), []string{"7.0", "3.125", "0.5", "0.001", "-2.25", "4.0", "4.0", "2.5", "0.0", "-1.0", "nan", "4.0", "3.0", "2.0", "1.0", "inf", "9.0", "8.0", "7.0", "6.0"}},
	{2, 0, shape.Of(2, 5), []string{"nan", "8.0", "7.0", "6.0", "inf", "9.0", "4.0", "7.0", "3.125", "4.0"}},
	{4, -2, shape.Of(4, 5), []string{"nan", "8.0", "7.0", "6.0", "inf", "9.0", "4.0", "7.0", "3.125", "4.0", "4.0", "1.0", "2.0", "3.0", "2.5", "0.5", "-2.25", "-1.0", "0.0", "0.001"}},
}

// TestTopK checks TopK against NumPy, and its errors.
func TestTopK(t *testing.T) {
	x := q1Tensor[float64]()
	for _, tt := range topKTable {
		s, got, err := evalShown(expr.TopK[float64](x, tt.k, tt.axis))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.shape, s); diff != "" {
			t.Errorf("k=%d axis=%d: shape (-numpy +laze):\n%s", tt.k, tt.axis, diff)
		}
		if diff := cmp.Diff(shown(tt.want, false), got); diff != "" {
			t.Errorf("k=%d axis=%d: values (-numpy +laze):\n%s", tt.k, tt.axis, diff)
		}
	}
	ints, _ := tensor.FromSlice([]int64{5, -1, 7, 7, 0}, shape.Of(5))
	_, got, err := evalShown(expr.TopK[int64](ints, 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"7", "7", "5"}, got); diff != "" {
		t.Errorf("ints: %s", diff)
	}
}

// TestSelectionErrors checks the argument errors: q and p out of range
// (or NaN), k out of range, an empty axis; each names the value.
func TestSelectionErrors(t *testing.T) {
	x := q1Tensor[float64]()
	empty := tensor.Zeros[float64](3, 0)
	for _, tt := range []struct {
		name  string
		err   error
		is    error
		value any
	}{
		{"q > 1", checkErr(expr.Quantile[float64](x, 1.5, 0, false)), shape.ErrInvalid, 1.5},
		{"q < 0", checkErr(expr.Quantile[float64](x, -0.1, 0, false)), shape.ErrInvalid, -0.1},
		{"q NaN", checkErr(expr.Quantile[float64](x, math.NaN(), 0, false)), shape.ErrInvalid, nil},
		{"p > 100", checkErr(expr.Percentile[float64](x, 101, 0, false)), shape.ErrInvalid, 101.0},
		{"k > n", checkErr(expr.TopK[float64](x, 6, 1)), shape.ErrInvalid, 6},
		{"k < 0", checkErr(expr.TopK[float64](x, -1, 1)), shape.ErrInvalid, -1},
		{"median of an empty axis", checkErr(expr.Median[float64](empty, 1, false)), shape.ErrShape, nil},
		{"quantile of an empty axis", checkErr(expr.Quantile[float64](empty, 0.5, 1, false)), shape.ErrShape, nil},
	} {
		if !errors.Is(tt.err, tt.is) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.is)
			continue
		}
		var ae *shape.ArgumentError
		if tt.value != nil && (!errors.As(tt.err, &ae) || ae.Value != tt.value) {
			t.Errorf("%s: the error does not name %v: %v", tt.name, tt.value, tt.err)
		}
	}
}
