//go:build cuda

package cuda

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/laze-go/laze/cuda/internal/diskcache"
	"github.com/laze-go/laze/kernels"
)

// KernelStats are a device's counters of kernel compilation and launches.
type KernelStats struct {
	// Compiled counts the kernels compiled with NVRTC and loaded (one per
	// new structure not found on disk).
	Compiled int64
	// DiskHits counts the kernels loaded from the persistent cache on disk
	// (a CUBIN, or PTX, written by an earlier process) instead of compiled:
	// one per new structure found there. Compiled + DiskHits is the number
	// of structures this process met.
	DiskHits int64
	// Hits counts launches that found their kernel in memory. The
	// evaluator compiles every kernel of a call before it queues the first
	// (kernels.Compiler), so its launches all hit; a launch of the plan
	// cache (a call of one kernel) compiles on its own.
	Hits int64
	// Launches counts kernel launches queued, those recorded into graphs
	// (Device.Record) included.
	Launches int64
	// GraphLaunches counts graph replays (Graph.Launch).
	GraphLaunches int64
	// Gemms counts cuBLAS calls.
	Gemms int64
	// CompileTime is the time spent in NVRTC, reading the disk cache and
	// loading modules.
	CompileTime time.Duration
}

// kernelCache holds a device's compiled kernels by structure (Kernel.Key),
// in memory and (through disk) across processes. Two goroutines asking for
// the same new kernel compile it once: the second waits for the first. The
// hit path takes a read lock and allocates nothing; the counters are
// atomic.
type kernelCache struct {
	dev     *Device
	disk    *diskcache.Cache
	mu      sync.RWMutex
	entries map[string]*compiled

	compiled, diskHits, hits, launches, graphLaunches, gemms, compileNanos atomic.Int64
}

// compiled is one kernel, ready once ready is closed.
type compiled struct {
	ready chan struct{}
	fn    cuFunction
	err   error
}

func newKernelCache(d *Device) *kernelCache {
	return &kernelCache{dev: d, disk: diskcache.FromEnv("laze/cuda"), entries: map[string]*compiled{}}
}

// get returns k's compiled function for a launch, compiling it on first
// use, and counts a hit when it was in memory.
func (c *kernelCache) get(k *kernels.Kernel) (cuFunction, error) {
	fn, hit, err := c.load(k)
	if hit {
		c.hits.Add(1)
	}
	return fn, err
}

// load returns k's compiled function, compiling it on first use; hit
// reports whether it was in memory (or being compiled by another
// goroutine, which load waits for). A kernel that failed to compile keeps
// its error: the same source fails again.
func (c *kernelCache) load(k *kernels.Kernel) (fn cuFunction, hit bool, err error) {
	c.mu.RLock()
	e := c.entries[k.Key]
	c.mu.RUnlock()
	if e == nil {
		c.mu.Lock()
		if e = c.entries[k.Key]; e == nil {
			e = &compiled{ready: make(chan struct{})}
			c.entries[k.Key] = e
			c.mu.Unlock()
			c.fill(e, k)
			return e.fn, false, e.err
		}
		c.mu.Unlock()
	}
	<-e.ready
	return e.fn, true, e.err
}

// fill makes e ready: from the disk cache, or by compiling.
func (c *kernelCache) fill(e *compiled, k *kernels.Kernel) {
	defer close(e.ready)
	start := time.Now()
	var fromDisk bool
	e.fn, fromDisk, e.err = c.compile(k)
	c.compileNanos.Add(int64(time.Since(start)))
	if fromDisk {
		c.diskHits.Add(1)
	} else {
		c.compiled.Add(1)
	}
}

// Kinds of disk cache payloads: their first byte.
const (
	payloadCUBIN = 'C'
	payloadPTX   = 'P'
)

