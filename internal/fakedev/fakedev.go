// Package fakedev is a stand-in GPU for laze's own tests: an
// alloc.DeviceAllocator whose "device memory" is host memory the host code
// never reads directly, so the device paths of tensor and kernels (moving,
// printing, refusing host access, dispatching to a backend) can be tested
// on machines without CUDA.
package fakedev

import (
	"errors"
	"strconv"
	"sync"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// Allocator hands out blocks of host memory labelled as living on a device.
type Allocator struct {
	dev   alloc.Device
	mu    sync.Mutex
	live  map[uintptr][]byte
	stats alloc.Stats
}

var _ alloc.DeviceAllocator = (*Allocator)(nil)

// New returns an allocator for dev and registers it with alloc.Register.
func New(dev alloc.Device) *Allocator {
	a := &Allocator{dev: dev, live: map[uintptr][]byte{}}
	alloc.Register(a)
	return a
}

// Device returns the device the allocator was made for.
func (a *Allocator) Device() alloc.Device { return a.dev }

// blockAlign is the alignment of every block, as cudaMalloc's: kernels
// choose their vectorised variant from their operands' alignment, so the
// fake device must align as a real one does for tests to see the same
// choices.
const blockAlign = 256

// Alloc returns a block of nbytes (at least 8, so that every block has its
// own address), aligned to 256 bytes.
func (a *Allocator) Alloc(nbytes int) (*alloc.Allocation, error) {
	n := (max(nbytes, 8) + 7) / 8 * 8
	raw := make([]byte, n+blockAlign)
	skip := (blockAlign - int(uintptr(unsafe.Pointer(&raw[0]))%blockAlign)) % blockAlign
	block := raw[skip : skip+n : skip+n]
	ptr := uintptr(unsafe.Pointer(&block[0]))
	a.mu.Lock()
	defer a.mu.Unlock()
	a.live[ptr] = block
	a.stats.Allocations++
	a.stats.BytesInUse += int64(len(block))
	return alloc.NewAllocation(a.dev, nbytes, nil, ptr, a.giveBack), nil
}

func (a *Allocator) giveBack(m *alloc.Allocation) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stats.Releases++
	a.stats.BytesInUse -= int64(len(a.live[m.Ptr()]))
	delete(a.live, m.Ptr())
}

// Bytes returns the memory behind a block, for tests that inspect it as a
// kernel would.
func (a *Allocator) Bytes(m *alloc.Allocation) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.live[m.Ptr()][:m.Size()]
}

// CopyIn copies src into dst at byte offset off.
func (a *Allocator) CopyIn(dst *alloc.Allocation, off int, src []byte) error {
	copy(a.Bytes(dst)[off:], src)
	return nil
}

// CopyOut copies bytes of src from byte offset off into dst.
func (a *Allocator) CopyOut(dst []byte, src *alloc.Allocation, off int) error {
	copy(dst, a.Bytes(src)[off:])
	return nil
}

// Zero clears the block.
func (a *Allocator) Zero(m *alloc.Allocation) error {
	clear(a.Bytes(m))
	return nil
}

// Stats returns the counters.
func (a *Allocator) Stats() alloc.Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// EmptyCache does nothing: the fake caches nothing.
func (a *Allocator) EmptyCache() {}

// Virtual is a DeviceAllocator that hands out addresses and no memory, so
// that tests can build device tensors far larger than the machine's memory
// (to generate kernels with 64-bit indexing). Copies and Zero fail.
type Virtual struct {
	dev  alloc.Device
	mu   sync.Mutex
	next uintptr
}

var _ alloc.DeviceAllocator = (*Virtual)(nil)

// virtualBase is the first address a Virtual hands out: 1 TiB on 64-bit
// machines, 1 MiB on 32-bit ones, whose addresses stop at 4 GiB
// (strconv.IntSize*5/8 is 40 or 20).
const virtualBase = 1 << (strconv.IntSize * 5 / 8)

// NewVirtual returns a virtual allocator for dev and registers it.
func NewVirtual(dev alloc.Device) *Virtual {
	v := &Virtual{dev: dev, next: virtualBase}
	alloc.Register(v)
	return v
}

// Device returns the device the allocator was made for.
func (v *Virtual) Device() alloc.Device { return v.dev }

// Alloc returns a block with an address and no memory.
func (v *Virtual) Alloc(nbytes int) (*alloc.Allocation, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	ptr := v.next
	size := (uint64(nbytes) + 255) &^ 255
	if size > uint64(^uintptr(0)-ptr) {
		return nil, &shape.MemoryError{Op: "Virtual.Alloc", Bytes: int64(nbytes), Reason: "the virtual address space is exhausted"}
	}
	v.next += uintptr(size)
	return alloc.NewAllocation(v.dev, nbytes, nil, ptr, nil), nil
}

// CopyIn fails: there is no memory.
func (v *Virtual) CopyIn(*alloc.Allocation, int, []byte) error { return errVirtual }

// CopyOut fails: there is no memory.
func (v *Virtual) CopyOut([]byte, *alloc.Allocation, int) error { return errVirtual }

// Zero fails: there is no memory.
func (v *Virtual) Zero(*alloc.Allocation) error { return errVirtual }

// Stats returns zero counters.
func (v *Virtual) Stats() alloc.Stats { return alloc.Stats{} }

// EmptyCache does nothing.
func (v *Virtual) EmptyCache() {}

var errVirtual = errors.New("fakedev: a virtual device has no memory")
