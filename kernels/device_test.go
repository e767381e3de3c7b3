package kernels

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The device tests run the device path of the evaluator against a
// recording backend on a fake device: what is launched, in what order,
// with which parameters, and what is waited for and given back. The
// kernels themselves run only on a GPU (package cuda's tests).

var fakeGPU = fakedev.New(alloc.CUDA(5))

// recorder is a Backend and Queue that records instead of running.
type recorder struct {
	mu       sync.Mutex
	launches []*Kernel
	gemms    []Gemm
	waits    int
	deferred []func()
	fail     error
}

func (r *recorder) DefaultQueue(alloc.Device) (Queue, error) { return r, nil }
func (r *recorder) Device() alloc.Device                     { return alloc.CUDA(5) }

func (r *recorder) Launch(_ Queue, k *Kernel) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	kept := *k // Launch must not keep k: the evaluator reuses it
	kept.Params = slices.Clone(k.Params)
	r.launches = append(r.launches, &kept)
	return r.fail
}

func (r *recorder) Gemm(_ Queue, g Gemm) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gemms = append(r.gemms, g)
	return nil
}

func (r *recorder) Wait() error {
	r.waits++
	for _, f := range r.deferred {
		f()
	}
	r.deferred = nil
	return nil
}

func (r *recorder) Defer(f func()) { r.deferred = append(r.deferred, f) }

// withRecorder registers a fresh recorder as the CUDA backend for one test.
func withRecorder(t *testing.T) *recorder {
	r := &recorder{}
	RegisterBackend(alloc.KindCUDA, r)
	t.Cleanup(unregisterRecorder)
	return r
}

// unregisterRecorder removes the CUDA backend a test registered.
func unregisterRecorder() {
	RegisterBackend(alloc.KindCUDA, nil)
}

func onGPU[T tensor.Number](t *testing.T, h *tensor.Tensor[T]) *tensor.Tensor[T] {
	t.Helper()
	d, err := h.To(alloc.CUDA(5))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDeviceLaunches(t *testing.T) {
	r := withRecorder(t)
	a := onGPU(t, tensor.Rand[float32](1, 64, 32))
	b := onGPU(t, tensor.Rand[float32](2, 32))
	w := onGPU(t, tensor.Rand[float32](3, 32, 32))
	dst := tensor.New[float32](shape.Shape{64, 32}, tensor.WithAllocator(fakeGPU))
	before := fakeGPU.Stats().BytesInUse
	cases := []struct {
		name     string
		e        expr.Exp[float32]
		launches []bool // per launch: a reduction?
		gemms    int
	}{
		{"elementwise tree: one launch", expr.Of[float32](a).Mul(a).MulScalar(2).Add(b).Sigmoid(), []bool{false}, 0},
		// A mean over 64 rows of 32 columns splits into partials: the
		// partials, the kernel that folds them, then the tree.
		{"reduction then the tree", expr.Of[float32](a).Sub(expr.Mean[float32](a, expr.Axis(0))), []bool{true, true, false}, 0},
		{"product into dst, then the tree over it", expr.Of[float32](expr.MatMul[float32](a, w)).Add(b).ReLU(), []bool{false}, 1},
		{"overlap: the operand copied first", expr.Of[float32](dst.T().T()).AddScalar(1), []bool{false}, 0},
		{"scalar fill", expr.Scalar[float32](3), []bool{false}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r.launches, r.gemms, r.waits = nil, nil, 0
			if err := Assign(dst, c.e); err != nil {
				t.Fatal(err)
			}
			if len(r.launches) != len(c.launches) || len(r.gemms) != c.gemms || r.waits != 1 {
				t.Fatalf("%d launches, %d gemms, %d waits; want %d, %d, 1", len(r.launches), len(r.gemms), r.waits, len(c.launches), c.gemms)
			}
			for i, k := range r.launches {
				if k.Reduction != c.launches[i] {
					t.Errorf("launch %d: reduction %t, want %t", i, k.Reduction, c.launches[i])
				}
			}
			last := r.launches[len(r.launches)-1]
			if want := uint64(dst.Mem(friend.K).Ptr()); last.Params[0] != want || last.Work != 64*32 {
				t.Errorf("last launch writes %#x over %d elements; want dst at %#x, 2048", last.Params[0], last.Work, want)
			}
		})
	}
	// > rather than !=: the collector's cleanups may release other tests'
	// unreachable device tensors meanwhile.
	if after := fakeGPU.Stats().BytesInUse; after > before {
		t.Errorf("device bytes in use %d after the assignments, %d before: temporaries not given back", after, before)
	}
}

