package kernels

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// replayScenes checks count random scenes twice each: the second time with
// the same structure (the same source bytes) over new tensors, new values
// and new constants (another seed), so that a cacheable tree runs its
// cached plan bound to other memory. It returns the plan cache hits the
// replays made.
func replayScenes[T tensor.Number](t *testing.T, count int, r *rand.Rand) int64 {
	hits0, _, _ := PlanCacheStats()
	for range count {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		checkScene(t, newScene[T](&byteSource{data: slices.Clone(data)}, r.Uint64()))
		checkScene(t, newScene[T](&byteSource{data: data}, r.Uint64()))
	}
	hits1, _, _ := PlanCacheStats()
	return hits1 - hits0
}

// TestCachedPlansMatchReference compares cached plans, rebound to other
// tensors of the same geometry, with the oracle, under every evaluator
// configuration; and checks that the replays did hit the cache.
func TestCachedPlansMatchReference(t *testing.T) {
	count := raceScaled(150)
	for _, cfg := range evaluatorConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 11))
			withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
				hits := replayScenes[float64](t, count, r) + replayScenes[int32](t, count, r) + replayScenes[uint8](t, count, r)
				if hits < int64(count/4) {
					t.Errorf("%d plan cache hits over %d replayed scenes: the replays did not run cached plans", hits, 3*count)
				}
			})
		})
	}
}

// TestPlanCacheOverlap runs one signature first over disjoint memory (the
// plan is cached), then with the destination overlapping an operand
// shifted by one element, which must take the full path and give NumPy's
// result: a[1:] = a[:-1] + 1 reads the old a.
func TestPlanCacheOverlap(t *testing.T) {
	for _, overlap := range []bool{false, true, false, true} {
		a := tensor.Arange[float64](0, 8, 1)
		src := tensor.Arange[float64](0, 8, 1)
		if overlap {
			src = a
		}
		dst := a.Slice(0, 1, 8, 1)
		x := src.Slice(0, 0, 7, 1)
		_, _, bypass0 := PlanCacheStats()
		if err := Assign(dst, expr.Of(x).AddScalar(1)); err != nil {
			t.Fatal(err)
		}
		_, _, bypass1 := PlanCacheStats()
		want := []float64{0, 1, 2, 3, 4, 5, 6, 7}
		if diff := cmp.Diff(want, a.Data()); diff != "" {
			t.Errorf("overlap %t: a[1:] = a[:-1] + 1 (-NumPy +laze):\n%s", overlap, diff)
		}
		if overlap && bypass1 == bypass0 {
			t.Errorf("the overlapping call ran the cached plan; it must copy the operand aside")
		}
	}
}

// TestPlanCacheConstants checks that a cached plan takes each call's
// constants and tensors, not those of the call that built it.
func TestPlanCacheConstants(t *testing.T) {
	for i, c := range []float32{2, -3, 0.5, 7} {
		x := tensor.Full[float32](c+1, 5)
		dst := tensor.Zeros[float32](5)
		if err := Assign(dst, expr.Of(x).MulScalar(c).AddScalar(float32(i))); err != nil {
			t.Fatal(err)
		}
		want := slices.Repeat([]float32{(c+1)*c + float32(i)}, 5)
		if diff := cmp.Diff(want, dst.Data()); diff != "" {
			t.Errorf("call %d (-want +got):\n%s", i, diff)
		}
	}
}

// TestPlanCacheErrors checks that a signature whose check fails is not
// cached, and that the error comes every time and leaves dst unchanged.
func TestPlanCacheErrors(t *testing.T) {
	for range 3 {
		dst := tensor.Zeros[float64](3)
		err := Assign(dst, expr.Add[float64](tensor.Ones[float64](2), tensor.Ones[float64](3)))
		var be *shape.BroadcastError
		if !errors.As(err, &be) {
			t.Fatalf("got %v; want a BroadcastError", err)
		}
		if diff := cmp.Diff([]float64{0, 0, 0}, dst.Data()); diff != "" {
			t.Errorf("dst written by a failed Assign:\n%s", diff)
		}
	}
}

