package bench

import (
	"fmt"
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

var matmulSizes = []int{256, 512, 1024}

// BenchmarkMatMul measures laze's product against gonum's Gemm called
// directly on the same data (BenchmarkMatMul/<dtype>/<n>/{laze,gonum}), and
// the fused relu(a@b + bias) against the product followed by a separate
// elementwise pass (BenchmarkMatMul/fused/<n>/{laze,separate}). The
// GFLOP/s column counts 2n³ per product.
func BenchmarkMatMul(b *testing.B) {
	for _, n := range matmulSizes {
		benchProduct[float64](b, n, gemm64)
	}
	for _, n := range matmulSizes {
		benchProduct[float32](b, n, gemm32)
	}
	for _, n := range matmulSizes {
		f := prepareFused(n)
		for _, im := range f.impls {
			b.Run(fmt.Sprintf("fused/%d/%s", n, im.name), func(b *testing.B) { runProduct(b, n, im.run) })
		}
	}
}

func benchProduct[T float32 | float64](b *testing.B, n int, gemm func(c, a, x []T, n int)) {
	a, x, c := tensor.Rand[T](1, n, n), tensor.Rand[T](2, n, n), tensor.New[T]([]int{n, n})
	e := expr.MatMul[T](a, x)
	name := fmt.Sprintf("%s/%d/", tensor.DTypeOf[T]().String(), n)
	b.Run(name+"laze", func(b *testing.B) {
		runProduct(b, n, func() {
			if err := kernels.Assign(c, e); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run(name+"gonum", func(b *testing.B) { runProduct(b, n, func() { gemm(c.Data(), a.Data(), x.Data(), n) }) })
}

func runProduct(b *testing.B, n int, run func()) {
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	b.ReportMetric(2*math.Pow(float64(n), 3)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func gemm64(c, a, x []float64, n int) {
	g := func(d []float64) blas64.General { return blas64.General{Rows: n, Cols: n, Stride: n, Data: d} }
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, g(a), g(x), 0, g(c))
}

func gemm32(c, a, x []float32, n int) {
	g := func(d []float32) blas32.General { return blas32.General{Rows: n, Cols: n, Stride: n, Data: d} }
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, g(a), g(x), 0, g(c))
}

// prepareFused makes relu(a@b + bias) at size n: laze's one Assign, and the
// product into c followed by a second pass over c.
func prepareFused(n int) prepared {
	in := inputs(2, n, n)
	bias := tensor.Rand[float64](3, n)
	c := tensor.New[float64]([]int{n, n})
	e := expr.ReLU(expr.Add(expr.MatMul[float64](in[0], in[1]), expr.Of[float64](bias)))
	return prepared{n: n, result: asFloat64(c), impls: []impl{
		{"laze", func() {
			if err := kernels.Assign(c, e); err != nil {
				panic(err)
			}
		}},
		{"separate", func() {
			gemm64(c.Data(), in[0].Data(), in[1].Data(), n)
			d, bv := c.Data(), bias.Data()
			for i := range n {
				row := d[i*n : (i+1)*n]
				for j, v := range row {
					row[j] = max(v+bv[j], 0)
				}
			}
		}},
	}}
}

// TestProductImplementationsAgree checks that the fused benchmark's two
// implementations compute the same values.
func TestProductImplementationsAgree(t *testing.T) {
	f := prepareFused(64)
	checkAgree(t, "fused", f.impls, f.result)
}

// checkAgree runs each implementation once and compares its result with the
// first's, within rounding (they may add in different orders).
func checkAgree(t *testing.T, name string, impls []impl, result func() []float64) {
	t.Helper()
	var results [][]float64
	for _, im := range impls {
		im.run()
		results = append(results, result())
	}
	for k, got := range results[1:] {
		for i, v := range results[0] {
			if math.Abs(v-got[i]) > 1e-9*math.Max(1, math.Abs(v)) {
				t.Fatalf("%s: element %d: %s %v, %s %v", name, i, impls[0].name, v, impls[k+1].name, got[i])
			}
		}
	}
}
