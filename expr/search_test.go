package expr_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// searchTable holds np.searchsorted(a, v, side) printed by NumPy 1.24.2
// (/usr/bin/python3): a sorted with ties, ±0, ±Inf and two NaNs at its
// end; v with NaN, ±0, ±Inf, values between, on and past a's ends.
var searchTable = []struct {
	name        string
	a, v        []string
	vShape      shape.Shape
	left, right []int64
}{
	{"floats", []string{"-inf", "-1.0", "-1.0", "-0", "0.0", "2.0", "3.0", "inf", "nan", "nan"},
		[]string{"nan", "-inf", "-1.0", "0.0", "-0", "0.5", "3.0", "inf", "5.0", "-2.0", "2.0", "-1.5"}, shape.Of(3, 4),
		[]int64{8, 0, 1, 3, 3, 5, 6, 7, 7, 1, 5, 1}, []int64{10, 1, 3, 5, 5, 5, 7, 8, 7, 1, 6, 1}},
	{"ints", []string{"1", "1", "2", "5", "5", "5", "9"}, []string{"0", "1", "5", "9", "10", "3"}, shape.Of(6),
		[]int64{0, 0, 3, 6, 7, 3}, []int64{0, 2, 6, 7, 7, 3}},
	{"empty a", nil, []string{"1.0", "nan"}, shape.Of(2), []int64{0, 0}, []int64{0, 0}},
	{"empty v", []string{"-inf", "-1.0"}, nil, shape.Of(0), []int64{}, []int64{}},
	{"0-d v", []string{"-inf", "-1.0", "-1.0", "-0", "0.0", "2.0", "3.0", "inf", "nan", "nan"}, []string{"2.0"}, shape.Of(),
		[]int64{5}, []int64{6}},
}

