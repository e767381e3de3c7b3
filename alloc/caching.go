package alloc

import (
	"math/bits"
	"unsafe"

	"github.com/laze-go/laze/shape"
)

// DefaultCacheLimit is the cap on cached bytes of the Default allocator.
const DefaultCacheLimit = 512 << 20

// minClass is the smallest block the caching allocator hands out.
const minClass = 64

// maxAlloc bounds a single request so that rounding up cannot overflow.
const maxAlloc = 1 << 60

var defaultCPU = NewCaching(DefaultCacheLimit)

// Default returns the process-wide CPU caching allocator that tensors use
// unless told otherwise. Its cache holds at most DefaultCacheLimit bytes.
func Default() *Caching { return defaultCPU }

// Caching is a CPU allocator that keeps released blocks and hands them out
// again. Requests are rounded up to a size class (a power of two or one of
// the three quarter-steps between two powers, so at most 25% is wasted) and
// a released block goes to its class's free list unless the cache would then
// exceed its cap, in which case it is left to the garbage collector.
//
// Blocks are 8-byte aligned, so they can hold any element type laze supports.
// Caching is safe for concurrent use.
type Caching struct {
	limit int64
	lists FreeLists[[]byte] // size class → cached blocks, and the counters
}

var _ Allocator = (*Caching)(nil)

// NewCaching returns a caching CPU allocator that keeps at most
// maxCachedBytes bytes of released blocks (0 disables caching).
func NewCaching(maxCachedBytes int64) *Caching {
	return &Caching{limit: max(maxCachedBytes, 0)}
}

// Device returns CPU.
func (c *Caching) Device() Device { return CPU }

// Alloc returns a block of at least nbytes bytes, from the cache when a block
// of the same size class is there. Its contents are unspecified. It returns an
// ArgumentError for a negative nbytes and an OverflowError for a request too
// large to round up.
func (c *Caching) Alloc(nbytes int) (*Allocation, error) {
	if nbytes < 0 {
		return nil, invalid("Caching.Alloc", "nbytes", nbytes, "a size must not be negative")
	}
	if nbytes > maxAlloc {
		return nil, &shape.OverflowError{Op: "Caching.Alloc", Shape: shape.Shape{nbytes}, What: "byte count"}
	}
	class := SizeClass(nbytes)
	block, reused := c.lists.Take(class)
	if !reused {
		block = newBlock(class)
	}
	return NewAllocation(CPU, nbytes, block, 0, c.giveBack), nil
}

// giveBack is called once per Allocation, by its first Release: the block
// is cached unless it was pinned or the cache would exceed its cap.
func (c *Caching) giveBack(a *Allocation) {
	block := a.host
	class := len(block)
	c.lists.Put(class, block, func(cached int64) bool {
		return !a.Pinned() && class > 0 && cached+int64(class) <= c.limit
	})
}

// Stats returns a snapshot of the counters.
func (c *Caching) Stats() Stats { return c.lists.Stats() }

// EmptyCache drops every cached block; blocks in use are not affected.
func (c *Caching) EmptyCache() { c.lists.Drain() }

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
// of 8).
func newBlock(class int) []byte {
	if class == 0 {
		return []byte{}
	}
	words := make([]uint64, class/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), class)
}
