//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
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

// randomTree builds a random elementwise tree of depth at most depth over
// leaves (host tensors broadcastable to the result), returning the host tree
// and the same tree over the leaves' device copies.
func randomTree[T tensor.Number](r *rand.Rand, depth int, host, dev []*tensor.Tensor[T]) (expr.Exp[T], expr.Exp[T]) {
	if depth == 0 || r.IntN(4) == 0 {
		if r.IntN(5) == 0 {
			v := expr.Scalar(T(r.IntN(5) + 1))
			return v, v
		}
		i := r.IntN(len(host))
		return host[i], dev[i]
	}
	var candidates []ops.Op
	for _, op := range ops.All() {
		if (op.Def().Domain != ops.FloatOnly || tensor.IsFloat[T]()) && op != ops.Pow {
			candidates = append(candidates, op)
		}
	}
	op := candidates[r.IntN(len(candidates))]
	var hs, ds [3]expr.Exp[T]
	for k := range op.Arity() {
		hs[k], ds[k] = randomTree(r, depth-1, host, dev)
	}
	return node(op, hs), node(op, ds)
}

func node[T tensor.Number](op ops.Op, x [3]expr.Exp[T]) expr.Exp[T] {
	switch op.Arity() {
	case 1:
		return &expr.Unary[T]{Op: op, X: x[0]}
	case 2:
		return &expr.Binary[T]{Op: op, X: x[0], Y: x[1]}
	}
	return &expr.Ternary[T]{Op: op, X: x[0], Y: x[1], Z: x[2]}
}

// randomLeaves returns leaves of shape (rows, cols) in several layouts: a
// contiguous tensor, a transpose, a stepped slice, a broadcast row, a
// scalar tensor.
func randomLeaves[T tensor.Number](t *testing.T, r *rand.Rand, rows, cols int) (host, dev []*tensor.Tensor[T]) {
	vals := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(r.IntN(19) - 9)
			if tensor.IsFloat[T]() {
				v[i] = T(r.Float64()*4 - 2)
			}
		}
		return v
	}
	plain, _ := tensor.FromSlice(vals(rows*cols), shape.Shape{rows, cols})
	wide, _ := tensor.FromSlice(vals(rows*cols*2), shape.Shape{cols, rows * 2})
	row, _ := tensor.FromSlice(vals(cols), shape.Shape{cols})
	bases := []*tensor.Tensor[T]{plain, wide, row, tensor.Scalar(vals(1)[0])}
	views := []func(*tensor.Tensor[T]) *tensor.Tensor[T]{
		func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x },
		func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x.Slice(1, 0, rows*2, 2).T() },
		func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x },
		func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x },
	}
	for i, b := range bases {
		d := toGPU(t, b)
		host, dev = append(host, views[i](b)), append(dev, views[i](d))
	}
	return host, dev
}

// differential checks random trees on the GPU against the CPU evaluator.
func differential[T tensor.Number](t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for trial := range 40 {
		rows, cols := 1+r.IntN(70), 1+r.IntN(90)
		host, dev := randomLeaves[T](t, r, rows, cols)
		he, de := randomTree(r, 4, host, dev)
		want := tensor.New[T](shape.Shape{rows, cols})
		if err := kernels.Assign(want, he); err != nil {
			t.Fatalf("trial %d: CPU: %v", trial, err)
		}
		got := poisoned[T](t, shape.Shape{rows, cols})
		if r.IntN(3) == 0 { // a transposed destination
			got = poisoned[T](t, shape.Shape{cols, rows}).T()
		}
		before := gpu.KernelStats().Launches
		if err := kernels.Assign(got, de); err != nil {
			t.Fatalf("trial %d: GPU: %v\n%v", trial, err, de)
		}
		if n := gpu.KernelStats().Launches - before; n != 1 {
			t.Errorf("trial %d: %d launches for an elementwise tree; want 1", trial, n)
		}
		if diff := cmp.Diff(want.Data(), toHost(t, got), closeTo[T]()); diff != "" {
			t.Fatalf("trial %d: %v on (%d,%d) (-cpu +gpu):\n%s", trial, he, rows, cols, diff)
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
	host, dev := randomLeaves[float64](t, r, 33, 700)
	a, da := host[0], dev[0]
	w := tensor.Rand[float64](3, 700, 40)
	dw := toGPU(t, w)
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
	before := m.Stats()
	func() {
		a := toGPU(t, tensor.Rand[float64](1, 512, 512))
		out := tensor.New[float64](shape.Shape{512}, tensor.WithAllocator(m))
		if err := kernels.Assign(out, expr.Exp[float64](expr.Sum[float64](expr.Of(a).Exp(), expr.Axis(0)))); err != nil {
			t.Fatal(err)
		}
		_ = a.Release()
		_ = out.Release()
	}()
	after := m.Stats()
	if after.BytesInUse != before.BytesInUse {
		t.Errorf("bytes in use: %d before, %d after releasing everything", before.BytesInUse, after.BytesInUse)
	}
	m.EmptyCache()
	if m.Stats().BytesCached != 0 {
		t.Errorf("EmptyCache left %d bytes cached", m.Stats().BytesCached)
	}
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

func TestDeviceRules(t *testing.T) {
	d := toGPU(t, tensor.Arange[float32](0, 6, 1))
	if got := fmt.Sprint(d); got != "[0 1 2 3 4 5]" {
		t.Errorf("printing a device tensor: %q", got)
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
