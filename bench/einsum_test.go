package bench

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// einsumSizes are the sizes of BenchmarkEinsum's n × n × n products.
var einsumSizes = []int{256, 512}

// BenchmarkEinsum measures expr.Einsum("ij,jk->ik", a, b) against the
// plain MatMul it lowers to, in float64 (issue 32's target: within 5%):
// BenchmarkEinsum/float64/<n>/einsum assigns the einsum tree built once,
// einsum-build calls Einsum in every iteration (parsing and planning
// included, as a caller that builds the tree each time pays), matmul
// assigns expr.MatMul(a, b). bench/peers/einsum.py prints
// BenchmarkEinsum/float64/<n>/{numpy-einsum,numpy-matmul} for np.einsum
// and np.matmul on the same sizes. One core:
//
//	go test ./bench -run '^$' -bench Einsum -cpu 1 -count 5
//	OPENBLAS_NUM_THREADS=1 python3 bench/peers/einsum.py
func BenchmarkEinsum(b *testing.B) {
	for _, n := range einsumSizes {
		a, x, c := tensor.Rand[float64](1, n, n), tensor.Rand[float64](2, n, n), tensor.New[float64]([]int{n, n})
		impls := []struct {
			name string
			run  func()
		}{
			{"einsum", assignTo(c, expr.Einsum[float64]("ij,jk->ik", a, x))},
			{"einsum-build", func() {
				if err := kernels.Assign(c, expr.Einsum[float64]("ij,jk->ik", a, x)); err != nil {
					panic(err)
				}
			}},
			{"matmul", assignTo(c, expr.MatMul[float64](a, x))},
		}
		for _, im := range impls {
			b.Run(fmt.Sprintf("float64/%d/%s", n, im.name), func(b *testing.B) { runProduct(b, n, im.run) })
		}
	}
}

// assignTo returns a function that assigns e to c.
func assignTo(c *tensor.Tensor[float64], e expr.Exp[float64]) func() {
	return func() {
		if err := kernels.Assign(c, e); err != nil {
			panic(err)
		}
	}
}

// TestEinsumBenchAgree checks that BenchmarkEinsum's einsum and matmul
// compute the same product, so that the figures compare equal work.
func TestEinsumBenchAgree(t *testing.T) {
	n := 64
	a, x := tensor.Rand[float64](1, n, n), tensor.Rand[float64](2, n, n)
	e, m := tensor.New[float64]([]int{n, n}), tensor.New[float64]([]int{n, n})
	assignTo(e, expr.Einsum[float64]("ij,jk->ik", a, x))()
	assignTo(m, expr.MatMul[float64](a, x))()
	if !slices.Equal(e.Data(), m.Data()) {
		t.Errorf("einsum and matmul differ")
	}
	var sum float64
	for v := range m.Values() {
		sum += math.Abs(v)
	}
	if sum == 0 {
		t.Errorf("the product is zero")
	}
}
