package kernels

import (
	"errors"
	"slices"
	"testing"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestAllocationFailuresAreErrors checks that an evaluation whose result or
// temporaries cannot be allocated (over the default allocator's limit)
// returns a MemoryError naming the shape, never panics, and leaves the
// destination as it was.
func TestAllocationFailuresAreErrors(t *testing.T) {
	c := alloc.Default()
	defer c.SetLimit(c.Limit())
	// 1 MiB more than is in use once earlier tests' unreachable tensors are
	// given back: the 8 MiB result below can never fit, whatever they held.
	c.SetLimit(settle() + 1<<20)

	x := tensor.Arange[float64](0, 1024, 1)
	col, _ := x.View(1024, 1)
	row, _ := x.View(1, 1024)
	outer := expr.Mul(col, row) // 1024×1024 float64: 8 MiB
	small := tensor.Zeros[float64](4)
	before := slices.Clone(small.Data())
	tests := []struct {
		name string
		run  func() error
	}{
		{"Eval of a result over the limit", func() error { _, err := Eval[float64](outer); return err }},
		{"a reduction's operand tree is never materialised, but a product's is", func() error {
			return Assign(small, expr.Sum(expr.MatMul(expr.Add[float64](outer, expr.Scalar(1.0)), tensor.Ones[float64](1024, 4)), expr.Axis(0)))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			var me *shape.MemoryError
			if !errors.As(err, &me) || !errors.Is(err, shape.ErrMemory) {
				t.Fatalf("error %v, want a MemoryError", err)
			}
			if !slices.Equal(before, small.Data()) {
				t.Errorf("destination changed: %v", small.Data())
			}
		})
	}
	c.SetLimit(0)
	if _, err := Eval[float64](outer); err != nil {
		t.Errorf("without a limit: %v", err)
	}
}
