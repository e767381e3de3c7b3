package kernels

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The emulator tests run the generated CUDA kernels on the host: each
// kernel's source is compiled with g++ together with testdata/cudaemu/emu.h,
// which defines CUDA's keywords and built-ins (blocks run one after another,
// a block's threads as fibers that really synchronise at barriers and warp
// shuffles, each running until it waits, then the next), and run through a Backend (emuBackend) on a device whose
// memory is a file both the test and the kernel's process map. Results are
// compared with the CPU evaluator's. They stand in for a GPU in checking
// what each kernel computes (indexing, vectors and their tails, grid-stride
// loops, reductions' partials and combination trees, products); they say
// nothing about speed.

// emuDevice is the emulated GPU's device.
var emuDevice = alloc.CUDA(4)

// emuArenaSize is the emulated GPU's memory: a sparse file.
const emuArenaSize = 1 << 30

// emuMemory is the emulated GPU's memory and allocator: a bump allocator
// over a shared mapping, handing out 256-byte aligned blocks (as cudaMalloc
// does) and never reusing them.
type emuMemory struct {
	path  string
	arena []byte
	mu    sync.Mutex
	next  int
	stats alloc.Stats
}

var _ alloc.DeviceAllocator = (*emuMemory)(nil)

var (
	emuOnce sync.Once
	emuMem  *emuMemory
	emuErr  error
)

// emulator sets up the emulated device once (registering its allocator)
// and registers emuBackend as the CUDA backend for the test; it skips the
// test without g++, and under the race detector: the kernels run in g++'s
// processes, which the detector does not see, and make test's -race pass
// would only repeat the compiles that make test's run without -race does.
func emulator(t *testing.T) *emuBackend {
	t.Helper()
	if raceEnabled {
		t.Skip("the CUDA emulator tests run without -race (make test runs them in its run without it): the kernels run in g++ processes the race detector does not see")
	}
	if !haveMapShared {
		t.Skip("the CUDA emulator tests share device memory with the g++-built kernels through mmap(MAP_SHARED), which this system lacks")
	}
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++: the CUDA emulator tests compile generated kernels for the host with g++ -std=c++20")
	}
	emuOnce.Do(func() {
		f, err := os.CreateTemp("", "laze-cudaemu-*.mem")
		if err != nil {
			emuErr = err
			return
		}
		defer f.Close()
		if err = f.Truncate(emuArenaSize); err != nil {
			emuErr = err
			return
		}
		arena, err := mapShared(f, emuArenaSize)
		if err != nil {
			emuErr = err
			return
		}
		emuMem = &emuMemory{path: f.Name(), arena: arena, next: 256}
		alloc.Register(emuMem)
	})
	if emuErr != nil {
		t.Fatalf("emulated device memory: %v", emuErr)
	}
	b := &emuBackend{t: t, cxx: cxx, mem: emuMem}
	RegisterBackend(alloc.KindCUDA, b)
	t.Cleanup(func() {
		RegisterBackend(alloc.KindCUDA, nil)
	})
	return b
}

func (m *emuMemory) Device() alloc.Device { return emuDevice }

func (m *emuMemory) base() uintptr { return uintptr(unsafe.Pointer(&m.arena[0])) }

// Alloc hands out the next 256-byte aligned block.
func (m *emuMemory) Alloc(nbytes int) (*alloc.Allocation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	size := (max(nbytes, 8) + 255) &^ 255
	if m.next+size > len(m.arena) {
		return nil, errors.New("cudaemu: out of emulated device memory")
	}
	ptr := m.base() + uintptr(m.next)
	m.next += size
	m.stats.Allocations++
	return alloc.NewAllocation(emuDevice, nbytes, nil, ptr, func(*alloc.Allocation) {}), nil
}

// allocated returns the number of bytes handed out so far (blocks
// rounded up to 256 bytes).
func (m *emuMemory) allocated() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.next
}

func (m *emuMemory) bytes(a *alloc.Allocation) []byte {
	off := int(a.Ptr() - m.base())
	return m.arena[off : off+a.Size()]
}

// CopyIn copies src into dst at byte offset off.
func (m *emuMemory) CopyIn(dst *alloc.Allocation, off int, src []byte) error {
	copy(m.bytes(dst)[off:], src)
	return nil
}

// CopyOut copies bytes of src from byte offset off into dst.
func (m *emuMemory) CopyOut(dst []byte, src *alloc.Allocation, off int) error {
	copy(dst, m.bytes(src)[off:])
	return nil
}

// Zero clears the block.
func (m *emuMemory) Zero(a *alloc.Allocation) error {
	clear(m.bytes(a))
	return nil
}

// Stats returns the counters.
func (m *emuMemory) Stats() alloc.Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

