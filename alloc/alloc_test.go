package alloc

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

func TestDevice(t *testing.T) {
	tests := []struct {
		dev  Device
		str  string
		kind Kind
		id   int
		cpu  bool
	}{
		{CPU, "cpu", KindCPU, 0, true},
		{Device{}, "cpu", KindCPU, 0, true},
		{CUDA(0), "cuda:0", KindCUDA, 0, false},
		{CUDA(3), "cuda:3", KindCUDA, 3, false},
	}
	for _, tt := range tests {
		if tt.dev.String() != tt.str || tt.dev.Kind() != tt.kind || tt.dev.ID() != tt.id || tt.dev.IsCPU() != tt.cpu {
			t.Errorf("%v: got (%s, %v, %d, %v)", tt.str, tt.dev, tt.dev.Kind(), tt.dev.ID(), tt.dev.IsCPU())
		}
	}
	if CUDA(0) == CUDA(1) || CUDA(0) == CPU || CUDA(2) != CUDA(2) || CPU != (Device{}) {
		t.Errorf("device equality is wrong")
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, shape.ErrInvalid) {
			t.Errorf("CUDA(-1) panicked with %v, want ErrInvalid", err)
		}
	}()
	CUDA(-1)
}

func TestSizeClass(t *testing.T) {
	tests := []struct{ n, want int }{
		{0, 0}, {1, 64}, {64, 64}, {65, 80}, {80, 80}, {81, 96}, {128, 128}, {129, 160},
		{1000, 1024}, {1025, 1280}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<18},
	}
	for _, tt := range tests {
		if got := SizeClass(tt.n); got != tt.want {
			t.Errorf("SizeClass(%d) = %d, want %d", tt.n, got, tt.want)
		}
		if got := SizeClass(tt.n); got < tt.n || (tt.n > 64 && got > tt.n+tt.n/4) {
			t.Errorf("SizeClass(%d) = %d wastes more than 25%%", tt.n, got)
		}
	}
}

func TestReleaseExactlyOnce(t *testing.T) {
	c := NewCaching(1 << 20)
	a, err := c.Alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	if a.Size() != 100 || a.Capacity() != 112 || len(a.Bytes()) != 100 || a.Device() != CPU || a.Ptr() != 0 {
		t.Fatalf("allocation: size %d cap %d len %d dev %v", a.Size(), a.Capacity(), len(a.Bytes()), a.Device())
	}
	if err := a.Release(); err != nil {
		t.Fatalf("first Release: %v", err)
	}
	err = a.Release()
	var re *shape.ReleaseError
	if !errors.As(err, &re) || !errors.Is(err, shape.ErrReleased) {
		t.Fatalf("second Release: %v, want ReleaseError", err)
	}
	if want := "laze: Allocation.Release: allocation of 100 bytes on cpu was already released"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	st := c.Stats()
	if st.Releases != 1 || st.BytesCached != 112 || st.BytesInUse != 0 {
		t.Fatalf("after double release: %+v (the block must be cached once)", st)
	}
	b1, _ := c.Alloc(100)
	b2, _ := c.Alloc(100)
	if &b1.host[0] == &b2.host[0] {
		t.Fatal("a double release handed the same block out twice")
	}
}

func TestCachingReuseAndStats(t *testing.T) {
	c := NewCaching(1 << 20)
	a, _ := c.Alloc(1000)
	first := &a.host[0]
	copy(a.Bytes(), "dirty")
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	b, _ := c.Alloc(1020) // same class (1024)
	if &b.host[0] != first {
		t.Errorf("a block of the same class was not reused")
	}
	if uintptr(unsafe.Pointer(&b.host[0]))%8 != 0 {
		t.Errorf("block is not 8-byte aligned")
	}
	d, _ := c.Alloc(2000) // another class: fresh
	want := Stats{Allocations: 3, Reuses: 1, Releases: 1, BytesInUse: 1024 + 2048, BytesCached: 0, PeakInUse: 1024 + 2048}
	if diff := cmp.Diff(want, c.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	_ = b.Release()
	_ = d.Release()
	want = Stats{Allocations: 3, Reuses: 1, Releases: 3, BytesInUse: 0, BytesCached: 1024 + 2048, PeakInUse: 1024 + 2048}
	if diff := cmp.Diff(want, c.Stats()); diff != "" {
		t.Errorf("stats after release (-want +got):\n%s", diff)
	}
	c.EmptyCache()
	if st := c.Stats(); st.BytesCached != 0 {
		t.Errorf("EmptyCache left %d bytes cached", st.BytesCached)
	}
	e, _ := c.Alloc(1000)
	if c.Stats().Reuses != 1 || &e.host[0] == first {
		t.Errorf("a block survived EmptyCache")
	}
}

func TestCachingCapAndPin(t *testing.T) {
	c := NewCaching(1500)
	a, _ := c.Alloc(1024)
	b, _ := c.Alloc(1024)
	_ = a.Release()
	_ = b.Release() // would exceed the cap: dropped
	if st := c.Stats(); st.BytesCached != 1024 {
		t.Errorf("cap 1500: %d bytes cached, want 1024", st.BytesCached)
	}
	c.EmptyCache()
	p, _ := c.Alloc(64)
	p.Pin()
	if !p.Pinned() {
		t.Fatal("Pin did not stick")
	}
	_ = p.Release()
	if st := c.Stats(); st.BytesCached != 0 || st.BytesInUse != 0 {
		t.Errorf("a pinned block was cached: %+v", st)
	}
	none := NewCaching(0)
	x, _ := none.Alloc(64)
	_ = x.Release()
	if none.Stats().BytesCached != 0 {
		t.Errorf("a zero-cap allocator cached a block")
	}
}

func TestAllocErrors(t *testing.T) {
	c := NewCaching(0)
	if _, err := c.Alloc(-1); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Alloc(-1): %v", err)
	}
	if _, err := c.Alloc(maxAlloc + 1); !errors.Is(err, shape.ErrOverflow) {
		t.Errorf("Alloc(maxAlloc+1): %v", err)
	}
	z, err := c.Alloc(0)
	if err != nil || z.Bytes() == nil || len(z.Bytes()) != 0 {
		t.Errorf("Alloc(0) = %v, %v", z, err)
	}
	if Default().Device() != CPU || Default() != Default() {
		t.Errorf("Default allocator")
	}
}

