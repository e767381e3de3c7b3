package bench

import (
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkGather measures integer-array indexing against NumPy's fancy
// indexing (bench/peers/gather.py times the same cases), each into a
// preallocated destination, at 1e6 float64 elements. Run it with -cpu 1.
// Each leaf is BenchmarkGather/<case>/laze, beside gather.py's
// BenchmarkGather/<case>/{numpy,numpy-take}-<threads> (bench/report's
// vocabulary section pairs them).
//
//	take:  y = x[idx], x and idx 1e6 long, idx uniform random
//	rows:  y = m[idx], m 1000×1000, idx 1000 random rows
//	cols:  y = m[:, idx], m 1000×1000, idx 1000 random columns
//	fused: y = exp(x[idx]) * 2, the gather inside an elementwise tree
func BenchmarkGather(b *testing.B) {
	const n, side = 1_000_000, 1000
	r := rand.New(rand.NewPCG(1, 2))
	x := tensor.Rand[float64](1, n)
	m, _ := x.View(side, side)
	randomIndex := func(size, below int) *tensor.Tensor[int64] {
		ix := tensor.Empty[int64]([]int{size})
		for i := range size {
			ix.Set(int64(r.IntN(below)), i)
		}
		return ix
	}
	idx, rows := randomIndex(n, n), randomIndex(side, side)
	run := func(b *testing.B, dst *tensor.Tensor[float64], e expr.Exp[float64]) {
		b.SetBytes(int64(8 * dst.Numel()))
		for b.Loop() {
			if err := kernels.Assign(dst, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	y, y2 := tensor.Zeros[float64](n), tensor.Zeros[float64](side, side)
	b.Run("take/laze", func(b *testing.B) { run(b, y, expr.Take[float64](x, idx, 0)) })
	b.Run("rows/laze", func(b *testing.B) { run(b, y2, expr.IndexArrays[float64](m, rows)) })
	b.Run("cols/laze", func(b *testing.B) { run(b, y2, expr.IndexArrays[float64](m, nil, rows)) })
	b.Run("fused/laze", func(b *testing.B) {
		run(b, y, expr.Of(expr.Take[float64](x, idx, 0)).Exp().MulScalar(2))
	})
}
