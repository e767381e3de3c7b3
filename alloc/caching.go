package alloc

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/laze-go/laze/shape"
)

// DefaultCacheLimit is the cap on cached bytes of the Default allocator.
const DefaultCacheLimit = 512 << 20

// minClass is the smallest block the caching allocator hands out.
const minClass = 64

// maxAlloc bounds a single request so that rounding up to its size class
// (at most a quarter more) cannot overflow an int: 2^60 on 64-bit machines,
// MaxInt/2 (1 GiB − 1) on 32-bit ones.
const maxAlloc = min(1<<60, math.MaxInt/2)

var defaultCPU = NewCaching(DefaultCacheLimit)

// Default returns the process-wide CPU caching allocator that tensors use
// unless told otherwise. Its cache holds at most DefaultCacheLimit bytes, and
// the bytes it has in use at once are limited to DefaultLimit() (SetLimit
// changes that).
func Default() *Caching { return defaultCPU }

// DefaultLimit returns the limit on bytes in use that every Caching
// allocator starts with: the machine's memory (PhysicalMemory, RAM plus
// swap), beyond which the Go runtime would die of "fatal error: out of
// memory", which no program can recover from; 0 (no limit) where the memory
// cannot be read.
func DefaultLimit() int64 { return physicalMemory }

var physicalMemory = PhysicalMemory()

// Caching is a CPU allocator that keeps released blocks and hands them out
// again. Requests are rounded up to a size class (a power of two or one of
// the three quarter-steps between two powers, so at most 25% is wasted) and
// a released block goes to its class's free list, the blocks released
// longest ago leaving the cache (to the garbage collector) when it would
// exceed its cap; a block larger than the cap is not cached.
//
// The capacity of the blocks handed out and not yet released is limited
// (SetLimit; DefaultLimit at first): a request beyond the limit gets a
// *shape.MemoryError instead of memory, and so does one the Go runtime
// cannot serve.
//
// Blocks are 8-byte aligned, so they can hold any element type laze supports.
// Caching is safe for concurrent use. A nil *Caching stands for Default.
type Caching struct {
	cacheCap int64             // most bytes kept in the free lists
	limit    atomic.Int64      // most bytes in use at once; 0 for none
	lists    FreeLists[[]byte] // size class → cached blocks, and the counters
}

var _ Allocator = (*Caching)(nil)

// NewCaching returns a caching CPU allocator that keeps at most
// maxCachedBytes bytes of released blocks (0 disables caching). Its limit on
// bytes in use is DefaultLimit().
func NewCaching(maxCachedBytes int64) *Caching {
	c := &Caching{cacheCap: max(maxCachedBytes, 0)}
	c.limit.Store(DefaultLimit())
	return c
}

// SetLimit sets the most bytes the allocator may have in use at once (the
// capacity of the blocks handed out and not yet released; cached blocks do
// not count): an Alloc that would go beyond it returns a MemoryError. A
// limit of 0 or less removes it, and then a request the machine cannot hold
// may end the process (the Go runtime's "fatal error: out of memory" cannot
// be recovered). Blocks already handed out are not affected.
func (c *Caching) SetLimit(bytes int64) { c.orDefault().limit.Store(max(bytes, 0)) }

// Limit returns the limit SetLimit set, 0 when there is none.
func (c *Caching) Limit() int64 { return c.orDefault().limit.Load() }

// Device returns CPU.
func (c *Caching) Device() Device { return CPU }

// Alloc returns a block of at least nbytes bytes, from the cache when a block
// of the same size class is there. Its contents are unspecified. It returns an
// ArgumentError for a negative nbytes, an OverflowError for a request too
// large to round up (above 2^60; on 32-bit machines, above MaxInt/2), and a MemoryError (errors.Is(err,
// shape.ErrMemory)) for a request it cannot serve: one that would take the
// bytes in use beyond the limit (SetLimit), or one the Go runtime refuses.
// Before refusing a request for the limit, it runs the garbage collector
// once, so that the blocks of tensors nobody refers to any more come back.
func (c *Caching) Alloc(nbytes int) (*Allocation, error) {
	c = c.orDefault()
	const op = "Caching.Alloc"
	if nbytes < 0 {
		return nil, invalid(op, "nbytes", nbytes, "a size must not be negative")
	}
	if int64(nbytes) > maxAlloc {
		return nil, &shape.OverflowError{Op: op, Shape: shape.Shape{nbytes}, What: "byte count"}
	}
	class := SizeClass(nbytes)
	block, reused, err := c.take(op, nbytes, class)
	if err != nil {
		return nil, err
	}
	if !reused {
		var fail error
		if block, fail = newBlock(class); fail != nil {
			c.lists.Untake(class)
			return nil, &shape.MemoryError{Op: op, Bytes: int64(nbytes), Limit: c.limit.Load(),
				Reason: "the Go runtime cannot allocate a block this large (" + fail.Error() + ")"}
		}
	}
	return NewAllocation(CPU, nbytes, block, 0, c.giveBack), nil
}

