package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// poly4 returns a*b + c - e over four random tensors of n elements and a
// destination.
func poly4(n int) (*tensor.Tensor[float64], expr.Exp[float64]) {
	a, b, c, e := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n), tensor.Rand[float64](4, n)
	return tensor.Zeros[float64](n), expr.Of(a).Mul(b).Add(c).Sub(e)
}

// BenchmarkBlockSize measures poly4 at 1e6 elements (L2-sized operands and
// memory-bound) and at 1e4 (L1/L2) with several block sizes; the fastest
// is blockSize. Run with -cpu 1.
func BenchmarkBlockSize(b *testing.B) {
	for _, n := range []int{10000, 1000000} {
		dst, e := poly4(n)
		for _, size := range []int{128, 256, 512, 1024, 2048, 4096} {
			b.Run(fmt.Sprintf("n=%d/block=%d", n, size), func(b *testing.B) {
				withConfig(size, parallelThreshold, 0, func() {
					b.SetBytes(int64(5 * 8 * n))
					for b.Loop() {
						if err := Assign(dst, e); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}

// BenchmarkThreshold compares the serial and the parallel path at sizes
// around the threshold, for a cheap tree (poly4) and an expensive one
// (tanh). Run with -cpu 2: the size from which parallel wins is
// parallelThreshold.
func BenchmarkThreshold(b *testing.B) {
	for _, n := range []int{4096, 16384, 32768, 65536, 131072, 262144} {
		dst, cheap := poly4(n)
		costly := expr.Of(tensor.Rand[float64](5, n)).Tanh()
		for _, tree := range []struct {
			name string
			e    expr.Exp[float64]
		}{{"poly4", cheap}, {"tanh", costly}} {
			for _, mode := range []struct {
				name      string
				threshold int
			}{{"serial", math.MaxInt}, {"parallel", 0}} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", tree.name, n, mode.name), func(b *testing.B) {
					withConfig(blockSize, mode.threshold, 0, func() {
						for b.Loop() {
							if err := Assign(dst, tree.e); err != nil {
								b.Fatal(err)
							}
						}
					})
				})
			}
		}
	}
}

// BenchmarkTileRows measures a.T + b on a 3162² float64 matrix with several
// tile heights (tileRows) and tiled block lengths (tileBlock), beside the
// contiguous a + b as the reference. Run with -cpu 1.
func BenchmarkTileRows(b *testing.B) {
	m := 3162
	a, c := tensor.Rand[float64](1, m, m), tensor.Rand[float64](2, m, m)
	dst := tensor.Zeros[float64](m, m)
	run := func(b *testing.B, e expr.Exp[float64]) {
		b.SetBytes(int64(3 * 8 * m * m))
		for b.Loop() {
			if err := Assign(dst, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("add", func(b *testing.B) { run(b, expr.Add(a, c)) })
	for _, rows := range []int{16, 32, 64, 128} {
		for _, size := range []int{128, 256, 512, 1024} {
			b.Run(fmt.Sprintf("tile=%d/block=%d", rows, size), func(b *testing.B) {
				oldRows, oldBlock := tileRows, tileBlock
				tileRows, tileBlock = rows, size
				defer func() { tileRows, tileBlock = oldRows, oldBlock }()
				run(b, expr.Add(a.T(), c))
			})
		}
	}
}
