//go:build cuda

package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laze-go/laze/bench/gpu/rawcuda"
	"github.com/laze-go/laze/cuda"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The GPU suite (tag cuda; bench/gpu/suite.sh on a GPU machine, or make
// bench-cuda). Every benchmark prints Go benchmark format for bench/report.
//
// Device-timed benchmarks (BenchmarkCUDA, BenchmarkCUDAReduce) queue their
// work on the default stream without waiting and time it with CUDA events
// recorded on the same stream around the loop: their ns/op and MB/s are
// device time, replacing the framework's host time. Host-timed benchmarks
// (BenchmarkCUDAOverhead, BenchmarkCUDAGraph, BenchmarkCUDACrossover,
// BenchmarkCUDAFirstAssign) report wall time, which is what they are about.
//
// MB/s counts the bytes a kernel must read and write: inputs once, output
// once (a broadcast row once). The unfused path moves more but is charged
// the same bytes, so its column compares time.

// gpuSizes are the elementwise sizes (float32 elements); each is a square
// (4096², 8192², 16384²) for the transposed case.
var gpuSizes = []int{1 << 24, 1 << 26, 1 << 28}

// bcastCols is the length of the broadcast row in the bcast case.
const bcastCols = 4096

// reduceSide is the side of the reduced matrix (8192² = 2^26 elements).
const reduceSide = 8192

// gpuEnv is the opened device, the raw driver kit in its context, and the
// device inputs made so far (each made once per process).
type gpuEnv struct {
	d          *cuda.Device
	raw        *rawcuda.Context
	start, end *rawcuda.Event

	mu     sync.Mutex
	inputs map[string][]*tensor.Tensor[float32]
}

var gpuOnce struct {
	sync.Once
	env *gpuEnv
	err error
}

// openGPU opens device 0 and binds the raw kit to its context, once per
// process; it skips the benchmark where there is no GPU.
func openGPU(b testing.TB) *gpuEnv {
	b.Helper()
	gpuOnce.Do(func() {
		d, err := cuda.Open(0)
		if err != nil {
			gpuOnce.err = fmt.Errorf("no GPU: %w", err)
			return
		}
		raw, err := bindRaw(d)
		if err != nil {
			gpuOnce.err = fmt.Errorf("binding the raw CUDA kit to laze's context: %w", err)
			return
		}
		env := &gpuEnv{d: d, raw: raw, inputs: map[string][]*tensor.Tensor[float32]{}}
		if env.start, err = raw.NewEvent(); err == nil {
			env.end, err = raw.NewEvent()
		}
		gpuOnce.env, gpuOnce.err = env, err
	})
	if gpuOnce.err != nil {
		b.Skip(gpuOnce.err)
	}
	return gpuOnce.env
}

// doer is the hook cuda.Device may offer: run f on the goroutine that owns
// the device's context. Where it exists the raw kit asks that thread for
// the context; otherwise it asks the driver which context owns a block of
// laze's memory.
type doer interface{ Do(f func() error) error }

func bindRaw(d *cuda.Device) (*rawcuda.Context, error) {
	if h, ok := any(d).(doer); ok {
		var raw *rawcuda.Context
		err := h.Do(func() error {
			var err error
			raw, err = rawcuda.Current(d.Arch())
			return err
		})
		if err == nil {
			return raw, nil
		}
	}
	probe := tensor.New[float32](shape.Shape{4}, tensor.WithAllocator(d.Allocator()))
	return rawcuda.ContextOf(probe.Mem(friend.K).Ptr(), d.Arch())
}

// input returns k device tensors of n random float32 each (seeds 1..k),
// made on first use and kept for the process.
func (g *gpuEnv) input(b testing.TB, k, n int) []*tensor.Tensor[float32] {
	b.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	name := fmt.Sprintf("%d", n)
	have := g.inputs[name]
	for i := len(have); i < k; i++ {
		h := tensor.Rand[float32](uint64(i+1), n)
		t, err := h.To(g.d.Device())
		if err != nil {
			b.Fatal(err)
		}
		_ = h.Release()
		have = append(have, t)
	}
	g.inputs[name] = have
	return have[:k]
}

// empty returns a device tensor of dims, released when the benchmark ends.
func (g *gpuEnv) empty(b testing.TB, dims ...int) *tensor.Tensor[float32] {
	t := tensor.New[float32](shape.Shape(dims), tensor.WithAllocator(g.d.Allocator()))
	b.Cleanup(func() { _ = t.Release() })
	return t
}

// view reshapes t, failing the benchmark if it cannot.
func view(b testing.TB, t *tensor.Tensor[float32], dims ...int) *tensor.Tensor[float32] {
	v, err := t.View(dims...)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

func ptr(t *tensor.Tensor[float32]) uintptr { return t.Mem(friend.K).Ptr() }

// deviceLoop runs op once and waits (compiling what it needs), then times
// b.Loop's calls of op, which must queue work on the default stream without
// waiting, with events recorded before and after them: it reports the
// device time per call as ns/op and bytes over it as MB/s.
func (g *gpuEnv) deviceLoop(b *testing.B, bytes int64, op func() error) {
	b.Helper()
	if err := op(); err != nil {
		b.Fatal(err)
	}
	if err := g.d.DefaultStream().Wait(); err != nil {
		b.Fatal(err)
	}
	if err := g.start.Record(); err != nil {
		b.Fatal(err)
	}
	calls := 0
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		calls++
	}
	if err := g.end.Record(); err != nil {
		b.Fatal(err)
	}
	if err := g.end.Synchronize(); err != nil {
		b.Fatal(err)
	}
	if err := g.d.DefaultStream().Wait(); err != nil { // gives back queued temporaries
		b.Fatal(err)
	}
	took, err := rawcuda.Elapsed(g.start, g.end)
	if err != nil {
		b.Fatal(err)
	}
	ns := float64(took.Nanoseconds()) / float64(calls)
	b.ReportMetric(ns, "ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)/ns*1e3, "MB/s")
	}
}

// step is one op of an unfused path: dst = e (dst nil: the destination).
type step struct {
	dst *tensor.Tensor[float32]
	e   expr.Exp[float32]
}

// gpuCase is one elementwise case over device inputs of n elements: its
// fused tree and the destination's dims, the bytes it must move, and (for
// poly4 and long8) the same tree op by op through temporaries.
type gpuCase struct {
	name    string
	inputs  int
	bytes   func(n int) int64
	fused   func(b testing.TB, g *gpuEnv, in []*tensor.Tensor[float32], n int) (expr.Exp[float32], []int)
	unfused func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step
}

// side is the side of the square of n elements.
func side(n int) int { return int(math.Round(math.Sqrt(float64(n)))) }

var gpuCases = []gpuCase{
	{name: "poly4", inputs: 4, bytes: func(n int) int64 { return int64(4 * 5 * n) },
		fused: func(_ testing.TB, _ *gpuEnv, in []*tensor.Tensor[float32], n int) (expr.Exp[float32], []int) {
			return expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3]), []int{n}
		},
		unfused: func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step {
			t1, t2 := tmp(), tmp()
			return []step{{t1, expr.Mul[float32](in[0], in[1])}, {t2, expr.Add[float32](t1, in[2])}, {nil, expr.Sub[float32](t2, in[3])}}
		}},
	{name: "long8", inputs: 4, bytes: func(n int) int64 { return int64(4 * 5 * n) },
		fused: func(_ testing.TB, _ *gpuEnv, in []*tensor.Tensor[float32], n int) (expr.Exp[float32], []int) {
			return expr.Of(in[0]).Mul(in[1]).Add(in[2]).Tanh().Sub(expr.Of(in[3]).MulScalar(0.5).Exp().Mul(in[0])).Add(in[1]), []int{n}
		},
		unfused: func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step {
			t1, t2, t3 := tmp(), tmp(), tmp()
			return []step{
				{t1, expr.Mul[float32](in[0], in[1])}, {t1, expr.Add[float32](t1, in[2])}, {t1, expr.Tanh[float32](t1)},
				{t2, expr.Of(in[3]).MulScalar(0.5)}, {t2, expr.Exponential[float32](t2)}, {t3, expr.Mul[float32](t2, in[0])},
				{t1, expr.Sub[float32](t1, t3)}, {nil, expr.Add[float32](t1, in[1])},
			}
		}},
	// bcast: a[n/4096, 4096] * row[4096] + b[n/4096, 4096].
	{name: "bcast", inputs: 2, bytes: func(n int) int64 { return int64(4 * (3*n + bcastCols)) },
		fused: func(b testing.TB, g *gpuEnv, in []*tensor.Tensor[float32], n int) (expr.Exp[float32], []int) {
			rows := n / bcastCols
			row := g.input(b, 1, bcastCols)[0]
			return expr.Of(view(b, in[0], rows, bcastCols)).Mul(row).Add(view(b, in[1], rows, bcastCols)), []int{rows, bcastCols}
		}},
	// transpose: a.T + b, a and b square.
	{name: "transpose", inputs: 2, bytes: func(n int) int64 { return int64(4 * 3 * n) },
		fused: func(b testing.TB, _ *gpuEnv, in []*tensor.Tensor[float32], n int) (expr.Exp[float32], []int) {
			m := side(n)
			return expr.Add[float32](view(b, in[0], m, m).T(), view(b, in[1], m, m)), []int{m, m}
		}},
}

