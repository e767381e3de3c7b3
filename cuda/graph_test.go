//go:build cuda

package cuda

import (
	"errors"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cuda/internal/diskcache"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The kernel counters the tests check (Compiled, DiskHits) assume that no
// earlier process left kernels on disk: unless the runner chose a cache,
// the test binary keeps the persistent one off (Open reads the variable).
// TestDiskCache* use caches of their own, in temporary directories.
func init() {
	if _, ok := os.LookupEnv(diskcache.EnvVar); !ok {
		_ = os.Setenv(diskcache.EnvVar, diskcache.Off)
	}
}

// allNaN reports whether every element is NaN (poisoned, never written).
func allNaN(v []float32) bool {
	for _, x := range v {
		if x == x {
			return false
		}
	}
	return true
}

// TestGraphReplay records three dependent Assigns, checks that recording
// ran nothing, replays the graph twice (on a stream of its own, then on the
// default stream) with new contents in its input in between, and checks
// each replay against the CPU.
func TestGraphReplay(t *testing.T) {
	const n = 5000
	hostA, hostB := tensor.Rand[float32](11, n), tensor.Rand[float32](12, n)
	a, b := toGPU(t, hostA), toGPU(t, hostB)
	x, y, z := poisoned[float32](t, shape.Shape{n}), poisoned[float32](t, shape.Shape{n}), poisoned[float32](t, shape.Shape{n})
	// Structures no other test uses, so that the recording also compiles.
	fx := func(a *tensor.Tensor[float32]) expr.Exp[float32] {
		return expr.Of(a).MulScalar(2).AddScalar(1).Neg().Neg()
	}
	fy := func(x, b *tensor.Tensor[float32]) expr.Exp[float32] { return expr.Of(x).Mul(b).Neg().Abs() }
	fz := func(y, a *tensor.Tensor[float32]) expr.Exp[float32] { return expr.Of(y).Sub(a).Abs().Neg() }
	want := func(ha *tensor.Tensor[float32]) (wx, wz []float32) {
		hx, err := kernels.Eval(fx(ha))
		if err != nil {
			t.Fatal(err)
		}
		hy, _ := kernels.Eval(fy(hx, hostB))
		hz, _ := kernels.Eval(fz(hy, ha))
		return hx.Data(), hz.Data()
	}

	before := gpu.KernelStats()
	g, err := gpu.Record(func(s *Stream) error {
		if err := Assign(s, x, fx(a)); err != nil {
			return err
		}
		if err := Assign(s, y, fy(x, b)); err != nil {
			return err
		}
		return Assign(s, z, fz(y, a))
	})
	if err != nil {
		t.Fatal(err)
	}
	recorded := gpu.KernelStats()
	if g.Kernels() != 3 || recorded.Launches-before.Launches != 3 {
		t.Errorf("Kernels() = %d, launches +%d; want 3 recorded", g.Kernels(), recorded.Launches-before.Launches)
	}
	if nodes, err := g.Nodes(); err != nil || nodes != 3 {
		t.Errorf("Nodes() = %d, %v; want 3", nodes, err)
	}
	if !allNaN(toHost(t, x)) || !allNaN(toHost(t, z)) {
		t.Fatal("recording ran the kernels")
	}

	s, err := gpu.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := g.Launch(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	wx, wz := want(hostA)
	if diff := cmp.Diff(wx, toHost(t, x), closeTo[float32]()); diff != "" {
		t.Errorf("first replay, x (-cpu +gpu):\n%s", diff)
	}
	if diff := cmp.Diff(wz, toHost(t, z), closeTo[float32]()); diff != "" {
		t.Errorf("first replay, z (-cpu +gpu):\n%s", diff)
	}

	// New contents in a (the same tensor), then a replay on the default stream.
	if err := kernels.Assign(a, expr.Of(a).MulScalar(-3)); err != nil {
		t.Fatal(err)
	}
	hostA2, _ := kernels.Eval(expr.Of(hostA).MulScalar(-3))
	if err := g.Launch(gpu.DefaultStream()); err != nil {
		t.Fatal(err)
	}
	if err := gpu.DefaultStream().Wait(); err != nil {
		t.Fatal(err)
	}
	_, wz2 := want(hostA2)
	if diff := cmp.Diff(wz2, toHost(t, z), closeTo[float32]()); diff != "" {
		t.Errorf("second replay, after a changed (-cpu +gpu):\n%s", diff)
	}
	if n := gpu.KernelStats().GraphLaunches - recorded.GraphLaunches; n != 2 {
		t.Errorf("GraphLaunches +%d; want 2", n)
	}

	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); !errors.Is(err, shape.ErrReleased) {
		t.Errorf("a second Close: %v; want ErrReleased", err)
	}
	if err := g.Launch(s); !errors.Is(err, shape.ErrReleased) {
		t.Errorf("Launch after Close: %v; want ErrReleased", err)
	}
}

// TestGraphHoldsStorage: the temporaries of recorded evaluations and the
// storage of their tensors stay until Graph.Close, even when the tensors
// are released meanwhile, and every replay still reads them.
func TestGraphHoldsStorage(t *testing.T) {
	m := gpu.Allocator()
	const rows, cols = 300, 200
	host := tensor.Rand[float32](21, rows, cols)
	tree := func(a *tensor.Tensor[float32]) expr.Exp[float32] {
		// Two reductions: at least one is a temporary.
		return expr.Of[float32](expr.Sum[float32](a, expr.Axis(1))).Add(expr.Max[float32](a, expr.Axis(1)))
	}
	wantT, err := kernels.Eval(tree(host))
	if err != nil {
		t.Fatal(err)
	}
	before := m.Stats().BytesInUse
	a := toGPU(t, host)
	out := poisoned[float32](t, shape.Shape{rows})
	withTensors := m.Stats().BytesInUse
	g, err := gpu.Record(func(s *Stream) error { return Assign(s, out, tree(a)) })
	if err != nil {
		t.Fatal(err)
	}
	if m.Stats().BytesInUse <= withTensors {
		t.Errorf("bytes in use %d after recording, %d before: the recording's temporaries were given back", m.Stats().BytesInUse, withTensors)
	}
	if err := a.Release(); err != nil { // takes effect at Close
		t.Fatal(err)
	}
	for replay := range 2 {
		if err := g.Launch(gpu.DefaultStream()); err != nil {
			t.Fatal(err)
		}
		if err := gpu.DefaultStream().Wait(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantT.Data(), toHost(t, out), closeTo[float32]()); diff != "" {
			t.Errorf("replay %d (-cpu +gpu):\n%s", replay, diff)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	_ = out.Release()
	if after := m.Stats().BytesInUse; after != before {
		t.Errorf("bytes in use: %d before, %d after Close and releasing everything", before, after)
	}
}

// TestRecordErrors: what a recording stream refuses, and a recording that
// fails or panics, which gives back what it took and leaves the device
// usable.
func TestRecordErrors(t *testing.T) {
	m := gpu.Allocator()
	a := toGPU(t, tensor.Rand[float64](31, 64, 64))
	out := poisoned[float64](t, shape.Shape{64})
	inUse := m.Stats().BytesInUse
	sentinel := errors.New("the caller's own failure")
	var kept *Stream
	g, err := gpu.Record(func(s *Stream) error {
		kept = s
		if err := Assign(s, out, expr.Of[float64](expr.Sum[float64](a, expr.Axis(0))).Add(expr.Max[float64](a, expr.Axis(0)))); err != nil {
			return err
		}
		return sentinel
	})
	var ce *CaptureError
	if g != nil || !errors.Is(err, sentinel) || !errors.Is(err, ErrCapture) || !errors.As(err, &ce) || ce.Op != "Device.Record" {
		t.Errorf("Record with a failing function: %v, %v; want a *CaptureError wrapping the function's error", g, err)
	}
	if got := m.Stats().BytesInUse; got != inUse {
		t.Errorf("bytes in use %d after a failed recording; want %d", got, inUse)
	}
	if err := Assign(kept, out, expr.Of(out).AddScalar(1)); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Assign on a recording stream after Record returned: %v; want ErrInvalid", err)
	}
	if !allNaNf64(toHost(t, out)) {
		t.Error("a failed recording ran its kernels")
	}

	var waitErr, closeErr, gemmErr error
	var idle bool
	prod := poisoned[float64](t, shape.Shape{64, 64})
	g, err = gpu.Record(func(s *Stream) error {
		if err := Assign(s, out, expr.Of[float64](expr.Sum[float64](a, expr.Axis(1))).MulScalar(2)); err != nil {
			return err
		}
		waitErr, closeErr, idle = s.Wait(), s.Close(), s.Idle()
		gemmErr = Assign(s, prod, expr.MatMul[float64](a, a))
		return nil
	})
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	defer g.Close()
	for name, err := range map[string]error{"Wait": waitErr, "Close": closeErr, "MatMul": gemmErr} {
		if !errors.Is(err, ErrCapture) || !errors.As(err, &ce) {
			t.Errorf("%s on a recording stream: %v; want a *CaptureError", name, err)
		}
	}
	if idle {
		t.Error("a recording stream reported idle")
	}
	if g.Kernels() < 1 {
		t.Errorf("Kernels() = %d; want the reduction recorded", g.Kernels())
	}
	if err := g.Launch(gpu.DefaultStream()); err != nil {
		t.Fatal(err)
	}
	if err := gpu.DefaultStream().Wait(); err != nil {
		t.Fatal(err)
	}
	want, _ := kernels.Eval(expr.Of[float64](expr.Sum[float64](toHostTensor(t, a), expr.Axis(1))).MulScalar(2))
	if diff := cmp.Diff(want.Data(), toHost(t, out), closeTo[float64]()); diff != "" {
		t.Errorf("replay (-cpu +gpu):\n%s", diff)
	}

	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v; want the function's panic", r)
			}
		}()
		_, _ = gpu.Record(func(s *Stream) error {
			_ = Assign(s, out, expr.Of[float64](expr.Sum[float64](a, expr.Axis(0))))
			panic("boom")
		})
	}()
	g2, err := gpu.Record(func(s *Stream) error { return Assign(s, out, expr.Of[float64](expr.Sum[float64](a, expr.Axis(1)))) })
	if err != nil {
		t.Fatalf("Record after a panicking one: %v", err)
	}
	if err := g2.Close(); err != nil {
		t.Error(err)
	}
	if _, err := gpu.Record(nil); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Record(nil): %v; want ErrInvalid", err)
	}
	if err := g.Launch(nil); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Launch(nil): %v; want ErrInvalid", err)
	}
}

