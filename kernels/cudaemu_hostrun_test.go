package kernels

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestEmulatedHostSteps runs, in the emulator, trees whose steps have no
// device kernel (sorts, partitions, searchsorted, gathers, scatter-adds):
// each runs on the host between device kernels (hostrun.go), reading what
// the kernels before it wrote and written where the kernels after it read,
// and the destination must equal the CPU's.
func TestEmulatedHostSteps(t *testing.T) {
	b := emulator(t)
	x := emuTensor(withNaNs(emuRandom[float64](80, 10), 11), 23, 17)
	v := emuTensor(emuRandom[float64](81, 12), 5, 9)
	indices := func(v expr.Exp[float64]) expr.Exp[int64] { // 0 ≤ |v| < 12, as int64
		return expr.Cast[int64](expr.Floor(expr.Abs(v)))
	}
	cases := []emuCase[float64, float64]{
		{name: "sort inside a tree", operands: tensors(x), dst: []int{23, 17},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Add(expr.Sort(expr.MulScalar[float64](x[0], 2), 1), x[0])
			})},
		{name: "median of a tree", operands: tensors(x), dst: []int{17},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Median(expr.Exponential(expr.DivScalar[float64](x[0], 4)), 0, false)
			})},
		{name: "quantile, keepdims, then a tree", operands: tensors(x), dst: []int{23, 1},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.AddScalar(expr.Quantile[float64](x[0], 0.3, 1, true), 1)
			})},
		{name: "take_along_axis by an argsort", operands: tensors(x), dst: []int{23, 17},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.MulScalar(expr.TakeAlongAxis[float64](x[0], expr.ArgSort[float64](x[0], 0), 0), 3)
			})},
		{name: "take by computed indices", operands: tensors(x, v), dst: []int{23, 5, 9},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Take(expr.AddScalar[float64](x[0], 1), indices(x[1]), 1)
			})},
		{name: "take of a transposed view, read where it lies", operands: tensors(x, v), dst: []int{5, 9, 23},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Take(expr.SwapAxes[float64](x[0], 0, 1), indices(x[1]), 0)
			})},
		{name: "searchsorted in a sorted ravel", operands: tensors(x, v), dst: []int{5, 9},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Cast[float64](expr.SearchSorted(expr.Sort(expr.Ravel[float64](x[0]), 0), expr.Of[float64](x[1]), false))
			})},
		{name: "add.at with repeated indices", operands: tensors(x, v), dst: []int{23, 17},
			build: into(func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				values := expr.Slice[float64](x[0], 1, 0, 9, 1)
				idx := indices(expr.Index[float64](x[1], 0, 0))
				return expr.AddAt[float64](expr.MulScalar[float64](x[0], 2), 1, values, idx)
			})},
	}
	for _, c := range cases {
		c.run(t, b)
	}
	argsort := emuCase[float64, int64]{name: "argsort into int64", operands: tensors(x), dst: []int{23, 17},
		build: func(x []*tensor.Tensor[float64], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
			return d, expr.ArgSort[float64](x[0], 1)
		}}
	argsort.run(t, b)
}

// TestEmulatedGatherOutOfRange checks that an index out of range in a
// gather on the device is the IndexError of the CPU, naming the index and
// the axis, and that the destination is left as it was: the indices are
// checked on the host before anything is copied back.
func TestEmulatedGatherOutOfRange(t *testing.T) {
	emulator(t)
	x, err := emuTensor(emuRandom[float64](82, 10), 4, 6).To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := mustFrom(t, []int64{1, -6, 6, 0}, 4).To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	before := emuTensor(func(k int) float64 { return float64(k) }, 4, 4)
	dst, err := before.To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	err = Assign(dst, expr.AddScalar(expr.Take[float64](x, idx, 1), 1))
	var ie *shape.IndexError
	if !errors.As(err, &ie) || ie.Index != 6 || ie.Dim != 1 || ie.Size != 6 {
		t.Fatalf("Assign = %v; want the IndexError of index 6 on axis 1 of size 6", err)
	}
	after, err := dst.To(alloc.CPU)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before.Data(), after.Data()); diff != "" {
		t.Errorf("a failed gather changed the destination (-before +after):\n%s", diff)
	}
}

