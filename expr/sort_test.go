package expr_test

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// sortInputs are the arrays of sortTable, as NumPy 1.24.2 printed them
// (/usr/bin/python3): x1 has ties, ±0, ±Inf and NaNs of both signs; x2 is
// ((arange(24)*7 % 11 - 5) / 2).reshape(2, 3, 4); x3 the same before the
// division, as int32; x4 (arange(12)*5 % 7 * 40).reshape(3, 4) as uint8.
// Values are strings so that "-0" and "-nan" say which zero or NaN.
var sortInputs = map[string]struct {
	shape  shape.Shape
	dtype  string
	values []string
}{
	"x1": {shape.Of(12), "float64", []string{"3.0", "-1.0", "nan", "0.0", "-0", "inf", "-inf", "2.0", "-1.0", "0.0", "-nan", "-0"}},
	"x2": {shape.Of(2, 3, 4), "float64", []string{"-2.5", "1.0", "-1.0", "2.5", "0.5", "-1.5", "2.0", "0.0", "-2.0", "1.5", "-0.5", "-2.5", "1.0", "-1.0", "2.5", "0.5", "-1.5", "2.0", "0.0", "-2.0", "1.5", "-0.5", "-2.5", "1.0"}},
	"x3": {shape.Of(2, 3, 4), "int32", []string{"-5.0", "2.0", "-2.0", "5.0", "1.0", "-3.0", "4.0", "0.0", "-4.0", "3.0", "-1.0", "-5.0", "2.0", "-2.0", "5.0", "1.0", "-3.0", "4.0", "0.0", "-4.0", "3.0", "-1.0", "-5.0", "2.0"}},
	"x4": {shape.Of(3, 4), "uint8", []string{"0.0", "200.0", "120.0", "40.0", "240.0", "160.0", "80.0", "0.0", "200.0", "120.0", "40.0", "240.0"}},
}

