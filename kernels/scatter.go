package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A scatter-add (numpy.add.at, the adjoint of a gather) writes Base into a
// new contiguous temporary with the ordinary lowering, then adds each
// value at the offset the gather of that temporary by the same indices
// reads: the offsets come from the same check as the gather's (every index
// read, one out of range refused, before anything is written), and the
// values are read in the gather's row-major order, so a position indexed
// twice receives both, in that order.

// scatterAdd evaluates a scatter-add node into a new temporary.
func scatterAdd[T tensor.Number](ev *evaluation, n *expr.ScatterAdd[T]) (*tensor.Tensor[T], error) {
	s, err := ev.shapes.Of(n)
	if err != nil {
		return nil, err // unreachable after Check
	}
	dst := temp[T](ev, n, s)
	if err := evaluateInto(ev, dst, n.Base, true); err != nil {
		return nil, err
	}
	g := &expr.Gather[T]{X: expr.Of[T](dst), Indices: n.Indices, Axis: n.Axis}
	_, idx, geo, err := gatherParts(ev, g)
	if err != nil {
		return nil, err
	}
	values, err := operand(ev, n.Values)
	if err != nil {
		return nil, err
	}
	vst, err := shape.BroadcastStrides(values.ShapeView(friend.K), values.StridesView(friend.K), geo.Result())
	if err != nil {
		return nil, err // unreachable after Check
	}
	st := &scatterStep[T]{n: n, dst: dst, values: values, vstrides: vst, geo: geo, idx: idx,
		at: newGatherOffsets(ev.call, n, "add.at", geo, dst.StridesView(friend.K), idx)}
	ev.perform(st)
	return dst, nil
}

// scatterStep adds values into dst at the offsets of its indices.
type scatterStep[T tensor.Number] struct {
	n        *expr.ScatterAdd[T]
	dst      *tensor.Tensor[T]
	values   *tensor.Tensor[T]
	vstrides []int // values' strides, broadcast to the gather's shape
	geo      expr.GatherGeometry
	idx      []*tensor.Tensor[int64]
	at       *gatherOffsets
	host     *hostRun // the step's twin on the host, in a device evaluation
}

func (s *scatterStep[T]) check() error { return s.at.check() }

// run walks the gather's positions in row-major order, adding each value
// into dst at the position the gather reads.
func (s *scatterStep[T]) run() {
	out, dst := s.dst.Elems(friend.K), s.dst.StridesView(friend.K)
	ve, vst := s.values.Elems(friend.K), s.vstrides
	np, nb := len(s.geo.Prefix), len(s.geo.Batch)
	dsuffix := dst[np+len(s.idx):]
	shape.ForEachRun2(s.geo.Prefix, dst[:np], vst[:np], s.dst.Offset(), s.values.Offset(), func(pd, pv, pn, pds, pvs int) bool {
		for p := range pn {
			i := 0
			shape.ForEachOffset(s.geo.Batch, vst[np:np+nb], pv+p*pvs, func(vb int) {
				shape.ForEachRun2(s.geo.Suffix, dsuffix, vst[np+nb:], pd+p*pds+s.at.offsets[i], vb, func(at, v, n, as, vs int) bool {
					for j := range n {
						out[at+j*as] += ve[v+j*vs]
					}
					return true
				})
				i++
			})
		}
		return true
	})
}

// prepare builds the scatter-add's host twin for a device evaluation and
// launch runs it (hostrun.go): it has no device kernel. Its indices are
// checked on the host, before its result is copied back.
func (s *scatterStep[T]) prepare(d *onDevice) (err error) {
	s.host, err = prepareOnHost(d, s.n, "add.at", func(h *hostRun) {
		twin := *s
		twin.dst = hostWrite(d.ev, h, s.n, s.dst, true)
		twin.values, twin.idx = hostRead(d.ev, h, s.n, s.values), hostReadAll(d.ev, h, s.n, s.idx)
		twin.vstrides, _ = shape.BroadcastStrides(twin.values.ShapeView(friend.K), twin.values.StridesView(friend.K), s.geo.Result()) // the shapes are s's
		twin.at = newGatherOffsets(s.at.call, s.n, "add.at", s.geo, twin.dst.StridesView(friend.K), twin.idx)
		h.run = func() error {
			if err := twin.check(); err != nil {
				return err
			}
			twin.run()
			return nil
		}
	})
	return err
}

func (s *scatterStep[T]) launch(d *onDevice) error { return launchOnHost(d, s.host, s.n, "add.at") }

func (s *scatterStep[T]) cudaSource(pl *plan) string {
	return hostSource(pl, s.describe(pl), "scatter-adds")
}

func (s *scatterStep[T]) describe(pl *plan) string {
	name := nameOf(pl, s.dst)
	var b strings.Builder
	fmt.Fprintf(&b, "%s += %s at %s by %s\n", name, nameOf(pl, s.values), s.n.String(), indexNames(pl, s.idx))
	fmt.Fprintf(&b, "  indices checked first (%v positions), then values added in row-major order\n", s.geo.Batch)
	writeHostWork(&b, pl)
	return b.String()
}
