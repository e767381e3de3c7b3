package grad_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// randTensor returns a tensor of the given shape with elements in [-1, 1).
func randTensor(r *rand.Rand, dims ...int) *tensor.Tensor[float64] {
	x := tensor.New[float64](shape.Shape(dims))
	for i := range x.Data() {
		x.Data()[i] = 2*r.Float64() - 1
	}
	return x
}

// TestVJP checks VJP of non-scalar outputs with a random cotangent v
// against finite differences of sum(v * out).
func TestVJP(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 4))
	x, y := randTensor(r, 2, 3), randTensor(r, 3, 4)
	z := randTensor(r, 3)
	cases := []struct {
		name string
		out  expr.Exp[float64]
		wrt  []*tensor.Tensor[float64]
	}{
		{"matmul tanh", expr.Tanh(expr.MatMul(x, y)), []*tensor.Tensor[float64]{x, y}},
		{"broadcast", expr.Mul(expr.Sin(x), expr.Exponential(z)), []*tensor.Tensor[float64]{x, z}},
		{"cumprod of T", expr.CumProd(expr.T(expr.Add(x, z)), 0), []*tensor.Tensor[float64]{z, x}},
		{"reduction keepdims", expr.Max(expr.Square(y), expr.Axis(0), expr.KeepDims()), []*tensor.Tensor[float64]{y}},
		{"one element", expr.Sum(expr.Cos(x)), []*tensor.Tensor[float64]{x}},
		// expr's composites, built from the nodes above.
		{"softmax", expr.Softmax(expr.MatMul(x, y), 1), []*tensor.Tensor[float64]{x, y}},
		{"log softmax", expr.LogSoftmax(x, 0), []*tensor.Tensor[float64]{x}},
		{"logsumexp", expr.LogSumExp(y, expr.Axis(1)), []*tensor.Tensor[float64]{y}},
		{"var ddof 1", expr.Var(y, expr.Axis(0), expr.DDof(1)), []*tensor.Tensor[float64]{y}},
		{"std", expr.Std(expr.Add(x, z)), []*tensor.Tensor[float64]{x, z}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := randTensor(r, shapeOf(t, c.out)...)
			gs, err := grad.VJP(c.out, v, c.wrt...)
			if err != nil {
				t.Fatal(err)
			}
			got := evalGrads(t, gs, c.wrt)
			loss := expr.Sum(expr.Mul(v, c.out))
			for i, x := range c.wrt {
				if msg := gradientMismatch(got[i], numericGradient(t, loss, x), 1e-6, 1); msg != "" {
					t.Errorf("tensor %d: %s", i, msg)
				}
			}
		})
	}
}

