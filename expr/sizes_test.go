package expr_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestCheckNilLeaves: a nil tensor (or node) anywhere in a tree is an
// ArgumentError at the node that holds it, never a nil dereference.
func TestCheckNilLeaves(t *testing.T) {
	var n *tensor.Tensor[float64]
	var nb *expr.Binary[float64]
	a := tensor.Zeros[float64](2, 3)
	tests := []struct {
		name string
		e    expr.Exp[float64]
		msg  string
	}{
		{"operand", expr.Add[float64](a, n),
			"laze: Check: at node (tensor(2,3) + <nil>): add: operand 1 = (*tensor.Tensor[float64])(nil): the operand is a nil pointer"},
		{"first operand, deep", expr.Neg[float64](expr.Mul[float64](n, a)),
			"laze: Check: at node (<nil> * tensor(2,3)): multiply: operand 0 = (*tensor.Tensor[float64])(nil): the operand is a nil pointer"},
		{"root", n, "laze: Check: at node <nil>: expr: expression = (*tensor.Tensor[float64])(nil): the expression is nil"},
		{"root through Of", expr.Of[float64](n), "at node <nil>: expr: expression = (*tensor.Tensor[float64])(nil)"},
		{"nil interface", nil, "laze: Check: at node <nil>: expr: expression = <nil>: the expression is nil"},
		{"nil node", expr.Add[float64](a, nb), "operand 1 = (*expr.Binary[float64])(nil): the operand is a nil pointer"},
		{"named", expr.Name[float64]("w", n), "laze: Check: at node w: w: operand 0 = (*tensor.Tensor[float64])(nil)"},
		{"sum", expr.Sum[float64](n), "at node sum(<nil>): sum: operand 0"},
		{"matmul", expr.MatMul[float64](a, n), "at node (tensor(2,3) @ <nil>): matmul: operand 1"},
		{"where", expr.Where[float64](a, a, n), "at node where(tensor(2,3), tensor(2,3), <nil>): where: operand 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Check(tt.e)
			var ne *shape.NodeError
			var ae *shape.ArgumentError
			if !errors.As(err, &ne) || !errors.As(err, &ae) || !errors.Is(err, shape.ErrInvalid) {
				t.Fatalf("Check = %v, want an ArgumentError at a node", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message\n got %s\nwant %s", err, tt.msg)
			}
		})
	}
	// Cast's operand has another type.
	_, err := expr.Check[float32](expr.Cast[float32, float64](n))
	if !errors.Is(err, shape.ErrInvalid) || !strings.Contains(err.Error(), "at node float32(<nil>)") {
		t.Errorf("Cast of a nil tensor: %v", err)
	}
	// Shape on a node panics with the error Check returns.
	func() {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, shape.ErrInvalid) {
				t.Errorf("Shape of a tree with a nil leaf panicked with %v", err)
			}
		}()
		expr.Add[float64](a, n).Shape()
	}()
}

// TestCheckOverflowAtIntBounds: a broadcast past this machine's int,
// whatever its width, is an OverflowError at the node (sizes64_test.go holds
// the cases written for a 64-bit int).
func TestCheckOverflowAtIntBounds(t *testing.T) {
	d := 1 << (strconv.IntSize / 2) // 2^32, or 2^16: d·d overflows, d·8 bytes fit
	one := tensor.Zeros[float64](1, 1)
	tall, err1 := one.Expand(d, 1)
	wide, err2 := one.Expand(1, d)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	_, err := expr.Check(expr.Add[float64](tall, wide))
	var ne *shape.NodeError
	if !errors.Is(err, shape.ErrOverflow) || !errors.As(err, &ne) || !strings.Contains(err.Error(), shape.Of(d, d).String()) {
		t.Errorf("Check((%d,1) + (1,%d)) = %v, want an OverflowError at the node naming the shape", d, d, err)
	}
}