// compile loads k from the disk cache, or compiles it with NVRTC (which
// needs no context, so it runs on the caller's goroutine), stores the
// result on disk and loads it.
func (c *kernelCache) compile(k *kernels.Kernel) (fn cuFunction, fromDisk bool, err error) {
	src := k.Source()
	arch := c.dev.arch
	key := diskKey(src, arch)
	if p, ok := c.disk.Get(key); ok && len(p) > 1 && (p[0] == payloadCUBIN || p[0] == payloadPTX) {
		if fn, err := loadModule(c.dev.ctx, p[1:], p[0] == payloadPTX, k.Name); err == nil {
			return fn, true, nil
		}
		// A file the driver refuses (another driver's CUBIN?) is compiled
		// again and replaced.
	}
	image, kind, err := compileImage(k.Name, src, arch)
	if err != nil {
		return nil, false, err
	}
	fn, err = loadModule(c.dev.ctx, image, kind == payloadPTX, k.Name)
	if err != nil {
		return nil, false, fmt.Errorf("laze: cuda: loading kernel %s: %w", k.Name, err)
	}
	// A cache that cannot be written only costs the next process a compile.
	_ = c.disk.Put(key, append([]byte{kind}, image...))
	return fn, false, nil
}

// diskKey is the disk cache's key of a kernel: its source, the GPU
// architecture, the NVRTC version and the options it is compiled with.
func diskKey(source, arch string) diskcache.Key {
	return diskcache.KeyOf(source, arch, nvrtcVersion(), strings.Join(cubinOptions(arch), "\x00"))
}

// cubinOptions are kernels.NVRTCOptions for a real architecture: NVRTC
// then emits a CUBIN, which loads without the driver's JIT, instead of PTX
// for the virtual one (compute_XX).
func cubinOptions(arch string) []string {
	opts := kernels.NVRTCOptions(arch)
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = strings.Replace(o, "--gpu-architecture=compute_", "--gpu-architecture=sm_", 1)
	}
	return out
}

// compileImage compiles source to a CUBIN for arch ("sm_90"), or, where
// NVRTC cannot (an architecture it knows only as virtual), to PTX with
// kernels.NVRTCOptions; it returns the image and its kind.
func compileImage(name, source, arch string) ([]byte, byte, error) {
	if cubin, _, err := nvrtcCompile(name, source, cubinOptions(arch), outputCUBIN); err == nil {
		return cubin, payloadCUBIN, nil
	}
	ptx, err := compilePTX(name, source, arch)
	if err != nil {
		return nil, 0, err
	}
	return []byte(ptx), payloadPTX, nil
}

// CompileError is NVRTC's refusal of a generated kernel: it carries
// NVRTC's log and the source, so that the fault can be found (and
// reported: it is a bug in laze).
type CompileError struct {
	Kernel string // the kernel's name
	Arch   string // the architecture compiled for
	Err    error  // NVRTC's result (a *NVRTCError)
	Log    string // NVRTC's log
	Source string // the generated CUDA C
}

// Error names the kernel and architecture and gives the log.
func (e *CompileError) Error() string {
	return fmt.Sprintf("laze: cuda: NVRTC could not compile kernel %s for %s: %v\n%s", e.Kernel, e.Arch, e.Err, strings.TrimSpace(e.Log))
}

// Unwrap returns NVRTC's result.
func (e *CompileError) Unwrap() error { return e.Err }

// compilePTX compiles source for arch ("sm_90") with kernels.NVRTCOptions
// and returns the PTX.
func compilePTX(name, source, arch string) (string, error) {
	ptx, log, err := nvrtcCompile(name, source, kernels.NVRTCOptions(arch), outputPTX)
	if err != nil {
		return "", &CompileError{Kernel: name, Arch: arch, Err: err, Log: log, Source: source}
	}
	return string(ptx), nil
}

// KernelStats returns the device's kernel counters.
func (d *Device) KernelStats() KernelStats {
	c := d.kernels
	return KernelStats{
		Compiled:      c.compiled.Load(),
		DiskHits:      c.diskHits.Load(),
		Hits:          c.hits.Load(),
		Launches:      c.launches.Load(),
		GraphLaunches: c.graphLaunches.Load(),
		Gemms:         c.gemms.Load(),
		CompileTime:   time.Duration(c.compileNanos.Load()),
	}
}

// DiskCache describes the device's persistent kernel cache: its directory,
// or why it is disabled. The cache is the directory laze/cuda under
// os.UserCacheDir, or the one the environment variable LAZE_CUDA_CACHE
// names when Open runs; LAZE_CUDA_CACHE=off disables it. It holds one file
// per kernel (a CUBIN for the device's architecture, or PTX where NVRTC
// cannot make one), keyed by the sha256 of the source, the architecture,
// NVRTC's version and the compile options; a file that fails its checksum
// is compiled again and replaced, and a directory that cannot be written
// only means compiling every time.
func (d *Device) DiskCache() string { return d.kernels.disk.String() }
