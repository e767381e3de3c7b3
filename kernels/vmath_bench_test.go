//go:build !(goexperiment.simd && amd64)

package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkScalarBuildVMath times Assign of exp and tanh over 2^20
// elements at the generic level (the scalar loops) and at the CPU's best
// level (kernels/internal/vmath's kernels, where it has them): go test -run '^$'
// -bench ScalarBuildVMath -cpu 1 ./kernels. The ratio of the two is the
// vector math's gain in the default build.
func BenchmarkScalarBuildVMath(b *testing.B) {
	levels := isa.Supported()
	for _, level := range []isa.Level{isa.Generic, levels[len(levels)-1]} {
		b.Run("exp/float32/"+level.String(), func(b *testing.B) { benchVMath(b, level, expr.Exponential[float32]) })
		b.Run("tanh/float32/"+level.String(), func(b *testing.B) { benchVMath(b, level, expr.Tanh[float32]) })
		b.Run("exp/float64/"+level.String(), func(b *testing.B) { benchVMath(b, level, expr.Exponential[float64]) })
	}
}

func benchVMath[T float32 | float64](b *testing.B, level isa.Level, op func(expr.Exp[T]) expr.Exp[T]) {
	prev, err := isa.Use(level)
	if err != nil {
		b.Fatal(err)
	}
	defer isa.Use(prev)
	const n = 1 << 20
	x, d := tensor.Rand[T](1, n), tensor.Zeros[T](n)
	b.SetBytes(int64(2 * n * tensor.ItemSize[T]()))
	for b.Loop() {
		if err := Assign(d, op(expr.Of(x))); err != nil {
			b.Fatal(err)
		}
	}
}
