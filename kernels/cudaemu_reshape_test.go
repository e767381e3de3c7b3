package kernels

import (
	"errors"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestEmulatedReshapeCopy reshapes device tensors whose strides allow no
// view (found by the CLI's comparison on a GPU, where tensor.Reshape's
// host copy read device memory): tensor.Reshape refuses with a
// DeviceError and leaves the copy to the evaluator, whose expr.Reshape
// copies with a kernel; the results match the CPU's.
func TestEmulatedReshapeCopy(t *testing.T) {
	b := emulator(t)
	r := func(k uint64, dims ...int) *tensor.Tensor[int64] { return emuTensor(emuRandom[int64](k, 100), dims...) }
	reversed := func(x *tensor.Tensor[int64]) *tensor.Tensor[int64] {
		return x.Slice(x.NDim()-1, tensor.None, tensor.None, -1)
	}
	cases := []emuCase[int64, int64]{
		{name: "reversed_flat", operands: tensors(r(1, 4, 2)), dst: []int{8},
			build: func(x []*tensor.Tensor[int64], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
				return d, expr.Reshape(expr.Of(reversed(x[0])), -1)
			}},
		{name: "reversed_product", operands: tensors(r(2, 4, 2), r(3, 4, 4), r(4, 4, 2)), dst: []int{4, 2},
			build: func(x []*tensor.Tensor[int64], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
				flat := expr.Reshape(expr.Reshape(expr.Of(reversed(x[0])), -1), 4, 2)
				return d, expr.Of(flat).Add(x[0]).Mul(expr.MatMul[int64](expr.Of(x[1]).MulScalar(3).AddScalar(1), reversed(x[2])))
			}},
		{name: "transposed_rows", operands: tensors(r(5, 3, 4)), dst: []int{2, 6},
			build: func(x []*tensor.Tensor[int64], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
				return d, expr.Reshape(expr.Of(x[0].T()), 2, 6)
			}},
	}
	for _, c := range cases {
		c.run(t, b)
	}
	dev, err := r(6, 4, 2).To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	_, err = reversed(dev).Reshape(-1)
	if de := (*shape.DeviceError)(nil); !errors.As(err, &de) {
		t.Errorf("Reshape of a reversed device tensor: %v; want a DeviceError", err)
	}
	if v, err := dev.Reshape(2, 4); err != nil || v.Device() != emuDevice {
		t.Errorf("Reshape of a contiguous device tensor: %v on %v; want a view on %v", err, v.Device(), emuDevice)
	}
}