// BenchmarkCUDA times, at each size, the copy references (cuMemcpyDtoDAsync
// and a float4 copy kernel, both on the default stream) and each
// elementwise case, fused (one launch per Assign) and, for poly4 and long8,
// unfused (one launch per op, through temporaries, the same library). The
// report divides by the faster copy. It ends with NVRTC's time per kernel.
func BenchmarkCUDA(b *testing.B) {
	g := openGPU(b)
	// Configuration lines in Go benchmark format: the report reads them.
	fmt.Printf("device: %s (%s, %d SMs)\ndate: %s\ntiming: CUDA events around queued work\n",
		g.d.Name(), g.d.Arch(), g.raw.Multiprocessors(), time.Now().UTC().Format(time.DateOnly))
	for _, n := range gpuSizes {
		in := g.input(b, 4, n)
		flat := g.empty(b, n)
		copyBytes := int64(8 * n)
		b.Run(fmt.Sprintf("copy/memcpy/n=%d", n), func(b *testing.B) {
			g.deviceLoop(b, copyBytes, func() error { return g.raw.MemcpyAsync(ptr(flat), ptr(in[0]), 4*n) })
		})
		b.Run(fmt.Sprintf("copy/kernel/n=%d", n), func(b *testing.B) {
			g.deviceLoop(b, copyBytes, func() error { return g.raw.CopyKernel(ptr(flat), ptr(in[0]), 4*n) })
		})
		for _, c := range gpuCases {
			b.Run(fmt.Sprintf("%s/fused/n=%d", c.name, n), func(b *testing.B) {
				tree, dims := c.fused(b, g, in[:c.inputs], n)
				dst := view(b, flat, dims...)
				g.deviceLoop(b, c.bytes(n), func() error { return cuda.Assign(g.d.DefaultStream(), dst, tree) })
			})
			if c.unfused == nil {
				continue
			}
			b.Run(fmt.Sprintf("%s/unfused/n=%d", c.name, n), func(b *testing.B) {
				steps := c.unfused(in, func() *tensor.Tensor[float32] { return g.empty(b, n) })
				g.deviceLoop(b, c.bytes(n), func() error {
					for _, s := range steps {
						out := s.dst
						if out == nil {
							out = flat
						}
						if err := cuda.Assign(g.d.DefaultStream(), out, s.e); err != nil {
							return err
						}
					}
					return nil
				})
			})
		}
	}
	st := g.d.KernelStats()
	if st.Compiled > 0 {
		fmt.Printf("nvrtc-kernels: %d\nnvrtc-ms-per-kernel: %.1f\n",
			st.Compiled, st.CompileTime.Seconds()*1000/float64(st.Compiled))
	}
}

