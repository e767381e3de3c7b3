//go:build cuda

package cuda

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/kernels"
	"gorgonia.org/cu"
	cublas "gorgonia.org/cu/blas"
)

// Device is one opened GPU: its context, owned by a goroutine locked to an
// OS thread, its caching allocator, its compiled kernels and its cuBLAS
// handle. Open returns the same Device for the same ordinal every time.
//
// The threading rule: kernel launches, graph capture and replay, and module
// loads are made from the calling goroutine, each in one cgo call that first
// makes the device's context current on the calling OS thread (the driver
// API is thread-safe, and setting the context inside the same C call makes
// the goroutine's thread irrelevant). Every other CUDA call (allocation,
// copies, synchronisation, stream creation, cuBLAS) runs on the device's
// goroutine, which holds the context on its locked OS thread.
type Device struct {
	id    int
	name  string
	arch  string // "sm_90"
	sms   int    // multiprocessors
	ctx   cuContext
	calls chan func()

	memory  *Allocator
	kernels *kernelCache
	blas    *cublas.Standard
	stream  *Stream // the NULL stream, which Assign uses
}

var opened struct {
	mu      sync.Mutex
	devices map[int]*Device
}

// Open opens GPU id (alloc.CUDA(id)): it creates its context on a
// goroutine of its own, registers its allocator with package alloc (so that
// Tensor.To(alloc.CUDA(id)) works) and the CUDA backend with package
// kernels (so that Assign does). Opening an open device returns it again.
func Open(id int) (*Device, error) {
	opened.mu.Lock()
	defer opened.mu.Unlock()
	if d, ok := opened.devices[id]; ok {
		return d, nil
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("laze: cuda.Open(%d): %w", id, err)
	}
	if id < 0 || id >= n {
		return nil, &DeviceNotFoundError{ID: id, Count: n}
	}
	d := &Device{id: id, calls: make(chan func())}
	ready := make(chan error)
	go d.own(ready)
	if err := <-ready; err != nil {
		return nil, fmt.Errorf("laze: cuda.Open(%d): %w", id, err)
	}
	d.memory = newAllocator(d)
	d.kernels = newKernelCache(d)
	d.stream = &Stream{dev: d}
	if opened.devices == nil {
		opened.devices = map[int]*Device{}
	}
	opened.devices[id] = d
	alloc.Register(d.memory)
	kernels.RegisterBackend(alloc.KindCUDA, backend{})
	return d, nil
}

// DeviceNotFoundError reports an ordinal with no GPU behind it.
type DeviceNotFoundError struct {
	ID, Count int
}

// Error names the ordinal and the number of GPUs.
func (e *DeviceNotFoundError) Error() string {
	return fmt.Sprintf("laze: cuda.Open(%d): there are %d CUDA devices", e.ID, e.Count)
}

// own is the device's goroutine: it locks itself to an OS thread, creates
// the context there, and then runs every CUDA call of the device.
func (d *Device) own(ready chan<- error) {
	runtime.LockOSThread()
	dev, err := cu.GetDevice(d.id)
	if err == nil {
		var ctx cu.CUContext
		ctx, err = dev.MakeContext(cu.SchedAuto)
		d.ctx = rawContext(ctx)
	}
	if err == nil {
		err = d.describe(dev)
	}
	if err == nil {
		d.blas = cublas.New()
	}
	ready <- err
	if err != nil {
		return
	}
	for f := range d.calls {
		f()
	}
}

// describe reads the device's name, compute capability and size.
func (d *Device) describe(dev cu.Device) error {
	name, err := dev.Name()
	if err != nil {
		return err
	}
	attrs, err := dev.Attributes(cu.ComputeCapabilityMajor, cu.ComputeCapabilityMinor, cu.MultiprocessorCount)
	if err != nil {
		return err
	}
	d.name, d.arch, d.sms = name, fmt.Sprintf("sm_%d%d", attrs[0], attrs[1]), attrs[2]
	return nil
}

// do runs f on the device's goroutine and returns its error.
func (d *Device) do(f func() error) error {
	var err error
	done := make(chan struct{})
	d.calls <- func() {
		defer close(done)
		err = f()
	}
	<-done
	return err
}

// Do runs f on the device's goroutine, where the device's context is
// current on a locked OS thread, and returns its error: for code outside
// laze that makes CUDA calls of its own on laze's context (a raw kernel
// kit, a profiler marker). f must not call back into the Device's methods
// that use the goroutine (Synchronize, Stream.Wait, the allocator), which
// would wait for themselves.
func (d *Device) Do(f func() error) error { return d.do(f) }

// ID returns the device's ordinal.
func (d *Device) ID() int { return d.id }

// Name returns the GPU's name ("NVIDIA H100 80GB HBM3").
func (d *Device) Name() string { return d.name }

// Arch returns the compute capability kernels are compiled for ("sm_90").
func (d *Device) Arch() string { return d.arch }

// Device returns alloc.CUDA(ID()).
func (d *Device) Device() alloc.Device { return alloc.CUDA(d.id) }

// Allocator returns the device's caching allocator, for
// tensor.WithAllocator.
func (d *Device) Allocator() *Allocator { return d.memory }

// DefaultStream returns the stream Assign uses: CUDA's NULL stream, which
// orders itself with every other stream of the device.
func (d *Device) DefaultStream() *Stream { return d.stream }

// Synchronize waits for all the device's work, on every stream.
func (d *Device) Synchronize() error { return d.do(cu.Synchronize) }
