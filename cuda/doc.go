// Package cuda is laze's GPU backend: tensors in CUDA device memory, and
// Assign on them compiled into one CUDA kernel per expression tree, through
// gorgonia.org/cu.
//
// Everything but this comment carries the build tag cuda, because cu's
// package initialisation ends the process on a machine without a CUDA
// driver: build with -tags cuda (make cuda-deps installs the headers and
// NVRTC), open a device, and move tensors there:
//
//	dev, err := cuda.Open(0)             // alloc.CUDA(0): context, allocator, kernel cache
//	a, _ := host.To(alloc.CUDA(0))        // copy to the GPU
//	out := tensor.New[float32](host.Shape(), tensor.WithAllocator(dev.Allocator()))
//	err = kernels.Assign(out, expr.Of(a).Mul(a).AddScalar(1)) // one kernel launch
//	back, _ := out.To(alloc.CPU)
//
// kernels.Assign on device tensors generates the CUDA C of the lowered
// program (kernels.CUDASource shows it), compiles it with NVRTC for the
// device's compute capability the first time its structure is seen, and
// launches it; later trees of the same structure (any sizes, any scalars)
// reuse the compiled kernel. Assign returns when the result is ready; Assign
// here, with a Stream, queues the work and returns at once (Stream.Wait,
// Stream.Idle). Matrix products go through cuBLAS.
//
// Every CUDA call of a device is made by one goroutine locked to its OS
// thread, which owns the device's context; the exported API is safe for
// concurrent use. See docs/design.md, "The CUDA backend".
package cuda
