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
// Stream.Idle), except that a step with no device kernel (a sort) runs
// on the host at its turn, and a gather checks its indices there before
// its kernel is queued, so Assign waits for the work up to the last such
// step. Matrix products go through cuBLAS.
//
// A kernel launch is one cgo call from the calling goroutine, which makes
// the device's context current and queues the kernel; every other CUDA
// call of a device (memory, copies, synchronisation, cuBLAS) is made by one
// goroutine locked to its OS thread, which owns the context. The exported
// API is safe for concurrent use. Device.Record records a sequence of
// Assigns as a CUDA graph, replayed with one call (Graph.Launch).
//
// Compiled kernels are kept on disk, in os.UserCacheDir()/laze/cuda, so a
// new process loads them instead of compiling; LAZE_CUDA_CACHE=<dir> moves
// the cache and LAZE_CUDA_CACHE=off disables it. See docs/design.md, "The
// CUDA backend".
//
// # API
//
// go doc lists only this comment in a build without the cuda tag, so the
// exported API is summarised here (TestDocListsAPI keeps the list complete):
//
//   - Open(id) opens GPU id and returns its *Device; a missing ordinal is a
//     *DeviceNotFoundError.
//   - Device: ID, Name, Arch (compute capability), Device (its
//     alloc.Device), Allocator, DefaultStream, NewStream, Synchronize, Do
//     (run a function on the context's goroutine), Record (capture Assigns
//     as a *Graph), KernelStats (compiled, loaded from disk, launched: a
//     KernelStats) and DiskCache (the kernel cache's folder).
//   - Allocator, the device's caching allocator (alloc.Allocator): Device,
//     Alloc, Stats, EmptyCache, CopyIn, CopyOut, CopyDevice and Zero.
//   - Stream, a CUDA stream: Device, String, Wait, Idle, Defer (run a
//     function once the work queued so far is done), Recording (whether
//     Device.Record is capturing it) and Close.
//     Assign(stream, dst, e) queues an Assign on a stream and returns at
//     once.
//   - Graph, a recorded sequence of kernels: Launch, Kernels, Nodes and
//     Close. A call that cannot be recorded is a *CaptureError (errors.Is
//     ErrCapture).
//   - Errors: *DriverError (a CUDA driver call failed), *NVRTCError (the
//     generated source did not compile, with NVRTC's log), *CompileError
//     (which kernel failed to build), *DeviceNotFoundError, *CaptureError.
package cuda
