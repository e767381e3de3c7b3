package kernels

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// stepLine matches the first line of a step in Explain's plan.
var stepLine = regexp.MustCompile(`(?m)^step \d+: `)

// TestSameReductionComputedOnce checks that reductions of one tensor that
// compute the same value, written as different nodes, are computed once
// per call (layer norm's Mean(x) beside the one inside Var(x)), and that
// reductions differing in anything (op, axes, keepdims, the tensor, a view
// of it) are not merged: every result agrees with the reference oracle.
func TestSameReductionComputedOnce(t *testing.T) {
	x := tensor.Randn[float64](7, 4, 6)
	y := tensor.Randn[float64](8, 4, 6) // same shape, other tensor
	mean1 := func() expr.Exp[float64] { return expr.Mean[float64](x, expr.Axis(1), expr.KeepDims()) }
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		steps int
	}{
		{"mean beside var", expr.Div[float64](expr.Sub[float64](x, mean1()), expr.Sqrt(expr.Var[float64](x, expr.Axis(1), expr.KeepDims()))), 2},
		{"two mean nodes", expr.Add(mean1(), mean1()), 1},
		{"negative axis", expr.Add(mean1(), expr.Mean[float64](x, expr.Axis(-1), expr.KeepDims())), 1},
		{"sum and mean", expr.Add(mean1(), expr.Sum[float64](x, expr.Axis(1), expr.KeepDims())), 2},
		{"other axis", expr.Add[float64](mean1(), expr.Mean[float64](x, expr.Axis(0), expr.KeepDims())), 2},
		{"keepdims or not", expr.Add[float64](mean1(), expr.Mean[float64](x, expr.Axis(1))), 2},
		{"other tensor", expr.Add(mean1(), expr.Mean[float64](y, expr.Axis(1), expr.KeepDims())), 2},
		{"a view of the tensor", expr.Add(mean1(), expr.Mean[float64](x.Slice(1, tensor.None, tensor.None, -1), expr.Axis(1), expr.KeepDims())), 2},
		{"max and min", expr.Add(expr.Max[float64](x, expr.Axis(1), expr.KeepDims()), expr.Min[float64](x, expr.Axis(1), expr.KeepDims())), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var shapes expr.Shapes
			s, err := shapes.Of(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := Explain(tensor.Zeros[float64](s...), tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(stepLine.FindAllString(plan, -1)) - 1; n != tt.steps {
				t.Errorf("%d reduction steps, want %d:\n%s", n, tt.steps, plan)
			}
			got := tensor.Zeros[float64](s...)
			if err := Assign(got, tt.e); err != nil {
				t.Fatal(err)
			}
			want := refEval(tt.e, s)
			if diff := cmp.Diff(want, got.Data(), cmpopts.EquateApprox(1e-12, 1e-12)); diff != "" {
				t.Errorf("values (-reference +Assign):\n%s", diff)
			}
		})
	}
}