// EmptyCache does nothing.
func (m *emuMemory) EmptyCache() {}

// emuBackend is a Backend and Queue that runs each kernel at once in the
// emulator. It launches at most emuMaxBlocks blocks, fewer than a kernel
// asks for, so the kernels' grid-stride loops are exercised too.
type emuBackend struct {
	t        *testing.T
	cxx      string
	mem      *emuMemory
	launches []*Kernel
	deferred []func()
}

// emuMaxBlocks caps the emulated grid.
const emuMaxBlocks = 3

func (b *emuBackend) DefaultQueue(alloc.Device) (Queue, error) { return b, nil }
func (b *emuBackend) Device() alloc.Device                     { return emuDevice }

// Launch compiles k (once per source) and runs it.
func (b *emuBackend) Launch(_ Queue, k *Kernel) error {
	b.launches = append(b.launches, k)
	exe, err := emuCompile(b.cxx, k)
	if err != nil {
		return err
	}
	threads := k.Threads
	if threads == 0 {
		return fmt.Errorf("kernel %s has no block size", k.Name)
	}
	blocks := max(min(k.Blocks, emuMaxBlocks), 1)
	args := []string{b.mem.path, strconv.FormatUint(uint64(b.mem.base()), 10), strconv.Itoa(len(b.mem.arena)),
		strconv.FormatInt(blocks, 10), strconv.Itoa(threads)}
	for _, p := range k.Params {
		args = append(args, strconv.FormatUint(p, 10))
	}
	out, err := exec.Command(exe, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("running %s: %v\n%s", k.Key, err, out)
	}
	return nil
}

// Gemm refuses: cuBLAS is not emulated (float products are not the
// generated kernels' work).
// Compile builds k's host executable (once per source), as Launch does.
func (b *emuBackend) Compile(_ Queue, k *Kernel) error {
	_, err := emuCompile(b.cxx, k)
	return err
}

func (b *emuBackend) Gemm(Queue, Gemm) error { return errors.New("cudaemu: no cuBLAS") }

func (b *emuBackend) Wait() error {
	for _, f := range b.deferred {
		f()
	}
	b.deferred = nil
	return nil
}

func (b *emuBackend) Defer(f func()) { b.deferred = append(b.deferred, f) }

var emuCompiled sync.Map // source hash → executable path

// emuCompile builds the host executable of k's source and a main that
// calls it with the parameters from the command line, linked with the
// emulator's runtime, cached in the user's cache directory by the hash of
// its text.
func emuCompile(cxx string, k *Kernel) (string, error) {
	rt, err := emuRuntime(cxx)
	if err != nil {
		return "", err
	}
	var src strings.Builder
	fmt.Fprintf(&src, "#include %q\n", rt.header)
	src.WriteString(k.Source())
	src.WriteString("\nint main(int, char **argv) {\n  return laze_emu::run(argv, [] {\n")
	var args []string
	for i, ctype := range device.ParamCTypes(k) {
		at := 6 + i
		switch {
		case strings.HasSuffix(ctype, "*"):
			args = append(args, fmt.Sprintf("(%s)laze_emu::ptr(%d)", ctype, at))
		case ctype == "double":
			args = append(args, fmt.Sprintf("laze_emu::f64(%d)", at))
		default:
			args = append(args, fmt.Sprintf("(%s)laze_emu::u64(%d)", ctype, at))
		}
	}
	fmt.Fprintf(&src, "    %s(%s);\n  });\n}\n", k.Name, strings.Join(args, ", "))
	sum := sha256.Sum256([]byte(src.String() + rt.hash))
	hash := fmt.Sprintf("%x", sum[:12])
	if exe, ok := emuCompiled.Load(hash); ok {
		return exe.(string), nil
	}
	exe := filepath.Join(rt.dir, hash)
	if _, err := os.Stat(exe); err != nil {
		cu := exe + ".cpp"
		if err := os.WriteFile(cu, []byte(src.String()), 0o644); err != nil {
			return "", err
		}
		tmp := exe + ".tmp" + strconv.Itoa(os.Getpid())
		out, err := exec.Command(cxx, append(emuFlags, "-o", tmp, cu, rt.object)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("g++ %s: %v\n%s", cu, err, out)
		}
		if err := os.Rename(tmp, exe); err != nil {
			return "", err
		}
	}
	emuCompiled.Store(hash, exe)
	return exe, nil
}

// emuFlags are g++'s flags for every emulated kernel, the precompiled
// header and the runtime, which must agree.
var emuFlags = []string{"-std=c++20", "-O1", "-fwrapv", "-Wno-unknown-pragmas"}