// take counts a block of class bytes as in use and returns a cached one when
// there is one, or a MemoryError when the limit does not allow it, even once
// the garbage collector has given back the blocks of unreachable tensors.
func (c *Caching) take(op string, nbytes, class int) (block []byte, reused bool, err error) {
	limit := c.limit.Load()
	block, reused, inUse, ok := c.lists.TakeWithin(class, limit)
	if ok {
		return block, reused, nil
	}
	if int64(class) <= limit { // the blocks of unreachable tensors may come back
		runtime.GC()
		for range 20 {
			if block, reused, inUse, ok = c.lists.TakeWithin(class, limit); ok {
				return block, reused, nil
			}
			time.Sleep(time.Millisecond) // cleanups run after the collection
		}
	}
	return nil, false, &shape.MemoryError{Op: op, Bytes: int64(nbytes), Limit: limit,
		Reason: fmt.Sprintf("a block of %s with %s already in use would exceed the allocator's limit of %s (SetLimit)",
			shape.FormatBytes(int64(class)), shape.FormatBytes(inUse), shape.FormatBytes(limit))}
}

// giveBack is called once per Allocation, by its first Release: the block
// is cached unless it was pinned or is larger than the cache's cap; blocks
// released longest ago make room for it (FreeLists.PutWithin).
func (c *Caching) giveBack(a *Allocation) {
	block := a.host
	class := len(block)
	c.lists.PutWithin(class, block, !a.Pinned() && class > 0, c.cacheCap)
}

// Stats returns a snapshot of the counters.
func (c *Caching) Stats() Stats { return c.orDefault().lists.Stats() }

// EmptyCache drops every cached block; blocks in use are not affected.
func (c *Caching) EmptyCache() { c.orDefault().lists.Drain() }

// SizeClass returns the capacity the caching allocator reserves for a request
// of n bytes: at least 64, else n rounded up to a quarter of the power of two
// below it (65 → 80, 1000 → 1024, 1025 → 1280).
func SizeClass(n int) int {
	if n <= minClass {
		if n == 0 {
			return 0
		}
		return minClass
	}
	below := 1 << (bits.Len(uint(n-1)) - 1) // largest power of two < n
	step := below / 4
	return (n + step - 1) / step * step
}

// newBlock returns zeroed, 8-byte aligned memory of class bytes (a multiple
// of 8), or the runtime's error when Go cannot make a slice that large
// ("makeslice: len out of range").
func newBlock(class int) (block []byte, err error) {
	if class == 0 {
		return []byte{}, nil
	}
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(runtime.Error)
			if !ok {
				panic(r)
			}
			block, err = nil, re
		}
	}()
	words := make([]uint64, class/8)
	block = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), class)
	if class >= hugePageThreshold {
		adviseHugePages(block)
	}
	return block, nil
}

// hugePageThreshold is the block size from which newBlock asks the kernel
// to back a block with huge pages (NumPy's threshold, 4 MiB): a stream over
// a tensor that large then misses the TLB 512 times less often. A contiguous
// add of 1e7 float64s runs in 0.72× the time where transparent huge pages
// are on "madvise" (docs/performance.md, "Huge pages").
const hugePageThreshold = 4 << 20

// orDefault returns c, or the process-wide allocator for a nil *Caching, so
// that a nil *Caching means Default everywhere, as WithAllocator(nil) does.
func (c *Caching) orDefault() *Caching {
	if c == nil {
		return defaultCPU
	}
	return c
}
