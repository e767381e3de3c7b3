package interp

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The device tests run the interpreter on a fake GPU (internal/fakedev)
// with a backend that records the kernels it is asked to launch and runs
// none: they check what -device cuda -explain is built from (the plan and
// the CUDA source, computed for a destination on the device), not values,
// which only a GPU computes (cmd/exprdemo's cuda_cli_test.go, tag cuda).

var fakeGPU = fakedev.New(alloc.CUDA(7))

// launchRecorder is a kernels.Backend and Queue that records launches.
type launchRecorder struct {
	mu    sync.Mutex
	names []string
	gemms int
}

func (r *launchRecorder) DefaultQueue(alloc.Device) (kernels.Queue, error) { return r, nil }
func (r *launchRecorder) Device() alloc.Device                             { return alloc.CUDA(7) }
func (r *launchRecorder) Wait() error                                      { return nil }
func (r *launchRecorder) Defer(f func())                                   { f() }

func (r *launchRecorder) Launch(_ kernels.Queue, k *kernels.Kernel) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, k.Name)
	return nil
}

func (r *launchRecorder) Gemm(kernels.Queue, kernels.Gemm) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gemms++
	return nil
}

// TestExplainOnDevice is issue 16's command (exprdemo eval -device cuda
// -explain -rand x=2x3:int32 'x / 2 + x.T.sum()'), which failed with
// "Explain: the destination and the expression are on different devices:
// cpu and cuda:0" as the explanation's destination was made on the CPU.
func TestExplainOnDevice(t *testing.T) {
	x, _ := tensor.Arange[int32](0, 6, 1).View(2, 3)
	a, _ := tensor.Arange[float32](0, 6, 1).View(2, 3)
	inputs := map[string]Input{"x": {Int32, x}, "a": {Float32, a}}
	tests := []struct {
		src      string
		shape    shape.Shape
		plan     []string // substrings of Result.Plan, in order
		computed int      // evaluations before the last (a view of an expression)
	}{
		{"x / 2 + x.T.sum()", shape.Of(2, 3), []string{"step 1: t1 () int64 = sum of int64(x.T)", "CUDA kernel laze_", "a reduction into 1 result\n",
			"dst (2,3) float64 = ((float64(x) / 2) + float64(sum(int64(x.T))))", "CUDA kernel laze_", "6 elements", "converted as read"}, 0},
		{"relu(a - 2) @ a.T + sum(a)", shape.Of(2, 2), []string{"sum of a", "CUDA kernel", "@ a.T on cuda:7", "cuBLAS sgemm"}, 0},
		{"(a + 1).T * 2", shape.Of(3, 2), []string{"step 1: dst (3,2) float32 = ((a + 1).T * 2)", "CUDA kernel",
			"views pushed down to the tensors: (a + 1).T is read as (a.T + 1)", "in0  a.T strides (1,3)"}, 0},
		{"(a.T + 1).reshape(6)[::2]", shape.Of(3), []string{"step 1: t1 (3,2) float32 = a.T", "CUDA kernel",
			"step 2: dst (3,) float32", "CUDA kernel", "materialised: a.T.reshape(6) needs a copy", "in0  t1 strides (2,)"}, 1},
		// NumPy's views of a device tensor: O(1) views.
		{"np.flip(a, 0) * 2", shape.Of(2, 3), []string{"step 1: dst (2,3) float32 = (np.flip(a, 0) * 2)", "CUDA kernel", "in0  np.flip(a, 0) strides (-3,1) offset 3"}, 0},
		// A ravel the strides do not allow, at the root's spine: the pass
		// runs in the transpose's shape, into the result split to it.
		{"a.T.ravel() + 1", shape.Of(6), []string{"step 1: dst.reshape(3, 2) (3,2) float32 = (a.T + 1)", "CUDA kernel",
			"in0  a.T strides (1,3)"}, 0},
		{"np.diagonal(a + 1, 1)", shape.Of(2), []string{"views pushed down to the tensors", "in0  a.diagonal(1, 0, 1) strides (4,) offset 1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			rec := &launchRecorder{}
			kernels.RegisterBackend(alloc.KindCUDA, rec)
			r, err := RunWith(tt.src, inputs, Options{Explain: true, Device: alloc.CUDA(7)})
			if err != nil {
				t.Fatal(err)
			}
			if d := r.Tensor.(interface{ Device() alloc.Device }).Device(); d != alloc.CUDA(7) {
				t.Errorf("the result is on %v; want cuda:7", d)
			}
			if diff := cmp.Diff(tt.shape, r.Shape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			rest := r.Plan
			for _, w := range tt.plan {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Fatalf("missing (or out of order) %q in the plan:\n%s", w, r.Plan)
				}
				rest = rest[k+len(w):]
			}
			if strings.Contains(r.Plan, "goroutine") {
				t.Errorf("a device plan describes the CPU's loops:\n%s", r.Plan)
			}
			// The CUDA source is the final evaluation's: as many kernels as
			// it launched, the last ones. (Names may differ: a kernel's
			// variant may depend on the addresses of its operands, and the
			// source is made for another destination than the result.)
			inSource := strings.Count(r.CUDA, "__global__ void laze_")
			if inSource == 0 || inSource > len(rec.names) || tt.computed == 0 && inSource != len(rec.names) {
				t.Errorf("%d kernels in the source, %d launched (%d evaluations before the last):\n%s", inSource, len(rec.names), tt.computed, r.CUDA)
			}
		})
	}
	if n := fakeGPU.Stats().BytesInUse; n == 0 {
		t.Error("no device memory in use: the inputs did not move to the fake GPU")
	}
}