func fromStrings[T tensor.Number](t *testing.T, vals []string, s shape.Shape) *tensor.Tensor[T] {
	data := make([]T, len(vals))
	for i, v := range vals {
		data[i] = T(parseNumPy(v))
	}
	x, err := tensor.FromSlice(data, s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func searchCase[T tensor.Number](t *testing.T, a, v expr.Exp[T], right bool) []int64 {
	t.Helper()
	r, err := kernels.Eval(expr.SearchSorted(a, v, right))
	if err != nil {
		t.Fatal(err)
	}
	if want := v.Shape(); !r.Shape().Equal(want) {
		t.Errorf("shape %v, want v's %v", r.Shape(), want)
	}
	return r.Contiguous().Data()
}

// TestSearchSortedMatchesNumPy checks SearchSorted against NumPy, both
// sides, in float64, float32 and (for the integer rows) int32 and uint8,
// with a and v as tensors, as a strided view and as trees.
func TestSearchSortedMatchesNumPy(t *testing.T) {
	for _, tt := range searchTable {
		for _, right := range []bool{false, true} {
			want := tt.left
			if right {
				want = tt.right
			}
			name := tt.name + "/left"
			if right {
				name = tt.name + "/right"
			}
			t.Run(name, func(t *testing.T) {
				a64 := fromStrings[float64](t, tt.a, shape.Of(len(tt.a)))
				v64 := fromStrings[float64](t, tt.v, tt.vShape)
				check := func(label string, got []int64) {
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s (-numpy +laze):\n%s", label, diff)
					}
				}
				check("float64", searchCase[float64](t, a64, v64, right))
				check("float32", searchCase[float32](t, fromStrings[float32](t, tt.a, shape.Of(len(tt.a))), fromStrings[float32](t, tt.v, tt.vShape), right))
				// a as a tree (a+0 is evaluated into a temporary) and as a
				// strided view (copied contiguous); v as a tree.
				check("trees", searchCase[float64](t, expr.Of[float64](a64).AddScalar(0).E, expr.Of[float64](v64).MulScalar(1).E, right))
				wide := tensor.Zeros[float64](2 * len(tt.a))
				for i, x := range a64.Data() {
					wide.Set(x, 2*i)
				}
				check("strided a", searchCase[float64](t, wide.Slice(0, 0, 2*len(tt.a), 2), v64, right))
				if tt.name == "ints" {
					check("int32", searchCase[int32](t, fromStrings[int32](t, tt.a, shape.Of(len(tt.a))), fromStrings[int32](t, tt.v, tt.vShape), right))
					check("uint8", searchCase[uint8](t, fromStrings[uint8](t, tt.a, shape.Of(len(tt.a))), fromStrings[uint8](t, tt.v, tt.vShape), right))
				}
				// At, the reference, agrees.
				n := expr.SearchSorted[float64](a64, v64, right)
				at := []int64{}
				for idx := range tensor.Zeros[int8](tt.vShape...).All() {
					at = append(at, n.At(idx...))
				}
				check("At", at)
			})
		}
	}
}

// TestSearchSortedOfSort searches a Sort of an unsorted array (the sort
// computed first) inside an int64 tree: np.searchsorted(np.sort(x), v) * 2.
func TestSearchSortedOfSort(t *testing.T) {
	x := fromStrings[float64](t, []string{"3.0", "nan", "-1.0", "2.0", "-1.0"}, shape.Of(5))
	v := fromStrings[float64](t, []string{"-1.0", "2.5", "nan", "-5.0"}, shape.Of(2, 2))
	e := expr.Of(expr.SearchSorted(expr.Sort[float64](x, 0), v, true)).MulScalar(2).E
	r, err := kernels.Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	// np.searchsorted(np.sort(x), v, side='right') = [[2, 3], [5, 0]]
	if diff := cmp.Diff([]int64{4, 6, 10, 0}, r.Data()); diff != "" {
		t.Errorf("(-numpy +laze):\n%s", diff)
	}
}

// TestSearchSortedErrors checks that an a of rank other than 1 is a
// ShapeError at Check naming a's shape, and that a nil operand is an
// ArgumentError.
func TestSearchSortedErrors(t *testing.T) {
	v := tensor.Zeros[float64](3)
	for _, a := range []*tensor.Tensor[float64]{tensor.Zeros[float64](2, 3), tensor.Scalar(1.0)} {
		err := checkErr(expr.SearchSorted[float64](a, v, false))
		var se *shape.ShapeError
		if !errors.As(err, &se) || !errors.Is(err, shape.ErrShape) {
			t.Errorf("a of shape %v: got %v, want a ShapeError", a.Shape(), err)
			continue
		}
		if len(se.Shapes) != 1 || !se.Shapes[0].Equal(a.Shape()) || se.Op != "searchsorted" {
			t.Errorf("a of shape %v: the error names %v (op %q)", a.Shape(), se.Shapes, se.Op)
		}
		if _, err := kernels.Eval(expr.SearchSorted[float64](a, v, true)); !errors.As(err, &se) {
			t.Errorf("Eval: got %v, want a ShapeError", err)
		}
		func() {
			defer func() {
				if r, _ := recover().(error); !errors.As(r, &se) {
					t.Errorf("Shape: panicked with %v, want the ShapeError", r)
				}
			}()
			_ = expr.SearchSorted[float64](a, v, false).Shape()
		}()
	}
	var ae *shape.ArgumentError
	if err := checkErr(expr.SearchSorted[float64](v, (*tensor.Tensor[float64])(nil), false)); !errors.As(err, &ae) {
		t.Errorf("nil v: got %v, want an ArgumentError", err)
	}
}

// TestSearchSortedString checks how a searchsorted prints.
func TestSearchSortedString(t *testing.T) {
	a, v := tensor.Zeros[float64](4), tensor.Zeros[float64](2, 3)
	got := []string{expr.SearchSorted[float64](a, v, false).(interface{ String() string }).String(),
		expr.SearchSorted[float64](a, v, true).(interface{ String() string }).String()}
	want := []string{"searchsorted(tensor(4,), tensor(2,3), side='left')", "searchsorted(tensor(4,), tensor(2,3), side='right')"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}
