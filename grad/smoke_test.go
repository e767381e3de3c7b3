package grad_test

import (
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

func evalScalar(t *testing.T, e expr.Exp[float64]) float64 {
	t.Helper()
	r, err := kernels.Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	var s float64
	for v := range r.Values() {
		s += v
	}
	return s
}

func TestSmoke(t *testing.T) {
	a := tensor.Randn[float64](1, 3, 4)
	b := tensor.Randn[float64](2, 4)
	c := tensor.Randn[float64](3, 4, 2)
	cases := map[string]func() expr.Exp[float64]{
		"long": func() expr.Exp[float64] {
			return expr.Sum(expr.Of(a).Mul(b).Tanh().Sub(expr.Of(b).Exp().Mul(a)).Add(b))
		},
		"mm":    func() expr.Exp[float64] { return expr.Sum(expr.Sin(expr.MatMul(a, c))) },
		"mmvec": func() expr.Exp[float64] { return expr.Sum(expr.Sin(expr.MatMul(expr.Index(a, 0, 1), c))) },
		"max": func() expr.Exp[float64] {
			return expr.Sum(expr.Mul(expr.Max(a, expr.Axis(1)), expr.Sum(a, expr.Axis(1))))
		},
		"mean":   func() expr.Exp[float64] { return expr.Mean(expr.Square(expr.Sub(a, b))) },
		"prod":   func() expr.Exp[float64] { return expr.Sum(expr.Prod(a, expr.Axis(0))) },
		"slice":  func() expr.Exp[float64] { return expr.Sum(expr.Exponential(expr.Slice(a, 1, 3, 0, -2))) },
		"slice2": func() expr.Exp[float64] { return expr.Sum(expr.Exponential(expr.Slice(a, 1, 0, 4, 3))) },
		"T": func() expr.Exp[float64] {
			return expr.Sum(expr.Mul(expr.T(a), expr.Reshape(expr.Slice(a, 0, 0, 3, 1), 4, 3)))
		},
		"index":   func() expr.Exp[float64] { return expr.Sum(expr.Square(expr.Index(a, 0, 1))) },
		"cumsum":  func() expr.Exp[float64] { return expr.Sum(expr.Square(expr.CumSum(a, 1))) },
		"cumprod": func() expr.Exp[float64] { return expr.Sum(expr.Sin(expr.CumProd(a, 1))) },
		"concat":  func() expr.Exp[float64] { return expr.Sum(expr.Square(expr.Concatenate(0, a, expr.Reshape(b, 1, 4)))) },
		"stack":   func() expr.Exp[float64] { return expr.Sum(expr.Square(expr.Stack(1, a, expr.Exponential(a)))) },
		"softmax": func() expr.Exp[float64] { return expr.Sum(expr.Mul(expr.Softmax(a, 1), b)) },
		"std":     func() expr.Exp[float64] { return expr.Std(a) },
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			gs, err := grad.Of(build(), a)
			if err != nil {
				t.Fatal(err)
			}
			g, err := kernels.Eval(gs[0])
			if err != nil {
				t.Fatal(err)
			}
			for i := range a.Data() {
				orig := a.Data()[i]
				h := 1e-6
				a.Data()[i] = orig + h
				fp := evalScalar(t, build())
				a.Data()[i] = orig - h
				fm := evalScalar(t, build())
				a.Data()[i] = orig
				num := (fp - fm) / (2 * h)
				got := g.Data()[i]
				if math.Abs(num-got) > 1e-5*math.Max(1, math.Abs(num)) {
					t.Errorf("element %d: grad %v, numeric %v", i, got, num)
				}
			}
		})
	}
}
