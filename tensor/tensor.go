package tensor

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// Tensor is a strided n-dimensional array of T over shared storage. The zero
// value is not usable; make tensors with the constructors (Zeros, FromSlice,
// Arange, …) and views of them.
//
// Go assignment of a *Tensor shares it, as Paddle's ShareData; Clone copies
// the elements. A Tensor may be read from several goroutines at once; writes
// to overlapping elements must be synchronised by the caller, as with a Go
// slice.
type Tensor[T Number] struct {
	st      *storage[T]
	offset  int
	shape   shape.Shape
	strides []int
	// inline holds shape and strides for tensors of rank ≤ 4, so that a view
	// costs one allocation.
	inline [8]int
}

// storage is the memory that tensors share. data, mem and device never
// change once made; released is read without a lock, and the rest of the
// life cycle (evaluations holding the storage, the block given back) is
// guarded by mu.
type storage[T Number] struct {
	data     []T               // the elements on the host; nil on a device
	mem      *alloc.Allocation // nil when data wraps a user slice
	device   alloc.Device
	cleanup  runtime.Cleanup
	released atomic.Bool // set by Release before it sets releasedBit in state

	// state is the number of evaluations holding the storage (Hold), with
	// releasedBit set by Release: one word, so that Hold and Drop are one
	// atomic operation each (an Assign holds every tensor it reads). The
	// block goes back to its allocator on the one change that leaves it
	// at releasedBit alone: released with no holder.
	state atomic.Int64
}

// releasedBit marks a storage's state as released.
const releasedBit = 1 << 62

// header returns a tensor over st of rank ndim with uninitialised shape and
// strides.
func header[T Number](st *storage[T], offset, ndim int) *Tensor[T] {
	t := &Tensor[T]{st: st, offset: offset}
	t.allocGeometry(ndim)
	return t
}

// allocGeometry points t's shape and strides at room for ndim dimensions,
// inside t itself when they fit.
func (t *Tensor[T]) allocGeometry(ndim int) {
	buf := t.inline[:]
	if 2*ndim > len(buf) {
		buf = make([]int, 2*ndim)
	}
	t.shape = shape.Shape(buf[:ndim:ndim])
	t.strides = buf[ndim : 2*ndim : 2*ndim]
}

// setGeometry replaces t's shape and strides with copies of s and strides.
func (t *Tensor[T]) setGeometry(s shape.Shape, strides []int) {
	t.allocGeometry(len(s))
	copy(t.shape, s)
	copy(t.strides, strides)
}

// view returns a tensor over t's storage with the given geometry, which the
// caller has checked.
func (t *Tensor[T]) view(offset int, s shape.Shape, strides []int) *Tensor[T] {
	v := &Tensor[T]{st: t.st, offset: offset}
	v.setGeometry(s, strides)
	return v
}

// newStorage allocates n elements, the element count of shape s, from a and
// arranges for the block to go back to a when no tensor refers to it any
// more. When a cannot serve the request it panics with a *shape.MemoryError
// (or an OverflowError) naming op, the shape and the dtype, by the panic rule
// (constructors return no error; Make does).
//
// A device allocator (one whose Device is not the CPU) gives device storage:
// no host slice, only the block's address, which the device's evaluator
// uses; such an allocator must implement alloc.DeviceAllocator.
func newStorage[T Number](a alloc.Allocator, s shape.Shape, n int, op string) *storage[T] {
	dev := a.Device()
	if _, ok := a.(alloc.DeviceAllocator); !dev.IsCPU() && !ok {
		panic(&shape.DeviceError{Op: op, Devices: []fmt.Stringer{dev},
			Reason: fmt.Sprintf("the allocator %T cannot copy to and from the host (alloc.DeviceAllocator)", a)})
	}
	nbytes, ok := mulNonNeg(n, ItemSize[T]())
	if !ok {
		panic(&shape.OverflowError{Op: op, Shape: s.Clone(), What: "byte count", DType: DTypeOf[T]().String()})
	}
	if n == 0 && dev.IsCPU() {
		return &storage[T]{data: []T{}, device: alloc.CPU}
	}
	mem, err := a.Alloc(nbytes)
	if err != nil {
		panic(allocError[T](op, s, nbytes, err))
	}
	st := &storage[T]{mem: mem, device: dev}
	if dev.IsCPU() {
		bytes := mem.Bytes()
		st.data = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(bytes))), n)
	}
	st.cleanup = runtime.AddCleanup(st, releaseUnreachable, mem)
	return st
}

