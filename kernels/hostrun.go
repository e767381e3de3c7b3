package kernels

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A step that has no device kernel — a sort, an argsort, a partition
// (median, quantile), a searchsorted, a scatter-add — runs on the host in
// a device evaluation: the documented CPU fallback; so does a gather's
// index check, before its kernel is queued (gather.go). Its
// prepare, before anything of the call is queued, allocates a host copy of
// every device tensor it reads or writes (the span of storage the tensor's
// strides reach, viewed with the same strides; temporaries of the call,
// like every other) and builds the CPU step over those copies, its twin.
// Its launch, at its turn in the queue, waits for the work queued before
// it, copies what the twin reads from the device, runs the twin, and copies
// what the twin wrote into its device temporaries; the work after it is
// queued as usual. The call is then synchronous up to that step. A queue
// being recorded into a graph refuses such a step in prepare: the step
// would run once, at recording, and not at each replay.

// recording is a Queue that can say whether its work is being recorded
// rather than run (cuda.Stream under Device.Record).
type recording interface {
	Recording() bool
}

// hostRun is a step's twin on the host: the copies from the device it
// needs before it runs, the run, and the copies back after it.
type hostRun struct {
	downloads, uploads []func() error
	run                func() error
	// what says what runs on the host, for Explain, when it is not the
	// whole step on copies of its operands (a gather's index check).
	what string
}

// prepareOnHost builds the host twin of a step for a device evaluation
// (build makes it, with hostRead and hostWrite; not for Explain, which
// runs nothing), or refuses the step when d's queue is being recorded into
// a graph.
func prepareOnHost(d *onDevice, n expr.Node, op string, build func(h *hostRun)) (*hostRun, error) {
	if r, ok := d.queue.(recording); ok && r.Recording() {
		return nil, &shape.NodeError{Op: d.ev.call, Node: fmt.Sprint(n), Err: &shape.DeviceError{Op: op,
			Devices: []fmt.Stringer{d.alloc.Device()}, Reason: op + " runs on the host (it has no device kernel) and cannot be recorded into a graph: evaluate it before recording"}}
	}
	h := &hostRun{}
	if _, explaining := d.queue.(*describer); !explaining {
		build(h)
	}
	return h, nil
}

// launchOnHost runs h, the twin prepareOnHost built of a step, after the
// work queued so far. Explain and CUDASource (a describer queue) only
// record that the step runs on the host.
func launchOnHost(d *onDevice, h *hostRun, n expr.Node, op string) error {
	if rec, ok := d.queue.(*describer); ok {
		what := h.what
		if what == "" {
			what = op + " of copies of its device operands, its result copied back (no device kernel)"
		}
		rec.work = append(rec.work, queued{host: what})
		return nil
	}
	if err := d.queue.Wait(); err != nil {
		return err
	}
	for _, down := range h.downloads {
		if err := down(); err != nil {
			return atNode(d.ev.call, n, err)
		}
	}
	if err := h.run(); err != nil {
		return err
	}
	for _, up := range h.uploads {
		if err := up(); err != nil {
			return atNode(d.ev.call, n, err)
		}
	}
	return nil
}

// hostRead returns the host copy of the device tensor dev that the twin
// reads: a temporary of the evaluation holding the span of storage dev's
// strides reach, viewed with dev's strides, filled from the device at
// launch.
func hostRead[T tensor.Number](ev *evaluation, h *hostRun, at expr.Node, dev *tensor.Tensor[T]) *tensor.Tensor[T] {
	m := mirrorOf(ev, at, dev)
	h.downloads = append(h.downloads, m.download)
	return m.host
}

// hostWrite returns the host copy of the contiguous device temporary dev
// that the twin writes, copied into dev after the run; with read, it is
// also filled from dev before the run (a scatter-add adds into it).
func hostWrite[T tensor.Number](ev *evaluation, h *hostRun, at expr.Node, dev *tensor.Tensor[T], read bool) *tensor.Tensor[T] {
	if !dev.IsContiguous() {
		panic("kernels: a host step's result must be a contiguous temporary")
	}
	m := mirrorOf(ev, at, dev)
	if read {
		h.downloads = append(h.downloads, m.download)
	}
	h.uploads = append(h.uploads, m.upload)
	return m.host
}

// hostReadAll is hostRead of each index array.
func hostReadAll(ev *evaluation, h *hostRun, at expr.Node, idx []*tensor.Tensor[int64]) []*tensor.Tensor[int64] {
	out := make([]*tensor.Tensor[int64], len(idx))
	for i, ix := range idx {
		out[i] = hostRead(ev, h, at, ix)
	}
	return out
}

// hostMirror is a host copy of a device tensor: span holds the elements of
// dev's storage from its least reachable one (dev's offset + lo) to its
// greatest, host views them with dev's strides.
type hostMirror[T tensor.Number] struct {
	dev, span, host *tensor.Tensor[T]
	lo              int
}

// mirrorOf allocates the host copy of dev, as a temporary of ev.
func mirrorOf[T tensor.Number](ev *evaluation, at expr.Node, dev *tensor.Tensor[T]) *hostMirror[T] {
	defer blame(ev.call, at)
	dims, strides := dev.ShapeView(friend.K), dev.StridesView(friend.K)
	m := &hostMirror[T]{dev: dev}
	lo, hi, ok := shape.Extent(dims, strides)
	if !ok { // no elements
		m.host = tensor.Empty[T](dims)
		return m
	}
	m.lo, m.span = lo, tensor.Empty[T](shape.Shape{hi - lo + 1})
	ev.temps = append(ev.temps, m.span)
	m.host = m.span.Strided(friend.K, -lo, dims, strides)
	return m
}

// download copies dev's span from the device into the host copy.
func (m *hostMirror[T]) download() error { return m.transfer(true) }

// upload copies the host copy into dev's span on the device (dev is
// contiguous: the span is its elements and nothing else).
func (m *hostMirror[T]) upload() error { return m.transfer(false) }

// transfer copies dev's span from the device to the host copy (out), or
// back.
func (m *hostMirror[T]) transfer(out bool) error {
	if m.span == nil {
		return nil
	}
	a, err := alloc.DeviceFor(m.dev.Device())
	if err != nil {
		return err
	}
	at := (m.dev.Offset() + m.lo) * tensor.ItemSize[T]()
	if out {
		return a.CopyOut(m.bytes(), m.dev.Mem(friend.K), at)
	}
	return a.CopyIn(m.dev.Mem(friend.K), at, m.bytes())
}

// bytes views the span's elements as bytes.
func (m *hostMirror[T]) bytes() []byte {
	elems := m.span.Elems(friend.K)[:m.span.Numel()]
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(elems))), len(elems)*tensor.ItemSize[T]())
}

// writeHostWork says, for a device evaluation's Explain, that the step runs
// on the host (what its launch recorded in pl.work).
func writeHostWork(b *strings.Builder, pl *plan) {
	if pl.device != nil && !pl.cuda {
		writeWork(b, pl.work)
	}
}

// hostSource is the CUDASource listing of a step with no device kernel
// (what, plural): its description and a comment.
func hostSource(pl *plan, description, what string) string {
	where := "on the host only"
	if pl.device != nil {
		where = "on the host, between the device work before and after them"
	}
	return description + "// no kernel: " + what + " run " + where + "\n"
}
