//go:build cuda

package cuda_test

import (
	"fmt"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cuda"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Open a GPU, copy a tensor to it, evaluate a tree there in one kernel and
// copy the result back. This example is compiled (make cuda-check) but not
// run, because its output depends on there being a GPU.
func Example() {
	dev, err := cuda.Open(0) // context, allocator and kernel cache of alloc.CUDA(0)
	if err != nil {
		fmt.Println(err) // a *cuda.DeviceNotFoundError where there is no such GPU
		return
	}
	host := tensor.Arange[float32](0, 6, 1)
	a, err := host.To(alloc.CUDA(0)) // copy to the GPU
	if err != nil {
		fmt.Println(err)
		return
	}
	out := tensor.New[float32](host.Shape(), tensor.WithAllocator(dev.Allocator()))
	// One kernel, compiled once per structure, then cached for any size.
	if err := kernels.Assign(out, expr.Of(a).Mul(a).AddScalar(1)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out) // printing copies to the host; out.To(alloc.CPU) does it explicitly

	stream, _ := dev.NewStream()
	defer stream.Close()
	_ = cuda.Assign(stream, out, expr.Of(out).MulScalar(2)) // queued: returns at once
	_ = stream.Wait()
}
