//go:build cuda

package cuda

import (
	"fmt"
	"sync"
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
// reports true). It checks as kernels.Assign does; an error it returns
// leaves dst unchanged. Use kernels.Assign to wait for the result.
func Assign[T tensor.Number](s *Stream, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return kernels.AssignOn(s, dst, e)
}

// Stream is an ordered queue of work on one device (a CUDA stream), as
// mshadow's Stream: Wait blocks until its work is done, Idle reports
// whether it is. Streams are created with default flags, so work on them
// is also ordered with the device's default stream (and with cuBLAS, which
// runs there). Safe for concurrent use.
type Stream struct {
	dev     *Device
	cu      cu.Stream // zero: CUDA's NULL stream
	own     bool
	mu      sync.Mutex
	pending []func()
}

var _ kernels.Queue = (*Stream)(nil)

// NewStream creates a stream on the device; Close it when done.
func (d *Device) NewStream() (*Stream, error) {
	s := &Stream{dev: d, own: true}
	err := d.do(func() error {
		var err error
		s.cu, err = cu.MakeStream(cu.DefaultStream)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Device returns where the stream runs.
func (s *Stream) Device() alloc.Device { return s.dev.Device() }

// Wait blocks until every piece of work queued on the stream so far is
// done, gives back the temporaries of the evaluations it ran, and returns
// the first error CUDA reports.
func (s *Stream) Wait() error {
	err := s.dev.do(func() error { return s.cu.Synchronize() })
	s.runPending()
	return err
}

// Idle reports whether all work queued on the stream is done, without
// blocking (errors are Wait's to report).
func (s *Stream) Idle() bool {
	var busy error
	_ = s.dev.do(func() error { busy = s.cu.Query(); return nil })
	if busy != nil {
		return false
	}
	s.runPending()
	return true
}

// Defer runs f once the work queued so far is done: at the next Wait, or
// Idle that reports true.
func (s *Stream) Defer(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, f)
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
// only waits.
func (s *Stream) Close() error {
	err := s.Wait()
	if s.own {
		_ = s.dev.do(func() error { s.dev.destroyStream(&s.cu); return nil })
		s.own = false
	}
	return err
}

func (d *Device) destroyStream(s *cu.Stream) { _ = s.Destroy() }

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

// Gemm queues one product through cuBLAS.
func (backend) Gemm(q kernels.Queue, g kernels.Gemm) error {
	s, err := streamOf(q)
	if err != nil {
		return err
	}
	return s.dev.gemm(g)
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

// launch queues one kernel on s.
func (d *Device) launch(s *Stream, k *kernels.Kernel) error {
	fn, err := d.kernels.get(k)
	if err != nil {
		return err
	}
	threads, blocks := d.geometry(k)
	params := make([]unsafe.Pointer, len(k.Params))
	for i := range k.Params {
		params[i] = unsafe.Pointer(&k.Params[i])
	}
	d.kernels.mu.Lock()
	d.kernels.stats.Launches++
	d.kernels.mu.Unlock()
	return d.do(func() error { return fn.Launch(blocks, 1, 1, threads, 1, 1, 0, s.cu, params) })
}

// gemm runs one row-major product through cuBLAS, which is column-major:
// C = A·B is computed as Cᵀ = Bᵀ·Aᵀ.
func (d *Device) gemm(g kernels.Gemm) error {
	d.kernels.mu.Lock()
	d.kernels.stats.Gemms++
	d.kernels.mu.Unlock()
	return d.do(func() error {
		switch g.DType {
		case "float32":
			a, b, c := deviceSlice[float32](g.A, g.M*g.K), deviceSlice[float32](g.B, g.K*g.N), deviceSlice[float32](g.C, g.M*g.N)
			d.blas.Sgemm(blas.NoTrans, blas.NoTrans, g.N, g.M, g.K, 1, b, g.N, a, g.K, 0, c, g.N)
		case "float64":
			a, b, c := deviceSlice[float64](g.A, g.M*g.K), deviceSlice[float64](g.B, g.K*g.N), deviceSlice[float64](g.C, g.M*g.N)
			d.blas.Dgemm(blas.NoTrans, blas.NoTrans, g.N, g.M, g.K, 1, b, g.N, a, g.K, 0, c, g.N)
		default:
			return &shape.DTypeError{Op: "MatMul", DType: g.DType, Reason: "cuBLAS products take float32 and float64"}
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
