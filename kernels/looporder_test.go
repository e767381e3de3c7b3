package kernels

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestLongInnermost checks the loop-order rule: the last two coalesced
// dimensions swap when the last is short and the one before it long, and
// not otherwise.
func TestLongInnermost(t *testing.T) {
	tests := []struct {
		s        shape.Shape
		strides  [][]int
		want     shape.Shape
		wantStrd [][]int
	}{
		{shape.Of(500, 2), [][]int{{2, 1}, {1, 0}}, shape.Of(2, 500), [][]int{{1, 2}, {0, 1}}},
		{shape.Of(7, 100, 4), [][]int{{400, 4, 1}}, shape.Of(7, 4, 100), [][]int{{400, 1, 4}}},
		{shape.Of(500, 5), [][]int{{5, 1}}, shape.Of(500, 5), [][]int{{5, 1}}}, // innermost long enough
		{shape.Of(63, 2), [][]int{{2, 1}}, shape.Of(63, 2), [][]int{{2, 1}}},   // outer too short
		{shape.Of(1000), [][]int{{1}}, shape.Of(1000), [][]int{{1}}},
	}
	for _, tt := range tests {
		s, st := longInnermost(tt.s, tt.strides)
		if diff := cmp.Diff(tt.want, s); diff != "" {
			t.Errorf("%v: shape (-want +got):\n%s", tt.s, diff)
		}
		if diff := cmp.Diff(tt.wantStrd, st); diff != "" {
			t.Errorf("%v: strides (-want +got):\n%s", tt.s, diff)
		}
	}
}

// TestShortInnermostMatchesReference evaluates trees whose coalesced
// innermost dimension is short (Repeat along the last axis, a transposed
// (n, 2), a broadcast (n, 3) column, a generator) against the reference,
// and checks that the pass runs along the long dimension.
func TestShortInnermostMatchesReference(t *testing.T) {
	x := tensor.Rand[float64](3, 200, 50)
	pairs := tensor.Rand[float64](4, 2, 300)
	col := tensor.Rand[float64](5, 300, 1)
	tests := []struct {
		name string
		dst  *tensor.Tensor[float64]
		e    expr.Exp[float64]
	}{
		{"repeat", tensor.Zeros[float64](200, 100), expr.Of(expr.Repeat[float64](x, 2, 1)).MulScalar(2).AddScalar(1).E},
		{"transposed pairs", tensor.Zeros[float64](300, 2), expr.Of(pairs.Transpose(0, 1)).MulScalar(3).E},
		{"broadcast column", tensor.Zeros[float64](300, 3), expr.Add[float64](expr.BroadcastTo[float64](col, 300, 3), expr.Arange[float64](0, 3, 1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Assign(tt.dst, tt.e); err != nil {
				t.Fatal(err)
			}
			compareWithAt(t, tt.name, tt.dst, tt.e)
			plan, err := Explain(tensor.Zeros[float64](tt.dst.Shape()...), tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(plan, "loop over (2,") && !strings.Contains(plan, "loop over (3,") {
				t.Errorf("the pass does not run along the long dimension:\n%s", plan)
			}
		})
	}
}
