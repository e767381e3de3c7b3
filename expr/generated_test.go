package expr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// TestGeneratedConstructors checks every generated function of the op table
// (expr/ops_gen.go): the node it builds applies its op to its operands in
// order, its Chain method builds the same tree, and its XxxScalar forms
// are the function with the constant as a Scalar of x's type.
func TestGeneratedConstructors(t *testing.T) {
	x := expr.Name("x", tensor.Zeros[float64](2))
	y := expr.Name("y", tensor.Zeros[float64](2))
	z := expr.Name("z", tensor.Zeros[float64](2))
	two, three := expr.Scalar(2.0), expr.Scalar(3.0)
	tests := []struct {
		op                  ops.Op
		fn, chain           expr.Exp[float64]
		scalar, chainScalar expr.Exp[float64] // nil for unary ops
	}{
		{ops.Neg, expr.Neg[float64](x), expr.Of(x).Neg(), nil, nil},
		{ops.Abs, expr.Abs[float64](x), expr.Of(x).Abs(), nil, nil},
		{ops.Sqrt, expr.Sqrt[float64](x), expr.Of(x).Sqrt(), nil, nil},
		{ops.Exp, expr.Exponential[float64](x), expr.Of(x).Exp(), nil, nil},
		{ops.Log, expr.Log[float64](x), expr.Of(x).Log(), nil, nil},
		{ops.Sin, expr.Sin[float64](x), expr.Of(x).Sin(), nil, nil},
		{ops.Cos, expr.Cos[float64](x), expr.Of(x).Cos(), nil, nil},
		{ops.Tanh, expr.Tanh[float64](x), expr.Of(x).Tanh(), nil, nil},
		{ops.Sigmoid, expr.Sigmoid[float64](x), expr.Of(x).Sigmoid(), nil, nil},
		{ops.ReLU, expr.ReLU[float64](x), expr.Of(x).ReLU(), nil, nil},
		{ops.Floor, expr.Floor[float64](x), expr.Of(x).Floor(), nil, nil},
		{ops.Ceil, expr.Ceil[float64](x), expr.Of(x).Ceil(), nil, nil},
		{ops.Trunc, expr.Trunc[float64](x), expr.Of(x).Trunc(), nil, nil},
		{ops.Rint, expr.Rint[float64](x), expr.Of(x).Rint(), nil, nil},
		{ops.Square, expr.Square[float64](x), expr.Of(x).Square(), nil, nil},
		{ops.Fabs, expr.Fabs[float64](x), expr.Of(x).Fabs(), nil, nil},
		{ops.Positive, expr.Positive[float64](x), expr.Of(x).Positive(), nil, nil},
		{ops.Signbit, expr.Signbit[float64](x), expr.Of(x).Signbit(), nil, nil},
		{ops.Spacing, expr.Spacing[float64](x), expr.Of(x).Spacing(), nil, nil},
		{ops.Logb, expr.Logb[float64](x), expr.Of(x).Logb(), nil, nil},
		{ops.Sign, expr.Sign[float64](x), expr.Of(x).Sign(), nil, nil},
		{ops.Reciprocal, expr.Reciprocal[float64](x), expr.Of(x).Reciprocal(), nil, nil},
		{ops.IsNaN, expr.IsNaN[float64](x), expr.Of(x).IsNaN(), nil, nil},
		{ops.IsFinite, expr.IsFinite[float64](x), expr.Of(x).IsFinite(), nil, nil},
		{ops.IsInf, expr.IsInf[float64](x), expr.Of(x).IsInf(), nil, nil},
		{ops.LogicalNot, expr.LogicalNot[float64](x), expr.Of(x).LogicalNot(), nil, nil},
		{ops.StopGradient, expr.StopGradient[float64](x), expr.Of(x).StopGradient(), nil, nil},
		{ops.Tan, expr.Tan[float64](x), expr.Of(x).Tan(), nil, nil},
		{ops.Arcsin, expr.Arcsin[float64](x), expr.Of(x).Arcsin(), nil, nil},
		{ops.Arccos, expr.Arccos[float64](x), expr.Of(x).Arccos(), nil, nil},
		{ops.Arctan, expr.Arctan[float64](x), expr.Of(x).Arctan(), nil, nil},
		{ops.Sinh, expr.Sinh[float64](x), expr.Of(x).Sinh(), nil, nil},
		{ops.Cosh, expr.Cosh[float64](x), expr.Of(x).Cosh(), nil, nil},
		{ops.Arcsinh, expr.Arcsinh[float64](x), expr.Of(x).Arcsinh(), nil, nil},
		{ops.Arccosh, expr.Arccosh[float64](x), expr.Of(x).Arccosh(), nil, nil},
		{ops.Arctanh, expr.Arctanh[float64](x), expr.Of(x).Arctanh(), nil, nil},
		{ops.Exp2, expr.Exp2[float64](x), expr.Of(x).Exp2(), nil, nil},
		{ops.Expm1, expr.Expm1[float64](x), expr.Of(x).Expm1(), nil, nil},
		{ops.Log2, expr.Log2[float64](x), expr.Of(x).Log2(), nil, nil},
		{ops.Log10, expr.Log10[float64](x), expr.Of(x).Log10(), nil, nil},
		{ops.Log1p, expr.Log1p[float64](x), expr.Of(x).Log1p(), nil, nil},
		{ops.Cbrt, expr.Cbrt[float64](x), expr.Of(x).Cbrt(), nil, nil},
		{ops.Erf, expr.Erf[float64](x), expr.Of(x).Erf(), nil, nil},
		{ops.Erfc, expr.Erfc[float64](x), expr.Of(x).Erfc(), nil, nil},
		{ops.Rsqrt, expr.Rsqrt[float64](x), expr.Of(x).Rsqrt(), nil, nil},
		{ops.Deg2rad, expr.Deg2rad[float64](x), expr.Of(x).Deg2rad(), nil, nil},
		{ops.Rad2deg, expr.Rad2deg[float64](x), expr.Of(x).Rad2deg(), nil, nil},
		{ops.Add, expr.Add[float64](x, y), expr.Of(x).Add(y), expr.AddScalar(x, 2), expr.Of(x).AddScalar(2)},
		{ops.Sub, expr.Sub[float64](x, y), expr.Of(x).Sub(y), expr.SubScalar(x, 2), expr.Of(x).SubScalar(2)},
		{ops.Mul, expr.Mul[float64](x, y), expr.Of(x).Mul(y), expr.MulScalar(x, 2), expr.Of(x).MulScalar(2)},
		{ops.Div, expr.Div[float64](x, y), expr.Of(x).Div(y), expr.DivScalar(x, 2), expr.Of(x).DivScalar(2)},
		{ops.FloorDiv, expr.FloorDiv[float64](x, y), expr.Of(x).FloorDiv(y), expr.FloorDivScalar(x, 2), expr.Of(x).FloorDivScalar(2)},
		{ops.Mod, expr.Mod[float64](x, y), expr.Of(x).Mod(y), expr.ModScalar(x, 2), expr.Of(x).ModScalar(2)},
		{ops.Pow, expr.Pow[float64](x, y), expr.Of(x).Pow(y), expr.PowScalar(x, 2), expr.Of(x).PowScalar(2)},
		{ops.Maximum, expr.Maximum[float64](x, y), expr.Of(x).Maximum(y), expr.MaximumScalar(x, 2), expr.Of(x).MaximumScalar(2)},
		{ops.Minimum, expr.Minimum[float64](x, y), expr.Of(x).Minimum(y), expr.MinimumScalar(x, 2), expr.Of(x).MinimumScalar(2)},
		{ops.Eq, expr.Eq[float64](x, y), expr.Of(x).Eq(y), expr.EqScalar(x, 2), expr.Of(x).EqScalar(2)},
		{ops.Ne, expr.Ne[float64](x, y), expr.Of(x).Ne(y), expr.NeScalar(x, 2), expr.Of(x).NeScalar(2)},
		{ops.Lt, expr.Lt[float64](x, y), expr.Of(x).Lt(y), expr.LtScalar(x, 2), expr.Of(x).LtScalar(2)},
		{ops.Le, expr.Le[float64](x, y), expr.Of(x).Le(y), expr.LeScalar(x, 2), expr.Of(x).LeScalar(2)},
		{ops.Gt, expr.Gt[float64](x, y), expr.Of(x).Gt(y), expr.GtScalar(x, 2), expr.Of(x).GtScalar(2)},
		{ops.Ge, expr.Ge[float64](x, y), expr.Of(x).Ge(y), expr.GeScalar(x, 2), expr.Of(x).GeScalar(2)},
		{ops.LogicalAnd, expr.LogicalAnd[float64](x, y), expr.Of(x).LogicalAnd(y), expr.LogicalAndScalar(x, 2), expr.Of(x).LogicalAndScalar(2)},
		{ops.LogicalOr, expr.LogicalOr[float64](x, y), expr.Of(x).LogicalOr(y), expr.LogicalOrScalar(x, 2), expr.Of(x).LogicalOrScalar(2)},
		{ops.LogicalXor, expr.LogicalXor[float64](x, y), expr.Of(x).LogicalXor(y), expr.LogicalXorScalar(x, 2), expr.Of(x).LogicalXorScalar(2)},
		{ops.Arctan2, expr.Arctan2[float64](x, y), expr.Of(x).Arctan2(y), expr.Arctan2Scalar(x, 2), expr.Of(x).Arctan2Scalar(2)},
		{ops.Hypot, expr.Hypot[float64](x, y), expr.Of(x).Hypot(y), expr.HypotScalar(x, 2), expr.Of(x).HypotScalar(2)},
		{ops.Copysign, expr.Copysign[float64](x, y), expr.Of(x).Copysign(y), expr.CopysignScalar(x, 2), expr.Of(x).CopysignScalar(2)},
		{ops.Nextafter, expr.Nextafter[float64](x, y), expr.Of(x).Nextafter(y), expr.NextafterScalar(x, 2), expr.Of(x).NextafterScalar(2)},
		{ops.Fmax, expr.Fmax[float64](x, y), expr.Of(x).Fmax(y), expr.FmaxScalar(x, 2), expr.Of(x).FmaxScalar(2)},
		{ops.Fmin, expr.Fmin[float64](x, y), expr.Of(x).Fmin(y), expr.FminScalar(x, 2), expr.Of(x).FminScalar(2)},
		{ops.Fmod, expr.Fmod[float64](x, y), expr.Of(x).Fmod(y), expr.FmodScalar(x, 2), expr.Of(x).FmodScalar(2)},
		{ops.Logaddexp, expr.Logaddexp[float64](x, y), expr.Of(x).Logaddexp(y), expr.LogaddexpScalar(x, 2), expr.Of(x).LogaddexpScalar(2)},
		{ops.Logaddexp2, expr.Logaddexp2[float64](x, y), expr.Of(x).Logaddexp2(y), expr.Logaddexp2Scalar(x, 2), expr.Of(x).Logaddexp2Scalar(2)},
		{ops.Heaviside, expr.Heaviside[float64](x, y), expr.Of(x).Heaviside(y), expr.HeavisideScalar(x, 2), expr.Of(x).HeavisideScalar(2)},
		{ops.Ldexp, expr.Ldexp[float64](x, y), expr.Of(x).Ldexp(y), expr.LdexpScalar(x, 2), expr.Of(x).LdexpScalar(2)},
		{ops.FloatPower, expr.FloatPower[float64](x, y), expr.Of(x).FloatPower(y), expr.FloatPowerScalar(x, 2), expr.Of(x).FloatPowerScalar(2)},
		{ops.Where, expr.Where[float64](x, y, z), expr.Of(x).Where(y, z), expr.WhereScalar(x, 2, 3), expr.Of(x).WhereScalar(2, 3)},
		{ops.Clamp, expr.Clamp[float64](x, y, z), expr.Of(x).Clamp(y, z), expr.ClampScalar(x, 2, 3), expr.Of(x).ClampScalar(2, 3)},
	}
	seen := map[ops.Op]bool{}
	for _, tc := range tests {
		seen[tc.op] = true
		op, operands := opOf(tc.fn)
		if op != tc.op {
			t.Errorf("%v: the function builds %v", tc.op, op)
		}
		if want := []expr.Exp[float64]{x, y, z}[:tc.op.Arity()]; fmt.Sprint(operands) != fmt.Sprint(want) {
			t.Errorf("%v: operands %v, want %v", tc.op, operands, want)
		}
		if got, want := fmt.Sprint(tc.chain), fmt.Sprint(tc.fn); got != want {
			t.Errorf("%v: Chain form %s, function %s", tc.op, got, want)
		}
		if tc.scalar == nil {
			continue
		}
		consts := []expr.Exp[float64]{x, two, three}[:tc.op.Arity()]
		_, got := opOf(tc.scalar)
		if fmt.Sprint(got) != fmt.Sprint(consts) {
			t.Errorf("%v: Scalar form's operands %v, want %v", tc.op, got, consts)
		}
		if a, b := fmt.Sprint(tc.scalar), fmt.Sprint(tc.chainScalar); a != b {
			t.Errorf("%v: Scalar function %s, Chain %s", tc.op, a, b)
		}
	}
	for _, op := range ops.All() {
		if !seen[op] && op.Def().Domain != ops.IntOnly {
			t.Errorf("op %v has no row here: add its generated functions", op)
		}
	}
}

