package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/tensor"
)

// poly4 returns a*b + c - e over four random tensors of n elements and a
// destination.
func poly4(n int) (*tensor.Tensor[float64], expr.Exp[float64]) {
	a, b, c, e := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n), tensor.Rand[float64](4, n)
	return tensor.Zeros[float64](n), expr.Of(a).Mul(b).Add(c).Sub(e)
}

// twoPass returns (a*b + c) * (e - a) over four random tensors of n
// elements and a destination: a tree whose first two instructions write
// registers, so a block takes three passes.
func twoPass(n int) (*tensor.Tensor[float64], expr.Exp[float64]) {
	a, b, c, e := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n), tensor.Rand[float64](4, n)
	return tensor.Zeros[float64](n), expr.Of(a).Mul(b).Add(c).Mul(expr.Sub(e, a))
}

// BenchmarkBlockSize measures the block lengths walkShape chooses among,
// each on the programs it serves, with -cpu 1:
//   - pass: poly4, one fused pass that writes no register, from L2 (1e4)
//     and from memory (1e6), against cpu.PassBlock;
//   - regs: a tree of three passes per block from L2 or L3 (1e5, 4e5), against
//     cpu.BlockSize;
//   - stream: the same tree from memory (1e6 and 1e7), against the stream
//     block length of the selected level (cpu.StreamBlock, cpu.LaneStreamBlock).
func BenchmarkBlockSize(b *testing.B) {
	sweep := func(b *testing.B, name string, n int, length *int, sizes []int, tree func(int) (*tensor.Tensor[float64], expr.Exp[float64])) {
		dst, e := tree(n)
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d/block=%d", name, n, size), func(b *testing.B) {
				old := *length
				*length = size
				defer func() { *length = old }()
				b.SetBytes(int64(5 * 8 * n))
				for b.Loop() {
					if err := Assign(dst, e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	for _, n := range []int{10000, 1000000, 10000000} {
		sweep(b, "pass", n, &cpu.PassBlock, []int{1024, 4096, 8192, 16384, 32768, 65536, 131072}, poly4)
	}
	for _, n := range []int{100000, 400000} {
		sweep(b, "regs", n, &cpu.BlockSize, []int{128, 256, 512, 1024}, twoPass)
	}
	for _, n := range []int{1000000, 10000000} {
		sweep(b, "stream", n, cpu.StreamBlockFor(), []int{64, 128, 256, 512, 1024}, twoPass)
	}
}

// BenchmarkThreshold compares the serial and the parallel path at sizes
// around the threshold, for a cheap tree (poly4) and an expensive one
// (tanh). Run with -cpu 2: the size from which parallel wins is
// cpu.ParallelThreshold.
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
					withConfig(cpu.BlockSize, mode.threshold, 0, func() {
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
// tile heights (cpu.TileRows) and tiled block lengths (cpu.TileBlock), beside the
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
				oldRows, oldBlock := cpu.TileRows, cpu.TileBlock
				cpu.TileRows, cpu.TileBlock = rows, size
				defer func() { cpu.TileRows, cpu.TileBlock = oldRows, oldBlock }()
				run(b, expr.Add(a.T(), c))
			})
		}
	}
}

// BenchmarkBandBytes measures softmax and layer norm over 4096×1000
// float32 with bands of rows spanning 8 KiB to 256 KiB of a row's operand
// (cpu.BandBytes), and with banding off: the band length's measurement.
func BenchmarkBandBytes(b *testing.B) {
	x := tensor.Randn[float32](1, 4096, 1000)
	dst := tensor.Zeros[float32](4096, 1000)
	mean := expr.Mean[float32](x, expr.Axis(1), expr.KeepDims())
	norm := expr.Div(expr.Sub[float32](x, mean), expr.Sqrt(expr.AddScalar(expr.Var[float32](x, expr.Axis(1), expr.KeepDims()), 1e-5)))
	for _, c := range []struct {
		name string
		e    expr.Exp[float32]
	}{{"softmax", expr.Softmax[float32](x, 1)}, {"layernorm", norm}} {
		for _, size := range []int{0, 8 << 10, 32 << 10, 128 << 10, 256 << 10} {
			name := fmt.Sprintf("%s/bytes=%d", c.name, size)
			if size == 0 {
				name = c.name + "/off"
			}
			b.Run(name, func(b *testing.B) {
				old := cpu.BandBytes
				defer func() { cpu.BandBytes = old; cpu.BandOff.Store(false) }()
				cpu.BandBytes = max(size, 1)
				cpu.BandOff.Store(size == 0)
				for b.Loop() {
					if err := Assign(dst, c.e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
