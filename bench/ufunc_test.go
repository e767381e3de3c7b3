package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// ufuncInput is where each benchmarked function is fed: uniform values in
// [lo, hi), inside its domain (bench/peers/ufuncs.py feeds NumPy the same).
var ufuncInput = map[ops.Op][2]float64{
	ops.Arccosh: {1, 10}, ops.Arcsin: {-1, 1}, ops.Arccos: {-1, 1}, ops.Arctanh: {-0.99, 0.99},
	ops.Log: {0.01, 100}, ops.Log2: {0.01, 100}, ops.Log10: {0.01, 100}, ops.Log1p: {-0.5, 100},
	ops.Sqrt: {0, 100}, ops.Rsqrt: {0.01, 100}, ops.Exp: {-50, 50}, ops.Exp2: {-50, 50}, ops.Expm1: {-50, 50},
	ops.Sinh: {-50, 50}, ops.Cosh: {-50, 50},
}

// ufuncOps are the float functions of one operand the table vectorises
// (those with a VMath kernel) and, for comparison, two it does not.
func ufuncOps() []ops.Op {
	var list []ops.Op
	for _, op := range ops.All() {
		if op.Def().VMath != "" && op.Arity() == 1 {
			list = append(list, op)
		}
	}
	return append(list, ops.Cbrt, ops.Erf)
}

// BenchmarkUfunc evaluates y = f(x) for each function of ufuncOps at 1e6
// elements in float64 and float32 with Assign, into a preallocated
// destination, as NumPy's np.f(x, out=y) (bench/peers/ufuncs.py). Run it
// with -cpu 1 to compare with NumPy's one thread.
func BenchmarkUfunc(b *testing.B) {
	const n = 1_000_000
	for _, op := range ufuncOps() {
		b.Run(fmt.Sprintf("%s/float64", op), func(b *testing.B) { benchUfunc[float64](b, op, n) })
		b.Run(fmt.Sprintf("%s/float32", op), func(b *testing.B) { benchUfunc[float32](b, op, n) })
	}
}

func benchUfunc[T tensor.Float](b *testing.B, op ops.Op, n int) {
	lo, hi := -10.0, 10.0
	if r, ok := ufuncInput[op]; ok {
		lo, hi = r[0], r[1]
	}
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]T, n)
	for i := range data {
		data[i] = T(lo + (hi-lo)*rng.Float64())
	}
	x, _ := tensor.FromSlice(data, []int{n})
	y := tensor.Zeros[T](n)
	e := expr.Apply[T](op, x)
	b.SetBytes(int64(2 * n * tensor.ItemSize[T]()))
	for b.Loop() {
		if err := kernels.Assign(y, e); err != nil {
			b.Fatal(err)
		}
	}
}
