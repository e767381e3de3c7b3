//go:build cuda

package cuda

import (
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
	"gorgonia.org/cu"
)

// minDeviceBlock is the smallest block the allocator asks CUDA for: 256
// bytes, the alignment cuMemAlloc guarantees, so that every block suits
// vector loads.
const minDeviceBlock = 256

// Allocator is a device's caching allocator (alloc.DeviceAllocator), as
// PyTorch's and CuPy's: a released block goes to a free list of its size
// class (alloc.SizeClass, at least 256 bytes) and is handed out again
// instead of calling cuMemAlloc, which synchronises the device. EmptyCache
// gives the cached blocks back to CUDA. A block is reused only by work
// queued after its release; with several streams, wait for a stream before
// releasing tensors its queued work reads. Safe for concurrent use.
type Allocator struct {
	dev   *Device
	lists alloc.FreeLists[cu.DevicePtr]
}

var _ alloc.DeviceAllocator = (*Allocator)(nil)

func newAllocator(d *Device) *Allocator {
	return &Allocator{dev: d}
}

// Device returns alloc.CUDA(id).
func (a *Allocator) Device() alloc.Device { return a.dev.Device() }

// Alloc returns a block of at least nbytes, from the cache when it holds
// one of the size class; otherwise from cuMemAlloc, after emptying the
// cache and trying again if the device is out of memory.
func (a *Allocator) Alloc(nbytes int) (*alloc.Allocation, error) {
	if nbytes < 0 {
		return nil, &shape.ArgumentError{Op: "cuda.Allocator.Alloc", Name: "nbytes", Value: nbytes, Reason: "a size must not be negative"}
	}
	class := alloc.SizeClass(max(nbytes, minDeviceBlock))
	ptr, ok := a.lists.Take(class)
	if !ok {
		var err error
		if ptr, err = a.fresh(class); err != nil {
			a.EmptyCache()
			if ptr, err = a.fresh(class); err != nil {
				a.lists.Untake(class)
				return nil, err
			}
		}
	}
	return alloc.NewAllocation(a.Device(), nbytes, nil, uintptr(ptr), func(m *alloc.Allocation) { a.giveBack(class, m) }), nil
}

// fresh asks CUDA for a block.
func (a *Allocator) fresh(class int) (cu.DevicePtr, error) {
	var ptr cu.DevicePtr
	err := a.dev.do(func() error {
		var err error
		ptr, err = cu.MemAlloc(int64(class))
		return err
	})
	return ptr, err
}

// giveBack caches a released block; it makes no CUDA call, so it may run
// on any goroutine (the garbage collector's cleanups included).
func (a *Allocator) giveBack(class int, m *alloc.Allocation) {
	a.lists.Put(class, cu.DevicePtr(m.Ptr()), func(int64) bool { return true })
}

// Stats returns the counters.
func (a *Allocator) Stats() alloc.Stats { return a.lists.Stats() }

// EmptyCache frees every cached block with cuMemFree.
func (a *Allocator) EmptyCache() {
	free := a.lists.Drain()
	_ = a.dev.do(func() error {
		for _, ptr := range free {
			_ = cu.MemFree(ptr)
		}
		return nil
	})
}

// CopyIn copies src to the block at byte offset off, after the device's
// queued work.
func (a *Allocator) CopyIn(dst *alloc.Allocation, off int, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return a.dev.do(func() error {
		return cu.MemcpyHtoD(cu.DevicePtr(dst.Ptr()+uintptr(off)), unsafe.Pointer(&src[0]), int64(len(src)))
	})
}

// CopyOut copies len(dst) bytes from the block at byte offset off, after
// the device's queued work.
func (a *Allocator) CopyOut(dst []byte, src *alloc.Allocation, off int) error {
	if len(dst) == 0 {
		return nil
	}
	return a.dev.do(func() error {
		return cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), cu.DevicePtr(src.Ptr()+uintptr(off)), int64(len(dst)))
	})
}

// Zero clears the block's first Size bytes.
func (a *Allocator) Zero(m *alloc.Allocation) error {
	if m.Size() == 0 {
		return nil
	}
	return a.dev.do(func() error { return cu.MemsetD8(cu.DevicePtr(m.Ptr()), 0, int64(m.Size())) })
}

// CopyDevice copies nbytes from src to dst, both blocks of this device,
// with cuMemcpyDtoD on the default stream; it is the reference for the
// benchmarks' copy bandwidth.
func (a *Allocator) CopyDevice(dst, src *alloc.Allocation, nbytes int) error {
	if nbytes == 0 {
		return nil
	}
	return a.dev.do(func() error {
		return cu.MemcpyDtoD(cu.DevicePtr(dst.Ptr()), cu.DevicePtr(src.Ptr()), int64(nbytes))
	})
}