// emuCacheDir is where compiled kernels are kept: the user's cache
// directory (the temporary one where there is none), laze-cudaemu.
func emuCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "laze-cudaemu")
	return dir, os.MkdirAll(dir, 0o755)
}

// emuBuilt is the emulator's runtime, built once per test process: the
// header each kernel's source includes, the runtime's object file each
// kernel's executable links, the cache directory, and the hash of the
// flags, emu.h and emu_runtime.cpp (part of each kernel's cache key).
type emuBuilt struct {
	header, object, dir, hash string
}

var emuRT struct {
	once  sync.Once
	built emuBuilt
	err   error
}

// emuRuntime builds, once, emu_runtime.cpp into an object file and emu.h's
// precompiled form (g++ then reads emu.h.gch instead of parsing the C++
// standard headers again for each kernel), both in the cache directory
// named by the hash of their text and g++'s flags. Without the precompiled
// header (it cannot be made) each kernel includes emu.h itself: slower, the
// same result.
func emuRuntime(cxx string) (emuBuilt, error) {
	emuRT.once.Do(func() { emuRT.built, emuRT.err = buildEmuRuntime(cxx) })
	return emuRT.built, emuRT.err
}

func buildEmuRuntime(cxx string) (emuBuilt, error) {
	dir, err := emuCacheDir()
	if err != nil {
		return emuBuilt{}, err
	}
	header, err := os.ReadFile(filepath.Join("testdata", "cudaemu", "emu.h"))
	if err != nil {
		return emuBuilt{}, err
	}
	runtime, err := os.ReadFile(filepath.Join("testdata", "cudaemu", "emu_runtime.cpp"))
	if err != nil {
		return emuBuilt{}, err
	}
	sum := sha256.Sum256([]byte(strings.Join(emuFlags, " ") + "\n" + string(header) + "\n" + string(runtime)))
	b := emuBuilt{dir: dir, hash: fmt.Sprintf("%x", sum[:12])}
	b.header = filepath.Join(dir, "emu-"+b.hash+".h")
	b.object = filepath.Join(dir, "emu-"+b.hash+".o")
	if _, err := os.Stat(b.object); err == nil {
		if _, err := os.Stat(b.header + ".gch"); err != nil {
			fmt.Fprintf(os.Stderr, "cudaemu: no precompiled header: %v\n", err)
		}
		return b, nil
	}
	// emu.h under its hashed name, and the runtime beside it including that.
	if err := os.WriteFile(b.header, header, 0o644); err != nil {
		return emuBuilt{}, err
	}
	pid := strconv.Itoa(os.Getpid())
	if out, err := exec.Command(cxx, append(emuFlags, "-x", "c++-header", "-o", b.header+".gch.tmp"+pid, b.header)...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "cudaemu: no precompiled header (%v): %s\n", err, out)
	} else if err := os.Rename(b.header+".gch.tmp"+pid, b.header+".gch"); err != nil {
		return emuBuilt{}, err
	}
	cpp := filepath.Join(dir, "emu-"+b.hash+"-runtime.cpp")
	text := strings.Replace(string(runtime), `#include "emu.h"`, fmt.Sprintf("#include %q", b.header), 1)
	if err := os.WriteFile(cpp, []byte(text), 0o644); err != nil {
		return emuBuilt{}, err
	}
	if out, err := exec.Command(cxx, append(emuFlags, "-c", "-o", b.object+".tmp"+pid, cpp)...).CombinedOutput(); err != nil {
		return emuBuilt{}, fmt.Errorf("g++ %s: %v\n%s", cpp, err, out)
	}
	return b, os.Rename(b.object+".tmp"+pid, b.object)
}

// emuTensor returns a tensor of dims with values from gen (element k).
func emuTensor[T tensor.Number](gen func(k int) T, dims ...int) *tensor.Tensor[T] {
	n := 1
	for _, d := range dims {
		n *= d
	}
	data := make([]T, n)
	for k := range data {
		data[k] = gen(k)
	}
	t, err := tensor.FromSlice(data, shape.Shape(dims))
	if err != nil {
		panic(err)
	}
	return t
}

// emuRandom returns values spread over [-limit, limit) (floats) or over
// every value (integers, so that sums and products overflow), from seed.
func emuRandom[T tensor.Number](seed uint64, limit float64) func(int) T {
	r := rand.New(rand.NewPCG(seed, 99))
	return func(int) T {
		if tensor.IsFloat[T]() {
			return T((r.Float64()*2 - 1) * limit)
		}
		return T(r.Uint64())
	}
}

// emuSmall returns small integers (as T) in [0, n), so that values tie.
func emuSmall[T tensor.Number](seed uint64, n int) func(int) T {
	r := rand.New(rand.NewPCG(seed, 7))
	return func(int) T { return T(r.IntN(n)) }
}

