package grad_test

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/internal/lineartest"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// TestGradIsLinear differentiates chains 10,000 deep and evaluates the
// gradients, and checks that the work grows with the depth: the gradient
// builder asked every node its shape (Shape), which checks the whole tree
// below it, so that 10,000 levels took minutes.
func TestGradIsLinear(t *testing.T) {
	chains := []struct {
		name string
		link func(e expr.Exp[float64]) expr.Exp[float64]
	}{
		{"x+1", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.AddScalar(e, 1) }},
		{"sin", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.Sin(e) }},
		{"T of x*1.5", func(e expr.Exp[float64]) expr.Exp[float64] { return expr.T(expr.MulScalar(e, 1.5)) }},
	}
	for _, c := range chains {
		t.Run(c.name, func(t *testing.T) {
			x := tensor.Full[float64](0.5, 3, 2)
			lineartest.Linear(t, 10000, func(depth int) {
				var e expr.Exp[float64] = x
				for range depth {
					e = c.link(e)
				}
				g, err := grad.Of(expr.Sum(e), x)
				if err != nil {
					t.Fatal(err)
				}
				r, err := kernels.Eval(g[0])
				if err != nil {
					t.Fatal(err)
				}
				_ = r.Release()
			})
		})
	}
}
