//go:build cuda

package cuda

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
	"gorgonia.org/cu"
	cublas "gorgonia.org/cu/blas"
)

// Assign queues the evaluation of e into dst on stream s and returns
// without waiting: the result is ready when s.Wait returns (or s.Idle
// reports true). A step with no device kernel (a sort, a gather) runs on
// the host at its turn, so Assign waits for the work up to the last such
// step (kernels/hostrun.go). It checks as kernels.Assign does; an error it returns
// leaves dst unchanged. Use kernels.Assign to wait for the result.
func Assign[T tensor.Number](s *Stream, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return kernels.AssignOn(s, dst, e)
}

// Stream is an ordered queue of work on one device (a CUDA stream), as
// mshadow's Stream: Wait blocks until its work is done, Idle reports
// whether it is. Streams are created with default flags, so work on them
// is also ordered with the device's default stream (and with cuBLAS, which
// runs there). Safe for concurrent use.
//
// The stream Device.Record hands to its function is different: it is being
// recorded into a graph (CUDA stream capture), so work queued on it is
// recorded, not run; Wait and Close on it return a *CaptureError, Idle
// reports false, and it is closed when the function returns.
type Stream struct {
	dev    *Device
	cu     cu.Stream // zero: CUDA's NULL stream
	handle cuStream  // cu's handle, for the launch shim
	own    bool
	closed atomic.Bool
	rec    atomic.Pointer[recording] // non-nil while Device.Record captures the stream

	mu      sync.Mutex
	pending []func()
}

var (
	_ kernels.Queue    = (*Stream)(nil)
	_ kernels.Compiler = backend{}
)

// NewStream creates a stream on the device; Close it when done.
func (d *Device) NewStream() (*Stream, error) {
	return d.newStream(cu.DefaultStream)
}