// withNaNs makes every period-th value from gen NaN (floats).
func withNaNs[T tensor.Number](gen func(int) T, period int) func(int) T {
	return func(k int) T {
		if k%period == period/2 {
			return T(math.NaN())
		}
		return gen(k)
	}
}

// emuCase is one comparison of the emulated GPU with the CPU evaluator:
// operands (CPU tensors, copied to the device, each maybe a view of a
// larger parent), the destination's parent shape, the tree, and what the
// first kernel's key must contain (the path the test is meant to take).
type emuCase[T, R tensor.Number] struct {
	name     string
	operands []*tensor.Tensor[T]
	dst      []int
	build    func(x []*tensor.Tensor[T], dst *tensor.Tensor[R]) (*tensor.Tensor[R], expr.Exp[R])
	key      string  // a substring of the first kernel's key ("" for none)
	not      string  // a substring the first kernel's key must not contain ("" for none)
	tol      float64 // relative tolerance for floats (summation order); 0 for exact
	launches int     // the number of kernels the call must launch (0: any)
	// allocBelow, when not 0, bounds the device memory the call may
	// allocate: fewer bytes than this (1: none at all), so that a leaf
	// that must hold no memory (a generator) shows if it holds some.
	allocBelow int
}

// run evaluates the case on the CPU and in the emulator and compares the
// destinations' whole parents (so that stray writes show too).
func (c emuCase[T, R]) run(t *testing.T, b *emuBackend) {
	t.Run(c.name, func(t *testing.T) {
		host := tensor.Zeros[R](c.dst...)
		view, e := c.build(c.operands, host)
		if err := Assign(view, e); err != nil {
			t.Fatalf("CPU: %v", err)
		}
		var dev []*tensor.Tensor[T]
		for _, x := range c.operands {
			d, err := x.To(emuDevice)
			if err != nil {
				t.Fatal(err)
			}
			dev = append(dev, d)
		}
		dd, err := tensor.Zeros[R](c.dst...).To(emuDevice)
		if err != nil {
			t.Fatal(err)
		}
		b.launches = nil
		view, e = c.build(dev, dd)
		before := b.mem.allocated()
		if err := Assign(view, e); err != nil {
			t.Fatalf("emulated GPU: %v", err)
		}
		if n := b.mem.allocated() - before; c.allocBelow != 0 && n >= c.allocBelow {
			t.Errorf("the emulated GPU's Assign allocated %d bytes; want fewer than %d", n, c.allocBelow)
		}
		if len(b.launches) == 0 {
			t.Fatal("nothing was launched")
		}
		if c.launches != 0 && len(b.launches) != c.launches {
			t.Errorf("%d kernels launched; want %d", len(b.launches), c.launches)
		}
		if c.not != "" && strings.Contains(b.launches[0].Key, c.not) {
			t.Errorf("first kernel %q; want one without %q", b.launches[0].Key, c.not)
		}
		if !strings.Contains(b.launches[0].Key, c.key) {
			t.Errorf("first kernel %q; want one containing %q", b.launches[0].Key, c.key)
		}
		back, err := dd.To(alloc.CPU)
		if err != nil {
			t.Fatal(err)
		}
		opt := cmp.Comparer(func(x, y R) bool {
			fx, fy := float64(x), float64(y)
			if fx != fx || fy != fy {
				return fx != fx && fy != fy
			}
			return x == y || math.Abs(fx-fy) <= c.tol*max(math.Abs(fx), math.Abs(fy), 1)
		})
		if diff := cmp.Diff(host.Data(), back.Data(), opt); diff != "" {
			t.Errorf("emulated GPU vs CPU (-cpu +gpu):\n%s", diff)
		}
	})
}

// tensors is a shorthand for a list of operands.
func tensors[T tensor.Number](ts ...*tensor.Tensor[T]) []*tensor.Tensor[T] { return ts }

// into is a build for an elementwise tree into the destination as given.
func into[T tensor.Number](f func(x []*tensor.Tensor[T]) expr.Exp[T]) func([]*tensor.Tensor[T], *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
	return func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) { return d, f(x) }
}

