package bench

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkLazyLeaves measures issue 32's claim that generators and views
// inside a fused tree cost nothing beyond the elementwise loop: each pair
// evaluates the same tree at 1e6 float64 elements, once over plain
// contiguous tensors ("tensors") and once with a generator or a view in
// their place, into a preallocated destination. Run it with -cpu 1.
//
//	generator: y = exp(-t·dt)·x, t = np.arange(n) as a tensor, or expr.Arange
//	eye:       y = x·I + x, I = np.eye as a tensor, or expr.Eye (1000×1000)
//	flip:      y = a[::-1] + b, or a + b over plain tensors
//	transpose: y = m.T + m2 (1000×1000), or m + m2
//	diagonal:  y = d.diagonal() + v (d 1000×1000), or c + v over a contiguous copy
func BenchmarkLazyLeaves(b *testing.B) {
	const n = 1_000_000
	const side = 1000
	const dt = 1e-6
	x := tensor.Rand[float64](1, n)
	run := func(b *testing.B, dst *tensor.Tensor[float64], e expr.Exp[float64]) {
		b.SetBytes(int64(8 * dst.Numel()))
		for b.Loop() {
			if err := kernels.Assign(dst, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	decay := func(t expr.Exp[float64]) expr.Exp[float64] {
		return expr.Mul[float64](expr.Of(t).MulScalar(-dt).Exp(), x)
	}
	y := tensor.Zeros[float64](n)
	b.Run("generator/tensors", func(b *testing.B) { run(b, y, decay(tensor.Arange[float64](0, n, 1))) })
	b.Run("generator/arange", func(b *testing.B) { run(b, y, decay(expr.Arange[float64](0, n, 1))) })

	m, _ := x.View(side, side)
	y2 := tensor.Zeros[float64](side, side)
	eye := func(i expr.Exp[float64]) expr.Exp[float64] { return expr.Of[float64](m).Mul(i).Add(m) }
	b.Run("eye/tensors", func(b *testing.B) { run(b, y2, eye(tensor.Eye[float64](side))) })
	b.Run("eye/eye", func(b *testing.B) { run(b, y2, eye(expr.Eye[float64](side, side, 0))) })

	a, c := tensor.Rand[float64](2, n), tensor.Rand[float64](3, n)
	b.Run("flip/tensors", func(b *testing.B) { run(b, y, expr.Add[float64](a, c)) })
	b.Run("flip/flip", func(b *testing.B) { run(b, y, expr.Add[float64](a.Flip(), c)) })

	m2, _ := c.View(side, side)
	b.Run("transpose/tensors", func(b *testing.B) { run(b, y2, expr.Add[float64](m, m2)) })
	b.Run("transpose/transpose", func(b *testing.B) { run(b, y2, expr.Add[float64](m.T(), m2)) })

	v := tensor.Rand[float64](4, side)
	diag := m.Diagonal(0, 0, 1)
	y3 := tensor.Zeros[float64](side)
	b.Run("diagonal/tensors", func(b *testing.B) { run(b, y3, expr.Add[float64](diag.Clone(), v)) })
	b.Run("diagonal/diagonal", func(b *testing.B) { run(b, y3, expr.Add[float64](diag, v)) })
}
