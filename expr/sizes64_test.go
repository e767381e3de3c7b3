//go:build !(386 || arm || mips || mipsle)

// The cases in this file are written at the bounds of a 64-bit int (2^40,
// 2^62, MaxInt64) and their messages name those values, so they need one;
// on 32-bit machines the portable tests (the size rule at this int's own
// bounds) run instead, and TestSizeBounds64 says that these were skipped.

package expr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

const p40 = 1 << 40

// expanded returns a (1,1) tensor broadcast to dims (no memory).
func expanded(dims ...int) *tensor.Tensor[float64] {
	v, err := tensor.Zeros[float64](1, 1).Expand(dims...)
	if err != nil {
		panic(err)
	}
	return v
}

// TestCheckOverflow: a tree whose operands are valid but whose broadcast or
// product result breaks the size rule is an OverflowError at the node,
// naming the operands' shapes, never a wrapped shape.
func TestCheckOverflow(t *testing.T) {
	tall, wide := expanded(p40, 1), expanded(1, p40)
	tests := []struct {
		name string
		e    expr.Exp[float64]
		node string
		msg  string
	}{
		{"add", expr.Add[float64](tall, wide), "(tensor(1099511627776,1) + tensor(1,1099511627776))",
			"add: element count of shape (1099511627776,1099511627776) (broadcasting (1099511627776,1) and (1,1099511627776)) overflows int"},
		{"nested where", expr.Where[float64](tensor.Zeros[float64](1), tall, wide), "where(",
			"where: element count of shape (1099511627776,1099511627776)"},
		{"byte count", expr.Mul[float64](expanded(1<<31, 1), expanded(1, 1<<31)), "(tensor(2147483648,1) * tensor(1,2147483648))",
			"multiply: byte count of shape (2147483648,2147483648) and dtype float64 overflows int"},
		{"matmul batch", expr.MatMul[float64](expanded4(p40, 1), expanded4(1, p40)),
			"(tensor(1099511627776,1,1,1) @ tensor(1,1099511627776,1,1))",
			"matmul: element count of shape (1099511627776,1099511627776) (broadcasting (1099511627776,1,1,1) and (1,1099511627776,1,1)) overflows int"},
		{"cast at the root", expr.Cast[float64, uint8](expandedU8(1 << 62)), "float64(tensor(4611686018427387904,))",
			"result: byte count of shape (4611686018427387904,) and dtype float64 overflows int"},
		{"matmul result", expr.MatMul[float64](expanded(p40, 1), expanded(1, p40)), "@",
			"matmul: element count of shape (1099511627776,1099511627776) (broadcasting (1099511627776,1) and (1,1099511627776)) overflows int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Check(tt.e)
			var ne *shape.NodeError
			var oe *shape.OverflowError
			if !errors.Is(err, shape.ErrOverflow) || !errors.As(err, &ne) || !errors.As(err, &oe) {
				t.Fatalf("Check = %v, want an OverflowError at a node", err)
			}
			if !strings.Contains(ne.Node, tt.node) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q\nwant node %q and %q", err, tt.node, tt.msg)
			}
		})
	}
}

func expanded4(a, b int) *tensor.Tensor[float64] {
	v, err := tensor.Zeros[float64](1, 1, 1, 1).Expand(a, b, 1, 1)
	if err != nil {
		panic(err)
	}
	return v
}

func expandedU8(n int) *tensor.Tensor[uint8] {
	v, err := tensor.Zeros[uint8](1).Expand(n)
	if err != nil {
		panic(err)
	}
	return v
}

// TestProductShapeOverflow checks ProductShape's own error values.
func TestProductShapeOverflow(t *testing.T) {
	tests := []struct {
		x, y shape.Shape
		want *shape.OverflowError
	}{
		{shape.Of(p40, 1, 2, 2), shape.Of(1, p40, 2, 2), &shape.OverflowError{Op: "matmul", Shape: shape.Of(p40, p40),
			What: "element count", Inputs: []shape.Shape{shape.Of(p40, 1, 2, 2), shape.Of(1, p40, 2, 2)}}},
		{shape.Of(p40, 1<<20, 1), shape.Of(1, 1<<30), &shape.OverflowError{Op: "matmul", Shape: shape.Of(p40, 1<<20, 1<<30),
			What: "element count", Inputs: []shape.Shape{shape.Of(p40, 1<<20, 1), shape.Of(1, 1<<30)}}},
		{shape.Of(0, 1<<62, 1), shape.Of(1, 1<<62), &shape.OverflowError{Op: "matmul", Shape: shape.Of(0, 1<<62, 1<<62),
			What: "element count", Inputs: []shape.Shape{shape.Of(0, 1<<62, 1), shape.Of(1, 1<<62)}}},
	}
	for _, tt := range tests {
		_, err := expr.ProductShape(tt.x, tt.y)
		var oe *shape.OverflowError
		if !errors.As(err, &oe) {
			t.Errorf("ProductShape(%v, %v) = %v, want an OverflowError", tt.x, tt.y, err)
			continue
		}
		if diff := cmp.Diff(tt.want, oe); diff != "" {
			t.Errorf("ProductShape(%v, %v) (-want +got):\n%s", tt.x, tt.y, diff)
		}
	}
	if g, err := expr.ProductShape(shape.Of(1<<31, 1, 1), shape.Of(1, 1<<31)); err != nil || g.Result.String() != "(2147483648,1,2147483648)" {
		t.Errorf("a large valid product: %+v, %v", g, err)
	}
}