func (d *Device) newStream(flags cu.StreamFlags) (*Stream, error) {
	s := &Stream{dev: d, own: true}
	err := d.do(func() error {
		var err error
		s.cu, err = cu.MakeStream(flags)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("laze: cuda: creating a stream on %v: %w", d.Device(), err)
	}
	s.handle = rawStream(s.cu)
	return s, nil
}

// Device returns where the stream runs.
func (s *Stream) Device() alloc.Device { return s.dev.Device() }

// String names the stream and its device.
func (s *Stream) String() string {
	if s.handle == nil {
		return fmt.Sprintf("default stream of %v", s.dev.Device())
	}
	return fmt.Sprintf("stream %p of %v", s.handle, s.dev.Device())
}

// Wait blocks until every piece of work queued on the stream so far is
// done, gives back the temporaries of the evaluations it ran, and returns
// the first error CUDA reports. On a stream being recorded (Device.Record)
// it returns a *CaptureError and waits for nothing: the work there is
// recorded, not run, and CUDA forbids synchronising it.
func (s *Stream) Wait() error {
	if s.rec.Load() != nil {
		return &CaptureError{Op: "Stream.Wait", Stream: s.String(), Reason: "the stream is being recorded into a graph (Device.Record), whose work runs only when the graph is launched; wait for the stream the graph is launched on"}
	}
	if s.closed.Load() {
		s.runPending()
		return nil
	}
	err := synchronize(s.dev.ctx, s.handle)
	s.runPending()
	return err
}

// Recording reports whether the stream's work is being recorded into a
// graph (Device.Record) rather than run: the evaluator refuses there a step
// that runs on the host (a sort, a gather), which would run once, at
// recording, and not at each replay.
func (s *Stream) Recording() bool { return s.rec.Load() != nil }

// Idle reports whether all work queued on the stream is done, without
// blocking (errors are Wait's to report). A stream being recorded is never
// idle.
func (s *Stream) Idle() bool {
	if s.rec.Load() != nil {
		return false
	}
	if s.closed.Load() {
		s.runPending()
		return true
	}
	var busy error
	_ = s.dev.do(func() error { busy = s.cu.Query(); return nil })
	if busy != nil {
		return false
	}
	s.runPending()
	return true
}

// Defer runs f once the work queued so far is done: at the next Wait, or
// Idle that reports true. On a stream being recorded (Device.Record) f is
// kept by the graph and runs at Graph.Close, because every replay of the
// graph uses what f gives back (an evaluation's temporaries and the holds
// on its tensors' storage); on a closed stream f runs at once.
func (s *Stream) Defer(f func()) {
	s.mu.Lock()
	if r := s.rec.Load(); r != nil {
		r.deferred = append(r.deferred, f)
		s.mu.Unlock()
		return
	}
	if s.closed.Load() {
		s.mu.Unlock()
		f()
		return
	}
	s.pending = append(s.pending, f)
	s.mu.Unlock()
}

func (s *Stream) runPending() {
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	for _, f := range pending {
		f()
	}
}

// Close waits for the stream and destroys it. Closing the default stream
// only waits; closing a closed stream does nothing. A stream being recorded
// is closed by Device.Record: Close on it returns a *CaptureError.
func (s *Stream) Close() error {
	if s.rec.Load() != nil {
		return &CaptureError{Op: "Stream.Close", Stream: s.String(), Reason: "the stream is being recorded into a graph; Device.Record closes it when its function returns"}
	}
	err := s.Wait()
	if s.own && !s.closed.Swap(true) {
		_ = s.dev.do(func() error { s.dev.destroyStream(&s.cu); return nil })
	}
	return err
}

func (d *Device) destroyStream(s *cu.Stream) { _ = s.Destroy() }

// usable returns an error for a closed stream.
func (s *Stream) usable(op string) error {
	if s.closed.Load() {
		return &shape.ArgumentError{Op: op, Name: "stream", Value: s, Reason: "the stream is closed (Stream.Close, or a Device.Record stream after its function returned)"}
	}
	return nil
}

// backend is the CUDA kernels.Backend.
type backend struct{}

// DefaultQueue returns the default stream of dev, which must be open.
func (backend) DefaultQueue(dev alloc.Device) (kernels.Queue, error) {
	d, err := openedDevice(dev)
	if err != nil {
		return nil, err
	}
	return d.stream, nil
}

// Launch compiles k on first use and queues it on q.
func (backend) Launch(q kernels.Queue, k *kernels.Kernel) error {
	s, err := streamOf(q)
	if err != nil {
		return err
	}
	return s.dev.launch(s, k)
}

// Compile compiles and loads k on q's device, or finds it in the cache
// Launch uses: the evaluator calls it for every kernel of a call before it
// queues the first, so that a kernel NVRTC refuses (a *CompileError) or
// the driver cannot load fails the call with nothing queued.
func (backend) Compile(q kernels.Queue, k *kernels.Kernel) error {
	s, err := streamOf(q)
	if err != nil {
		return err
	}
	if err := s.usable("cuda: compile"); err != nil {
		return err
	}
	_, _, err = s.dev.kernels.load(k)
	return err
}

// Gemm queues one product through cuBLAS.
func (backend) Gemm(q kernels.Queue, g kernels.Gemm) error {
	s, err := streamOf(q)
	if err != nil {
		return err
	}
	return s.dev.gemm(s, g)
}

func streamOf(q kernels.Queue) (*Stream, error) {
	s, ok := q.(*Stream)
	if !ok {
		return nil, &shape.ArgumentError{Op: "cuda", Name: "queue", Value: fmt.Sprintf("%T", q), Reason: "the CUDA backend runs on *cuda.Stream queues"}
	}
	return s, nil
}

// openedDevice returns the open Device for dev.
func openedDevice(dev alloc.Device) (*Device, error) {
	opened.mu.Lock()
	defer opened.mu.Unlock()
	d, ok := opened.devices[dev.ID()]
	if !ok || dev.Kind() != alloc.KindCUDA {
		return nil, &shape.DeviceError{Op: "cuda", Devices: []fmt.Stringer{dev}, Reason: "the device is not open (cuda.Open)"}
	}
	return d, nil
}

// launch queues one kernel on s from the calling goroutine: one cgo call
// (context made current, argument array on the C stack, cuLaunchKernel),
// no allocation and no round trip to the device's goroutine.
func (d *Device) launch(s *Stream, k *kernels.Kernel) error {
	fn, err := d.kernels.get(k)
	if err != nil {
		return err
	}
	if err := s.usable("cuda: launch"); err != nil {
		return err
	}
	threads, blocks := d.geometry(k)
	d.kernels.launches.Add(1)
	if r := s.rec.Load(); r != nil {
		r.kernels.Add(1)
	}
	if err := launchKernel(d.ctx, fn, blocks, threads, s.handle, k.Params); err != nil {
		return fmt.Errorf("laze: cuda: launching kernel %s (%d blocks of %d threads) on %v: %w", k.Name, blocks, threads, s, err)
	}
	return nil
}

// gemm runs one row-major product through cuBLAS, which is column-major:
// C = A·B is computed as Cᵀ = Bᵀ·Aᵀ. cuBLAS runs on the NULL stream, so a
// product cannot be recorded into a graph: on a stream being recorded gemm
// returns a *CaptureError.
func (d *Device) gemm(s *Stream, g kernels.Gemm) error {
	if s.rec.Load() != nil {
		return &CaptureError{Op: "MatMul", Stream: s.String(), Reason: fmt.Sprintf("a %d×%d·%d×%d product runs through cuBLAS on the NULL stream and cannot be recorded into a graph", g.M, g.K, g.K, g.N)}
	}
	if err := s.usable("MatMul"); err != nil {
		return err
	}
	d.kernels.gemms.Add(1)
	return d.do(func() error {
		switch g.DType {
		case tensor.Float32:
			a, b, c := deviceSlice[float32](g.A, g.M*g.K), deviceSlice[float32](g.B, g.K*g.N), deviceSlice[float32](g.C, g.M*g.N)
			d.blas.Sgemm(blas.NoTrans, blas.NoTrans, g.N, g.M, g.K, 1, b, g.N, a, g.K, 0, c, g.N)
		case tensor.Float64:
			a, b, c := deviceSlice[float64](g.A, g.M*g.K), deviceSlice[float64](g.B, g.K*g.N), deviceSlice[float64](g.C, g.M*g.N)
			d.blas.Dgemm(blas.NoTrans, blas.NoTrans, g.N, g.M, g.K, 1, b, g.N, a, g.K, 0, c, g.N)
		default:
			return &shape.DTypeError{Op: "MatMul", DType: g.DType.String(), Reason: "cuBLAS products take float32 and float64"}
		}
		if err := d.blas.Err(); err != nil {
			_ = d.blas.Close() // the handle keeps its error: start a fresh one
			d.blas = cublas.New()
			return fmt.Errorf("laze: cuda: cuBLAS gemm M=%d N=%d K=%d: %w", g.M, g.N, g.K, err)
		}
		return nil
	})
}

// deviceSlice describes n elements of device memory at addr as a Go slice,
// the form gorgonia.org/cu/blas takes; Go never reads through it.
func deviceSlice[T float32 | float64](addr uint64, n int) []T {
	p := uintptr(addr)
	return unsafe.Slice(*(**T)(unsafe.Pointer(&p)), n)
}
