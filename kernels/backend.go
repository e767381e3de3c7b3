package kernels

import (
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/kernels/internal/device"
)

// Backend evaluates on one kind of device: it launches the kernels the
// device executor (kernels/internal/device) generates and runs matrix
// products. Package cuda registers the CUDA backend (build tag cuda); in a
// build without one, Assign on device tensors returns a DeviceError.
// Implementations are safe for concurrent use.
type Backend = device.Backend

// Compiler is a Backend that can make a kernel ready to launch (compiled
// and loaded) without queuing it; see device.Compiler.
type Compiler = device.Compiler

// Queue is an ordered queue of device work (a CUDA stream): work runs in
// the order it was queued.
type Queue = device.Queue

// Kernel is one launch of a generated CUDA kernel: which kernel (Name, Key,
// Source) and with what (Work, Params).
type Kernel = device.Kernel

// Gemm is one row-major matrix product on a device: C (M×N) = A (M×K) ·
// B (K×N), each matrix contiguous.
type Gemm = device.Gemm

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = device.ReduceThreads

// RegisterBackend makes b the evaluator of every device of the given
// kind; RegisterBackend(kind, nil) removes the kind's backend.
func RegisterBackend(kind alloc.Kind, b Backend) { device.Register(kind, b) }

// backendFor returns the backend for dev, or a DeviceError naming it.
func backendFor(call string, dev alloc.Device) (Backend, error) {
	b, ok := device.For(dev)
	if !ok {
		return nil, noBackend(call, dev)
	}
	return b, nil
}
