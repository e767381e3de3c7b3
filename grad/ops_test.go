package grad_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// opCase is one worked value of an elementwise op: its operands, each a
// vector of the same length, and the derivative of the op's value with
// respect to each operand, element by element, worked out by hand (or with
// package math for the transcendental functions): d[k][i] is
// ∂op(in...)[i]/∂in[k][i]. A nil d[k] (or a nil d) means 0 everywhere.
type opCase struct {
	in [][]float64
	d  [][]float64
}

// zeroCases is the case of the ops that pass no gradient (rounding,
// comparisons, truth values): at ordinary points, ties and integers.
func zeroCases(arity int) []opCase {
	in := [][]float64{{-1.5, 0.3, 2.5, 2, 0}, {2, 0.3, -1, 2, 1}, {1, 0, 2, 3, 0}}
	return []opCase{{in: in[:arity]}}
}

// sigmoid' is e^-x / (1+e^-x)².
var sigmoid2 = math.Exp(-2) / ((1 + math.Exp(-2)) * (1 + math.Exp(-2)))

// opCases holds worked derivatives of every op of the op table, including
// the subgradients the package documents: abs'(0) = 0, relu'(0) = 0,
// maximum and minimum split ties evenly, clip gives x the gradient on the
// bounds, power's exponent gets 0 where the base is 0 and its base gets 0
// where the exponent is 0.
var opCases = map[ops.Op][]opCase{
	ops.Neg:     {{in: [][]float64{{0.5, -2, 0}}, d: [][]float64{{-1, -1, -1}}}},
	ops.Abs:     {{in: [][]float64{{-2, 0, 3}}, d: [][]float64{{-1, 0, 1}}}},
	ops.Sqrt:    {{in: [][]float64{{4, 0.25, 9}}, d: [][]float64{{1. / 4, 1, 1. / 6}}}},
	ops.Exp:     {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{1, math.E, 1 / (math.E * math.E)}}}},
	ops.Log:     {{in: [][]float64{{2, 0.5, 1}}, d: [][]float64{{0.5, 2, 1}}}},
	ops.Sin:     {{in: [][]float64{{0, 0.5, math.Pi}}, d: [][]float64{{1, math.Cos(0.5), -1}}}},
	ops.Cos:     {{in: [][]float64{{0, 0.5, math.Pi / 2}}, d: [][]float64{{0, -math.Sin(0.5), -1}}}},
	ops.Tanh:    {{in: [][]float64{{0, 1, -1}}, d: [][]float64{{1, 1 / (math.Cosh(1) * math.Cosh(1)), 1 / (math.Cosh(1) * math.Cosh(1))}}}},
	ops.Sigmoid: {{in: [][]float64{{0, 2, -2}}, d: [][]float64{{0.25, sigmoid2, sigmoid2}}}},
	ops.ReLU:    {{in: [][]float64{{-1, 0, 2}}, d: [][]float64{{0, 0, 1}}}},
	ops.Floor:   zeroCases(1),
	ops.Ceil:    zeroCases(1),
	ops.Trunc:   zeroCases(1),
	ops.Rint:    zeroCases(1),
	ops.Square:  {{in: [][]float64{{-1.5, 3, 0}}, d: [][]float64{{-3, 6, 0}}}},
	ops.Sign:    zeroCases(1),
	ops.Reciprocal: {{in: [][]float64{{2, -0.5, 1}},
		d: [][]float64{{-0.25, -4, -1}}}},
	ops.IsNaN:      zeroCases(1),
	ops.IsFinite:   zeroCases(1),
	ops.IsInf:      zeroCases(1),
	ops.LogicalNot: zeroCases(1),
	// stop_gradient passes nothing, though its value is x's.
	ops.StopGradient: zeroCases(1),
	// fabs'(x) = sign(x) (0 at 0, as abs'); positive passes g through.
	ops.Fabs:     {{in: [][]float64{{-2, 0, 3}}, d: [][]float64{{-1, 0, 1}}}},
	ops.Positive: {{in: [][]float64{{-2, 0, 3}}, d: [][]float64{{1, 1, 1}}}},
	ops.Signbit:  zeroCases(1),
	ops.Spacing:  zeroCases(1),
	ops.Logb:     zeroCases(1),

	ops.Add: {{in: [][]float64{{1, 2, 0}, {3, -4, 0}}, d: [][]float64{{1, 1, 1}, {1, 1, 1}}}},
	ops.Sub: {{in: [][]float64{{1, 2, 0}, {3, -4, 0}}, d: [][]float64{{1, 1, 1}, {-1, -1, -1}}}},
	ops.Mul: {{in: [][]float64{{2, -3, 0}, {5, 0.5, 7}}, d: [][]float64{{5, 0.5, 7}, {2, -3, 0}}}},
	// d/dx x/y = 1/y, d/dy x/y = -x/y².
	ops.Div:      {{in: [][]float64{{3, -1, 0}, {2, 4, -0.5}}, d: [][]float64{{0.5, 0.25, -2}, {-0.75, 1. / 16, 0}}}},
	ops.FloorDiv: zeroCases(2),
	// mod(x, y) = x - y*floor(x/y): 1 and -floor(x/y) (-5.5 mod 2 = 0.5,
	// floor(-2.75) = -3).
	ops.Mod: {{in: [][]float64{{5.5, -5.5, 1}, {2, 2, -3}}, d: [][]float64{{1, 1, 1}, {-2, 3, 1}}}},
	// d/dx x**y = y x**(y-1), d/dy x**y = x**y ln x; at x = 0 (y ≥ 0) the
	// exponent gets 0, at y = 0 the base gets 0.
	ops.Pow: {{in: [][]float64{{2, 3, 0, 0, 2, 0.5}, {3, 0.5, 2, 0, 0, -1}},
		d: [][]float64{
			{12, 0.5 / math.Sqrt(3), 0, 0, 0, -4},
			{8 * math.Ln2, math.Sqrt(3) * math.Log(3), 0, 0, math.Ln2, 2 * math.Log(0.5)}}}},
	ops.Maximum: {{in: [][]float64{{1, 3, 2, -1}, {2, 1, 2, -1}}, d: [][]float64{{0, 1, 0.5, 0.5}, {1, 0, 0.5, 0.5}}}},
	ops.Minimum: {{in: [][]float64{{1, 3, 2, -1}, {2, 1, 2, -1}}, d: [][]float64{{1, 0, 0.5, 0.5}, {0, 1, 0.5, 0.5}}}},
	ops.Eq:      zeroCases(2),
	ops.Ne:      zeroCases(2),
	ops.Lt:      zeroCases(2),
	ops.Le:      zeroCases(2),
	ops.Gt:      zeroCases(2),
	ops.Ge:      zeroCases(2),

	ops.LogicalAnd: zeroCases(2),
	ops.LogicalOr:  zeroCases(2),
	ops.LogicalXor: zeroCases(2),

	// Issue 31's math functions: the textbook derivatives, computed with
	// package math.
	ops.Tan:     {{in: [][]float64{{0, 0.5, -1}}, d: [][]float64{{1, 1 + math.Tan(0.5)*math.Tan(0.5), 1 + math.Tan(1)*math.Tan(1)}}}},
	ops.Arcsin:  {{in: [][]float64{{0, 0.5, -0.6}}, d: [][]float64{{1, 1 / math.Sqrt(0.75), 1 / 0.8}}}},
	ops.Arccos:  {{in: [][]float64{{0, 0.5, -0.6}}, d: [][]float64{{-1, -1 / math.Sqrt(0.75), -1 / 0.8}}}},
	ops.Arctan:  {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{1, 0.5, 0.2}}}},
	ops.Sinh:    {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{1, math.Cosh(1), math.Cosh(2)}}}},
	ops.Cosh:    {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{0, math.Sinh(1), -math.Sinh(2)}}}},
	ops.Arcsinh: {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{1, 1 / math.Sqrt2, 1 / math.Sqrt(5)}}}},
	ops.Arccosh: {{in: [][]float64{{2, 1.25, 10}}, d: [][]float64{{1 / math.Sqrt(3), 1 / 0.75, 1 / math.Sqrt(99)}}}},
	ops.Arctanh: {{in: [][]float64{{0, 0.5, -0.9}}, d: [][]float64{{1, 1 / 0.75, 1 / (1 - 0.81)}}}},
	ops.Exp2:    {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{math.Ln2, 2 * math.Ln2, 0.25 * math.Ln2}}}},
	ops.Expm1:   {{in: [][]float64{{0, 1, -2}}, d: [][]float64{{1, math.E, math.Exp(-2)}}}},
	ops.Log2:    {{in: [][]float64{{1, 2, 0.5}}, d: [][]float64{{1 / math.Ln2, 0.5 / math.Ln2, 2 / math.Ln2}}}},
	ops.Log10:   {{in: [][]float64{{1, 10, 0.5}}, d: [][]float64{{1 / math.Ln10, 0.1 / math.Ln10, 2 / math.Ln10}}}},
	ops.Log1p:   {{in: [][]float64{{0, 1, -0.5}}, d: [][]float64{{1, 0.5, 2}}}},
	ops.Cbrt:    {{in: [][]float64{{1, 8, -27}}, d: [][]float64{{1. / 3, 1. / 12, 1. / 27}}}},
	ops.Erf:     {{in: [][]float64{{0, 1, -0.5}}, d: [][]float64{{2 / math.SqrtPi, 2 / math.SqrtPi * math.Exp(-1), 2 / math.SqrtPi * math.Exp(-0.25)}}}},
	ops.Erfc:    {{in: [][]float64{{0, 1, -0.5}}, d: [][]float64{{-2 / math.SqrtPi, -2 / math.SqrtPi * math.Exp(-1), -2 / math.SqrtPi * math.Exp(-0.25)}}}},
	// d/dx x^(-1/2) = -x^(-3/2) / 2.
	ops.Rsqrt:   {{in: [][]float64{{4, 1, 0.25}}, d: [][]float64{{-1. / 16, -0.5, -4}}}},
	ops.Deg2rad: {{in: [][]float64{{1, -2, 0}}, d: [][]float64{{math.Pi / 180, math.Pi / 180, math.Pi / 180}}}},
	ops.Rad2deg: {{in: [][]float64{{1, -2, 0}}, d: [][]float64{{180 / math.Pi, 180 / math.Pi, 180 / math.Pi}}}},
	// arctan2(y, x): ∂/∂y = x / (x² + y²), ∂/∂x = -y / (x² + y²).
	ops.Arctan2: {{in: [][]float64{{1, 0, -1}, {1, 2, 0.5}}, d: [][]float64{{0.5, 0.5, 0.4}, {-0.5, 0, 0.8}}}},
	ops.Hypot:   {{in: [][]float64{{3, 0, -5}, {4, 2, 12}}, d: [][]float64{{0.6, 0, -5. / 13}, {0.8, 1, 12. / 13}}}},
	// copysign(x, y) is ±x: its derivative in x is the sign it keeps or
	// flips; none flows into y.
	ops.Copysign:  {{in: [][]float64{{2, -3, 1.5}, {-1, 5, 2}}, d: [][]float64{{-1, -1, 1}, nil}}},
	ops.Nextafter: zeroCases(2),
	ops.Fmax:      {{in: [][]float64{{1, 3, 2, math.NaN(), 1}, {2, 1, 2, 1, math.NaN()}}, d: [][]float64{{0, 1, 0.5, 0, 1}, {1, 0, 0.5, 1, 0}}}},
	ops.Fmin:      {{in: [][]float64{{1, 3, 2, math.NaN(), 1}, {2, 1, 2, 1, math.NaN()}}, d: [][]float64{{1, 0, 0.5, 0, 1}, {0, 1, 0.5, 1, 0}}}},
	// fmod(x, y) = x - y*trunc(x/y): 1 and -trunc(x/y).
	ops.Fmod: {{in: [][]float64{{5.5, -5.5, 1}, {2, 2, -3}}, d: [][]float64{{1, 1, 1}, {-2, 2, 0}}}},
	// ∂/∂x log(eˣ + eʸ) = eˣ / (eˣ + eʸ).
	ops.Logaddexp:  {{in: [][]float64{{0, 1, -1}, {0, 0, 2}}, d: [][]float64{{0.5, math.E / (math.E + 1), 1 / (1 + math.Exp(3))}, {0.5, 1 / (math.E + 1), 1 / (1 + math.Exp(-3))}}}},
	ops.Logaddexp2: {{in: [][]float64{{0, 1, -1}, {0, 0, 2}}, d: [][]float64{{0.5, 2. / 3, 1. / 9}, {0.5, 1. / 3, 8. / 9}}}},
	ops.Heaviside:  zeroCases(2),
	// ldexp(x, n) = x·2ⁿ (n truncated): 2ⁿ and nothing into n.
	ops.Ldexp: {{in: [][]float64{{1, -3, 0.5}, {2, 0, -1.5}}, d: [][]float64{{4, 1, 0.5}, nil}}},
	// float_power is power computed in float64: the same derivatives.
	ops.FloatPower: {{in: [][]float64{{2, 3, 0, 0, 2, 0.5}, {3, 0.5, 2, 0, 0, -1}},
		d: [][]float64{
			{12, 0.5 / math.Sqrt(3), 0, 0, 0, -4},
			{8 * math.Ln2, math.Sqrt(3) * math.Log(3), 0, 0, math.Ln2, 2 * math.Log(0.5)}}}},

	// The condition gets no gradient.
	ops.Where: {{in: [][]float64{{1, 0, 2, -0.5}, {3, 4, 5, 6}, {6, 7, 8, 9}},
		d: [][]float64{nil, {1, 0, 1, 1}, {0, 1, 0, 0}}}},
	// clip(x, lo, hi) = minimum(maximum(x, lo), hi): x inside, below, above,
	// on each bound (x gets the gradient there), and lo > hi (the result is
	// hi).
	ops.Clamp: {{in: [][]float64{{0.5, -1, 2, 0, 1, 0.5}, {0, 0, 0, 0, 0, 2}, {1, 1, 1, 1, 1, 1}},
		d: [][]float64{{1, 0, 0, 1, 1, 0}, {0, 1, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 1}}}},
}

