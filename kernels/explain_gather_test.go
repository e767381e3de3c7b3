package kernels

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestExplainGathers checks what Explain says of gathers: a gather at the
// root writes dst itself, one inside a tree a temporary the pass reads,
// one reading the destination's memory a temporary too, and add.at adds
// into the copy of its base.
func TestExplainGathers(t *testing.T) {
	x := tensor.Rand[float64](1, 3, 4)
	idx, err := tensor.FromSlice([]int64{2, 0}, shape.Shape{2})
	if err != nil {
		t.Fatal(err)
	}
	dst := tensor.Zeros[float64](2, 4)
	square := tensor.Zeros[float64](3, 4)
	tests := []struct {
		name string
		dst  *tensor.Tensor[float64]
		e    expr.Exp[float64]
		says []string
	}{
		{"root", dst, expr.Take[float64](x, idx, 0), []string{"dst (2,4) float64 = take of", "indices checked first"}},
		{"inside", dst, expr.Of(expr.Take[float64](x, idx, 0)).Exp(), []string{"t1 (2,4) float64 = take of", "in0  t1"}},
		{"reads dst", square, expr.TakeAlongAxis[float64](square, tensor.Zeros[int64](3, 4), 1), []string{"t", "= take_along_axis of"}},
		{"add.at", square, expr.AddAt[float64](x, 0, expr.Scalar(1.0), idx), []string{"+= ", "values added in row-major order"}},
	}
	for _, tt := range tests {
		got, err := Explain(tt.dst, tt.e)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, s := range tt.says {
			if !strings.Contains(got, s) {
				t.Errorf("%s: Explain does not say %q:\n%s", tt.name, s, got)
			}
		}
	}
	// a searchsorted inside an int64 tree: its temporary, then the pass
	sorted := tensor.Arange[float64](0, 4, 1)
	pos := tensor.Zeros[int64](3, 4)
	got, err := Explain(pos, expr.Of(expr.SearchSorted[float64](sorted, square, true)).MulScalar(2).E)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"t1 (3,4) int64 = searchsorted of", "side=right", "12 binary searches in 4 sorted elements", "in0  t1"} {
		if !strings.Contains(got, s) {
			t.Errorf("searchsorted: Explain does not say %q:\n%s", s, got)
		}
	}
	if got, _ := Explain(square, expr.TakeAlongAxis[float64](square, tensor.Zeros[int64](3, 4), 1)); strings.Contains(got, "dst (3,4) float64 = take_along_axis") {
		t.Errorf("a gather reading its destination writes it directly:\n%s", got)
	}
}
