package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/tensor"
)

// launch queues the product on the device: one Gemm (cuBLAS, for float32
// and float64) or one generated tiled kernel (every other element type,
// cuda_gemm.go) per matrix of the batch, over contiguous copies of operands
// that are not contiguous and into a contiguous temporary when c is not.
func (s *productStep[T]) launch(d *onDevice) error {
	dtype := tensor.DType[T]()
	a, err := contiguousOn(d, s.a)
	if err != nil {
		return err
	}
	b, err := contiguousOn(d, s.b)
	if err != nil {
		return err
	}
	c := s.c
	if !c.IsContiguous() {
		c = temp[T](d.ev, s.c.ShapeView(friend.K))
	}
	g, _ := expr.ProductShape(a.ShapeView(friend.K), b.ShapeView(friend.K))
	if g.K == 0 {
		return evaluate(d.ev, s.c, expr.Of[T](expr.Scalar(T(0))))
	}
	queue := func() error { return queueGemms(d, dtype, g, c, a, b) }
	if !tensor.IsFloat[T]() {
		queue = func() error { return queueGemmKernels(d, g, c, a, b) }
	}
	if err := queue(); err != nil {
		return err
	}
	if c != s.c {
		return evaluate(d.ev, s.c, expr.Of[T](c))
	}
	return nil
}

// contiguousOn returns t, or a contiguous copy of it on the device.
func contiguousOn[T tensor.Number](d *onDevice, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	if t.IsContiguous() {
		return t, nil
	}
	return deviceCopy(d.ev, t)
}

// queueGemms queues one Gemm per matrix of the (broadcast) batch of a
// product of contiguous operands.
func queueGemms[T tensor.Number](d *onDevice, dtype string, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := memOf(c), memOf(a), memOf(b)
	var err error
	forEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err == nil {
			err = d.backend.Gemm(d.queue, Gemm{DType: dtype, M: g.M, N: g.N, K: g.K,
				A: ma.address(off[1]), B: mb.address(off[2]), C: mc.address(off[0])})
		}
	})
	return err
}