// TestErrors checks the calls that return errors: the error's type and
// the values it names.
func TestErrors(t *testing.T) {
	x, y := tensor.Ones[float64](2, 3), tensor.Ones[float64](4)
	sq := tensor.Ones[float64](2, 2)
	notRead := tensor.Ones[float64](2, 3)
	cases := []struct {
		name string
		call func() ([]expr.Exp[float64], error)
		is   error    // errors.Is
		as   any      // errors.As target
		says []string // in the message
	}{
		{"loss of six elements", func() ([]expr.Exp[float64], error) { return grad.Of(expr.Sin(x), x) },
			shape.ErrShape, new(*shape.ShapeError), []string{"grad.Of", "(2,3)", "6 elements", "VJP"}},
		{"loss of a reduction keeping two", func() ([]expr.Exp[float64], error) { return grad.Of(expr.Sum(x, expr.Axis(1)), x) },
			shape.ErrShape, new(*shape.ShapeError), []string{"(2,)"}},
		{"wrt not in the tree", func() ([]expr.Exp[float64], error) { return grad.Of(expr.Sum(x), x, notRead) },
			shape.ErrInvalid, new(*shape.ArgumentError), []string{"grad.Of", "wrt[1]", "(2,3)", "does not read"}},
		{"nil wrt", func() ([]expr.Exp[float64], error) { return grad.Of(expr.Sum(x), nil) },
			shape.ErrInvalid, new(*shape.ArgumentError), []string{"wrt[0]", "nil"}},
		{"wrt read through a tensor-method view", func() ([]expr.Exp[float64], error) {
			return grad.Of(expr.Sum(expr.Mul(sq, sq.T())), sq)
		}, shape.ErrInvalid, new(*shape.ArgumentError), []string{"wrt[0]", "another tensor", "expr.T"}},
		{"wrt read only through a tensor-method view", func() ([]expr.Exp[float64], error) {
			return grad.Of(expr.Sum(sq.T()), sq)
		}, shape.ErrInvalid, new(*shape.ArgumentError), []string{"wrt[0]", "does not read"}},
		{"tree failing Check", func() ([]expr.Exp[float64], error) { return grad.Of(expr.Sum(expr.Add(x, y)), x) },
			shape.ErrBroadcast, new(*shape.BroadcastError), []string{"(2,3)", "(4,)"}},
		{"VJP of a tree failing Check", func() ([]expr.Exp[float64], error) {
			return grad.VJP(expr.Add(x, y), x, x)
		}, shape.ErrBroadcast, new(*shape.BroadcastError), []string{"(2,3)", "(4,)"}},
		{"VJP with v failing Check", func() ([]expr.Exp[float64], error) {
			return grad.VJP(expr.Sin(x), expr.Add(x, y), x)
		}, shape.ErrBroadcast, new(*shape.BroadcastError), []string{"(2,3)", "(4,)"}},
		{"VJP with v of another shape", func() ([]expr.Exp[float64], error) {
			return grad.VJP(expr.Sin(x), tensor.Ones[float64](3, 2), x)
		}, shape.ErrShape, new(*shape.ShapeError), []string{"grad.VJP", "(2,3)", "(3,2)", "cotangent"}},
		{"VJP with v that would broadcast", func() ([]expr.Exp[float64], error) {
			return grad.VJP(expr.Sin(x), tensor.Ones[float64](3), x)
		}, shape.ErrShape, new(*shape.ShapeError), []string{"(2,3)", "(3,)"}},
		{"VJP wrt not in the tree", func() ([]expr.Exp[float64], error) {
			return grad.VJP(expr.Sin(x), x, notRead)
		}, shape.ErrInvalid, new(*shape.ArgumentError), []string{"grad.VJP", "wrt[0]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs, err := c.call()
			if err == nil {
				t.Fatalf("no error; gradients %v", gs)
			}
			if gs != nil {
				t.Errorf("gradients %v alongside the error", gs)
			}
			if !errors.Is(err, c.is) {
				t.Errorf("error %q is not %v", err, c.is)
			}
			if !errors.As(err, c.as) {
				t.Errorf("error %q (%T) is not a %T", err, err, c.as)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
	// The ShapeError of a bad cotangent holds both shapes.
	_, err := grad.VJP(expr.Sin(x), tensor.Ones[float64](3, 2), x)
	var se *shape.ShapeError
	if errors.As(err, &se) {
		if diff := cmp.Diff([]shape.Shape{{2, 3}, {3, 2}}, se.Shapes); diff != "" {
			t.Errorf("ShapeError.Shapes (-want +got):\n%s", diff)
		}
	}
}

// TestZeroAndConstantGradients checks gradients that are zeros or a
// broadcast constant, which must still have their tensor's shape, and a
// tensor listed twice.
func TestZeroAndConstantGradients(t *testing.T) {
	x := tens(t, []float64{-1.5, 0.5, 2, 3.5, -0.2, 0}, 2, 3)
	y := tens(t, []float64{1, 2, 3}, 3)
	s := tens(t, []float64{2.5})
	ones, zeros := []float64{1, 1, 1, 1, 1, 1}, make([]float64, 6)
	cases := []struct {
		name string
		loss expr.Exp[float64]
		wrt  []*tensor.Tensor[float64]
		want [][]float64
	}{
		{"sum", expr.Sum(x), []*tensor.Tensor[float64]{x}, [][]float64{ones}},
		{"sum of a scalar tensor", expr.Mul(expr.Sum(s), expr.Scalar(3.0)), []*tensor.Tensor[float64]{s}, [][]float64{{3}}},
		{"mean keepdims", expr.Mean(x, expr.KeepDims()), []*tensor.Tensor[float64]{x}, [][]float64{{1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6}}},
		{"floor", expr.Sum(expr.Floor(x)), []*tensor.Tensor[float64]{x}, [][]float64{zeros}},
		{"comparison", expr.Sum(expr.Mul(expr.Gt(x, y), y)), []*tensor.Tensor[float64]{x, y},
			[][]float64{zeros, {1, 0, 0}}}, // Gt(x, y) = [[0,0,0],[1,0,0]]
		{"where condition", expr.Sum(expr.Where(expr.Lt(x, expr.Scalar(0.0)), y, expr.Scalar(1.0))), []*tensor.Tensor[float64]{x, y},
			[][]float64{zeros, {1, 1, 0}}}, // x < 0 at (0,0) and (1,1)
		{"argmax only", expr.Sum(expr.Cast[float64](expr.ArgMax(x, expr.Axis(0)))), []*tensor.Tensor[float64]{x}, [][]float64{zeros}},
		{"searchsorted only", expr.Sum(expr.Cast[float64](expr.SearchSorted[float64](expr.Sort(expr.Ravel[float64](x), 0), x, true))), []*tensor.Tensor[float64]{x}, [][]float64{zeros}},
		{"listed twice", expr.Sum(expr.Square(x)), []*tensor.Tensor[float64]{x, x},
			[][]float64{{-3, 1, 4, 7, -0.4, 0}, {-3, 1, 4, 7, -0.4, 0}}},
		{"listed twice with another", expr.Sum(expr.Mul(x, y)), []*tensor.Tensor[float64]{y, x, y},
			[][]float64{{2, 0.3, 2}, {1, 2, 3, 1, 2, 3}, {2, 0.3, 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := gradValues(t, c.loss, c.wrt...)
			if diff := cmp.Diff(c.want, got, closeTo); diff != "" {
				t.Errorf("gradients (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSharedSubexpressions checks trees that read a node several times
// (DAGs), directly, through Named nodes and through Chains.
func TestSharedSubexpressions(t *testing.T) {
	xs := []float64{-1.2, 0, 0.4, 2}
	x := tens(t, xs, 4)
	u := expr.Sin(x)
	named := expr.Name("u", expr.Exponential(x))
	chain := expr.Of(x).Tanh()
	cases := []struct {
		name string
		loss expr.Exp[float64]
		d    func(x float64) float64
	}{
		// d/dx (u² + u), u = sin x: (2 sin x + 1) cos x.
		{"u*u + u", expr.Sum(expr.Add(expr.Mul(u, u), u)), func(x float64) float64 { return (2*math.Sin(x) + 1) * math.Cos(x) }},
		// d/dx e^x·e^x·e^x = 3 e^3x.
		{"named cube", expr.Sum(expr.Mul(expr.Mul(named, named), named)), func(x float64) float64 { return 3 * math.Exp(3*x) }},
		// d/dx (t + t²)·x, t = tanh x: (1 + 2t)(1 − t²)x + t + t².
		{"chain", expr.Sum(chain.Add(chain.Square()).Mul(x)), func(x float64) float64 {
			th := math.Tanh(x)
			return (1+2*th)*(1-th*th)*x + th + th*th
		}},
		// sum(u) read by a reduction and an elementwise op: d/dx (Σu)·u_i summed
		// over i = 2 (Σu) cos x.
		{"sum times u", expr.Sum(expr.Mul(expr.Sum(u), u)), func(x0 float64) float64 {
			s := 0.0
			for _, v := range xs {
				s += math.Sin(v)
			}
			return 2 * s * math.Cos(x0)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := make([]float64, len(xs))
			for i, v := range xs {
				want[i] = c.d(v)
			}
			got := gradValues(t, c.loss, x)
			if diff := cmp.Diff([][]float64{want}, got, closeTo); diff != "" {
				t.Errorf("gradient (-want +got):\n%s", diff)
			}
		})
	}
}

// float32Tree builds the same trees, each reading x, y and z, in float32
// and float64.
func float32Tree[T tensor.Float](x, y, z *tensor.Tensor[T]) []expr.Exp[T] {
	return []expr.Exp[T]{
		expr.Sum(expr.Mul(expr.Tanh(expr.MatMul(x, y)), expr.Sin(z))),
		expr.Add(expr.Mean(expr.Div(expr.Exponential(x), expr.AddScalar(expr.Square(expr.T(y)), 1))), expr.Sum(expr.Square(z))),
		expr.Sum(expr.Mul(expr.CumProd(expr.Concatenate(1, x, expr.T(y)), 1), expr.Unsqueeze(z, -1))),
		expr.Prod(expr.Mul(expr.Sigmoid(expr.Add(expr.Index(y, 0, -1), z)), expr.Sum(x, expr.Axis(1)))),
		expr.Add(expr.Sum(expr.Cast[T](expr.Log(expr.AddScalar(expr.Square(expr.Cast[float64](z)), 0.5)))), expr.Sum(expr.MatMul(y, x))),
	}
}

// TestFloat32 checks gradients of float32 trees against finite differences
// of the same trees in float64. float32 rounding (ε = 6e-8) in the forward
// nodes the gradient reads and in its own sums leaves errors of some 1e-6
// relative, so the tolerance is 1e-4.
func TestFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 19))
	x, y, z := randTensor(r, 3, 2), randTensor(r, 2, 3), randTensor(r, 3)
	x32, y32, z32 := tensor.New[float32](x.Shape()), tensor.New[float32](y.Shape()), tensor.New[float32](z.Shape())
	for _, p := range []struct {
		d  []float64
		d2 []float32
	}{{x.Data(), x32.Data()}, {y.Data(), y32.Data()}, {z.Data(), z32.Data()}} {
		for i, v := range p.d {
			p.d2[i] = float32(v)
			p.d[i] = float64(p.d2[i]) // the same values in both
		}
	}
	trees32, trees64 := float32Tree(x32, y32, z32), float32Tree(x, y, z)
	for i := range trees32 {
		gs, err := grad.Of(trees32[i], x32, y32, z32)
		if err != nil {
			t.Fatal(err)
		}
		got := evalGrads(t, gs, []*tensor.Tensor[float32]{x32, y32, z32})
		for k, leaf := range []*tensor.Tensor[float64]{x, y, z} {
			num := numericGradient(t, trees64[i], leaf)
			g64 := make([]float64, len(got[k]))
			for j, v := range got[k] {
				g64[j] = float64(v)
			}
			if diff := cmp.Diff(num, g64, cmpopts.EquateApprox(1e-4, 1e-6)); diff != "" {
				t.Errorf("tree %v, leaf %d: float32 gradient against float64 finite differences (-want +got):\n%s", trees32[i], k, diff)
			}
		}
	}
}
