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

// TestStructured checks Trace, Diff, Outer, Repeat, Tile and Roll against
// the shapes and values NumPy gives (x = np.arange(6.).reshape(2, 3), v =
// [1, 4, 9, 16, 25]), evaluated and read with At.
func TestStructured(t *testing.T) {
	x, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	v, _ := tensor.FromSlice([]float64{1, 4, 9, 16, 25}, []int{5})
	a3, _ := tensor.Arange[float64](0, 24, 1).View(2, 3, 4)
	xe := expr.Of[float64](x).AddScalar(0) // an expression, not a tensor
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		shape shape.Shape
		want  []float64
	}{
		{"np.trace(a3, 1, 1, 2)", expr.Trace[float64](a3, 1, 1, 2), shape.Of(2), []float64{18, 54}},
		{"np.diff(v)", expr.Diff[float64](v, 1, 0), shape.Of(4), []float64{3, 5, 7, 9}},
		{"np.diff(v, 2)", expr.Diff[float64](v, 2, -1), shape.Of(3), []float64{2, 2, 2}},
		{"np.diff(x, 1, 0)", expr.Diff(xe, 1, 0), shape.Of(1, 3), []float64{3, 3, 3}},
		{"np.diff(x, 5, 1)", expr.Diff(xe, 5, 1), shape.Of(2, 0), []float64{}},
		// n far past the axis: empty at once (a loop of n slices would never end)
		{"np.diff(v, 1<<30)", expr.Diff[float64](v, 1<<30, 0), shape.Of(0), []float64{}},
		{"np.outer([1, 4], [3, 6, 11])", expr.Outer[float64](v.Slice(0, 0, 2, 1), expr.Of[float64](v).AddScalar(2).Slice(0, 0, 3, 1)),
			shape.Of(2, 3), []float64{3, 6, 11, 12, 24, 44}},
		{"np.repeat(x, 2, 1)", expr.Repeat(xe, 2, 1), shape.Of(2, 6), []float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}},
		{"np.repeat(x, 3, 0)", expr.Repeat[float64](x, 3, 0), shape.Of(6, 3), nil},
		{"np.tile(x, (2, 1))", expr.Tile[float64](x, 2, 1), shape.Of(4, 3), []float64{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}},
		{"np.tile(x, 2)", expr.Tile(xe, 2), shape.Of(2, 6), []float64{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}},
		{"np.tile(np.arange(3.), (2, 1, 2))", expr.Tile[float64](expr.Arange[float64](0, 3, 1), 2, 1, 2), shape.Of(2, 1, 6),
			[]float64{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
		{"np.roll(x, 1, 1)", expr.Roll[float64](x, 1, 1), shape.Of(2, 3), []float64{2, 0, 1, 5, 3, 4}},
		{"np.roll(x, -4, 1)", expr.Roll(xe, -4, -1), shape.Of(2, 3), []float64{1, 2, 0, 4, 5, 3}},
		{"np.roll(x, 3, 0)", expr.Roll[float64](x, 3, 0), shape.Of(2, 3), []float64{3, 4, 5, 0, 1, 2}},
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
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("values (-numpy +laze):\n%s", diff)
				}
			}
			var at []float64
			for idx := range out.All() {
				at = append(at, tt.e.At(idx...))
			}
			if diff := cmp.Diff(got, at); len(got) > 0 && diff != "" {
				t.Errorf("At differs from Eval (-Eval +At):\n%s", diff)
			}
		})
	}
}

// TestStructuredErrors checks the errors Check reports for arguments that
// make no array, each naming the value at fault.
func TestStructuredErrors(t *testing.T) {
	x, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	tests := []struct {
		e    expr.Exp[float64]
		kind error
		msg  string
	}{
		{expr.Diff[float64](x, -1, 0), shape.ErrInvalid, "laze: Check: at node np.diff(x, -1): diff: n = -1: must be non-negative"},
		{expr.Repeat[float64](x, -2, 0), shape.ErrInvalid, "laze: Check: at node np.repeat(x, -2, 0): repeat: repeats = -2: must be non-negative"},
		{expr.Repeat[float64](x, 2, 2), shape.ErrDimension, ""},
		{expr.Tile[float64](x, 1, -1), shape.ErrInvalid, ""},
		{expr.Roll[float64](x, 1, -3), shape.ErrDimension, ""},
		{expr.Trace[float64](x, 0, 1, 1), shape.ErrDimension, ""},
	}
	for _, tt := range tests {
		_, err := expr.Check(tt.e)
		if !errors.Is(err, tt.kind) {
			t.Errorf("%v: Check = %v, want %v", tt.e, err, tt.kind)
			continue
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("message:\n got %s\nwant %s", err, tt.msg)
		}
	}
}