// releaseUnreachable gives a block back once no tensor refers to its storage.
func releaseUnreachable(mem *alloc.Allocation) { _ = mem.Release() }

// wrapStorage shares a user's slice without copying. It is never recycled.
func wrapStorage[T Number](data []T) *storage[T] {
	if data == nil {
		data = []T{}
	}
	return &storage[T]{data: data, device: alloc.CPU}
}

// Release gives the tensor's storage back to its allocator now, rather than
// when the garbage collector finds it unreachable. It ends the storage for
// every view that shares it: any later element access through any of them
// panics with a ReleaseError. A second Release returns a ReleaseError.
//
// Release may be called while an evaluation (kernels.Assign, Eval, CopyFrom,
// Clone, To…) in another goroutine is using the storage: the storage ends at
// once for new accesses, and the block goes back to the allocator when the
// last such evaluation returns, so memory is never reused while it is read
// or written. Element access (At, Set, a slice from Data) racing with
// Release is the caller's data race, as reading a file another goroutine
// closes.
//
// Storage whose elements were handed out with Data or Storage is not reused
// (a slice may still point into it); it is left to the garbage collector.
// Releasing a tensor made by Wrap only detaches it from the caller's slice.
func (t *Tensor[T]) Release() error {
	if t == nil {
		return nilTensor[T]("Tensor.Release", "tensor")
	}
	st := t.st
	// The flag element access reads is set first: once a holder's Drop can
	// give the block back, no access may find the storage live.
	st.released.Store(true)
	for {
		old := st.state.Load()
		if old&releasedBit != 0 {
			return &shape.ReleaseError{Op: "Tensor.Release", What: "the storage of this " + t.shape.String() + " tensor"}
		}
		if st.state.CompareAndSwap(old, old|releasedBit) {
			if old != 0 {
				return nil // the last holder gives the block back
			}
			return st.free()
		}
	}
}

// free gives the block back to its allocator; the state's one change to
// released with no holder calls it, so it runs once.
func (st *storage[T]) free() error {
	if st.mem == nil {
		return nil
	}
	st.cleanup.Stop()
	return st.mem.Release()
}

// hold marks the storage as in use until Drop, so that a Release in the
// meantime defers giving the block back, and returns it. It panics with a
// ReleaseError when the storage was already released.
func (st *storage[T]) hold(op string, s shape.Shape) *storage[T] {
	for {
		old := st.state.Load()
		if old&releasedBit != 0 {
			panic(&shape.ReleaseError{Op: op, What: "the storage of this " + s.String() + " tensor"})
		}
		if st.state.CompareAndSwap(old, old+1) {
			return st
		}
	}
}

// Drop ends a Hold; the last one after a Release gives the block back.
func (st *storage[T]) Drop() {
	if st.state.Add(-1) == releasedBit {
		_ = st.free()
	}
}

// elems returns the storage slice, panicking with a ReleaseError when the
// storage was released and with a DeviceError when it is device memory,
// which the host cannot read.
func (t *Tensor[T]) elems() []T {
	t.live()
	if !t.st.device.IsCPU() {
		panic(&shape.DeviceError{Op: "tensor access", Devices: []fmt.Stringer{t.st.device},
			Reason: "the elements of a device tensor are not in host memory; copy them with To(alloc.CPU)"})
	}
	return t.st.data
}

// live panics with an ArgumentError for a nil tensor and with a
// ReleaseError when the storage was released.
func (t *Tensor[T]) live() {
	t.geometry("tensor access")
	if t.st.released.Load() {
		panic(&shape.ReleaseError{Op: "tensor access", What: "the storage of this " + t.shape.String() + " tensor"})
	}
}

