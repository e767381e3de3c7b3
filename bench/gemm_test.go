package bench

import (
	"fmt"
	"slices"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkGemm measures laze's product (kernels.Assign of a@b) against
// gonum's Gemm called directly on the same data, n × n × n at n = 256 to
// 2048: BenchmarkGemm/<dtype>/<n>/laze is the product at the level the
// build selects (isa.Selected: the best this CPU runs, unless LAZE_CPU
// lowers it), laze-<level> the product at each other level this CPU runs
// (generic, avx2, avx512: what LAZE_CPU=<level> gives; at generic laze
// computes products with gonum's Gemm), gonum gonum's Gemm.
// BenchmarkGemm/epilogue/<dtype>/<n>/{product,fused,twopass} is, at the
// selected level, the product alone, relu(a@b + bias) in one Assign (the
// pass run from the product's epilogue, tile by tile, where kernels/internal/gemm
// computes the product), and the same as two Assigns (the product, then a
// pass over dst). One core:
//
//	go test ./bench -run '^$' -bench 'Gemm' -cpu 1
func BenchmarkGemm(b *testing.B) {
	sizes := append(slices.Clone(matmulSizes), 2048)
	for _, n := range sizes {
		benchLevels[float64](b, n, gemm64)
	}
	for _, n := range sizes {
		benchLevels[float32](b, n, gemm32)
	}
	for _, n := range matmulSizes {
		benchEpilogue[float64](b, n)
	}
	for _, n := range matmulSizes {
		benchEpilogue[float32](b, n)
	}
}

// benchLevels is benchProduct (laze at the selected level, and gonum) and
// laze at each other level this CPU runs, as laze-<level>.
func benchLevels[T float32 | float64](b *testing.B, n int, gemm func(c, a, x []T, n int)) {
	benchProduct[T](b, n, gemm)
	a, x, c := tensor.Rand[T](1, n, n), tensor.Rand[T](2, n, n), tensor.New[T]([]int{n, n})
	e := expr.MatMul[T](a, x)
	selected := isa.Selected()
	for _, l := range isa.Supported() {
		if l == selected {
			continue
		}
		b.Run(fmt.Sprintf("%s/%d/laze-%v", tensor.DTypeOf[T]().String(), n, l), func(b *testing.B) {
			prev, err := isa.Use(l)
			if err != nil {
				b.Fatal(err)
			}
			defer isa.Use(prev)
			runProduct(b, n, func() {
				if err := kernels.Assign(c, e); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

func benchEpilogue[T float32 | float64](b *testing.B, n int) {
	a, x, bias, c := tensor.Rand[T](1, n, n), tensor.Rand[T](2, n, n), tensor.Rand[T](3, n), tensor.New[T]([]int{n, n})
	product := expr.MatMul[T](a, x)
	fused := expr.ReLU(expr.Add(expr.MatMul[T](a, x), expr.Of[T](bias)))
	pass := expr.ReLU(expr.Add(expr.Of[T](c), expr.Of[T](bias)))
	assign := func(b *testing.B, e expr.Exp[T]) {
		if err := kernels.Assign(c, e); err != nil {
			b.Fatal(err)
		}
	}
	name := fmt.Sprintf("epilogue/%s/%d/", tensor.DTypeOf[T]().String(), n)
	b.Run(name+"product", func(b *testing.B) { runProduct(b, n, func() { assign(b, product) }) })
	b.Run(name+"fused", func(b *testing.B) { runProduct(b, n, func() { assign(b, fused) }) })
	b.Run(name+"twopass", func(b *testing.B) { runProduct(b, n, func() { assign(b, product); assign(b, pass) }) })
}