// recordingQueue is the recorder of device_test.go as a queue being
// recorded into a graph.
type recordingQueue struct{ *recorder }

func (recordingQueue) Recording() bool { return true }

// TestHostStepsRefusedWhileRecording checks that a step that runs on the
// host is refused on a queue being recorded into a graph, before anything
// is queued: it would run once, at recording, and not at each replay.
func TestHostStepsRefusedWhileRecording(t *testing.T) {
	r := withRecorder(t)
	x := onGPU(t, tensor.Rand[float32](1, 8, 5))
	idx := onGPU(t, mustFrom(t, []int64{0, 2}, 2))
	dst := tensor.New[float32](shape.Shape{8, 5}, tensor.WithAllocator(fakeGPU))
	for _, c := range []struct {
		name, op string
		e        expr.Exp[float32]
		dst      *tensor.Tensor[float32]
	}{
		{"sort", "sort", expr.AddScalar(expr.Sort[float32](expr.MulScalar[float32](x, 2), 1), 1), dst},
		{"gather", "take", expr.Take[float32](x, idx, 0), dst.Slice(0, 0, 2, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			r.launches = nil
			err := AssignOn(recordingQueue{r}, c.dst, c.e)
			if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "recorded into a graph") || !strings.Contains(err.Error(), c.op) {
				t.Fatalf("AssignOn = %v; want a DeviceError naming %s and the graph", err, c.op)
			}
			if len(r.launches) != 0 {
				t.Errorf("%d kernels queued before the refusal; want none", len(r.launches))
			}
		})
	}
}

// TestExplainHostSteps checks that Explain of a device evaluation says
// where a step with no device kernel runs.
func TestExplainHostSteps(t *testing.T) {
	withRecorder(t)
	x := onGPU(t, tensor.Rand[float32](1, 8, 5))
	dst := tensor.New[float32](shape.Shape{8, 5}, tensor.WithAllocator(fakeGPU))
	got, err := Explain(dst, expr.AddScalar(expr.Sort[float32](expr.MulScalar[float32](expr.Name("x", x), 2), 1), 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"step 1: t1", "CUDA kernel laze_", "step 2: t2 (8,5) float32 = sort of t1 along axis 1",
		"on the host: sort of copies of its device operands", "step 3: dst"} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain lacks %q:\n%s", want, got)
		}
		got = got[max(0, strings.Index(got, want)):]
	}
	idx := onGPU(t, mustFrom(t, []int64{0, 2, 0}, 3))
	got, err = Explain(dst.Slice(0, 0, 3, 1), expr.AddScalar(expr.Take[float32](expr.Name("x", x), idx, 0), 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"= take of x by", "on the host: take's indices, copied and checked", "CUDA kernel laze_", ": a gather of 15 elements", "step 2: dst"} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain of a gather lacks %q:\n%s", want, got)
		}
		got = got[max(0, strings.Index(got, want)):]
	}
}

// TestHostStepAllocatesBeforeQueuing checks that a step that runs on the
// host allocates its host copies with the call's other temporaries,
// before anything is queued: when the host has no room for them the call
// fails with a MemoryError naming the step's node, and no kernel has been
// launched (so no other destination of the call was written).
func TestHostStepAllocatesBeforeQueuing(t *testing.T) {
	r := withRecorder(t)
	c := alloc.Default()
	defer c.SetLimit(c.Limit())
	x := onGPU(t, tensor.Rand[float32](1, 64, 64))
	d0 := tensor.New[float32](shape.Shape{64, 64}, tensor.WithAllocator(fakeGPU))
	d1 := tensor.New[float32](shape.Shape{64, 64}, tensor.WithAllocator(fakeGPU))
	r.launches = nil
	c.SetLimit(max(settle(), 1)) // no room for anything more on the host
	err := AssignAll([]*tensor.Tensor[float32]{d0, d1}, []expr.Exp[float32]{expr.AddScalar[float32](x, 1), expr.Sort[float32](x, 0)})
	c.SetLimit(0)
	if me := checkFailure(t, "AssignAll", err); me == nil {
		t.FailNow()
	}
	var ne *shape.NodeError
	if !errors.As(err, &ne) || !strings.HasPrefix(ne.Node, "sort(") {
		t.Errorf("the error names %v; want the sort", err)
	}
	if len(r.launches) != 0 {
		t.Errorf("%d kernels were launched before the host step's allocation failed; want none", len(r.launches))
	}
}

