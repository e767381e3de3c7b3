package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
)

// contiguousOn returns t, or a contiguous copy of it on the device.
func contiguousOn[T tensor.Number](d *onDevice, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	if t.IsContiguous() {
		return t, nil
	}
	return deviceCopy(d.ev, t)
}

// queueGemms queues one Gemm per matrix of the (broadcast) batch of a
// product of contiguous operands.
func queueGemms[T tensor.Number](d *onDevice, dtype tensor.DType, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := memOf(c), memOf(a), memOf(b)
	var err error
	ir.ForEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err == nil {
			err = d.backend.Gemm(d.queue, Gemm{DType: dtype, M: g.M, N: g.N, K: g.K,
				A: ma.address(off[1]), B: mb.address(off[2]), C: mc.address(off[0])})
		}
	})
	return err
}