// TestPlanCacheReleased checks that a released operand of a cached tree is
// refused as on the full path, and that the holds taken before the refusal
// are let go (the destination can be released and freed afterwards).
func TestPlanCacheReleased(t *testing.T) {
	dst := tensor.Zeros[float64](4)
	x := tensor.Ones[float64](4)
	if err := Assign(dst, expr.Of(x).AddScalar(1)); err != nil { // cache the plan
		t.Fatal(err)
	}
	y := tensor.Ones[float64](4)
	_ = y.Release()
	func() {
		defer func() {
			r := recover()
			err, ok := r.(error)
			var re *shape.ReleaseError
			if !ok || !errors.As(err, &re) {
				t.Errorf("Assign over a released operand: recovered %v; want a ReleaseError", r)
			}
		}()
		_ = Assign(dst, expr.Of(y).AddScalar(1))
	}()
	if err := Assign(dst, expr.Of(x).AddScalar(2)); err != nil {
		t.Fatalf("dst still held after the refused call: %v", err)
	}
	if diff := cmp.Diff([]float64{3, 3, 3, 3}, dst.Data()); diff != "" {
		t.Error(diff)
	}
}

// TestCachedAssignAllocations checks the plan cache's promise: a repeated
// Assign of a cached elementwise tree allocates at most twice, on the CPU
// and on a device (the recording backend). The race detector's sync.Pool
// drops items at random, so the count is checked without it.
func TestCachedAssignAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not stable under the race detector (sync.Pool drops items)")
	}
	dst, e := poly4(1000)
	cpu := testing.AllocsPerRun(200, func() {
		if err := Assign(dst, e); err != nil {
			t.Fatal(err)
		}
	})
	c := &countingBackend{}
	RegisterBackend(alloc.KindCUDA, c)
	t.Cleanup(unregisterRecorder)
	gdst := onGPU(t, tensor.Zeros[float32](1000))
	a, b := onGPU(t, tensor.Rand[float32](1, 1000)), onGPU(t, tensor.Rand[float32](2, 1000))
	ge := expr.Of(a).Mul(b).AddScalar(1)
	gpu := testing.AllocsPerRun(200, func() {
		if err := Assign(gdst, ge); err != nil {
			t.Fatal(err)
		}
	})
	queued := testing.AllocsPerRun(200, func() {
		if err := AssignOn(c, gdst, ge); err != nil {
			t.Fatal(err)
		}
		_ = c.Wait()
	})
	if c.launches == 0 {
		t.Fatal("no kernel launched")
	}
	if cpu > 2 || gpu > 2 || queued > 2 {
		t.Errorf("allocations per cached Assign: %v on the CPU, %v on the device, %v queued; want at most 2", cpu, gpu, queued)
	}
}

// countingBackend is a device backend that counts launches and keeps
// nothing: what an Assign on it costs is the host's part alone.
type countingBackend struct {
	launches, waits int
	deferred        []func()
}

func (c *countingBackend) DefaultQueue(alloc.Device) (Queue, error) { return c, nil }
func (c *countingBackend) Device() alloc.Device                     { return alloc.CUDA(5) }
func (c *countingBackend) Launch(Queue, *Kernel) error              { c.launches++; return nil }
func (c *countingBackend) Gemm(Queue, Gemm) error                   { return nil }
func (c *countingBackend) Defer(f func())                           { c.deferred = append(c.deferred, f) }

func (c *countingBackend) Wait() error {
	c.waits++
	for _, f := range c.deferred {
		f()
	}
	clear(c.deferred)
	c.deferred = c.deferred[:0]
	return nil
}

// BenchmarkCachedAssign measures the host cost of a repeated Assign of a
// small tree: poly4 over 1e3 float64 elements on the CPU (the plan cache
// against the full path, with the cache off), and a one-kernel tree on the
// counting device backend, which does no device work: what remains is the
// host's.
func BenchmarkCachedAssign(b *testing.B) {
	dst, e := poly4(1000)
	for _, off := range []bool{false, true} {
		name := "cpu-poly4-1e3/cached"
		if off {
			name = "cpu-poly4-1e3/full-path"
		}
		b.Run(name, func(b *testing.B) {
			planCacheOff.Store(off)
			defer planCacheOff.Store(false)
			b.ReportAllocs()
			for b.Loop() {
				if err := Assign(dst, e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("device-counting", func(b *testing.B) {
		c := &countingBackend{}
		RegisterBackend(alloc.KindCUDA, c)
		defer unregisterRecorder()
		d := tensor.New[float32](shape.Shape{1000}, tensor.WithAllocator(fakeGPU))
		x := tensor.New[float32](shape.Shape{1000}, tensor.WithAllocator(fakeGPU))
		var ge expr.Exp[float32] = expr.Of(x).Mul(x).AddScalar(1)
		b.Run("waited", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Assign(d, ge); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("queued", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := AssignOn(c, d, ge); err != nil {
					b.Fatal(err)
				}
				if len(c.deferred) == 64 {
					_ = c.Wait()
				}
			}
			_ = c.Wait()
		})
	})
}
