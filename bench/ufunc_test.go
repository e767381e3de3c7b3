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

// ufuncOps are the float functions of arity operands the table vectorises
// (those with a VMath kernel).
func ufuncOps(arity int) []ops.Op {
	var list []ops.Op
	for _, op := range ops.All() {
		if op.Def().VMath != "" && op.Arity() == arity {
			list = append(list, op)
		}
	}
	return list
}

// ufunc2Input is where each benchmarked function of two operands is fed:
// uniform values, x in [lo, hi) and y in [-10, 10).
var ufunc2Input = map[ops.Op][2]float64{ops.Pow: {0.01, 10}}

// BenchmarkUfunc evaluates y = f(x) for each function of ufuncOps at 1e6
// elements in float64 and float32 with Assign, into a preallocated
// destination, as NumPy's np.f(x, out=y) (bench/peers/ufuncs.py). Run it
// with -cpu 1 to compare with NumPy's one thread.
func BenchmarkUfunc(b *testing.B) {
	const n = 1_000_000
	for _, op := range ufuncOps(1) {
		b.Run(fmt.Sprintf("%s/float64", op), func(b *testing.B) { benchUfunc[float64](b, op, n) })
		b.Run(fmt.Sprintf("%s/float32", op), func(b *testing.B) { benchUfunc[float32](b, op, n) })
	}
	for _, op := range ufuncOps(2) {
		b.Run(fmt.Sprintf("%s/float64", op), func(b *testing.B) { benchUfunc2[float64](b, op, n) })
		b.Run(fmt.Sprintf("%s/float32", op), func(b *testing.B) { benchUfunc2[float32](b, op, n) })
	}
}

// uniformIn returns n values uniform in [lo, hi) from the generator r.
func uniformIn[T tensor.Float](r *rand.Rand, n int, lo, hi float64) *tensor.Tensor[T] {
	data := make([]T, n)
	for i := range data {
		data[i] = T(lo + (hi-lo)*r.Float64())
	}
	x, _ := tensor.FromSlice(data, []int{n})
	return x
}

// benchUfunc2 is benchUfunc for a function of two operands: z = f(x, y).
func benchUfunc2[T tensor.Float](b *testing.B, op ops.Op, n int) {
	lo, hi := -10.0, 10.0
	if r, ok := ufunc2Input[op]; ok {
		lo, hi = r[0], r[1]
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := uniformIn[T](rng, n, lo, hi)
	y := uniformIn[T](rng, n, -10, 10)
	z := tensor.Zeros[T](n)
	e := expr.Apply[T](op, x, y)
	b.SetBytes(int64(3 * n * tensor.ItemSize[T]()))
	warmUp(b, z, e)
	for b.Loop() {
		if err := kernels.Assign(z, e); err != nil {
			b.Fatal(err)
		}
	}
}

// warmUp runs one Assign before the timed loop: the first builds and
// caches the plan and touches the destination, and is not what a loop of
// calls costs. NumPy's side (bench/peers/ufuncs.py) takes the best of
// seven timed repeats, which leaves its first call out as well; run the
// two alike (-test.count 7 -test.benchtime 10x against its 7 × 10).
func warmUp[T tensor.Float](b *testing.B, dst *tensor.Tensor[T], e expr.Exp[T]) {
	b.Helper()
	if err := kernels.Assign(dst, e); err != nil {
		b.Fatal(err)
	}
}

func benchUfunc[T tensor.Float](b *testing.B, op ops.Op, n int) {
	lo, hi := -10.0, 10.0
	if r, ok := ufuncInput[op]; ok {
		lo, hi = r[0], r[1]
	}
	x := uniformIn[T](rand.New(rand.NewPCG(1, 2)), n, lo, hi)
	y := tensor.Zeros[T](n)
	e := expr.Apply[T](op, x)
	b.SetBytes(int64(2 * n * tensor.ItemSize[T]()))
	warmUp(b, y, e)
	for b.Loop() {
		if err := kernels.Assign(y, e); err != nil {
			b.Fatal(err)
		}
	}
}
