package bench

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkSort measures Sort, ArgSort and Median against NumPy's np.sort,
// np.argsort(kind="stable") and np.median (bench/peers/sort.py times the
// same cases), each into a preallocated destination, at 1e6 float64
// uniform in [0, 1). Run it with -cpu 1 for the one-core comparison.
// Each leaf is BenchmarkSort/<case>/laze, beside sort.py's
// BenchmarkSort/<case>/numpy[-stable]-<threads> (bench/report's vocabulary
// section pairs them).
//
//	sort:     y = sort(x)           (np.sort, NumPy's default quicksort)
//	argsort:  i = argsort(x)        (np.argsort(x, kind="stable"))
//	rows:     y = sort(m, axis=1)   m 1000×1000 (np.sort(m, axis=1))
//	median:   y = median(x)         (np.median)
func BenchmarkSort(b *testing.B) {
	const n, side = 1_000_000, 1000
	x := tensor.Rand[float64](1, n)
	m, _ := x.View(side, side)
	y, idx, y2, med := tensor.Zeros[float64](n), tensor.Zeros[int64](n), tensor.Zeros[float64](side, side), tensor.Zeros[float64]()
	b.Run("sort/laze", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			if err := kernels.Assign(y, expr.Sort[float64](x, 0)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("argsort/laze", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			if err := kernels.Assign(idx, expr.ArgSort[float64](x, 0)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rows/laze", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			if err := kernels.Assign(y2, expr.Sort[float64](m, 1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("median/laze", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			if err := kernels.Assign(med, expr.Median[float64](x, 0, false)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