// opNode builds op's node over xs directly, as expr's generated functions
// do.
func opNode(op ops.Op, xs []*tensor.Tensor[float64]) expr.Exp[float64] {
	switch op.Arity() {
	case 1:
		return &expr.Unary[float64]{Op: op, X: xs[0]}
	case 2:
		return &expr.Binary[float64]{Op: op, X: xs[0], Y: xs[1]}
	default:
		return &expr.Ternary[float64]{Op: op, X: xs[0], Y: xs[1], Z: xs[2]}
	}
}

// TestOpWorkedValues checks the gradient of sum(w * op(x, y, z)) with
// respect to every operand of every op against the worked derivatives of
// opCases, with weights w that differ between elements, so that a rule
// that drops or misplaces g fails too.
func TestOpWorkedValues(t *testing.T) {
	for _, op := range ops.All() {
		for ci, c := range opCases[op] {
			t.Run(op.String(), func(t *testing.T) {
				if len(c.in) != op.Arity() {
					t.Fatalf("case %d has %d operands, the op takes %d", ci, len(c.in), op.Arity())
				}
				n := len(c.in[0])
				xs := make([]*tensor.Tensor[float64], len(c.in))
				for k, v := range c.in {
					xs[k] = tens(t, v, n)
				}
				w := make([]float64, n)
				for i := range w {
					w[i] = float64(i + 1)
					if i%2 == 1 {
						w[i] = -w[i]
					}
				}
				got := gradValues(t, weighted(t, opNode(op, xs), w), xs...)
				want := make([][]float64, len(c.in))
				for k := range want {
					want[k] = make([]float64, n)
					if k < len(c.d) && c.d[k] != nil {
						for i := range n {
							want[k][i] = w[i] * c.d[k][i]
						}
					}
				}
				if diff := cmp.Diff(want, got, closeTo); diff != "" {
					t.Errorf("case %d %v: gradients (-want +got):\n%s", ci, c.in, diff)
				}
			})
		}
	}
}

// TestOpWorkedValuesCoverTable fails when an op of the table has no worked
// derivative, or when an op that passes a gradient to an operand by its
// Grad rule has no case where that derivative is nonzero (or the reverse).
func TestOpWorkedValuesCoverTable(t *testing.T) {
	for _, op := range ops.All() {
		cases := opCases[op]
		if op.Def().Domain == ops.IntOnly {
			continue // no gradient flows through integers
		}
		if len(cases) == 0 {
			t.Errorf("op %v has no worked derivatives in opCases", op)
			continue
		}
		rules := op.Def().Grad
		if len(rules) != op.Arity() {
			t.Errorf("op %v: %d Grad rules for %d operands", op, len(rules), op.Arity())
			continue
		}
		for k, rule := range rules {
			nonzero := false
			for _, c := range cases {
				if k < len(c.d) {
					for _, v := range c.d[k] {
						nonzero = nonzero || v != 0
					}
				}
			}
			if nonzero != (rule != "") {
				t.Errorf("op %v operand %d: Grad rule %q but a nonzero worked derivative: %v", op, k, rule, nonzero)
			}
		}
	}
	for op := range opCases {
		if !op.Valid() {
			t.Errorf("opCases holds invalid op %v", op)
		}
	}
}
