package kernels

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestForeignNodesOfEveryOperandType casts a tensor of each element type
// into a float64 tree and takes its argmax into an int64 tree: foreignAt
// must map every dtype to its Go type (a wrong one reads nothing and the
// lowering fails; a missing one fails the same way).
func TestForeignNodesOfEveryOperandType(t *testing.T) {
	check := func(name string, cast func() (*tensor.Tensor[float64], error), arg func() (*tensor.Tensor[int64], error)) {
		t.Run(name, func(t *testing.T) {
			got, err := cast()
			if err != nil {
				t.Fatalf("cast: %v", err)
			}
			if diff := cmp.Diff([]float64{3, 1, 4, 1, 5, 9, 2, 6}, got.Data()); diff != "" {
				t.Errorf("cast (-want +got):\n%s", diff)
			}
			idx, err := arg()
			if err != nil {
				t.Fatalf("argmax: %v", err)
			}
			if idx.Item() != 5 {
				t.Errorf("argmax = %d, want 5", idx.Item())
			}
		})
	}
	foreignCase[float32](check)
	foreignCase[float64](check)
	foreignCase[int8](check)
	foreignCase[int16](check)
	foreignCase[int32](check)
	foreignCase[int64](check)
	foreignCase[int](check)
	foreignCase[uint8](check)
	foreignCase[uint16](check)
	foreignCase[uint32](check)
	foreignCase[uint64](check)
	foreignCase[uint](check)
	foreignCase[uintptr](check)
}

func foreignCase[S tensor.Number](check func(string, func() (*tensor.Tensor[float64], error), func() (*tensor.Tensor[int64], error))) {
	x, err := tensor.FromSlice([]S{3, 1, 4, 1, 5, 9, 2, 6}, shape.Shape{8})
	if err != nil {
		panic(err)
	}
	check(tensor.DTypeOf[S]().String(),
		func() (*tensor.Tensor[float64], error) {
			return Eval(expr.Of(expr.Cast[float64, S](x)).MulScalar(1))
		},
		func() (*tensor.Tensor[int64], error) { return Eval(expr.Of(expr.ArgMax[S](x)).AddScalar(0)) })
}