// sortTable holds np.sort(x, axis, kind="stable") and np.argsort(x, axis,
// kind="stable") of sortInputs, printed by NumPy 1.24.
var sortTable = []struct {
	x    string
	axis int
	sort []string
	arg  []int64
}{
	{"x1", 0, []string{"-inf", "-1.0", "-1.0", "0.0", "-0", "0.0", "-0", "2.0", "3.0", "inf", "nan", "-nan"}, []int64{6, 1, 8, 3, 4, 9, 11, 7, 0, 5, 2, 10}},
	{"x1", -1, []string{"-inf", "-1.0", "-1.0", "0.0", "-0", "0.0", "-0", "2.0", "3.0", "inf", "nan", "-nan"}, []int64{6, 1, 8, 3, 4, 9, 11, 7, 0, 5, 2, 10}},
	{"x2", 0, []string{"-2.5", "-1.0", "-1.0", "0.5", "-1.5", "-1.5", "0.0", "-2.0", "-2.0", "-0.5", "-2.5", "-2.5", "1.0", "1.0", "2.5", "2.5", "0.5", "2.0", "2.0", "0.0", "1.5", "1.5", "-0.5", "1.0"}, []int64{0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}},
	{"x2", 1, []string{"-2.5", "-1.5", "-1.0", "-2.5", "-2.0", "1.0", "-0.5", "0.0", "0.5", "1.5", "2.0", "2.5", "-1.5", "-1.0", "-2.5", "-2.0", "1.0", "-0.5", "0.0", "0.5", "1.5", "2.0", "2.5", "1.0"}, []int64{0, 1, 0, 2, 2, 0, 2, 1, 1, 2, 1, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2}},
	{"x2", 2, []string{"-2.5", "-1.0", "1.0", "2.5", "-1.5", "0.0", "0.5", "2.0", "-2.5", "-2.0", "-0.5", "1.5", "-1.0", "0.5", "1.0", "2.5", "-2.0", "-1.5", "0.0", "2.0", "-2.5", "-0.5", "1.0", "1.5"}, []int64{0, 2, 1, 3, 1, 3, 0, 2, 3, 0, 2, 1, 1, 3, 0, 2, 3, 0, 2, 1, 2, 1, 3, 0}},
	{"x2", -1, []string{"-2.5", "-1.0", "1.0", "2.5", "-1.5", "0.0", "0.5", "2.0", "-2.5", "-2.0", "-0.5", "1.5", "-1.0", "0.5", "1.0", "2.5", "-2.0", "-1.5", "0.0", "2.0", "-2.5", "-0.5", "1.0", "1.5"}, []int64{0, 2, 1, 3, 1, 3, 0, 2, 3, 0, 2, 1, 1, 3, 0, 2, 3, 0, 2, 1, 2, 1, 3, 0}},
	{"x3", 1, []string{"-5.0", "-3.0", "-2.0", "-5.0", "-4.0", "2.0", "-1.0", "0.0", "1.0", "3.0", "4.0", "5.0", "-3.0", "-2.0", "-5.0", "-4.0", "2.0", "-1.0", "0.0", "1.0", "3.0", "4.0", "5.0", "2.0"}, []int64{0, 1, 0, 2, 2, 0, 2, 1, 1, 2, 1, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2}},
	{"x3", -3, []string{"-5.0", "-2.0", "-2.0", "1.0", "-3.0", "-3.0", "0.0", "-4.0", "-4.0", "-1.0", "-5.0", "-5.0", "2.0", "2.0", "5.0", "5.0", "1.0", "4.0", "4.0", "0.0", "3.0", "3.0", "-1.0", "2.0"}, []int64{0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}},
	{"x4", 0, []string{"0.0", "120.0", "40.0", "0.0", "200.0", "160.0", "80.0", "40.0", "240.0", "200.0", "120.0", "240.0"}, []int64{0, 2, 2, 1, 2, 1, 1, 0, 1, 0, 0, 2}},
	{"x4", 1, []string{"0.0", "40.0", "120.0", "200.0", "0.0", "80.0", "160.0", "240.0", "40.0", "120.0", "200.0", "240.0"}, []int64{0, 3, 2, 1, 3, 2, 1, 0, 2, 1, 0, 3}},
}

