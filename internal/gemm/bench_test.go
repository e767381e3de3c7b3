package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkGemm compares Gemm with gonum's pure-Go Gemm on n × n × n
// products (run with -cpu 1 for the one-core figures), and measures the
// epilogue: the product followed, tile by tile, by a bias add and a relu.
//
//	GOEXPERIMENT=simd go test ./internal/gemm -run '^$' -bench Gemm -cpu 1
func BenchmarkGemm(b *testing.B) {
	benchGemm[float64](b, "float64", func(n int, a, x, c []float64) {
		gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n)
	})
	benchGemm[float32](b, "float32", func(n int, a, x, c []float32) {
		gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, x, n, 0, c, n)
	})
}

func benchGemm[T Float](b *testing.B, dtype string, ref func(n int, a, x, c []T)) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{256, 512, 1024} {
		a, x, c, bias := make([]T, n*n), make([]T, n*n), make([]T, n*n), make([]T, n)
		for i := range a {
			a[i], x[i] = T(rng.Float64()-0.5), T(rng.Float64()-0.5)
		}
		for i := range bias {
			bias[i] = T(rng.Float64() - 0.5)
		}
		flops := func(b *testing.B) {
			b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		// relu(c + bias), bias broadcast along the rows.
		biasRelu := func(i0, j0, rows, cols int) {
			bs := bias[j0 : j0+cols]
			for i := i0; i < i0+rows; i++ {
				row := c[i*n+j0 : i*n+j0+cols]
				for j, v := range row {
					row[j] = max(v+bs[j], 0)
				}
			}
		}
		b.Run(fmt.Sprintf("%s/%d/laze", dtype, n), func(b *testing.B) {
			for b.Loop() {
				Gemm(false, false, n, n, n, a, n, x, n, c, n, nil)
			}
			flops(b)
		})
		b.Run(fmt.Sprintf("%s/%d/gonum", dtype, n), func(b *testing.B) {
			for b.Loop() {
				ref(n, a, x, c)
			}
			flops(b)
		})
		b.Run(fmt.Sprintf("%s/%d/laze+epilogue", dtype, n), func(b *testing.B) {
			for b.Loop() {
				Gemm(false, false, n, n, n, a, n, x, n, c, n, biasRelu)
			}
			flops(b)
		})
		b.Run(fmt.Sprintf("%s/%d/laze+pass", dtype, n), func(b *testing.B) {
			for b.Loop() {
				Gemm(false, false, n, n, n, a, n, x, n, c, n, nil)
				biasRelu(0, 0, n, n)
			}
			flops(b)
		})
	}
}
