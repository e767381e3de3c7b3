package bench

import (
	"fmt"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/gemm"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkGemm measures laze's product (kernels.Assign of a@b, on
// internal/gemm's packed AVX-512 kernels when built with GOEXPERIMENT=simd,
// else gonum's Gemm) against gonum's Gemm called directly on the same data:
// BenchmarkGemm/<dtype>/<n>/{laze,gonum}. BenchmarkGemm/epilogue/<dtype>/<n>/
// {product,fused,twopass} is the product alone, relu(a@b + bias) in one
// Assign (the pass run from the product's epilogue, tile by tile), and the
// same as two Assigns (the product, then a pass over dst). One core:
//
//	GOEXPERIMENT=simd go test ./bench -run '^$' -bench 'Gemm' -cpu 1
func BenchmarkGemm(b *testing.B) {
	if !gemm.Available() {
		b.Skip("laze's packed GEMM runs only in the GOEXPERIMENT=simd build on a CPU with AVX-512; BenchmarkMatMul measures the gonum path")
	}
	for _, n := range matmulSizes {
		benchProduct[float64](b, n, gemm64)
	}
	for _, n := range matmulSizes {
		benchProduct[float32](b, n, gemm32)
	}
	for _, n := range matmulSizes {
		benchEpilogue[float64](b, n)
	}
	for _, n := range matmulSizes {
		benchEpilogue[float32](b, n)
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
	name := fmt.Sprintf("epilogue/%s/%d/", tensor.DType[T](), n)
	b.Run(name+"product", func(b *testing.B) { runProduct(b, n, func() { assign(b, product) }) })
	b.Run(name+"fused", func(b *testing.B) { runProduct(b, n, func() { assign(b, fused) }) })
	b.Run(name+"twopass", func(b *testing.B) { runProduct(b, n, func() { assign(b, product); assign(b, pass) }) })
}
