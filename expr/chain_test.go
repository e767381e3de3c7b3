package expr_test

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestChainMatchesFunctions checks each fluent method against the package
// function it stands for, by the trees they print and the values they give.
func TestChainMatchesFunctions(t *testing.T) {
	at, _ := tensor.Arange[float64](1, 7, 1).View(2, 3)
	bt := tensor.Arange[float64](-1, 2, 1)
	a := expr.Name[float64]("a", at)
	b := expr.Name[float64]("b", bt)
	c := expr.Of[float64](a)
	two := expr.Scalar(2.0)
	tests := []struct {
		chain expr.Exp[float64]
		fn    expr.Exp[float64]
	}{
		{c.Add(b), expr.Add[float64](a, b)},
		{c.Sub(b), expr.Sub[float64](a, b)},
		{c.Mul(b), expr.Mul[float64](a, b)},
		{c.Div(b), expr.Div[float64](a, b)},
		{c.FloorDiv(b), expr.FloorDiv[float64](a, b)},
		{c.Mod(b), expr.Mod[float64](a, b)},
		{c.Pow(b), expr.Pow[float64](a, b)},
		{c.Maximum(b), expr.Maximum[float64](a, b)},
		{c.Minimum(b), expr.Minimum[float64](a, b)},
		{c.Eq(b), expr.Eq[float64](a, b)},
		{c.Ne(b), expr.Ne[float64](a, b)},
		{c.Lt(b), expr.Lt[float64](a, b)},
		{c.Le(b), expr.Le[float64](a, b)},
		{c.Gt(b), expr.Gt[float64](a, b)},
		{c.Ge(b), expr.Ge[float64](a, b)},
		{c.AddScalar(2), expr.Add[float64](a, two)},
		{c.SubScalar(2), expr.Sub[float64](a, two)},
		{c.MulScalar(2), expr.Mul[float64](a, two)},
		{c.DivScalar(2), expr.Div[float64](a, two)},
		{c.PowScalar(2), expr.Pow[float64](a, two)},
		{c.RSub(2), expr.Sub[float64](two, a)},
		{c.RDiv(2), expr.Div[float64](two, a)},
		{c.ClampScalar(2, 4), expr.Clamp[float64](a, two, expr.Scalar(4.0))},
		{c.Clamp(two, a), expr.Clamp[float64](a, two, a)},
		{c.Neg(), expr.Neg[float64](a)},
		{c.Abs(), expr.Abs[float64](a)},
		{c.ReLU(), expr.ReLU[float64](a)},
		{c.Sqrt(), expr.Sqrt[float64](a)},
		{c.Exp(), expr.Exponential[float64](a)},
		{c.Log(), expr.Log[float64](a)},
		{c.Sin(), expr.Sin[float64](a)},
		{c.Cos(), expr.Cos[float64](a)},
		{c.Tanh(), expr.Tanh[float64](a)},
		{c.Sigmoid(), expr.Sigmoid[float64](a)},
		{expr.Add[float64](c.Neg(), expr.Of[float64](b)), expr.Add[float64](expr.Neg[float64](a), b)},
	}
	for _, tt := range tests {
		cs, fs := tt.chain.(interface{ String() string }).String(), tt.fn.(interface{ String() string }).String()
		if cs != fs {
			t.Errorf("chain %s, function %s", cs, fs)
			continue
		}
		for i := range 2 {
			for j := range 3 {
				cv, fv := tt.chain.At(i, j), tt.fn.At(i, j)
				if cv != fv && !(cv != cv && fv != fv) {
					t.Errorf("%s at (%d, %d): chain %v, function %v", cs, i, j, cv, fv)
				}
			}
		}
	}
}

// TestChainNeverNests checks that a chain passed to a package function
// leaves no Chain node in the tree.
func TestChainNeverNests(t *testing.T) {
	x := tensor.Zeros[float64](2)
	e := expr.Mul[float64](expr.Of[float64](x).AddScalar(1), expr.Of[float64](x))
	found := false
	expr.Walk(e, func(n expr.Node, _ int) bool {
		if _, ok := n.(expr.Chain[float64]); ok {
			found = true
		}
		return true
	})
	if found {
		t.Error("a Chain sits inside the tree")
	}
	if y, ok := e.(*expr.Binary[float64]).Y.(*tensor.Tensor[float64]); !ok || y != x {
		t.Errorf("operand Y = %v, want the tensor itself", e.(*expr.Binary[float64]).Y)
	}
}
