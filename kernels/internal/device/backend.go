package device

import (
	"sync"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/tensor"
)

// Backend evaluates on one kind of device: it launches the kernels this
// package generates and runs matrix products. Package cuda registers the
// CUDA backend (build tag cuda); in a build without one, Assign on device
// tensors returns a DeviceError. Implementations are safe for concurrent
// use.
type Backend interface {
	// DefaultQueue returns the queue Assign uses on dev.
	DefaultQueue(dev alloc.Device) (Queue, error)
	// Launch queues one kernel on q.
	Launch(q Queue, k *Kernel) error
	// Gemm queues one matrix product on q.
	Gemm(q Queue, g Gemm) error
}

// Compiler is a Backend that can make a kernel ready to launch (compiled
// and loaded) without queuing it. The evaluator calls Compile for every
// kernel a call launches before it queues the first, so that a kernel the
// backend cannot compile or load fails the call with nothing queued; a
// backend that is not a Compiler compiles in Launch, and such a failure
// may then come after earlier work of the call was queued. Compile and
// Launch share one cache: a kernel Compile made ready is not compiled
// again.
type Compiler interface {
	// Compile makes k ready to launch on q. It queues nothing.
	Compile(q Queue, k *Kernel) error
}

// Queue is an ordered queue of device work (a CUDA stream): work runs in
// the order it was queued.
type Queue interface {
	// Device returns the device the queue runs on.
	Device() alloc.Device
	// Wait blocks until every piece of work queued so far is done and
	// returns the first error it met.
	Wait() error
	// Defer arranges for f to run once every piece of work queued so far is
	// done: the evaluator gives its temporaries back then.
	Defer(f func())
}

// Kernel is one launch of a generated CUDA kernel: which kernel (Name, Key,
// Source) and with what (Work, Params).
type Kernel struct {
	// Name is "laze_" and 16 hex digits: the hash of Key.
	Name string
	// Key is the structure the source is generated from; kernels with
	// equal keys have equal sources, so a backend caches compiled kernels
	// by it.
	Key string
	// Reduction says how to launch: a reduction runs one block of
	// ReduceThreads threads per result element (grid-stride over them);
	// other kernels one thread per element, grid-stride.
	Reduction bool
	// Work is the number of elements (the number of result elements, for a
	// reduction). The kernel is not launched when it is 0.
	Work int64
	// Threads is the block size the source assumes (its shared memory and
	// warp shuffles are laid out for it).
	Threads int
	// Blocks is the number of blocks that give each unit of the kernel's
	// work (elements or vectors, results, slices of results, tiles) a block
	// of its own. Every kernel loops grid-stride over its units, so the
	// backend may launch fewer (at least one); results do not depend on it.
	Blocks int64
	// Params are the kernel's parameters in order, 8 bytes each: device
	// addresses, int64 and the bits of float64 (or of uint64/int64 for
	// integer scalars).
	Params []uint64

	spec *cudasrc.Spec
}

// Source returns the kernel's CUDA C source.
func (k *Kernel) Source() string { return k.spec.Source(k.Name) }

// Gemm is one row-major matrix product on a device: C (M×N) = A (M×K) ·
// B (K×N), each matrix contiguous (leading dimensions K, N and N). DType is
// tensor.Float32 or tensor.Float64. A, B and C are device addresses.
type Gemm struct {
	DType   tensor.DType
	M, N, K int
	A, B, C uint64
}

var backends struct {
	mu sync.RWMutex
	by map[alloc.Kind]Backend
}

// Register makes b the evaluator of every device of the given kind; a nil
// b removes the kind's backend.
func Register(kind alloc.Kind, b Backend) {
	backends.mu.Lock()
	defer backends.mu.Unlock()
	if b == nil {
		delete(backends.by, kind)
		return
	}
	if backends.by == nil {
		backends.by = map[alloc.Kind]Backend{}
	}
	backends.by[kind] = b
}

// For returns the backend registered for dev's kind, and false when there
// is none.
func For(dev alloc.Device) (Backend, bool) {
	backends.mu.RLock()
	defer backends.mu.RUnlock()
	b, ok := backends.by[dev.Kind()]
	return b, ok
}