// mapCases are elementwise trees over T in every layout the generator
// distinguishes: aligned contiguous operands (16-byte vectors, with a
// tail), misaligned ones (the scalar loop), broadcasts, transposes, a
// destination that is a view.
func mapCases[T tensor.Number](seed uint64) []emuCase[T, T] {
	n := 1003 // not a multiple of any vector width: a tail
	a, b, c := emuTensor(emuRandom[T](seed, 4), n), emuTensor(emuRandom[T](seed+1, 4), n), emuTensor(emuRandom[T](seed+2, 4), 1)
	m, row, col := emuTensor(emuRandom[T](seed+3, 4), 37, 29), emuTensor(emuRandom[T](seed+4, 4), 29), emuTensor(emuRandom[T](seed+5, 4), 37, 1)
	mt := emuTensor(emuRandom[T](seed+6, 4), 29, 37)
	p3, q3 := emuTensor(emuRandom[T](seed+7, 4), 3, 37, 29), emuTensor(emuRandom[T](seed+8, 4), 3, 29, 37)
	poly := func(x, y expr.Exp[T]) expr.Exp[T] {
		return expr.Of(x).Mul(y).Add(expr.Of(x).MulScalar(3)).Sub(y).Maximum(expr.Of(y).Neg())
	}
	vec := fmt.Sprintf("vec=%d", 16/tensor.ItemSize[T]())
	return []emuCase[T, T]{
		{name: "aligned", operands: tensors(a, b), dst: []int{n}, key: vec,
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return poly(x[0], x[1]) })},
		{name: "aligned_broadcast_scalar", operands: tensors(a, c), dst: []int{n}, key: vec,
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0]).Mul(x[1]).AddScalar(2) })},
		{name: "shorter_than_a_vector", operands: tensors(a), dst: []int{3}, key: vec,
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0].Narrow(0, 0, 3)).AddScalar(1) })},
		{name: "misaligned_operand", operands: tensors(a, b), dst: []int{n - 1}, key: "flat=true", not: "vec=",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return poly(x[0].Narrow(0, 1, n-1), x[1].Narrow(0, 0, n-1)) })},
		{name: "misaligned_destination", operands: tensors(a, b), dst: []int{n},
			key: "flat=true", not: "vec=",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				return d.Narrow(0, 1, n-2), poly(x[0].Narrow(0, 0, n-2), x[1].Narrow(0, 2, n-2))
			}},
		{name: "broadcast", operands: tensors(m, row, col), dst: []int{37, 29}, key: "r2",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0]).Mul(x[1]).Sub(x[2]).AddScalar(1) })},
		{name: "transposed", operands: tensors(m, mt), dst: []int{29, 37}, key: "r2",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				return d.T(), expr.Of(x[0]).Sub(x[1].T()).Maximum(x[0])
			}},
		// tiled: operands transposed against a row-major destination go
		// through shared-memory tiles; 37×29 fills no tile exactly.
		{name: "tiled_transpose", operands: tensors(m, mt), dst: []int{37, 29}, key: "tiled=4",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0]).Sub(x[1].T()).Maximum(x[0]) })},
		{name: "tiled_both_transposed", operands: tensors(mt, mt, row), dst: []int{37, 29}, key: "tiled=6",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Of(x[0].T()).Mul(x[1].T().Slice(1, tensor.None, tensor.None, -1)).Add(x[2])
			})},
		{name: "tiled_batch_reversed", operands: tensors(p3, q3, col), dst: []int{3, 37, 29}, key: "tiled=4",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Of(x[0]).Sub(x[1].Permute(0, 2, 1).Slice(1, tensor.None, tensor.None, -1)).Mul(x[2])
			})},
		{name: "tiled_into_a_view", operands: tensors(m, mt), dst: []int{40, 35}, key: "tiled=4",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				return d.Narrow(0, 2, 37).Narrow(1, 5, 29), expr.Of(x[0]).Add(x[1].T())
			}},
		{name: "view_of_expression", operands: tensors(m, row, col), dst: []int{29, 37}, key: "r2",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0]).Mul(x[1]).Sub(x[2]).T() })},
		{name: "reshape_of_expression_copies", operands: tensors(mt, m), dst: []int{37 * 29},
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				return expr.Of(x[0]).T().Add(x[1]).Slice(0, tensor.None, tensor.None, -1).Reshape(-1)
			})},
		{name: "strided", operands: tensors(a), dst: []int{334}, key: "r1",
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return expr.Of(x[0].Slice(0, 1, n, 3)).MulScalar(5) })},
		{name: "shared_subtree", operands: tensors(a, b), dst: []int{n}, key: vec,
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] {
				u := expr.Of(x[0]).Mul(x[1]).Sub(x[0]) // one node, read four times
				return u.Mul(u).Add(u).Maximum(u.Neg())
			})},
		{name: "rounding_and_logic", operands: tensors(a, b), dst: []int{n}, key: vec,
			build: into(func(x []*tensor.Tensor[T]) expr.Exp[T] { return roundingAndLogic(x[0], x[1]) })},
	}
}