// TestEmulatedGatherKernel runs gathers of every layout in the emulator —
// a vector's elements (more of them than the emulated grid's threads, so
// that the kernel's grid-stride loop runs), rows and columns between a
// prefix and a suffix, a flipped view's elements (negative strides), two
// broadcast index arrays separated by a whole axis, take_along_axis (its
// aranges as index arrays), int8 elements — and checks that the result is
// the CPU's and that the gather ran as a device kernel (its indices
// checked on the host, x read where it lies).
func TestEmulatedGatherKernel(t *testing.T) {
	b := emulator(t)
	vec := emuTensor(emuRandom[float32](90, 10), 50)
	x := emuTensor(emuRandom[float32](91, 10), 7, 11, 5)
	v := emuTensor(emuRandom[float32](92, 60), 1000)
	w := emuTensor(emuRandom[float32](93, 12), 2, 3)
	indices := func(v expr.Exp[float32], n float32) expr.Exp[int64] { // in [-n, n)
		return expr.Cast[int64](expr.SubScalar(expr.Floor(expr.Mod(expr.Abs(v), expr.Scalar(2*n))), n))
	}
	cases := []emuCase[float32, float32]{
		{name: "x[idx] of a vector, 1000 indices, negative ones too", operands: tensors(vec, v), dst: []int{1000},
			build: into(func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
				return expr.Take[float32](x[0], indices(x[1], 50), 0)
			})},
		{name: "x[:, idx] between a prefix and a suffix", operands: tensors(x, w), dst: []int{7, 2, 3, 5},
			build: into(func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
				return expr.Take[float32](x[0], indices(x[1], 11), 1)
			})},
		{name: "a flipped view's last axis, then a tree", operands: tensors(x, w), dst: []int{7, 11, 2, 3},
			build: into(func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
				return expr.MulScalar(expr.Take(expr.Flip[float32](x[0], 2), indices(x[1], 5), 2), 2)
			})},
		{name: "x[i, :, j], broadcast index arrays", operands: tensors(x, w), dst: []int{2, 3, 11},
			build: into(func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
				j := expr.Index[float32](x[1], 0, 0) // (3,)
				return expr.IndexArrays[float32](x[0], indices(x[1], 7), nil, indices(j, 5))
			})},
		{name: "take_along_axis by an argsort", operands: tensors(x), dst: []int{7, 11, 5},
			build: into(func(x []*tensor.Tensor[float32]) expr.Exp[float32] {
				return expr.TakeAlongAxis[float32](x[0], expr.ArgSort[float32](x[0], 1), 1)
			})},
	}
	for _, c := range cases {
		c.run(t, b)
		if !slices.ContainsFunc(b.launches, device.IsGather) {
			t.Errorf("%s: no gather kernel among the launches", c.name)
		}
	}
	small := emuCase[int8, int8]{name: "int8 rows", operands: tensors(emuTensor(func(k int) int8 { return int8(k*7 - 60) }, 6, 4)), dst: []int{3, 4},
		build: func(x []*tensor.Tensor[int8], d *tensor.Tensor[int8]) (*tensor.Tensor[int8], expr.Exp[int8]) {
			return d, expr.Take[int8](x[0], expr.Arange[int64](5, -1, -2), 0)
		}}
	small.run(t, b)
	if !slices.ContainsFunc(b.launches, device.IsGather) {
		t.Error("int8 rows: no gather kernel among the launches")
	}
}
