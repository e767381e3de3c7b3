package expr_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// deepDAG returns x(n) where x(k+1) = sin(x(k))*x(k) + x(k) over shared
// pointers: n+1 distinct op levels, but a tree expansion of 3^n paths.
func deepDAG(x0 expr.Exp[float64], n int) expr.Exp[float64] {
	x := x0
	for range n {
		x = expr.Add(expr.Mul(expr.Sin(x), x), x)
	}
	return x
}

// TestCheckSharedNodesOnce checks that Check, Shape and PushViews handle a
// node reached along many paths once: on a DAG of 3^40 paths they would not
// finish otherwise. The shape and the first fault are those of the tree.
func TestCheckSharedNodesOnce(t *testing.T) {
	x := tensor.Zeros[float64](2, 3)
	e := deepDAG(x, 40)
	info, err := expr.Check(e)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shape.Shape{2, 3}, info.Shape); diff != "" {
		t.Errorf("Check shape (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(shape.Shape{2, 3}, e.Shape()); diff != "" {
		t.Errorf("Shape (-want +got):\n%s", diff)
	}
	pushed, err := expr.PushViews(expr.T(e))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shape.Shape{3, 2}, pushed.Shape()); diff != "" {
		t.Errorf("pushed shape (-want +got):\n%s", diff)
	}

	// A fault below a shared node is still found, wherever it is reached.
	bad := expr.Add[float64](x, tensor.Zeros[float64](4))
	_, err = expr.Check(deepDAG(bad, 40))
	var be *shape.BroadcastError
	if !errors.As(err, &be) {
		t.Errorf("Check of a DAG over a bad node: got %v, want a BroadcastError", err)
	}
}

// TestPushViewsKeepsSharing checks that PushViews rewrites a shared node
// once: the rewritten tree shares the rewritten node as the tree shared the
// original, both where views are pushed through it and where they are not.
func TestPushViewsKeepsSharing(t *testing.T) {
	x := tensor.Zeros[float64](2, 3)
	y := tensor.Zeros[float64](3, 2)
	u := expr.Sin[float64](expr.T[float64](y)) // rewritten to sin(y.T)
	v := expr.Cos[float64](x)                  // pushed into through (v + v).T
	tests := []struct {
		name string
		e    expr.Exp[float64]
	}{
		{"rewritten", expr.Add(u, u)},
		{"pushed", expr.T(expr.Add(v, v))},
		{"named", expr.Add(expr.Name("w", expr.T[float64](v)), expr.Name("w", expr.T[float64](v)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expr.PushViews(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			b, ok := got.(*expr.Binary[float64])
			if !ok {
				t.Fatalf("PushViews = %T %v, want a Binary", got, got)
			}
			if tt.name != "named" && b.X != b.Y {
				t.Errorf("PushViews(%v) = %v: the operands are distinct nodes, want the shared node rewritten once", tt.e, got)
			}
			if tt.name == "named" && b.X == b.Y {
				// Two distinct Named nodes stay distinct (nothing was shared).
				t.Errorf("PushViews(%v) shares nodes the tree did not share", tt.e)
			}
		})
	}
}