// roundingAndLogic is a tree of the exact elementwise ops that are not
// arithmetic (rounding, sign, reciprocal, the isnan family, the logical
// ops and stop_gradient), whose CUDA helpers the emulator checks against the CPU loops; the
// reciprocal of x gives ±Inf where x is ±0.
func roundingAndLogic[T tensor.Number](x, y expr.Exp[T]) expr.Exp[T] {
	x3, d := expr.MulScalar(x, 3), expr.Sub(x, y)
	r := expr.Reciprocal(x)
	return expr.Of(expr.Rint(x3)).Add(expr.Floor(expr.MulScalar(y, 3))).Sub(expr.Ceil(x3)).
		Add(expr.Trunc(expr.MulScalar(d, 3))).Add(expr.Square(d)).Add(expr.Sign(d)).
		Add(expr.Reciprocal(expr.AddScalar(x, 1))).Add(expr.IsNaN(expr.Sub(r, r))).
		Add(expr.IsFinite(r)).Add(expr.IsInf(r)).Add(expr.LogicalAnd(x, expr.Floor(y))).
		Add(expr.LogicalOr(d, y)).Add(expr.LogicalXor(x, y)).Add(expr.LogicalNot(x)).
		Add(expr.StopGradient(d))
}

// TestEmulatedElementwise runs the elementwise kernels of several element
// types in the emulator, with the plan cache off (each call generates its
// kernel) and on (a repeated tree reuses its plan, which must still choose
// the kernel's variant per call: a misaligned view after an aligned one
// must not get the vectorised kernel). Elementwise results are exact: each
// element goes through the same operations in the same order on both sides.
func TestEmulatedElementwise(t *testing.T) {
	for _, cache := range []bool{false, true} {
		t.Run(fmt.Sprintf("cache=%t", cache), func(t *testing.T) {
			planCacheOff.Store(!cache)
			defer planCacheOff.Store(false)
			emulatedElementwise(t)
		})
	}
}

func emulatedElementwise(t *testing.T) {
	b := emulator(t)
	for _, c := range mapCases[float32](1) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range mapCases[float64](2) {
		c.name = "float64/" + c.name
		c.run(t, b)
	}
	for _, c := range mapCases[int8](3) {
		c.name = "int8/" + c.name
		c.run(t, b)
	}
	for _, c := range mapCases[uint16](4) {
		c.name = "uint16/" + c.name
		c.run(t, b)
	}
	for _, c := range mapCases[int64](5) {
		c.name = "int64/" + c.name
		c.run(t, b)
	}
	x := emuTensor(emuRandom[int32](6, 0), 1001)
	y := emuTensor(emuRandom[float32](7, 100), 1001)
	cast := func(f func(*tensor.Tensor[int32], *tensor.Tensor[float32]) expr.Exp[float32]) func([]*tensor.Tensor[float32], *tensor.Tensor[float32]) (*tensor.Tensor[float32], expr.Exp[float32]) {
		return func(ys []*tensor.Tensor[float32], d *tensor.Tensor[float32]) (*tensor.Tensor[float32], expr.Exp[float32]) {
			xd := x
			if ys[0].Device() != alloc.CPU {
				var err error
				if xd, err = x.To(emuDevice); err != nil {
					t.Fatal(err)
				}
			}
			return d, f(xd, ys[0])
		}
	}
	emuCase[float32, float32]{name: "converted_same_size", operands: tensors(y), dst: []int{1001}, key: "vec=4",
		build: cast(func(x *tensor.Tensor[int32], y *tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Add[float32](expr.Cast[float32](x), y)
		})}.run(t, b)
	emuCase[float32, float32]{name: "converted_tiled", operands: tensors(y), dst: []int{33, 30}, key: "tiled=",
		build: cast(func(x *tensor.Tensor[int32], y *tensor.Tensor[float32]) expr.Exp[float32] {
			xt, err := x.Narrow(0, 0, 990).View(30, 33)
			if err != nil {
				t.Fatal(err)
			}
			yv, err := y.Narrow(0, 0, 990).View(33, 30)
			if err != nil {
				t.Fatal(err)
			}
			return expr.Add[float32](expr.Cast[float32](xt.T()), yv)
		})}.run(t, b)
}

// reduceCase builds a reduction case of op over the tree x0*x1 (for
// two operands) or x0, along axes, into a destination of dims.
func reduceCase[T tensor.Number](name string, op ops.Reducer, xs []*tensor.Tensor[T], axes []int, dims []int, key string, tol float64) emuCase[T, T] {
	return emuCase[T, T]{name: name, operands: xs, dst: dims, key: key, tol: tol,
		build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
			var tree expr.Exp[T] = x[0]
			if len(x) > 1 {
				tree = expr.Mul[T](x[0], x[1])
			}
			return d, expr.Of[T](&expr.Reduction[T]{Op: op, X: tree, Axes: axes})
		}}
}

