package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/dag"
	"github.com/laze-go/laze/tensor"
)

// TestDeepTreesAreLinear builds, checks and evaluates chains of nested
// nodes of two depths and compares the node visits (dag.Puts: every memo
// entry stored by Check, the lowering and the other walks) between them:
// twice the depth must cost about twice the visits, not four times, as it
// did when each reduction's evaluation checked its whole operand again
// (Shape). Counting visits rather than time makes the test exact on any
// machine.
func TestDeepTreesAreLinear(t *testing.T) {
	x := tensor.Full[float64](1, 3)
	chains := []struct {
		name string
		link func(e expr.Exp[float64]) expr.Exp[float64]
	}{
		{"sum", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(e) }},
		{"mean, keepdims", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.Mean(e, expr.KeepDims()) }},
		{"cumsum", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.CumSum(e, 0) }},
		{"sum of exp", func(e expr.Exp[float64]) expr.Exp[float64] {
			return expr.Sum(expr.Exponential(expr.MulScalar(e, 0)), expr.KeepDims())
		}},
	}
	visits := func(link func(expr.Exp[float64]) expr.Exp[float64], depth int) int64 {
		before := dag.Puts()
		var e expr.Exp[float64] = x
		for range depth {
			e = link(e)
		}
		if _, err := expr.Check(e); err != nil {
			t.Fatal(err)
		}
		r, err := Eval(e)
		if err != nil {
			t.Fatal(err)
		}
		_ = r.Release()
		return dag.Puts() - before
	}
	for _, c := range chains {
		t.Run(c.name, func(t *testing.T) {
			short, long := visits(c.link, 500), visits(c.link, 1000)
			if ratio := float64(long) / float64(short); ratio > 2.5 {
				t.Errorf("%d node visits at depth 500, %d at depth 1000 (%.1f×): the cost grows faster than the depth", short, long, ratio)
			}
		})
	}
}
