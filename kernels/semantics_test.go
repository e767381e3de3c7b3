package kernels_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/ops/opcases"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// semanticsLen is the length of the vector operands: two unrolled groups of
// the generated loops and a tail.
const semanticsLen = 9

// evalPatterns evaluates op on the operands args through the evaluator in
// every pattern of vector and scalar operands: each operand either a
// vector holding its value in every element or an expr.Scalar. Mixed
// patterns are assigned (kernels.Assign); the all-vector pattern is
// evaluated (kernels.Eval) and read through the tree's At too; the
// all-scalar one is evaluated to a 0-d tensor and assigned to a vector.
// It returns every element computed, named after its pattern ("VS[3]": the
// first operand a vector, the second a scalar, element 3).
func evalPatterns[T tensor.Number](t *testing.T, op ops.Op, args ...T) map[string]T {
	t.Helper()
	n := op.Arity()
	got := map[string]T{}
	for mask := 0; mask < 1<<n; mask++ {
		operands := make([]expr.Exp[T], n)
		pattern := ""
		for i := range operands {
			if mask&(1<<i) != 0 {
				operands[i], pattern = expr.Scalar(args[i]), pattern+"S"
			} else {
				operands[i], pattern = tensor.Full(args[i], semanticsLen), pattern+"V"
			}
		}
		var e expr.Exp[T]
		switch n {
		case 1:
			e = &expr.Unary[T]{Op: op, X: operands[0]}
		case 2:
			e = &expr.Binary[T]{Op: op, X: operands[0], Y: operands[1]}
		default:
			e = &expr.Ternary[T]{Op: op, X: operands[0], Y: operands[1], Z: operands[2]}
		}
		if mask == 0 || mask == 1<<n-1 {
			out, err := kernels.Eval(e)
			if err != nil {
				t.Fatalf("%v %s: Eval: %v", op, pattern, err)
			}
			for i, v := range out.Data() {
				got[fmt.Sprintf("Eval %s[%d]", pattern, i)] = v
			}
		}
		if mask == 0 {
			got["At "+pattern] = e.At(semanticsLen - 1)
		}
		if mask != 0 {
			dst := tensor.Zeros[T](semanticsLen)
			if err := kernels.Assign(dst, e); err != nil {
				t.Fatalf("%v %s: Assign: %v", op, pattern, err)
			}
			for i, v := range dst.Data() {
				got[fmt.Sprintf("Assign %s[%d]", pattern, i)] = v
			}
		}
	}
	return got
}

// wantEverywhere is want under every name of got.
func wantEverywhere[T tensor.Number](got map[string]T, want T) map[string]T {
	w := make(map[string]T, len(got))
	for k := range got {
		w[k] = want
	}
	return w
}

// TestEvaluatorWorkedValues runs every worked case (internal/ops/opcases:
// NumPy's values for signed zeros, infinities, NaN, zero divisors and the
// most negative integers) through the evaluator, in float64 and float32 (and
// the integer cases in their types), with vector and broadcast scalar
// operands. Floats must match bit for bit: -0 is not +0; a NaN matches any
// NaN.
func TestEvaluatorWorkedValues(t *testing.T) {
	for _, set := range opcases.FloatSets {
		for _, c := range set.Cases {
			a, b, cc := float32(c.A), float32(c.B), float32(c.C)
			got64 := evalPatterns(t, c.Op, c.A, c.B, c.C)
			if diff := cmp.Diff(wantEverywhere(got64, c.F64), got64, set.Opt); diff != "" {
				t.Errorf("float64 %v%v (-want +got):\n%s", c.Op, []float64{c.A, c.B, c.C}[:c.Op.Arity()], diff)
			}
			got32 := evalPatterns(t, c.Op, a, b, cc)
			if diff := cmp.Diff(wantEverywhere(got32, c.F32), got32, set.Opt); diff != "" {
				t.Errorf("float32 %v%v (-want +got):\n%s", c.Op, []float32{a, b, cc}[:c.Op.Arity()], diff)
			}
		}
	}
	for _, c := range opcases.Ints {
		if c.Refused() {
			x, y := tensor.Full(c.A, semanticsLen), tensor.Full(c.B, semanticsLen)
			if _, err := kernels.Eval(expr.Pow[int64](x, y)); !errors.Is(err, shape.ErrInvalid) {
				t.Errorf("%s %v(%d, %d): Eval error %v, want an ArgumentError", c.DType, c.Op, c.A, c.B, err)
			}
			continue
		}
		var diff string
		switch c.DType {
		case "int64":
			got := evalPatterns(t, c.Op, c.A, c.B, c.C)
			diff = cmp.Diff(wantEverywhere(got, c.Want), got)
		case "int8":
			got := evalPatterns(t, c.Op, int8(c.A), int8(c.B), int8(c.C))
			diff = cmp.Diff(wantEverywhere(got, int8(c.Want)), got)
		case "uint8":
			got := evalPatterns(t, c.Op, uint8(c.A), uint8(c.B), uint8(c.C))
			diff = cmp.Diff(wantEverywhere(got, uint8(c.Want)), got)
		default:
			t.Fatalf("unknown dtype %q", c.DType)
		}
		if diff != "" {
			t.Errorf("%s %v%v (-want +got):\n%s", c.DType, c.Op, []int64{c.A, c.B, c.C}[:c.Op.Arity()], diff)
		}
	}
}