// BenchmarkCUDAReduce times reductions of 2^26 float32 on the device:
// summul is Sum(a*b) into a scalar, rows sums each row of an 8192×8192
// matrix (Axis(1)), cols each column (Axis(0)). MB/s counts the bytes read
// and written; the report divides it by the copy's at the same n.
func BenchmarkCUDAReduce(b *testing.B) {
	g := openGPU(b)
	n := reduceSide * reduceSide
	in := g.input(b, 2, n)
	m := view(b, in[0], reduceSide, reduceSide)
	for _, c := range []struct {
		name  string
		e     expr.Exp[float32]
		dims  []int
		bytes int64
	}{
		{"summul", expr.Sum[float32](expr.Mul[float32](in[0], in[1])), nil, int64(4 * (2*n + 1))},
		{"rows", expr.Sum[float32](m, expr.Axis(1)), []int{reduceSide}, int64(4 * (n + reduceSide))},
		{"cols", expr.Sum[float32](m, expr.Axis(0)), []int{reduceSide}, int64(4 * (n + reduceSide))},
	} {
		b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
			dst := g.empty(b, c.dims...)
			g.deviceLoop(b, c.bytes, func() error { return cuda.Assign(g.d.DefaultStream(), dst, c.e) })
		})
	}
}

// BenchmarkCUDAOverhead times, on the host, a cached Assign of a
// one-element tree: queued (cuda.Assign on the default stream, waiting
// every 1000 calls) and waited (kernels.Assign, which waits for the
// result); and, as the floor, the driver's own launch of an empty kernel
// from Go (raw-launch, waiting every 1000) and the launch followed by a
// stream synchronisation (raw-launch-sync).
func BenchmarkCUDAOverhead(b *testing.B) {
	g := openGPU(b)
	x := g.empty(b, 1)
	out := g.empty(b, 1)
	tree := expr.Of(x).MulScalar(2).AddScalar(1)
	if err := kernels.Assign(out, tree); err != nil { // compile once
		b.Fatal(err)
	}
	s := g.d.DefaultStream()
	every1000 := func(b *testing.B, launch, wait func() error) {
		i := 0
		for b.Loop() {
			if err := launch(); err != nil {
				b.Fatal(err)
			}
			if i++; i%1000 == 0 {
				if err := wait(); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := wait(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("queued", func(b *testing.B) {
		every1000(b, func() error { return cuda.Assign(s, out, tree) }, s.Wait)
	})
	b.Run("waited", func(b *testing.B) {
		for b.Loop() {
			if err := kernels.Assign(out, tree); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw-launch", func(b *testing.B) {
		every1000(b, g.raw.LaunchEmpty, g.raw.Synchronize)
	})
	b.Run("raw-launch-sync", func(b *testing.B) {
		for b.Loop() {
			if err := g.raw.LaunchEmpty(); err != nil {
				b.Fatal(err)
			}
			if err := g.raw.Synchronize(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// crossoverSizes are the sizes at which the CPU and GPU evaluators race.
var crossoverSizes = []int{1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22}

// BenchmarkCUDACrossover times the same poly4 tree in float32 with
// kernels.Assign on host tensors (the CPU evaluator, on every core) and on
// device tensors (one launch, waited): wall time per Assign, data already
// where it is evaluated. The report names the size below which the CPU is
// faster.
func BenchmarkCUDACrossover(b *testing.B) {
	g := openGPU(b)
	for _, n := range crossoverSizes {
		host := make([]*tensor.Tensor[float32], 4)
		for i := range host {
			host[i] = tensor.Rand[float32](uint64(i+1), n)
		}
		hdst := tensor.New[float32](shape.Shape{n})
		dev := g.input(b, 4, n)
		ddst := g.empty(b, n)
		for _, side := range []struct {
			name string
			in   []*tensor.Tensor[float32]
			dst  *tensor.Tensor[float32]
		}{{"cpu", host, hdst}, {"gpu", dev, ddst}} {
			tree := expr.Of(side.in[0]).Mul(side.in[1]).Add(side.in[2]).Sub(side.in[3])
			b.Run(fmt.Sprintf("poly4/%s/n=%d", side.name, n), func(b *testing.B) {
				b.SetBytes(int64(4 * 5 * n))
				if err := kernels.Assign(side.dst, tree); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if err := kernels.Assign(side.dst, tree); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		for _, t := range append(host, hdst) {
			_ = t.Release()
		}
	}
}

// The first Assign in a new process: BenchmarkCUDAFirstAssign runs this
// test binary again, once per iteration, with LAZE_BENCH_CHILD set, and
// TestCUDAFirstAssignChild, in the child, times its first Assign of a
// poly4 tree (lowering, finding or compiling the kernel, loading it, the
// launch and the wait) and a second one, and prints them.
const (
	childEnv         = "LAZE_BENCH_CHILD"
	childFirstAssign = "first-assign"
	cacheEnv         = "LAZE_CUDA_CACHE"
)

// TestCUDAFirstAssignChild is the child's half of BenchmarkCUDAFirstAssign;
// it is skipped unless the benchmark started it.
func TestCUDAFirstAssignChild(t *testing.T) {
	if os.Getenv(childEnv) != childFirstAssign {
		t.Skip("the child process of BenchmarkCUDAFirstAssign")
	}
	d, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	in := make([]*tensor.Tensor[float32], 4)
	for i := range in {
		if in[i], err = tensor.Rand[float32](uint64(i+1), n).To(d.Device()); err != nil {
			t.Fatal(err)
		}
	}
	dst := tensor.New[float32](shape.Shape{n}, tensor.WithAllocator(d.Allocator()))
	tree := expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3])
	start := time.Now()
	if err := kernels.Assign(dst, tree); err != nil {
		t.Fatal(err)
	}
	first := time.Since(start)
	start = time.Now()
	if err := kernels.Assign(dst, tree); err != nil {
		t.Fatal(err)
	}
	second := time.Since(start)
	fmt.Printf("first-assign-ns: %d\nsecond-assign-ns: %d\nnvrtc-compiled: %d\n",
		first.Nanoseconds(), second.Nanoseconds(), d.KernelStats().Compiled)
}

// childResult is what one child printed.
type childResult struct {
	first, second time.Duration
	compiled      int
}

// parseChild reads the child's lines "first-assign-ns: N",
// "second-assign-ns: N" and "nvrtc-compiled: N" among go test's own.
func parseChild(out []byte) (childResult, error) {
	var r childResult
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "first-assign-ns":
			r.first, seen = time.Duration(n), seen+1
		case "second-assign-ns":
			r.second, seen = time.Duration(n), seen+1
		case "nvrtc-compiled":
			r.compiled, seen = int(n), seen+1
		}
	}
	if seen != 3 {
		return r, fmt.Errorf("the child printed %d of its 3 figures:\n%s", seen, out)
	}
	return r, nil
}

// runChild runs the child with LAZE_CUDA_CACHE set to cache.
func runChild(cache string) (childResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return childResult{}, err
	}
	cmd := exec.Command(exe, "-test.run", "^TestCUDAFirstAssignChild$", "-test.count", "1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+childFirstAssign, cacheEnv+"="+cache)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return childResult{}, fmt.Errorf("child: %w\n%s", err, out)
	}
	return parseChild(out)
}

// BenchmarkCUDAFirstAssign times the first Assign of a known tree in a new
// process, with the on-disk kernel cache (LAZE_CUDA_CACHE): cold (an empty
// cache directory: compile and store), warm (a directory an earlier
// process filled), off (LAZE_CUDA_CACHE=off: compile, store nothing).
// ns/op is the child's first Assign, not the process's start;
// second-ns/op is its second Assign (the in-memory cache) and
// compiled/op the kernels NVRTC compiled in the child.
func BenchmarkCUDAFirstAssign(b *testing.B) {
	openGPU(b)
	warm := b.TempDir()
	if _, err := runChild(warm); err != nil { // fills the warm directory
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		cache func(b *testing.B) string
	}{
		{"cold", func(b *testing.B) string {
			dir, err := os.MkdirTemp(b.TempDir(), "cold")
			if err != nil {
				b.Fatal(err)
			}
			return dir
		}},
		{"warm", func(*testing.B) string { return warm }},
		{"off", func(*testing.B) string { return "off" }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var first, second time.Duration
			compiled, runs := 0, 0
			for b.Loop() {
				r, err := runChild(c.cache(b))
				if err != nil {
					b.Fatal(err)
				}
				first += r.first
				second += r.second
				compiled += r.compiled
				runs++
			}
			b.ReportMetric(float64(first.Nanoseconds())/float64(runs), "ns/op")
			b.ReportMetric(float64(second.Nanoseconds())/float64(runs), "second-ns/op")
			b.ReportMetric(float64(compiled)/float64(runs), "compiled/op")
		})
	}
}

// TestParseChild checks the parent's reading of the child's output.
func TestParseChild(t *testing.T) {
	got, err := parseChild([]byte("=== RUN   TestCUDAFirstAssignChild\nfirst-assign-ns: 812345\nsecond-assign-ns: 9000\nnvrtc-compiled: 0\n--- PASS\nPASS\n"))
	if err != nil || got != (childResult{first: 812345, second: 9000}) {
		t.Errorf("parseChild = %+v, %v", got, err)
	}
	if _, err := parseChild([]byte("first-assign-ns: 1\nPASS\n")); err == nil {
		t.Error("a child output missing two figures was accepted")
	}
}
