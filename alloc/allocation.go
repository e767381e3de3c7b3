package alloc

import (
	"fmt"
	"sync/atomic"

	"github.com/laze-go/laze/shape"
)

// Allocation is one block of memory on one device (Paddle's Allocation). It
// knows its device and size and is released exactly once: Release gives the
// block back to the allocator it came from, and a second Release returns a
// ReleaseError (errors.Is(err, shape.ErrReleased)) instead of freeing twice.
//
// Host allocations expose their bytes with Bytes; device allocations expose
// an address with Ptr. An Allocation is safe for concurrent use.
type Allocation struct {
	device   Device
	size     int     // bytes asked for
	host     []byte  // host memory, len = capacity; nil on a device
	ptr      uintptr // device address; 0 on the host
	giveBack func(*Allocation)

	released atomic.Bool
	pinned   atomic.Bool
}

// NewAllocation describes a block obtained by an Allocator: size bytes on
// device, either host memory (host, whose length may exceed size when the
// allocator rounds up) or a device address ptr. giveBack is called once, by
// the first Release; it may be nil. Allocator implementations call this; users
// get Allocations from an Allocator.
func NewAllocation(device Device, size int, host []byte, ptr uintptr, giveBack func(*Allocation)) *Allocation {
	return &Allocation{device: device, size: size, host: host, ptr: ptr, giveBack: giveBack}
}

// Device returns where the block lives.
func (a *Allocation) Device() Device { return a.device }

// Size returns the number of bytes asked for. The block may be larger
// (Capacity).
func (a *Allocation) Size() int { return a.size }

// Capacity returns the number of bytes actually reserved: Size rounded up to
// the allocator's size class.
func (a *Allocation) Capacity() int {
	if a.host != nil {
		return len(a.host)
	}
	return a.size
}

// Bytes returns the first Size bytes of a host block, or nil for a device
// block. The slice must not be used after Release.
func (a *Allocation) Bytes() []byte {
	if a.host == nil {
		return nil
	}
	return a.host[:a.size:a.size]
}

// Ptr returns the device address of a device block, or 0 for a host block.
func (a *Allocation) Ptr() uintptr { return a.ptr }

// Released reports whether Release has been called.
func (a *Allocation) Released() bool { return a.released.Load() }

// Pin marks the block as referenced from outside its owner (a slice of it was
// handed to user code). A pinned block is never handed out again: when it is
// released it is dropped, not cached, so memory still reachable through such
// a slice cannot be reused under it.
func (a *Allocation) Pin() { a.pinned.Store(true) }

// Pinned reports whether Pin has been called.
func (a *Allocation) Pinned() bool { return a.pinned.Load() }

// Release gives the block back to its allocator. Only the first call does
// so; later calls return a ReleaseError and change nothing.
func (a *Allocation) Release() error {
	if a.released.Swap(true) {
		return &shape.ReleaseError{Op: "Allocation.Release", What: a.String()}
	}
	if a.giveBack != nil {
		a.giveBack(a)
	}
	return nil
}

// String describes the block: "allocation of 4096 bytes on cpu".
func (a *Allocation) String() string {
	return fmt.Sprintf("allocation of %d bytes on %v", a.size, a.device)
}

// Allocator hands out blocks of memory on one device. Implementations are
// safe for concurrent use.
type Allocator interface {
	// Device returns the device whose memory this allocator hands out.
	Device() Device
	// Alloc returns a block of at least nbytes bytes. Its contents are
	// unspecified (a reused block holds old data). nbytes must not be
	// negative.
	Alloc(nbytes int) (*Allocation, error)
	// Stats returns the allocator's counters.
	Stats() Stats
	// EmptyCache frees every cached block that is not in use.
	EmptyCache()
}

// Stats are an allocator's counters.
type Stats struct {
	Allocations int64 // Alloc calls that succeeded
	Reuses      int64 // of those, how many were served from the cache
	Releases    int64 // blocks given back
	BytesInUse  int64 // capacity of the blocks handed out and not yet released
	BytesCached int64 // capacity of the blocks kept for reuse
	PeakInUse   int64 // the highest BytesInUse seen
	Evictions   int64 // cached blocks dropped to make room for a newer release (Caching)
}

func invalid(op, name string, value any, reason string) error {
	return &shape.ArgumentError{Op: op, Name: name, Value: value, Reason: reason}
}