func TestDeviceErrors(t *testing.T) {
	host := tensor.Ones[float32](4)
	gpu := tensor.New[float32](shape.Shape{4}, tensor.WithAllocator(fakeGPU))
	err := Assign(gpu, expr.Of[float32](gpu))
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cuda:5") || !strings.Contains(err.Error(), "package cuda") {
		t.Errorf("Assign with no backend: %v", err)
	}
	r := withRecorder(t)
	err = Assign(gpu, expr.Add[float32](gpu, host))
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cpu") || !strings.Contains(err.Error(), "cuda:5") {
		t.Errorf("mixing CPU and GPU operands: %v; want a DeviceError naming both", err)
	}
	err = Assign(host, expr.Add[float32](gpu, gpu))
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cpu") || !strings.Contains(err.Error(), "cuda:5") {
		t.Errorf("a CPU destination for a GPU tree: %v", err)
	}
	i := tensor.New[int32](shape.Shape{4, 4}, tensor.WithAllocator(fakeGPU))
	j := tensor.New[int32](shape.Shape{4, 4}, tensor.WithAllocator(fakeGPU))
	r.launches = nil
	if err := Assign(j, expr.Of[int32](expr.MatMul[int32](i, i))); err != nil || len(r.launches) != 1 || !strings.HasPrefix(r.launches[0].Key, "gemm int32") {
		t.Errorf("an int32 product on the GPU: %v, %d launches; want one generated gemm int32 kernel", err, len(r.launches))
	}
	r.launches = nil
	r.fail = errors.New("launch failed")
	if err := Assign(gpu, expr.Of[float32](gpu).AddScalar(1)); err == nil || err.Error() != "launch failed" {
		t.Errorf("a failing launch: %v", err)
	}
	if len(r.launches) != 1 {
		t.Errorf("%d launches after a failure; the evaluation must stop at the first", len(r.launches))
	}
}

func TestAssignOnQueue(t *testing.T) {
	r := withRecorder(t)
	a := onGPU(t, tensor.Rand[float64](1, 8, 8))
	dst := tensor.New[float64](shape.Shape{8}, tensor.WithAllocator(fakeGPU))
	before := fakeGPU.Stats().BytesInUse
	if err := AssignOn[float64](r, dst, expr.Of[float64](expr.Sum[float64](a, expr.Axis(1)))); err != nil {
		t.Fatal(err)
	}
	if r.waits != 0 || len(r.deferred) != 1 || len(r.launches) != 2 {
		t.Fatalf("AssignOn: %d waits, %d deferred, %d launches; want 0, 1, 2", r.waits, len(r.deferred), len(r.launches))
	}
	if fakeGPU.Stats().BytesInUse == before {
		t.Error("the reduction's temporary was given back before the queue ran it")
	}
	_ = r.Wait()
	if after := fakeGPU.Stats().BytesInUse; after > before { // cleanups may lower it meanwhile
		t.Errorf("after Wait: %d bytes in use, %d before", after, before)
	}
	if err := AssignOn[float64](nil, dst, expr.Of[float64](dst)); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("AssignOn with no queue: %v", err)
	}
}

func TestCUDASourceOfDeviceTensors(t *testing.T) {
	d := tensor.New[float32](shape.Shape{3, 4}, tensor.WithAllocator(fakeGPU))
	src, err := CUDASource(d, expr.Of[float32](d.T().T()).Add(expr.Sum[float32](d, expr.Axis(0))))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(src, "__global__"); n != 2 {
		t.Errorf("%d kernels; want 2 (the sum, then the tree reading dst in place):\n%s", n, src)
	}
}