// Shape returns a copy of the tensor's shape.
func (t *Tensor[T]) Shape() shape.Shape { return t.geometry("Tensor.Shape").Clone() }

// Dim returns the size of dimension d; a negative d counts from the end. It
// panics with a DimensionError when d is outside [-NDim, NDim).
func (t *Tensor[T]) Dim(d int) int { return t.geometry("Tensor.Dim").Dim(d) }

// NDim returns the rank.
func (t *Tensor[T]) NDim() int { return len(t.geometry("Tensor.NDim")) }

// Numel returns the number of elements.
func (t *Tensor[T]) Numel() int {
	n := 1
	for _, d := range t.geometry("Tensor.Numel") { // valid by construction: no overflow
		n *= d
	}
	return n
}

// Strides returns a copy of the strides, in elements.
func (t *Tensor[T]) Strides() []int {
	t.geometry("Tensor.Strides")
	return slices.Clone(t.strides)
}

// ByteStrides returns the strides in bytes, as NumPy's ndarray.strides.
func (t *Tensor[T]) ByteStrides() []int {
	t.geometry("Tensor.ByteStrides")
	return shape.ByteStrides(t.strides, ItemSize[T]())
}

// Offset returns the position of element (0, 0, …) in the storage, in
// elements.
func (t *Tensor[T]) Offset() int {
	t.geometry("Tensor.Offset")
	return t.offset
}

// Device returns where the storage lives.
func (t *Tensor[T]) Device() alloc.Device {
	t.geometry("Tensor.Device")
	return t.st.device
}

// DType returns the element type, DTypeOf[T]().
func (t *Tensor[T]) DType() DType { return DTypeOf[T]() }

// IsContiguous reports whether the elements lie densely in row-major order
// (size-1 dimensions' strides do not matter, as in PyTorch).
func (t *Tensor[T]) IsContiguous() bool {
	return shape.IsContiguous(t.geometry("Tensor.IsContiguous"), t.strides, shape.RowMajor)
}

// SharesStorage reports whether t and u are views of the same storage.
func (t *Tensor[T]) SharesStorage(u *Tensor[T]) bool {
	t.geometry("Tensor.SharesStorage")
	mustNotBeNil("SharesStorage", "u", u)
	return t.st == u.st
}

// MemSize returns the number of storage elements the tensor spans, from its
// lowest to its highest element (mshadow's MSize): Numel for a contiguous
// tensor, more for a stepped slice, fewer for a broadcast one, 0 when empty.
func (t *Tensor[T]) MemSize() int {
	lo, hi, ok := shape.Extent(t.geometry("Tensor.MemSize"), t.strides)
	if !ok {
		return 0
	}
	return hi - lo + 1
}

// Data returns the elements of a contiguous tensor as a slice of its storage,
// in row-major order (Paddle's raw_ptr): writes to it are writes to the
// tensor. It panics with a NotContiguousError when the tensor is not
// contiguous (check IsContiguous, or call Contiguous first). Because the slice
// escapes the tensor's control, the storage is never recycled afterwards.
func (t *Tensor[T]) Data() []T {
	if !t.IsContiguous() {
		panic(&shape.NotContiguousError{Op: "Data", Shape: t.Shape(), Strides: t.Strides(),
			Reason: "call Contiguous first"})
	}
	data := t.Storage()
	n := t.Numel()
	if n == 0 {
		return data[:0:0] // an empty view's offset may lie past the storage's end
	}
	return data[t.offset : t.offset+n : t.offset+n]
}

// Storage returns the whole storage slice the tensor views; element
// (i0, i1, …) is Storage()[Offset() + Σ ik·Strides()[k]]. As with Data, the
// storage is never recycled afterwards.
func (t *Tensor[T]) Storage() []T {
	data := t.elems()
	if t.st.mem != nil {
		t.st.mem.Pin()
	}
	return data
}

func mulNonNeg(a, b int) (int, bool) {
	if a != 0 && b > maxInt/a {
		return 0, false
	}
	return a * b, true
}

const maxInt = int(^uint(0) >> 1)