// parseNumPy reads a value as the tables print it ("nan", "-nan", "-0",
// "inf", "2.5").
func parseNumPy(s string) float64 {
	switch s {
	case "nan":
		return math.NaN()
	case "-nan":
		return math.Copysign(math.NaN(), -1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// showNumPy prints v as the tables do, the sign of a NaN included when
// nanSign is set.
func showNumPy(v float64, nanSign bool) string {
	switch {
	case v != v && nanSign && math.Signbit(v):
		return "-nan"
	case v != v:
		return "nan"
	case v == 0 && math.Signbit(v):
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// shown prints every value of want as showNumPy does.
func shown(want []string, nanSign bool) []string {
	out := make([]string, len(want))
	for i, s := range want {
		out[i] = showNumPy(parseNumPy(s), nanSign)
	}
	return out
}

// sortInput builds sortInputs[name] as a tensor of T.
func sortInput[T tensor.Number](name string) *tensor.Tensor[T] {
	in := sortInputs[name]
	data := make([]T, len(in.values))
	for i, s := range in.values {
		data[i] = T(parseNumPy(s))
	}
	t, err := tensor.FromSlice(data, in.shape)
	if err != nil {
		panic(err)
	}
	return t
}

// sortCase evaluates Sort and ArgSort of the table's input as T, and
// returns the sorted values as the table prints them (NaN signs included:
// a sort moves values) and the positions.
func sortCase[T tensor.Number](name string, axis int) ([]string, []int64, error) {
	x := sortInput[T](name)
	s, err := kernels.Eval(expr.Sort[T](x, axis))
	if err != nil {
		return nil, nil, err
	}
	a, err := kernels.Eval(expr.ArgSort[T](x, axis))
	if err != nil {
		return nil, nil, err
	}
	var vals []string
	for _, v := range s.Contiguous().Data() {
		vals = append(vals, showNumPy(float64(v), true))
	}
	return vals, a.Contiguous().Data(), nil
}

// TestSortMatchesNumPy checks Sort and ArgSort against NumPy's stable sort:
// NaNs last in their order, -0 and +0 in theirs, ties by position, every
// axis (negative ones too), floats and integers.
func TestSortMatchesNumPy(t *testing.T) {
	for _, tt := range sortTable {
		t.Run(tt.x+"/axis="+strconv.Itoa(tt.axis), func(t *testing.T) {
			var vals []string
			var pos []int64
			var err error
			switch sortInputs[tt.x].dtype {
			case "float64":
				vals, pos, err = sortCase[float64](tt.x, tt.axis)
			case "int32":
				vals, pos, err = sortCase[int32](tt.x, tt.axis)
			case "uint8":
				vals, pos, err = sortCase[uint8](tt.x, tt.axis)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(shown(tt.sort, true), vals); diff != "" {
				t.Errorf("sort (-numpy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.arg, pos); diff != "" {
				t.Errorf("argsort (-numpy +laze):\n%s", diff)
			}
		})
	}
}

// TestSortFloat32 sorts x1 as float32: the same order as float64's.
func TestSortFloat32(t *testing.T) {
	vals, pos, err := sortCase[float32]("x1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shown(sortTable[0].sort, true), vals); diff != "" {
		t.Errorf("sort (-numpy +laze):\n%s", diff)
	}
	if diff := cmp.Diff(sortTable[0].arg, pos); diff != "" {
		t.Errorf("argsort (-numpy +laze):\n%s", diff)
	}
}

// TestSortErrors checks that a bad axis is a DimensionError at Check that
// names the axis and the rank, for Sort, ArgSort and the selections.
func TestSortErrors(t *testing.T) {
	x := tensor.Zeros[float64](2, 3)
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"sort", checkErr(expr.Sort[float64](x, 2))},
		{"sort -3", checkErr(expr.Sort[float64](x, -3))},
		{"argsort", checkErr(expr.ArgSort[float64](x, 5))},
		{"sort of a scalar", checkErr(expr.Sort[float64](tensor.Scalar(1.0), 0))},
		{"median", checkErr(expr.Median[float64](x, 2, false))},
		{"quantile", checkErr(expr.Quantile[float64](x, 0.5, -3, false))},
		{"topk", checkErr(expr.TopK[float64](x, 1, 2))},
	} {
		var de *shape.DimensionError
		if !errors.As(tt.err, &de) || !errors.Is(tt.err, shape.ErrDimension) {
			t.Errorf("%s: got %v, want a DimensionError", tt.name, tt.err)
			continue
		}
		if de.NDim != len(x.Shape()) && tt.name != "sort of a scalar" {
			t.Errorf("%s: the error names rank %d, want 2: %v", tt.name, de.NDim, tt.err)
		}
	}
	_, err := kernels.Eval(expr.Sort[float64](x, 2))
	if !errors.Is(err, shape.ErrDimension) {
		t.Errorf("Eval of a bad axis: got %v", err)
	}
}

// checkErr returns the error Check finds in e, of any element type.
func checkErr[T tensor.Number](e expr.Exp[T]) error {
	_, err := expr.Check(e)
	return err
}

// TestSortString checks how sorts print.
func TestSortString(t *testing.T) {
	x := tensor.Zeros[float64](2, 3)
	got := []string{expr.Sort[float64](x, 1).(interface{ String() string }).String(),
		expr.ArgSort[float64](x, -1).(interface{ String() string }).String()}
	want := []string{"sort(tensor(2,3), axis=1)", "argsort(tensor(2,3), axis=-1)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}