// TestGeneratedIntegerConstructors is TestGeneratedConstructors for the
// ops defined on integers only, whose functions take integer types.
func TestGeneratedIntegerConstructors(t *testing.T) {
	x := expr.Name("x", tensor.Zeros[int64](2))
	y := expr.Name("y", tensor.Zeros[int64](2))
	tests := []struct {
		op                  ops.Op
		fn, chain           expr.Exp[int64]
		scalar, chainScalar expr.Exp[int64] // nil for unary ops
	}{
		{ops.Invert, expr.Invert[int64](x), expr.Of(x).Invert(), nil, nil},
		{ops.BitwiseAnd, expr.BitwiseAnd[int64](x, y), expr.Of(x).BitwiseAnd(y), expr.BitwiseAndScalar(x, 2), expr.Of(x).BitwiseAndScalar(2)},
		{ops.BitwiseOr, expr.BitwiseOr[int64](x, y), expr.Of(x).BitwiseOr(y), expr.BitwiseOrScalar(x, 2), expr.Of(x).BitwiseOrScalar(2)},
		{ops.BitwiseXor, expr.BitwiseXor[int64](x, y), expr.Of(x).BitwiseXor(y), expr.BitwiseXorScalar(x, 2), expr.Of(x).BitwiseXorScalar(2)},
		{ops.LeftShift, expr.LeftShift[int64](x, y), expr.Of(x).LeftShift(y), expr.LeftShiftScalar(x, 2), expr.Of(x).LeftShiftScalar(2)},
		{ops.RightShift, expr.RightShift[int64](x, y), expr.Of(x).RightShift(y), expr.RightShiftScalar(x, 2), expr.Of(x).RightShiftScalar(2)},
		{ops.Gcd, expr.Gcd[int64](x, y), expr.Of(x).Gcd(y), expr.GcdScalar(x, 2), expr.Of(x).GcdScalar(2)},
		{ops.Lcm, expr.Lcm[int64](x, y), expr.Of(x).Lcm(y), expr.LcmScalar(x, 2), expr.Of(x).LcmScalar(2)},
	}
	seen := map[ops.Op]bool{}
	for _, tc := range tests {
		seen[tc.op] = true
		var op ops.Op
		var operands []expr.Exp[int64]
		switch n := tc.fn.(type) {
		case *expr.Unary[int64]:
			op, operands = n.Op, []expr.Exp[int64]{n.X}
		case *expr.Binary[int64]:
			op, operands = n.Op, []expr.Exp[int64]{n.X, n.Y}
		}
		if op != tc.op {
			t.Errorf("%v: the function builds %v", tc.op, op)
		}
		if want := []expr.Exp[int64]{x, y}[:tc.op.Arity()]; fmt.Sprint(operands) != fmt.Sprint(want) {
			t.Errorf("%v: operands %v, want %v", tc.op, operands, want)
		}
		if got, want := fmt.Sprint(tc.chain), fmt.Sprint(tc.fn); got != want {
			t.Errorf("%v: Chain form %s, function %s", tc.op, got, want)
		}
		if tc.scalar == nil {
			continue
		}
		if got, want := fmt.Sprint(tc.scalar), fmt.Sprint(tc.op.Def().Infix); !strings.Contains(got, "2") {
			t.Errorf("%v: Scalar form %s has no constant 2 (%s)", tc.op, got, want)
		}
		if a, b := fmt.Sprint(tc.scalar), fmt.Sprint(tc.chainScalar); a != b {
			t.Errorf("%v: Scalar function %s, Chain %s", tc.op, a, b)
		}
	}
	for _, op := range ops.All() {
		if !seen[op] && op.Def().Domain == ops.IntOnly {
			t.Errorf("op %v has no row here: add its generated functions", op)
		}
	}
}

// opOf returns the op and the operands of a Unary, Binary or Ternary node.
func opOf(e expr.Exp[float64]) (ops.Op, []expr.Exp[float64]) {
	switch n := e.(type) {
	case *expr.Unary[float64]:
		return n.Op, []expr.Exp[float64]{n.X}
	case *expr.Binary[float64]:
		return n.Op, []expr.Exp[float64]{n.X, n.Y}
	case *expr.Ternary[float64]:
		return n.Op, []expr.Exp[float64]{n.X, n.Y, n.Z}
	}
	return ops.Invalid, nil
}
