//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/laze-go/laze/shape"
	"gorgonia.org/cu"
)

// Graph is a recorded sequence of kernels (a CUDA graph, instantiated),
// replayed by Launch at the cost of one driver call however many kernels it
// holds. Device.Record makes one.
//
// A replay runs the recorded kernels with the recorded parameters: it reads
// and writes the same tensors (the same device addresses) as the recording,
// with the same shapes and scalars. To run it on new data, change the
// contents of those tensors (an Assign into them, Tensor.CopyFrom), not the
// tensors: a tree over other tensors needs another graph. The graph holds
// the storage of every tensor it reads or writes, and the temporaries of
// its evaluations, until Close; a Release of those tensors meanwhile takes
// effect at Close. Safe for concurrent use; replays on several streams at
// once must not write the same tensors.
type Graph struct {
	dev     *Device
	kernels int

	mu       sync.Mutex
	graph    cuGraph
	exec     cuGraphExec
	deferred []func()             // the recorded evaluations' releases, run by Close
	streams  map[*Stream]struct{} // where replays were queued, waited for by Close
	closed   bool
}

// recording is what Device.Record collects from its stream.
type recording struct {
	kernels  atomic.Int64
	deferred []func() // guarded by the stream's mu
}

// ErrCapture is the kind (errors.Is) of every *CaptureError.
var ErrCapture = errors.New("not possible in a graph recording")

// CaptureError reports what a stream being recorded (Device.Record) cannot
// do: Wait, Close, a cuBLAS product; or a recording that failed: the
// function's error, or CUDA's refusal to capture or instantiate. errors.Is
// matches ErrCapture, and Err (with errors.Is/As) when it is set.
type CaptureError struct {
	Op     string // "Stream.Wait", "MatMul", "Device.Record", …
	Stream string // the stream, as Stream.String names it; may be empty
	Reason string
	Err    error // the cause: the recording function's error, a *DriverError; may be nil
}

// Error names the operation, the stream and the cause.
func (e *CaptureError) Error() string {
	msg := "laze: cuda: " + e.Op
	if e.Stream != "" {
		msg += " on " + e.Stream
	}
	msg += ": " + e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *CaptureError) Unwrap() error { return e.Err }

// Is reports whether target is ErrCapture.
func (e *CaptureError) Is(target error) bool { return target == ErrCapture }

// Record runs f on a fresh stream that records instead of running (CUDA
// stream capture, in relaxed mode, so that the caching allocator may call
// cuMemAlloc meanwhile), then turns what f queued into a Graph. f queues
// work with cuda.Assign(s, dst, e) and kernels.AssignOn; only work queued on
// s is recorded, and none of it runs until Graph.Launch. On s:
//
//   - the temporaries of the recorded evaluations, and the holds on their
//     tensors' storage, are kept by the graph and given back at
//     Graph.Close (Stream.Defer), since every replay uses them;
//   - Wait and Close return a *CaptureError (CUDA forbids synchronising a
//     capturing stream), and Idle reports false;
//   - a matrix product (cuBLAS) returns a *CaptureError: cuBLAS runs on the
//     NULL stream;
//   - s is closed when f returns: do not keep it.
//
// Work f queues elsewhere (kernels.Assign on the default stream, copies)
// runs at once, as usual: the stream is non-blocking, so the device's other
// streams neither wait for it nor are recorded. A kernel first met during
// the recording is compiled (or loaded) then, as usual.
//
// An error from f, or a panic, aborts the recording: the capture is ended
// and discarded, the temporaries are given back, and Record returns a
// *CaptureError wrapping f's error (errors.Is and errors.As reach it) or
// panics again. So does CUDA's refusal to capture or instantiate, with a
// *DriverError inside.
func (d *Device) Record(f func(s *Stream) error) (g *Graph, err error) {
	if f == nil {
		return nil, &shape.ArgumentError{Op: "cuda.Device.Record", Name: "f", Value: nil, Reason: "a function to record is needed"}
	}
	s, err := d.newStream(cu.NonBlocking)
	if err != nil {
		return nil, err
	}
	rec := &recording{}
	s.rec.Store(rec)
	if err := beginCapture(d.ctx, s.handle); err != nil {
		s.rec.Store(nil)
		_ = s.Close()
		return nil, &CaptureError{Op: "Device.Record", Stream: s.String(), Reason: "CUDA could not begin capturing", Err: err}
	}
	// end ends the capture and closes s; it runs however f returns.
	var raw cuGraph
	var endErr error
	ended := false
	end := func() []func() {
		ended = true
		raw, endErr = endCapture(d.ctx, s.handle)
		s.mu.Lock()
		s.closed.Store(true)
		s.rec.Store(nil)
		s.mu.Unlock()
		_ = d.do(func() error { d.destroyStream(&s.cu); return nil })
		return rec.deferred
	}
	defer func() {
		if !ended { // f panicked
			deferred := end()
			_ = destroyGraph(d.ctx, nil, raw)
			runAll(deferred)
		}
	}()
	ferr := f(s)
	deferred := end()
	name := s.String()
	fail := func(reason string, cause error) (*Graph, error) {
		_ = destroyGraph(d.ctx, nil, raw)
		runAll(deferred)
		return nil, &CaptureError{Op: "Device.Record", Stream: name, Reason: reason, Err: cause}
	}
	switch {
	case ferr != nil:
		return fail("the recorded function failed; nothing was recorded", ferr)
	case endErr != nil:
		return fail("CUDA could not end the capture (was a call that CUDA forbids during capture made on the stream?)", endErr)
	}
	exec, err := instantiate(d.ctx, raw)
	if err != nil {
		return fail(fmt.Sprintf("CUDA could not instantiate the graph of %d kernels", rec.kernels.Load()), err)
	}
	g = &Graph{dev: d, kernels: int(rec.kernels.Load()), graph: raw, exec: exec, deferred: deferred}
	return g, nil
}