func allNaNf64(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}

func toHostTensor[T tensor.Number](t *testing.T, d *tensor.Tensor[T]) *tensor.Tensor[T] {
	t.Helper()
	h, err := d.To(alloc.CPU)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// spy is the CUDA backend, keeping a copy of the last kernel it launched.
type spy struct {
	backend
	last *kernels.Kernel
}

func (s *spy) Launch(q kernels.Queue, k *kernels.Kernel) error {
	c := *k
	c.Params = slices.Clone(k.Params)
	s.last = &c
	return s.backend.Launch(q, k)
}

// kernelOf runs kernels.Assign(dst, e) and returns (a copy of) the last
// kernel it launched; its parameters keep pointing at dst and e's tensors.
func kernelOf[T tensor.Number](t *testing.T, dst *tensor.Tensor[T], e expr.Exp[T]) *kernels.Kernel {
	t.Helper()
	sp := &spy{}
	kernels.RegisterBackend(alloc.KindCUDA, sp)
	defer kernels.RegisterBackend(alloc.KindCUDA, backend{})
	if err := kernels.Assign(dst, e); err != nil {
		t.Fatal(err)
	}
	if sp.last == nil {
		t.Fatal("no kernel launched")
	}
	return sp.last
}

// TestLaunchHostCost: a launch of a cached kernel allocates nothing, and
// its host time is logged (the raw driver launch is about 3 µs on an H100).
func TestLaunchHostCost(t *testing.T) {
	const n = 1 << 12
	a := toGPU(t, tensor.Rand[float32](41, n))
	out := poisoned[float32](t, shape.Shape{n})
	k := kernelOf(t, out, expr.Of(a).MulScalar(3).AddScalar(2))
	s := gpu.DefaultStream()
	before := gpu.KernelStats()
	allocs := testing.AllocsPerRun(1000, func() {
		if err := gpu.launch(s, k); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per launch of a cached kernel; want 0", allocs)
	}
	const reps = 20000
	start := time.Now()
	for range reps {
		if err := gpu.launch(s, k); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start) / reps
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	after := gpu.KernelStats()
	if got := after.Launches - before.Launches; got != 1001+reps || after.Hits-before.Hits != 1001+reps {
		t.Errorf("launches +%d, hits +%d; want %d each", got, after.Hits-before.Hits, 1001+reps)
	}
	t.Logf("host time per launch of a cached kernel: %v", took)
	want, _ := kernels.Eval(expr.Of(toHostTensor(t, a)).MulScalar(3).AddScalar(2))
	if diff := cmp.Diff(want.Data(), toHost(t, out), closeTo[float32]()); diff != "" {
		t.Errorf("(-cpu +gpu):\n%s", diff)
	}
}
