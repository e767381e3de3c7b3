package kernels

import (
	"strings"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// onDevice is where a device evaluation sends its work.
type onDevice struct {
	ev      *evaluation
	backend Backend
	queue   Queue
	alloc   alloc.Allocator
}

// AssignOn queues the evaluation of e into dst on q (a stream of package
// cuda) and returns without waiting for it: the result is ready once
// q.Wait returns. A step with no device kernel (a sort, a partition, a
// searchsorted, a scatter-add) runs on the host at its turn (hostrun.go),
// and a gather checks its indices there before its kernel is queued, so
// AssignOn waits for the work up to the last such step. It checks as Assign does and allocates every temporary
// and compiles every kernel (Compiler) before it queues anything, so
// every error found before then (a check, an allocation the device
// refuses, a kernel that does not compile or load) leaves dst unchanged
// and queues nothing; a launch the device refuses stops the queuing (work
// queued before it still runs), and an error met while the work runs
// comes from q.Wait (docs/design.md, Errors). The storage of dst and of
// every operand is held until the work has run, so a Release meanwhile
// takes effect only then (see tensor.Tensor.Release); operands must not be
// written by other queues until then. For CPU tensors use Assign.
func AssignOn[T tensor.Number](q Queue, dst *tensor.Tensor[T], e expr.Exp[T]) (err error) {
	defer recoverAllocation(&err)
	if q == nil {
		return &shape.ArgumentError{Op: "AssignOn", Name: "q", Value: nil, Reason: "a queue is needed"}
	}
	return assignVia("AssignOn", q, dst, e)
}

// deviceEvaluation prepares an evaluation that queues its work on q, or,
// when q is nil, on dev's default queue.
func deviceEvaluation(call string, dev alloc.Device, q Queue) (*evaluation, error) {
	b, err := backendFor(call, dev)
	if err != nil {
		return nil, err
	}
	if q == nil {
		if q, err = b.DefaultQueue(dev); err != nil {
			return nil, err
		}
	}
	a, err := alloc.For(dev)
	if err != nil {
		return nil, err
	}
	ev := newEvaluation(call)
	ev.device = &onDevice{ev: ev, backend: b, queue: q, alloc: a}
	return ev, nil
}

// compile makes the kernels a step will launch (nil ones skipped) ready
// before anything of the call is queued, when the backend is a Compiler;
// an error names the call and the node at.
func (d *onDevice) compile(at expr.Node, ks ...*Kernel) error {
	c, ok := d.backend.(Compiler)
	if !ok {
		return nil
	}
	for _, k := range ks {
		if k == nil {
			continue
		}
		if err := c.Compile(d.queue, k); err != nil {
			return atNode(d.ev.call, at, err)
		}
	}
	return nil
}

// deviceTemp allocates a temporary on the evaluation's device.
func deviceTemp[T tensor.Number](ev *evaluation, dims []int) *tensor.Tensor[T] {
	return tensor.Empty[T](dims, tensor.WithAllocator(ev.device.alloc))
}

// deviceCopy copies t into a new contiguous temporary on its device, with
// one kernel.
func deviceCopy[T tensor.Number](ev *evaluation, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	c := temp[T](ev, t, t.ShapeView(friend.K))
	return c, evaluate(ev, c, expr.Of[T](t))
}

// NVRTCOptions returns the options laze's generated CUDA source must be
// compiled with by NVRTC for architecture arch ("sm_90"): C++14, and
// --fmad=false, so that a*b + c rounds after the product and after the sum
// as on the CPU and in NumPy (NVRTC otherwise contracts it into one fused
// multiply-add, whose single rounding gives other results: 1e308*10 - Inf is
// NaN on the CPU and -Inf fused).
func NVRTCOptions(arch string) []string {
	return []string{"--gpu-architecture=compute_" + strings.TrimPrefix(arch, "sm_"), "--std=c++14", "--fmad=false"}
}

// CUDASource returns the CUDA C source of every kernel Assign(dst, e) would
// launch on a GPU, in order, each headed by a comment naming its step; a
// matrix product, which runs through cuBLAS, is a comment. It works on CPU
// tensors too (the kernels follow their layouts), so the source can be
// read, and compiled with NVRTC, on a machine without a GPU. On device
// tensors it follows the device path of Assign, as Explain does: the
// kernels are those Assign would queue, copies included, and nothing is
// launched. It checks as Assign does and writes nothing.
func CUDASource[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) (string, error) {
	return explainPlan("CUDASource", dst, e, true)
}