func runAll(fs []func()) {
	for _, f := range fs {
		f()
	}
}

// Launch queues one replay of the graph on s (of the graph's device) and
// returns at once; the results are ready when s.Wait returns. It returns a
// *shape.ReleaseError after Close, and a *CaptureError on a stream being
// recorded (a graph is not recorded into another).
func (g *Graph) Launch(s *Stream) error {
	if s == nil {
		return &shape.ArgumentError{Op: "cuda.Graph.Launch", Name: "s", Value: nil, Reason: "a stream is needed"}
	}
	if s.dev != g.dev {
		return &shape.DeviceError{Op: "cuda.Graph.Launch", Devices: []fmt.Stringer{g.dev.Device(), s.Device()},
			Reason: "the graph and the stream are on different devices"}
	}
	if err := s.usable("cuda.Graph.Launch"); err != nil {
		return err
	}
	if s.rec.Load() != nil {
		return &CaptureError{Op: "Graph.Launch", Stream: s.String(), Reason: "a graph cannot be recorded into another: launch it on a stream that is not being recorded"}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return &shape.ReleaseError{Op: "cuda.Graph.Launch", What: g.what()}
	}
	if err := graphLaunch(g.dev.ctx, g.exec, s.handle); err != nil {
		return fmt.Errorf("laze: cuda: launching %s on %v: %w", g.what(), s, err)
	}
	if _, ok := g.streams[s]; !ok {
		if g.streams == nil {
			g.streams = map[*Stream]struct{}{}
		}
		g.streams[s] = struct{}{}
	}
	g.dev.kernels.graphLaunches.Add(1)
	return nil
}

// Kernels returns the number of kernels recorded.
func (g *Graph) Kernels() int { return g.kernels }

// Nodes returns the number of nodes of the CUDA graph, as the driver counts
// them (cuGraphGetNodes): Kernels, unless a recording queued other work.
func (g *Graph) Nodes() (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, &shape.ReleaseError{Op: "cuda.Graph.Nodes", What: g.what()}
	}
	return graphNodes(g.dev.ctx, g.graph)
}

func (g *Graph) what() string {
	return fmt.Sprintf("the graph of %d kernels on %v", g.kernels, g.dev.Device())
}

// Close waits for every stream a replay was queued on (Stream.Wait),
// destroys the graph and gives back what its evaluations held: their
// temporaries and the holds on their tensors' storage. It returns the first
// error; a second Close returns a *shape.ReleaseError.
func (g *Graph) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return &shape.ReleaseError{Op: "cuda.Graph.Close", What: g.what()}
	}
	g.closed = true
	deferred, streams := g.deferred, g.streams
	g.deferred, g.streams = nil, nil
	g.mu.Unlock()
	var err error
	for s := range streams {
		if werr := s.Wait(); err == nil {
			err = werr
		}
	}
	if derr := destroyGraph(g.dev.ctx, g.exec, g.graph); err == nil {
		err = derr
	}
	runAll(deferred)
	return err
}