// argCase builds an arg-reduction case over x0 along axes.
func argCase[T tensor.Number](name string, op ops.Reducer, x0 *tensor.Tensor[T], axes []int, dims []int, key string) emuCase[T, int64] {
	return emuCase[T, int64]{name: name, operands: tensors(x0), dst: dims, key: key,
		build: func(x []*tensor.Tensor[T], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
			return d, expr.Of[int64](&expr.ArgReduction[T]{Op: op, X: x[0], Axes: axes})
		}}
}

// emuTuning lowers the sizes at which reductions change strategy, so that
// every strategy runs at sizes the emulator runs quickly; it returns the
// function that restores them.
func emuTuning() func() {
	saved := cudasrc.Tuning
	cudasrc.Tuning.SplitRowElements, cudasrc.Tuning.SplitRowBlocks = 512, 64
	cudasrc.Tuning.SplitColThreads, cudasrc.Tuning.SplitColElements = 1024, 8
	cudasrc.Tuning.WarpRowMax, cudasrc.Tuning.ManyResultsBlocks = 48, 64
	return func() { cudasrc.Tuning = saved }
}

// reduceCases are reductions of T over every strategy: one block per
// result, one warp per row, one thread per column, and split into partials
// along rows and along columns, tiny and large, with the shapes chosen so
// that each strategy is taken (the key check says which). Float sums fold
// in another order than the CPU's (pairwise within blocks of the CPU's
// loop, compensated across them; a fixed tree of strided per-thread sums on
// the GPU), hence tol.
func reduceCases[T tensor.Number](seed uint64, tol float64) []emuCase[T, T] {
	r := func(k uint64, dims ...int) *tensor.Tensor[T] { return emuTensor(emuRandom[T](seed+k, 2), dims...) }
	full, fullB := r(1, 5000), r(2, 5000)
	tiny := r(3, 100)
	rows, short, tall := r(4, 100, 37), r(5, 3, 2000), r(6, 80, 300)
	cube, cube2 := r(7, 7, 30, 9), r(8, 8, 5, 12)
	cols, few := r(9, 37, 200), r(10, 500, 3)
	wide := r(11, 3, 2000)
	var cases []emuCase[T, T]
	for _, op := range []ops.Reducer{ops.Sum, ops.Max, ops.Min, ops.Prod, ops.Mean} {
		if op == ops.Mean && !tensor.IsFloat[T]() {
			continue
		}
		name := op.Def().Name
		tl := 0.0
		if op == ops.Sum || op == ops.Mean || op == ops.Prod {
			tl = tol
		}
		k := name + "/"
		cases = append(cases,
			reduceCase(name+"/full_split", op, tensors(full, fullB), nil, []int{}, k+"split", tl),
			reduceCase(name+"/full_tiny", op, tensors(tiny), nil, []int{}, k+"block", tl),
			reduceCase(name+"/rows_warp", op, tensors(rows), []int{1}, []int{100}, k+"warp", tl),
			reduceCase(name+"/rows_split", op, tensors(short), []int{1}, []int{3}, k+"split", tl),
			reduceCase(name+"/rows_block", op, tensors(tall), []int{1}, []int{80}, k+"block", tl),
			reduceCase(name+"/columns_split", op, tensors(cols), []int{0}, []int{200}, k+"split", tl),
			reduceCase(name+"/few_columns_split", op, tensors(few), []int{0}, []int{3}, k+"split", tl),
			reduceCase(name+"/columns", op, tensors(wide), []int{0}, []int{2000}, k+"column", tl),
			reduceCase(name+"/middle_axis", op, tensors(cube), []int{1}, []int{7, 9}, k+"split", tl),
			reduceCase(name+"/outer_and_inner_axes", op, tensors(cube2), []int{0, 2}, []int{5}, k+"block", tl),
			emuCase[T, T]{name: name + "/transposed_operand", operands: tensors(tall), dst: []int{300}, key: k + "block", tol: tl,
				build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
					return d, expr.Of[T](&expr.Reduction[T]{Op: op, X: x[0].T(), Axes: []int{1}})
				}},
		)
	}
	return cases
}

