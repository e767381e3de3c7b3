//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// These tests need a GPU: gorgonia.org/cu ends the process at start-up
// where there is no CUDA driver, so they cannot skip themselves; make
// cuda-test runs them only where nvidia-smi finds a GPU, and make
// cuda-check only builds them.

var gpu *Device

func TestMain(m *testing.M) {
	var err error
	if gpu, err = Open(0); err != nil {
		fmt.Fprintln(os.Stderr, "cuda tests: no GPU:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "cuda tests on %s (%s)\n", gpu.Name(), gpu.Arch())
	os.Exit(m.Run())
}

func toGPU[T tensor.Number](t *testing.T, h *tensor.Tensor[T]) *tensor.Tensor[T] {
	t.Helper()
	d, err := h.To(alloc.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func toHost[T tensor.Number](t *testing.T, d *tensor.Tensor[T]) []T {
	t.Helper()
	h, err := d.To(alloc.CPU)
	if err != nil {
		t.Fatal(err)
	}
	return h.Contiguous().Data()
}

// poisoned returns a device tensor of shape s filled with a value no
// evaluation produces, so that an element the kernel skips shows.
func poisoned[T tensor.Number](t *testing.T, s shape.Shape) *tensor.Tensor[T] {
	h := tensor.New[T](s)
	poison := T(123)
	if tensor.IsFloat[T]() {
		poison = T(math.NaN())
	}
	h.Fill(poison)
	return toGPU(t, h)
}

// closeTo compares with a tolerance fit for the element type: GPU and Go
// transcendental functions differ in the last bits. Equal values (infinities
// included) and two NaNs match.
func closeTo[T tensor.Number]() cmp.Option {
	var zero T
	switch any(zero).(type) {
	case float32:
		return cmp.Comparer(func(x, y float32) bool { return near(float64(x), float64(y), 1e-4, 1e-5) })
	case float64:
		return cmp.Comparer(func(x, y float64) bool { return near(x, y, 1e-9, 1e-12) })
	}
	return cmp.Options{}
}

func near(x, y, rel, abs float64) bool {
	if x == y || (x != x && y != y) {
		return true
	}
	d := math.Abs(x - y)
	return d <= abs || d <= rel*math.Max(math.Abs(x), math.Abs(y))
}

// randomLeaves returns makeLeaves' leaves (difftree_test.go), their
// bases copied to the GPU.
func randomLeaves[T tensor.Number](t *testing.T, r *rand.Rand, rows, cols int) leafSet[T] {
	return makeLeaves(r, rows, cols, func(h *tensor.Tensor[T]) *tensor.Tensor[T] { return toGPU(t, h) })
}

// differential checks random trees on the GPU against the CPU evaluator.
// The destination has the tree's shape, which the generator makes (rows,
// cols) (TestRandomTreeShapes checks that on the CPU); a third of the
// destinations are transposes.
func differential[T tensor.Number](t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for trial := range 40 {
		rows, cols := trialDims(r)
		ls := randomLeaves[T](t, r, rows, cols)
		he, de := randomTree(r, 4, true, ls)
		dims := he.Shape()
		want := tensor.New[T](dims)
		if err := kernels.Assign(want, he); err != nil {
			t.Fatalf("trial %d: CPU: %v", trial, err)
		}
		got := poisoned[T](t, dims)
		if r.IntN(3) == 0 && len(dims) == 2 { // a transposed destination
			got = poisoned[T](t, shape.Shape{dims[1], dims[0]}).T()
		}
		before := gpu.KernelStats().Launches
		if err := kernels.Assign(got, de); err != nil {
			t.Fatalf("trial %d: GPU: %v\n%v", trial, err, de)
		}
		if n := gpu.KernelStats().Launches - before; n != 1 {
			t.Errorf("trial %d: %d launches for an elementwise tree; want 1", trial, n)
		}
		if diff := cmp.Diff(want.Data(), toHost(t, got), closeTo[T]()); diff != "" {
			t.Fatalf("trial %d: %v on %v (-cpu +gpu):\n%s", trial, he, dims, diff)
		}
	}
}

func TestDifferentialFloat32(t *testing.T) { differential[float32](t, 1) }
func TestDifferentialFloat64(t *testing.T) { differential[float64](t, 2) }
func TestDifferentialInt32(t *testing.T)   { differential[int32](t, 3) }
func TestDifferentialInt64(t *testing.T)   { differential[int64](t, 4) }
func TestDifferentialUint8(t *testing.T)   { differential[uint8](t, 5) }

func TestReductionsAndProducts(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	ls := randomLeaves[float64](t, r, 33, 700)
	host, dev := ls.host, ls.dev
	a, da := host[0], dev[0]
	w := tensor.Rand[float64](3, 700, 40)
	dw := toGPU(t, w)
	c, w3, w2 := tensor.Rand[float64](4, 700, 33), tensor.Rand[float64](6, 3, 700, 40), tensor.Rand[float64](5, 3, 40, 700)
	dc, dw3, dw2 := toGPU(t, c), toGPU(t, w3), toGPU(t, w2)
	type check struct {
		name   string
		hostFn func() (*tensor.Tensor[float64], error)
		devFn  func() (*tensor.Tensor[float64], error)
	}
	cases := []check{
		{"sum axis 1", func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Sum[float64](expr.Of(a).Mul(a), expr.Axis(1)))
		},
			func() (*tensor.Tensor[float64], error) {
				return kernels.Eval[float64](expr.Sum[float64](expr.Of(da).Mul(da), expr.Axis(1)))
			}},
		{"mean all", func() (*tensor.Tensor[float64], error) { return kernels.Eval[float64](expr.Mean[float64](a)) },
			func() (*tensor.Tensor[float64], error) { return kernels.Eval[float64](expr.Mean[float64](da)) }},
		{"max axis 0 of a transpose", func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Max[float64](host[1], expr.Axis(0)))
		},
			func() (*tensor.Tensor[float64], error) {
				return kernels.Eval[float64](expr.Max[float64](dev[1], expr.Axis(0)))
			}},
		{"relu(a @ w + 1)", func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of[float64](expr.MatMul[float64](a, w)).AddScalar(1).ReLU())
		}, func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of[float64](expr.MatMul[float64](da, dw)).AddScalar(1).ReLU())
		}},
		// transposed operands: the tiled elementwise kernel
		{"a.T * 2 + c (tiled)", func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of(a.T()).MulScalar(2).Add(c))
		}, func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of(da.T()).MulScalar(2).Add(dc))
		}},
		{"w3.permute(0, 2, 1)[:, ::-1] - w2 (tiled, batched, reversed)", func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of(w3.Permute(0, 2, 1).Slice(1, tensor.None, tensor.None, -1)).Sub(w2))
		}, func() (*tensor.Tensor[float64], error) {
			return kernels.Eval[float64](expr.Of(dw3.Permute(0, 2, 1).Slice(1, tensor.None, tensor.None, -1)).Sub(dw2))
		}},
		{"a.T @ a (transposed operand)", func() (*tensor.Tensor[float64], error) { return kernels.Eval[float64](expr.MatMul[float64](a.T(), a)) },
			func() (*tensor.Tensor[float64], error) {
				return kernels.Eval[float64](expr.MatMul[float64](da.T(), da))
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := c.hostFn()
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.devFn()
			if err != nil {
				t.Fatal(err)
			}
			if got.Device() != alloc.CUDA(0) {
				t.Fatalf("result on %v", got.Device())
			}
			if diff := cmp.Diff(want.Data(), toHost(t, got), cmpopts.EquateApprox(1e-9, 1e-9)); diff != "" {
				t.Errorf("(-cpu +gpu):\n%s", diff)
			}
		})
	}
	idxWant, _ := kernels.Eval[int64](expr.ArgMax[float64](a, expr.Axis(1)))
	idxGot, err := kernels.Eval[int64](expr.ArgMax[float64](da, expr.Axis(1)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(idxWant.Data(), toHost(t, idxGot)); diff != "" {
		t.Errorf("argmax (-cpu +gpu):\n%s", diff)
	}
}

func TestKernelCache(t *testing.T) {
	a := toGPU(t, tensor.Rand[float32](1, 1000))
	b := toGPU(t, tensor.Rand[float32](2, 50, 70))
	out1 := poisoned[float32](t, shape.Shape{1000})
	out2 := poisoned[float32](t, shape.Shape{50, 70})
	// A structure no other test uses: a*s - a, contiguous, float32.
	first := gpu.KernelStats()
	if err := kernels.Assign(out1, expr.Of(a).MulScalar(2).Sub(a).Sqrt().Sqrt()); err != nil {
		t.Fatal(err)
	}
	second := gpu.KernelStats()
	flatOut, _ := out2.View(3500)
	flatB, _ := b.View(3500)
	if err := kernels.Assign(flatOut, expr.Of(flatB).MulScalar(3).Sub(flatB).Sqrt().Sqrt()); err != nil {
		t.Fatal(err)
	}
	third := gpu.KernelStats()
	if second.Compiled-first.Compiled != 1 || third.Compiled != second.Compiled || third.Hits-second.Hits != 1 {
		t.Errorf("compiled %d then %d, hits +%d; want one compilation, then a hit for other sizes and scalars",
			second.Compiled-first.Compiled, third.Compiled-second.Compiled, third.Hits-second.Hits)
	}
	// Two goroutines asking for one new kernel compile it once.
	before := gpu.KernelStats().Compiled
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			out := tensor.New[float32](shape.Shape{1000}, tensor.WithAllocator(gpu.Allocator()))
			if err := kernels.Assign(out, expr.Of(a).Tanh().Tanh().Tanh().AddScalar(7)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := gpu.KernelStats().Compiled - before; n != 1 {
		t.Errorf("%d compilations for one new kernel asked by 4 goroutines; want 1", n)
	}
}

func TestMemoryReturned(t *testing.T) {
	m := gpu.Allocator()
	before := settledStats(m)
	func() {
		a := toGPU(t, tensor.Rand[float64](1, 512, 512))
		out := tensor.New[float64](shape.Shape{512}, tensor.WithAllocator(m))
		if err := kernels.Assign(out, expr.Of[float64](expr.Sum[float64](expr.Of(a).Exp(), expr.Axis(0)))); err != nil {
			t.Fatal(err)
		}
		_ = a.Release()
		_ = out.Release()
	}()
	after := settledStats(m)
	if after.BytesInUse != before.BytesInUse {
		t.Errorf("bytes in use: %d before, %d after releasing everything", before.BytesInUse, after.BytesInUse)
	}
	m.EmptyCache()
	if m.Stats().BytesCached != 0 {
		t.Errorf("EmptyCache left %d bytes cached", m.Stats().BytesCached)
	}
}

// settledStats returns m's statistics once the tensors earlier tests left
// unreachable have given their memory back: a garbage collection queues
// their cleanups (runtime.AddCleanup), which run on their own goroutine,
// so it collects until two readings agree (under compute-sanitizer, whose
// slower run leaves more of them pending, one collection was not enough).
func settledStats(m alloc.DeviceAllocator) alloc.Stats {
	prev := m.Stats()
	for range 50 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		s := m.Stats()
		if s.BytesInUse == prev.BytesInUse {
			return s
		}
		prev = s
	}
	return prev
}

func TestStreams(t *testing.T) {
	s, err := gpu.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := tensor.Rand[float32](5, 1<<20)
	a := toGPU(t, h)
	out := poisoned[float32](t, shape.Shape{1 << 20})
	for range 10 {
		if err := Assign(s, out, expr.Of(a).MulScalar(2).AddScalar(1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	if !s.Idle() {
		t.Error("a stream is not idle after Wait")
	}
	want, _ := kernels.Eval[float32](expr.Of(h).MulScalar(2).AddScalar(1))
	if diff := cmp.Diff(want.Data(), toHost(t, out)); diff != "" {
		t.Errorf("(-cpu +gpu):\n%s", diff)
	}
}

// TestDeviceRules checks what device tensors do that CPU ones do not, or
// do alike. Printing: a device tensor prints its values as the CPU tensor
// it was copied from does (NumPy's str; CuPy prints a device array's values
// the same way), floats with their point ("0."), so fmt.Sprint(d) equals
// fmt.Sprint(h); only %+v tells them apart, by its device=.
func TestDeviceRules(t *testing.T) {
	h := tensor.Arange[float32](0, 6, 1)
	d := toGPU(t, h)
	m, _ := tensor.Arange[int32](0, 6, 1).View(2, 3)
	dm := toGPU(t, m)
	prints := []struct {
		name      string
		got, want string
	}{
		{"float32 vector", fmt.Sprint(d), "[0. 1. 2. 3. 4. 5.]"},
		{"as its host copy prints", fmt.Sprint(d), fmt.Sprint(h)},
		{"int32 matrix, transposed", fmt.Sprint(dm.T()), "[[0 3]\n [1 4]\n [2 5]]"},
		{"%.1v", fmt.Sprintf("%.1v", toGPU(t, tensor.Full[float64](0.25, 2))), "[0.2 0.2]"},
		{"%+v names the device", fmt.Sprintf("%+v", d),
			"[0. 1. 2. 3. 4. 5.]\ndtype=float32 shape=(6,) strides=(1,) offset=0 device=cuda:0"},
	}
	for _, p := range prints {
		if diff := cmp.Diff(p.want, p.got); diff != "" {
			t.Errorf("printing a device tensor, %s (-want +got):\n%s", p.name, diff)
		}
	}
	err := kernels.Assign(d, expr.Add[float32](d, tensor.Ones[float32](6)))
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cpu") || !strings.Contains(err.Error(), "cuda:0") {
		t.Errorf("mixing devices: %v", err)
	}
	_, err = compilePTX("broken", `extern "C" __global__ void broken() { undeclared = 1; }`, gpu.Arch())
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(ce.Log, "undeclared") || !strings.Contains(ce.Source, "broken") {
		t.Errorf("a compile error must carry the log and the source: %v", err)
	}
}
