package alloc

import (
	"errors"
	"math"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestAllocLimit checks that every request the allocator cannot serve, above
// its limit or beyond what Go can make, is a MemoryError (or, above 2^60, an
// OverflowError) carrying the values, and that a refusal counts nothing.
func TestAllocLimit(t *testing.T) {
	tests := []struct {
		name   string
		limit  int64
		inUse  int   // bytes allocated (and held) first
		nbytes int64 // a case past int (on a 32-bit machine) is skipped
		kind   error
		want   shape.MemoryError // Op, Bytes, Limit (Reason checked for a word)
		reason string
	}{
		{"within", 1 << 20, 0, 1 << 20, nil, shape.MemoryError{}, ""},
		{"above the limit", 1 << 20, 0, 1<<20 + 1, shape.ErrMemory,
			shape.MemoryError{Op: "Caching.Alloc", Bytes: 1<<20 + 1, Limit: 1 << 20}, "limit of 1.00 MiB"},
		{"above with some in use", 1 << 20, 1 << 19, 1<<19 + 64, shape.ErrMemory,
			shape.MemoryError{Op: "Caching.Alloc", Bytes: 1<<19 + 64, Limit: 1 << 20}, "512. KiB already in use"},
		{"the issue's 2^49", DefaultLimit(), 0, 1 << 49, shape.ErrMemory,
			shape.MemoryError{Op: "Caching.Alloc", Bytes: 1 << 49, Limit: DefaultLimit()}, ""},
		{"no limit: makeslice", 0, 0, 1 << 49, shape.ErrMemory,
			shape.MemoryError{Op: "Caching.Alloc", Bytes: 1 << 49}, "makeslice: len out of range"},
		{"no limit: 2^60", 0, 0, 1 << 60, shape.ErrMemory,
			shape.MemoryError{Op: "Caching.Alloc", Bytes: 1 << 60}, "makeslice"},
		{"beyond rounding", 1 << 20, 0, maxAlloc + 1, shape.ErrOverflow, shape.MemoryError{}, ""},
		{"MaxInt", 0, 0, math.MaxInt, shape.ErrOverflow, shape.MemoryError{}, ""},
		{"negative", 1 << 20, 0, -1, shape.ErrInvalid, shape.MemoryError{}, ""},
	}
	if DefaultLimit() == 0 {
		tests[3].want.Limit, tests[3].reason = 0, "makeslice"
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if int64(int(tt.nbytes)) != tt.nbytes {
				t.Skipf("%d bytes do not fit in this machine's %d-bit int", tt.nbytes, strconv.IntSize)
			}
			c := NewCaching(1 << 20)
			c.SetLimit(tt.limit)
			if c.Limit() != tt.limit {
				t.Fatalf("Limit() = %d after SetLimit(%d)", c.Limit(), tt.limit)
			}
			if tt.inUse > 0 {
				held, err := c.Alloc(tt.inUse)
				if err != nil {
					t.Fatal(err)
				}
				defer runtime.KeepAlive(held)
			}
			before := c.Stats()
			a, err := c.Alloc(int(tt.nbytes))
			if !errors.Is(err, tt.kind) || (tt.kind == nil) != (err == nil) {
				t.Fatalf("Alloc(%d) = %v, %v; want kind %v", tt.nbytes, a, err, tt.kind)
			}
			if err != nil {
				if diff := cmp.Diff(before, c.Stats()); diff != "" {
					t.Errorf("a refused request changed the stats (-before +after):\n%s", diff)
				}
			}
			var me *shape.MemoryError
			if errors.As(err, &me) {
				got := shape.MemoryError{Op: me.Op, Bytes: me.Bytes, Limit: me.Limit}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("MemoryError fields (-want +got):\n%s", diff)
				}
				if !contains(me.Error(), tt.reason) {
					t.Errorf("message %q does not say %q", me, tt.reason)
				}
			}
		})
	}
}

// TestLimitCountsOnlyBlocksInUse: releasing makes room again, cached blocks
// do not count, and lowering the limit below what is in use refuses new
// blocks without touching the old ones.
func TestLimitCountsOnlyBlocksInUse(t *testing.T) {
	c := NewCaching(1 << 20)
	c.SetLimit(4096)
	a, err := c.Alloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Alloc(64); !errors.Is(err, shape.ErrMemory) {
		t.Fatalf("Alloc beyond a full limit: %v", err)
	}
	_ = a.Release() // cached now, not in use
	b, err := c.Alloc(4096)
	if err != nil {
		t.Fatalf("Alloc after a release: %v", err)
	}
	c.SetLimit(1024)
	if _, err := c.Alloc(64); !errors.Is(err, shape.ErrMemory) {
		t.Fatalf("Alloc under a lowered limit: %v", err)
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	c.SetLimit(-5)
	if c.Limit() != 0 {
		t.Errorf("SetLimit(-5): Limit() = %d, want 0 (none)", c.Limit())
	}
}

func TestDefaultLimit(t *testing.T) {
	if runtime.GOOS == "linux" && DefaultLimit() <= 0 {
		t.Errorf("DefaultLimit() = %d on Linux, want the machine's memory", DefaultLimit())
	}
	if Default().Limit() != DefaultLimit() || NewCaching(0).Limit() != DefaultLimit() {
		t.Errorf("allocators do not start with DefaultLimit: %d, %d", Default().Limit(), DefaultLimit())
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestNilCachingIsDefault checks that every method of a nil *Caching acts on
// the process-wide allocator, as WithAllocator(nil) does, instead of a raw
// nil-pointer panic.
func TestNilCachingIsDefault(t *testing.T) {
	var c *Caching
	limit := Default().Limit()
	if got := c.Limit(); got != limit {
		t.Errorf("nil Limit = %d, want Default's %d", got, limit)
	}
	before := Default().Stats().Allocations
	a, err := c.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().Allocations; got != before+1 {
		t.Errorf("nil Alloc counted %d allocations in Default, want %d", got, before+1)
	}
	_ = a.Release()
	c.SetLimit(limit)
	c.EmptyCache()
}