// TestConcurrentStress has goroutines allocate, fill their block with a
// pattern of their own, yield, check the pattern and release, many times. If
// a block were handed out while in use, two goroutines would write the same
// memory and one would see the other's pattern (and -race would report it).
func TestConcurrentStress(t *testing.T) {
	c := NewCaching(1 << 16)
	const workers, rounds = 8, 400
	var live sync.Map // block address → owner
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				n := 64 + (w*131+r*17)%900
				a, err := c.Alloc(n)
				if err != nil {
					errs <- err
					return
				}
				addr := uintptr(unsafe.Pointer(&a.host[0]))
				if owner, dup := live.LoadOrStore(addr, w); dup {
					errs <- fmt.Errorf("worker %d got block %#x still held by worker %v", w, addr, owner)
					return
				}
				buf := a.Bytes()
				for i := range buf {
					buf[i] = byte(w)
				}
				for i := range buf {
					if buf[i] != byte(w) {
						errs <- fmt.Errorf("worker %d: byte %d overwritten with %d", w, i, buf[i])
						return
					}
				}
				live.Delete(addr)
				if err := a.Release(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := c.Stats()
	if st.Allocations != workers*rounds || st.Releases != workers*rounds || st.BytesInUse != 0 || st.Reuses == 0 {
		t.Errorf("stats after stress: %+v", st)
	}
}

// fakeDevice is a DeviceAllocator over host memory, for the registry's tests.
type fakeDevice struct {
	*Caching
	dev Device
}

func (f fakeDevice) Device() Device                                     { return f.dev }
func (f fakeDevice) CopyIn(dst *Allocation, off int, src []byte) error  { return nil }
func (f fakeDevice) CopyOut(dst []byte, src *Allocation, off int) error { return nil }
func (f fakeDevice) Zero(a *Allocation) error                           { return nil }

func TestRegistry(t *testing.T) {
	if a, err := For(CPU); err != nil || a != Default() {
		t.Fatalf("For(CPU) = %v, %v; want Default()", a, err)
	}
	dev := CUDA(7)
	_, err := For(dev)
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cuda:7") {
		t.Fatalf("For(cuda:7) before Register: %v; want a DeviceError naming cuda:7", err)
	}
	fake := fakeDevice{NewCaching(0), dev}
	Register(fake)
	got, err := For(dev)
	if err != nil || got != Allocator(fake) {
		t.Fatalf("For(cuda:7) after Register = %v, %v", got, err)
	}
	defer func() {
		var ae *shape.ArgumentError
		if r := recover(); r == nil || !errors.As(r.(error), &ae) {
			t.Errorf("Register of a CPU allocator: recovered %v; want an ArgumentError", r)
		}
	}()
	Register(fakeDevice{NewCaching(0), CPU})
}

// TestCachingEvictsOldest checks the cache's order when it is full: a
// released block that fits under the cap is kept, the blocks released
// longest ago leaving to make room, so that a loop's next step gets the
// block its last step released (the k-means step of 205 MB was allocated
// afresh, page faults and all, after other workloads had filled the
// cache); a block larger than the cap is not kept and evicts nothing.
func TestCachingEvictsOldest(t *testing.T) {
	c := NewCaching(4096)
	alloc := func(n int) *Allocation {
		a, err := c.Alloc(n)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	old1, old2, mid := alloc(1024), alloc(1024), alloc(1536)
	for _, a := range []*Allocation{old1, old2, mid} {
		_ = a.Release()
	}
	big := alloc(2048)
	addr := &big.host[0]
	_ = big.Release() // 3584 cached + 2048 > 4096: the two oldest blocks leave
	st := c.Stats()
	if st.BytesCached != 1536+2048 || st.Evictions != 2 {
		t.Errorf("after the big release: %d bytes cached, %d evictions; want %d and 2", st.BytesCached, st.Evictions, 1536+2048)
	}
	if again := alloc(2048); &again.host[0] != addr {
		t.Error("the block released last was not reused")
	}
	huge := alloc(8192)
	_ = huge.Release()
	if st := c.Stats(); st.Evictions != 2 || st.BytesCached != 1536 {
		t.Errorf("a block over the cap: %d evictions, %d bytes cached; want 2 and 1536", st.Evictions, st.BytesCached)
	}
}