// argCases are argmax and argmin over the strategies, on values with many
// ties (first occurrence wins) and, for floats, NaNs (the first NaN wins).
func argCases[T tensor.Number](seed uint64) []emuCase[T, int64] {
	gen := func(k uint64) func(int) T {
		g := emuSmall[T](seed+k, 5)
		if tensor.IsFloat[T]() {
			g = withNaNs(g, 997)
		}
		return g
	}
	full := emuTensor(gen(1), 5000)
	plain := emuTensor(emuSmall[T](seed+9, 3), 5000)
	rows, short, tall := emuTensor(gen(2), 100, 37), emuTensor(gen(3), 3, 2000), emuTensor(gen(4), 80, 300)
	cols, few := emuTensor(gen(5), 37, 200), emuTensor(gen(6), 500, 3)
	var cases []emuCase[T, int64]
	for _, op := range []ops.Reducer{ops.ArgMax, ops.ArgMin} {
		k, name := op.Def().Name+"/", op.Def().Name
		cases = append(cases,
			argCase(name+"/full_split", op, full, nil, []int{}, k+"split"),
			argCase(name+"/full_split_ties", op, plain, nil, []int{}, k+"split"),
			argCase(name+"/rows_warp", op, rows, []int{1}, []int{100}, k+"warp"),
			argCase(name+"/rows_split", op, short, []int{1}, []int{3}, k+"split"),
			argCase(name+"/rows_block", op, tall, []int{1}, []int{80}, k+"block"),
			argCase(name+"/columns_split", op, cols, []int{0}, []int{200}, k+"split"),
			argCase(name+"/few_columns_split", op, few, []int{0}, []int{3}, k+"split"),
		)
	}
	return cases
}

// TestEmulatedReductions runs every reduction strategy in the emulator:
// integer results exact (sums and products wrap alike in any order),
// float sums within a tolerance, max, min and arg reductions exact.
func TestEmulatedReductions(t *testing.T) {
	planCacheOff.Store(true) // the cache takes elementwise trees only; this keeps them out of its way
	defer planCacheOff.Store(false)
	b := emulator(t)
	defer emuTuning()()
	for _, c := range reduceCases[float32](10, 1e-4) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range reduceCases[int32](20, 0) {
		c.name = "int32/" + c.name
		c.run(t, b)
	}
	for _, c := range argCases[float64](30) {
		c.name = "float64/" + c.name
		c.run(t, b)
	}
	for _, c := range argCases[int16](40) {
		c.name = "int16/" + c.name
		c.run(t, b)
	}
}

// gemmCases are matrix products of an integer (or other non-cuBLAS)
// type that overflow: random values over the whole range, odd sizes that
// do not fill tiles, batches, broadcast batches, a transposed operand
// (copied first), vectors.
func gemmCases[T tensor.Number](seed uint64) []emuCase[T, T] {
	r := func(k uint64, dims ...int) *tensor.Tensor[T] { return emuTensor(emuRandom[T](seed+k, 100), dims...) }
	mm := func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
		return d, expr.MatMul[T](x[0], x[1])
	}
	return []emuCase[T, T]{
		{name: "matrix", operands: tensors(r(1, 33, 47), r(2, 47, 29)), dst: []int{33, 29}, key: "gemm", build: mm},
		{name: "batch", operands: tensors(r(3, 3, 17, 20), r(4, 3, 20, 9)), dst: []int{3, 17, 9}, key: "gemm", build: mm},
		{name: "broadcast_batch", operands: tensors(r(5, 2, 1, 5, 6), r(6, 4, 6, 7)), dst: []int{2, 4, 5, 7}, key: "gemm", build: mm},
		{name: "vector_matrix", operands: tensors(r(7, 19), r(8, 19, 21)), dst: []int{21}, key: "gemm", build: mm},
		{name: "transposed", operands: tensors(r(9, 18, 16), r(10, 18, 22)), dst: []int{16, 22}, key: "",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				return d, expr.MatMul[T](x[0].T(), x[1])
			}},
		{name: "fused_after", operands: tensors(r(11, 16, 16), r(12, 16, 16)), dst: []int{16, 16}, key: "gemm",
			build: func(x []*tensor.Tensor[T], d *tensor.Tensor[T]) (*tensor.Tensor[T], expr.Exp[T]) {
				return d, expr.Of(expr.MatMul[T](x[0], x[1])).AddScalar(3)
			}},
	}
}

// TestEmulatedProducts runs the generated matrix product for the element
// types cuBLAS does not take; results are exact (wrap-around in the
// element type, as NumPy's integer matmul).
func TestEmulatedProducts(t *testing.T) {
	planCacheOff.Store(true) // the cache takes elementwise trees only; this keeps them out of its way
	defer planCacheOff.Store(false)
	b := emulator(t)
	for _, c := range gemmCases[int32](1) {
		c.name = "int32/" + c.name
		c.run(t, b)
	}
	for _, c := range gemmCases[int8](2) {
		c.name = "int8/" + c.name
		c.run(t, b)
	}
	for _, c := range gemmCases[uint64](3) {
		c.name = "uint64/" + c.name
		c.run(t, b)
	}
	for _, c := range gemmCases[uint16](4) {
		c.name = "uint16/" + c.name
		c.run(t, b)
	}
}
