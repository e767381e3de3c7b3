package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/dag"
	"github.com/laze-go/laze/internal/lineartest"
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

// TestDeepViewsAreLinear assigns chains of views over a named tensor plus
// one, alone or between elementwise nodes, and checks that the work grows
// with the depth: expr.PushViews named every pushed view by all the views
// above it (a copy per level: 10,000 chained subscripts allocated 350 MB),
// and pushed each view through the nodes below it already rewritten. It
// runs with the plan cache (PushViews, then a cached plan) and without
// (Check, PushViews, the lowering).
func TestDeepViewsAreLinear(t *testing.T) {
	chains := []struct {
		name  string
		dims  []int
		depth int
		link  func(e expr.Exp[float64]) expr.Exp[float64]
	}{
		{"subscripts", []int{3}, 10000, func(e expr.Exp[float64]) expr.Exp[float64] {
			return expr.Slice(e, 0, tensor.None, tensor.None, -1)
		}},
		{"T", []int{3, 2}, 10000, func(e expr.Exp[float64]) expr.Exp[float64] { return expr.T(e) }},
		{"clip between subscripts", []int{3}, 2000, func(e expr.Exp[float64]) expr.Exp[float64] {
			return expr.Slice(expr.ClampScalar(e, 0, 9), 0, tensor.None, tensor.None, -1)
		}},
	}
	for _, c := range chains {
		for _, cache := range []bool{true, false} {
			name := c.name
			if !cache {
				name += ", no plan cache"
			}
			t.Run(name, func(t *testing.T) {
				if !cache {
					planCacheOff.Store(true)
					defer planCacheOff.Store(false)
				}
				x := tensor.Full[float64](1, c.dims...)
				dst := tensor.Zeros[float64](c.dims...) // both depths are even: .T gives the shape back
				a := expr.Name("a", expr.Of(x))
				lineartest.Linear(t, c.depth, func(depth int) {
					e := expr.AddScalar(a, 1)
					for range depth {
						e = c.link(e)
					}
					if err := Assign(dst, e); err != nil {
						t.Fatal(err)
					}
				})
			})
		}
	}
}

// TestDeepConcatenationIsLinear evaluates concatenations nested deep,
// each joining the one below and a tensor, and checks that the work grows
// with the depth: each level asked its parts their shapes, which checks
// the whole tree below (Shape), and looked for the destination's memory
// in the whole tree below.
func TestDeepConcatenationIsLinear(t *testing.T) {
	b := tensor.Full[float64](2, 1)
	zero := tensor.Zeros[int64](1)
	leaves := []struct {
		name string
		leaf expr.Exp[float64]
	}{
		{"tensor", expr.Of(b)},
		// a gather is computed aside before any slice is written: each
		// level asks whether its parts read indices
		{"gather", expr.Take(expr.Of(b), expr.Of(zero), 0)},
	}
	for _, l := range leaves {
		t.Run(l.name, func(t *testing.T) {
			lineartest.Linear(t, 4000, func(depth int) {
				var e expr.Exp[float64] = tensor.Full[float64](1, 1)
				for range depth {
					e = expr.Concatenate(0, e, l.leaf)
				}
				dst := tensor.Zeros[float64](depth + 1)
				if err := Assign(dst, e); err != nil {
					t.Fatal(err)
				}
				if got := dst.At(depth); got != 2 {
					t.Fatalf("depth %d: the last element is %v, want 2", depth, got)
				}
			})
		})
	}
}

// TestDeepVarIsLinear evaluates the variance of a deep tree, and a chain
// of variances of variances, and checks that the work grows with the
// depth. Var reads the number of elements it divides by from its
// operand's shape: it checked the whole tree below every time, so that a
// chain of variances cost O(depth²) (4.0× the work at twice the depth);
// built with one expr.Shapes (WithShapes), each node is checked once.
func TestDeepVarIsLinear(t *testing.T) {
	x := tensor.Full[float64](1, 3)
	chains := []struct {
		name  string
		depth int
		build func(depth int) expr.Exp[float64]
	}{
		{"var of a chain", 10000, func(depth int) expr.Exp[float64] {
			var e expr.Exp[float64] = x
			for range depth {
				e = expr.AddScalar(e, 1)
			}
			return expr.Var(e)
		}},
		{"var of var", 2000, func(depth int) expr.Exp[float64] {
			var e expr.Exp[float64] = x
			var shapes expr.Shapes
			for range depth {
				e = expr.Var(e, expr.KeepDims(), expr.WithShapes(&shapes))
			}
			return e
		}},
	}
	for _, c := range chains {
		t.Run(c.name, func(t *testing.T) {
			lineartest.Linear(t, c.depth, func(depth int) {
				r, err := Eval(c.build(depth))
				if err != nil {
					t.Fatal(err)
				}
				_ = r.Release()
			})
		})
	}
}
