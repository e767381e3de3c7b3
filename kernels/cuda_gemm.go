package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
)

// The generated matrix product runs the products cuBLAS does not: every
// element type but float32 and float64. It is a classic tiled kernel: each
// block of GemmTile² threads computes a GemmTile×GemmTile tile of C,
// walking K a tile at a time through shared memory. Integers multiply and
// accumulate in the element type with wrap-around, as NumPy's integer
// matmul does (int32 @ int32 accumulates in int32); the arithmetic is done
// in the unsigned type of the same width (or unsigned int for narrower
// types), whose wrap-around C++ defines, and converted back.

// gemmKernel returns the launch of the tiled product for dtype, without
// parameters.
func gemmKernel(dtype tensor.DType) *Kernel {
	s := cudasrc.GemmSpec(dtype)
	key := s.Key()
	return &Kernel{Name: cudasrc.KernelName(key), Key: key, spec: s, Threads: cudasrc.GemmTile * cudasrc.GemmTile}
}

// gemmLaunch returns the launch of the tiled product of geometry g for
// dtype, without parameters, or nil when the product has no elements.
func gemmLaunch(dtype tensor.DType, g expr.ProductGeometry) *Kernel {
	tiles := cudasrc.GemmLaunch(g.M, g.N)
	if tiles == 0 {
		return nil
	}
	k := gemmKernel(dtype)
	k.Work, k.Blocks = int64(g.M)*int64(g.N), tiles
	return k
}

// queueGemmKernels queues the generated product kernel once per matrix of
// the (broadcast) batch of a product of contiguous operands.
func queueGemmKernels[T tensor.Number](d *onDevice, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := memOf(c), memOf(a), memOf(b)
	if gemmLaunch(tensor.DTypeOf[T](), g) == nil {
		return nil
	}
	var err error
	ir.ForEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err != nil {
			return
		}
		k := gemmLaunch(tensor.DTypeOf[T](), g)
		k.Params = []uint64{mc.address(off[0]), ma.address(off[1]), mb.address(off[2]), uint64(g.M), uint64(g.N), uint64(g.K)}
		err = d.backend.Launch(d.queue, k)
	})
	return err
}
