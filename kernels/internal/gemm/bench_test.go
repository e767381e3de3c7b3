package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/laze-go/laze/internal/isa"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkGemm compares Gemm at each level this CPU runs
// (BenchmarkGemm/<dtype>/<n>/<level>: generic, avx2, avx512, neon) with
// gonum's pure-Go Gemm (…/gonum) on n × n × n products, and measures the
// epilogue at the level selected (isa.Selected, which LAZE_CPU sets): the
// product followed, tile by tile, by a bias add and a relu (…/epilogue),
// against the product and then that pass over C (…/pass). One core:
//
//	go test ./kernels/internal/gemm -run '^$' -bench Gemm -cpu 1
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
	for _, n := range []int{256, 512, 1024, 2048} {
		a, x, c, bias := make([]T, n*n), make([]T, n*n), make([]T, n*n), make([]T, n)
		for i := range a {
			a[i], x[i] = T(rng.Float64()-0.5), T(rng.Float64()-0.5)
		}
		for i := range bias {
			bias[i] = T(rng.Float64() - 0.5)
		}
		flops := func(b *testing.B) func() {
			return reportFlops(b, 2*float64(n)*float64(n)*float64(n))
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
		for _, l := range isa.Supported() {
			b.Run(fmt.Sprintf("%s/%d/%v", dtype, n, l), func(b *testing.B) {
				prev, err := isa.Use(l)
				if err != nil {
					b.Fatal(err)
				}
				defer isa.Use(prev)
				defer flops(b)()
				for b.Loop() {
					Gemm(false, false, n, n, n, a, n, x, n, c, n, nil)
				}
			})
		}
		b.Run(fmt.Sprintf("%s/%d/gonum", dtype, n), func(b *testing.B) {
			defer flops(b)()
			for b.Loop() {
				ref(n, a, x, c)
			}
		})
		b.Run(fmt.Sprintf("%s/%d/epilogue", dtype, n), func(b *testing.B) {
			defer flops(b)()
			for b.Loop() {
				Gemm(false, false, n, n, n, a, n, x, n, c, n, biasRelu)
			}
		})
		b.Run(fmt.Sprintf("%s/%d/pass", dtype, n), func(b *testing.B) {
			defer flops(b)()
			for b.Loop() {
				Gemm(false, false, n, n, n, a, n, x, n, c, n, nil)
				biasRelu(0, 0, n, n)
			}
		})
	}
}

// BenchmarkKernel measures each level's micro-kernels alone: one tile, kc
// = 256 steps, the panels in L1 (the ceiling the driver can reach).
func BenchmarkKernel(b *testing.B) {
	for _, l := range isa.Supported() {
		r := kernelsAt(l)
		b.Run(fmt.Sprintf("float64/%v", l), func(b *testing.B) { benchKernel(b, r.k64) })
		b.Run(fmt.Sprintf("float32/%v", l), func(b *testing.B) { benchKernel(b, r.k32) })
	}
}

func benchKernel[T Float](b *testing.B, kern kernel[T]) {
	const k = 256
	a, x, c := make([]T, k*kern.mr), make([]T, k*kern.nr), make([]T, kern.mr*kern.nr)
	for i := range a {
		a[i] = 1
	}
	for i := range x {
		x[i] = 1
	}
	pa, px, pc := unsafe.Pointer(&a[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&c[0])
	defer reportFlops(b, 2*float64(k*kern.mr*kern.nr))()
	for b.Loop() {
		kern.fn(k, pa, px, pc, kern.nr, false)
	}
}

// reportFlops starts counting the benchmark's CPU time; the function it
// returns, called after the loop, reports GFLOP/s for flops per iteration
// by wall time and, where this platform reads it, by the process's CPU
// time (cpu-GFLOP/s: on a busy machine, the speed while the benchmark had a
// core, which is what to compare across runs there; it counts every
// goroutine's time, so on several cores it is the rate per core).
func reportFlops(b *testing.B, flops float64) func() {
	cpu0, ok := cpuSeconds()
	return func() {
		total := flops * float64(b.N) / 1e9
		b.ReportMetric(total/b.Elapsed().Seconds(), "GFLOP/s")
		if cpu1, ok1 := cpuSeconds(); ok && ok1 && cpu1 > cpu0 {
			b.ReportMetric(total/(cpu1-cpu0), "cpu-GFLOP/s")
		}
	}
}
