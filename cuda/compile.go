//go:build cuda

package cuda

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/laze-go/laze/kernels"
	"gorgonia.org/cu"
	"gorgonia.org/cu/nvrtc"
)

// KernelStats are a device's counters of kernel compilation and launches.
type KernelStats struct {
	Compiled    int64         // kernels compiled with NVRTC and loaded (one per new structure)
	Hits        int64         // launches that found their kernel compiled
	Launches    int64         // kernel launches
	Gemms       int64         // cuBLAS calls
	CompileTime time.Duration // time spent in NVRTC and loading modules
}

// kernelCache holds a device's compiled kernels by structure (Kernel.Key).
// Two goroutines asking for the same new kernel compile it once: the second
// waits for the first.
type kernelCache struct {
	dev     *Device
	mu      sync.Mutex
	entries map[string]*compiled
	stats   KernelStats
}

// compiled is one kernel, ready once ready is closed.
type compiled struct {
	ready chan struct{}
	fn    cu.Function
	err   error
}

func newKernelCache(d *Device) *kernelCache {
	return &kernelCache{dev: d, entries: map[string]*compiled{}}
}

// get returns k's compiled function, compiling it on first use. A kernel
// that failed to compile keeps its error: the same source fails again.
func (c *kernelCache) get(k *kernels.Kernel) (cu.Function, error) {
	c.mu.Lock()
	e, ok := c.entries[k.Key]
	if ok {
		c.stats.Hits++
		c.mu.Unlock()
		<-e.ready
		return e.fn, e.err
	}
	e = &compiled{ready: make(chan struct{})}
	c.entries[k.Key] = e
	c.mu.Unlock()
	start := time.Now()
	e.fn, e.err = c.compile(k)
	took := time.Since(start)
	c.mu.Lock()
	c.stats.Compiled++
	c.stats.CompileTime += took
	c.mu.Unlock()
	close(e.ready)
	return e.fn, e.err
}

// compile turns k's source into PTX with NVRTC (which needs no context)
// and loads it on the device's goroutine.
func (c *kernelCache) compile(k *kernels.Kernel) (cu.Function, error) {
	src := k.Source()
	ptx, err := compilePTX(k.Name, src, c.dev.arch)
	if err != nil {
		return cu.Function{}, err
	}
	var fn cu.Function
	err = c.dev.do(func() error {
		mod, err := cu.LoadData(ptx)
		if err != nil {
			return err
		}
		fn, err = mod.Function(k.Name)
		return err
	})
	if err != nil {
		return cu.Function{}, fmt.Errorf("laze: cuda: loading kernel %s: %w", k.Name, err)
	}
	return fn, nil
}

// CompileError is NVRTC's refusal of a generated kernel: it carries
// NVRTC's log and the source, so that the fault can be found (and
// reported: it is a bug in laze).
type CompileError struct {
	Kernel string // the kernel's name
	Arch   string // the architecture compiled for
	Err    error  // NVRTC's result
	Log    string // NVRTC's log
	Source string // the generated CUDA C
}

// Error names the kernel and architecture and gives the log.
func (e *CompileError) Error() string {
	return fmt.Sprintf("laze: cuda: NVRTC could not compile kernel %s for %s: %v\n%s", e.Kernel, e.Arch, e.Err, strings.TrimSpace(e.Log))
}

// Unwrap returns NVRTC's result.
func (e *CompileError) Unwrap() error { return e.Err }

// compilePTX compiles source for arch ("sm_90") and returns the PTX.
func compilePTX(name, source, arch string) (string, error) {
	prog, err := nvrtc.CreateProgram(source, name+".cu")
	if err != nil {
		return "", &CompileError{Kernel: name, Arch: arch, Err: err, Source: source}
	}
	defer prog.Destroy()
	if err := prog.Compile(kernels.NVRTCOptions(arch)...); err != nil {
		log, _ := prog.GetLog()
		return "", &CompileError{Kernel: name, Arch: arch, Err: err, Log: log, Source: source}
	}
	return prog.GetPTX()
}

// KernelStats returns the device's kernel counters.
func (d *Device) KernelStats() KernelStats {
	d.kernels.mu.Lock()
	defer d.kernels.mu.Unlock()
	return d.kernels.stats
}
