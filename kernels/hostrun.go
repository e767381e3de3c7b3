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
// (median, quantile), a searchsorted, a gather, a scatter-add — runs on
// the host in a device evaluation: the documented CPU fallback. At its
// turn in the queue it waits for the work queued before it, copies the
// device tensors it reads to the host, runs the CPU step on those copies
// (a gather checks every index there, before anything is copied back), and
// copies what it wrote into its device temporary; the work after it is
// queued as usual. The call is then synchronous up to that step. A queue
// being recorded into a graph refuses such a step in prepare, before
// anything is queued: the step would run once, at recording, and not at
// each replay.

// recording is a Queue that can say whether its work is being recorded
// rather than run (cuda.Stream under Device.Record).
type recording interface {
	Recording() bool
}

// hostRun is one run of a step on the host for a device evaluation: the
// device tensors it read, copied to the host, and the copies back it owes.
type hostRun struct {
	err     error
	uploads []func() error
}

// prepareOnHost refuses a step that runs on the host when d's queue is
// being recorded into a graph; otherwise there is nothing to acquire.
func prepareOnHost(d *onDevice, n expr.Node, op string) error {
	if r, ok := d.queue.(recording); ok && r.Recording() {
		return &shape.NodeError{Op: d.ev.call, Node: fmt.Sprint(n), Err: &shape.DeviceError{Op: op,
			Devices: []fmt.Stringer{d.alloc.Device()}, Reason: op + " runs on the host (it has no device kernel) and cannot be recorded into a graph: evaluate it before recording"}}
	}
	return nil
}

// launchOnHost runs the host twin that build makes of a step, for a device
// evaluation: after the work queued so far, with the device tensors build
// downloads copied to the host and those it names as results copied back
// afterwards. Explain and CUDASource (a describer queue) only record that
// the step runs on the host.
func launchOnHost(d *onDevice, n expr.Node, op string, build func(h *hostRun) (run func() error)) error {
	if rec, ok := d.queue.(*describer); ok {
		rec.work = append(rec.work, queued{host: op})
		return nil
	}
	if err := d.queue.Wait(); err != nil {
		return err
	}
	h := &hostRun{}
	run := build(h)
	if h.err != nil {
		return atNode(d.ev.call, n, h.err)
	}
	if err := run(); err != nil {
		return err
	}
	for _, up := range h.uploads {
		if err := up(); err != nil {
			return atNode(d.ev.call, n, err)
		}
	}
	return nil
}

// download returns a contiguous host copy of the device tensor t, or nil
// after recording the copy's error in h.
func download[T tensor.Number](h *hostRun, t *tensor.Tensor[T]) *tensor.Tensor[T] {
	if h.err != nil {
		return nil
	}
	c, err := t.To(alloc.CPU)
	if err != nil {
		h.err = err
		return nil
	}
	return c // To copies a device tensor into a new contiguous one
}

// hostResult returns a host tensor for the step to write in place of the
// contiguous device tensor t, and has h copy it into t once the step has
// run. With read, it starts as a copy of t (a scatter-add adds into it).
func hostResult[T tensor.Number](h *hostRun, t *tensor.Tensor[T], read bool) *tensor.Tensor[T] {
	if h.err != nil {
		return nil
	}
	var c *tensor.Tensor[T]
	if read {
		c = download(h, t)
	} else {
		c = tensor.Empty[T](t.ShapeView(friend.K))
	}
	if c == nil {
		return nil
	}
	h.uploads = append(h.uploads, func() error { return upload(t, c) })
	return c
}

// upload copies the contiguous host tensor src into the contiguous device
// tensor dst of the same shape.
func upload[T tensor.Number](dst, src *tensor.Tensor[T]) error {
	n := src.Numel()
	if n == 0 {
		return nil
	}
	a, err := alloc.DeviceFor(dst.Device())
	if err != nil {
		return err
	}
	elems := src.Elems(friend.K)[src.Offset() : src.Offset()+n]
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(elems))), n*tensor.ItemSize[T]())
	return a.CopyIn(dst.Mem(friend.K), dst.Offset()*tensor.ItemSize[T](), raw)
}

// writeHostWork says, for a device evaluation's Explain, that the step runs
// on the host (what its launch recorded in pl.work).
func writeHostWork(b *strings.Builder, pl *plan) {
	if pl.device != nil {
		writeWork(b, pl.work)
	}
}

// hostSource is the CUDASource listing of a step with no device kernel
// (what, plural): its description as a comment.
func hostSource(pl *plan, description, what string) string {
	where := "on the host only"
	if pl.device != nil {
		where = "on the host, between the device work before and after them"
	}
	return description + "// no kernel: " + what + " run " + where + "\n"
}
