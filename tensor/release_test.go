package tensor

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

func TestReleaseExplicit(t *testing.T) {
	c := alloc.NewCaching(1 << 20)
	a := New[float64](shape.Of(16, 16), WithAllocator(c))
	v := a.T()
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	st := c.Stats()
	if st.Releases != 1 || st.BytesCached != 2048 {
		t.Fatalf("after Release: %+v", st)
	}
	err := a.Release()
	var re *shape.ReleaseError
	if !errors.As(err, &re) {
		t.Fatalf("second Release: %v", err)
	}
	wantPanic(t, shape.ErrReleased, func() { a.At(0, 0) })
	wantPanic(t, shape.ErrReleased, func() { v.Set(1, 0, 0) })
	if got := fmt.Sprint(a); got != "<released tensor of shape (16,16)>" {
		t.Errorf("printing a released tensor: %q", got)
	}
	b := New[float64](shape.Of(16, 16), WithAllocator(c))
	if c.Stats().Reuses != 1 {
		t.Errorf("the released block was not reused")
	}
	b.Set(3, 0, 0)
	// The cleanup was stopped by Release: collecting a's storage must not
	// release the block again (it is b's now).
	a, v = nil, nil
	runtime.GC()
	runtime.GC()
	if b.At(0, 0) != 3 || c.Stats().Releases != 1 {
		t.Errorf("the storage was released twice: %+v", c.Stats())
	}
	w, _ := Wrap([]int{1, 2}, shape.Of(2))
	if err := w.Release(); err != nil {
		t.Errorf("Release of a wrapped tensor: %v", err)
	}
	wantPanic(t, shape.ErrReleased, func() { w.At(0) })
	r := Zeros[int](3)
	_ = r.Release()
	r.Resize(2) // a released tensor gets fresh storage
	if r.At(1) != 0 {
		t.Errorf("Resize after Release")
	}
}

// TestReleaseWhenUnreachable shows that storage nobody refers to goes back to
// the allocator's cache by itself.
func TestReleaseWhenUnreachable(t *testing.T) {
	c := alloc.NewCaching(1 << 20)
	func() {
		a := New[int32](shape.Of(100), WithAllocator(c))
		a.T().Index(0, 3).Set(1)
	}()
	waitFor(t, func() bool { return c.Stats().Releases == 1 })
	if st := c.Stats(); st.BytesInUse != 0 || st.BytesCached == 0 {
		t.Errorf("unreachable storage not cached: %+v", st)
	}
}

// TestPinnedStorageIsNotReused: after Data the slice may outlive the tensor,
// so the block must not be handed out again.
func TestPinnedStorageIsNotReused(t *testing.T) {
	c := alloc.NewCaching(1 << 20)
	var data []float32
	func() {
		a := New[float32](shape.Of(64), WithAllocator(c))
		data = a.Data()
	}()
	waitFor(t, func() bool { return c.Stats().Releases == 1 })
	if st := c.Stats(); st.BytesCached != 0 {
		t.Fatalf("a pinned block was cached: %+v", st)
	}
	b := New[float32](shape.Of(64), WithAllocator(c))
	b.Fill(7)
	if data[0] != 0 {
		t.Errorf("memory still reachable through Data was reused")
	}
	p := New[float32](shape.Of(64), WithAllocator(c))
	_ = p.Storage()
	_ = p.Release()
	if c.Stats().BytesCached != 0 {
		t.Errorf("an explicitly released pinned block was cached")
	}
}

func TestDeviceAllocatorRejected(t *testing.T) {
	err := wantPanic(t, shape.ErrDevice, func() { New[float32](shape.Of(2), WithAllocator(fakeGPU{})) })
	if want := "laze: New: the allocator tensor.fakeGPU cannot copy to and from the host (alloc.DeviceAllocator): cuda:0"; err.Error() != want {
		t.Errorf("message: %v", err)
	}
}

type fakeGPU struct{ alloc.Allocator }

func (fakeGPU) Device() alloc.Device { return alloc.CUDA(0) }

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 200 {
		runtime.GC()
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("condition not reached after 200 collections")
}
