package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A gather (integer-array indexing, take, take_along_axis) reads X where
// it lies — a tensor, or a view of one, is read through its strides with
// no copy; a tree is computed into a temporary first — and its index
// arrays materialised, and writes a new contiguous temporary that the rest
// of the tree reads as a leaf. The result is laid out as (prefix, batch,
// suffix): X's dimensions before the indexed axes, the indices' broadcast
// shape, and X's dimensions after them. The step first reads every index
// (check), turning each batch position into an offset in X and returning
// a *shape.IndexError for one out of range before anything is written;
// then, for each prefix position and each batch position, it copies the
// suffix block (a run of contiguous elements where X's suffix is
// contiguous). A scatter-add (the gather's adjoint) walks the same
// offsets the other way.

// gatherOffsets is what a gather or scatter step reads of its indices:
// the X offset of each batch position, computed by check.
type gatherOffsets struct {
	call    string
	node    expr.Node
	op      string
	axis    int   // first indexed axis of X
	sizes   []int // the indexed axes' sizes
	strides []int // X's strides on the indexed axes
	batch   shape.Shape
	index   []indexLayout
	offsets []int
}

// check reads every index and records each batch position's offset in X,
// or returns a NodeError wrapping the *shape.IndexError of the first index
// out of range.
func (g *gatherOffsets) check() error {
	n := 1
	for _, d := range g.batch {
		n *= d
	}
	if cap(g.offsets) < n {
		g.offsets = make([]int, n)
	}
	g.offsets = g.offsets[:n]
	clear(g.offsets)
	for k, ix := range g.index {
		size, stride := g.sizes[k], g.strides[k]
		data, i := ix.data, 0
		bad, ok := int64(0), true
		shape.ForEachRun(g.batch, ix.strides, ix.off, func(off, n, step int) bool {
			for j := range n {
				v, in := expr.Wrap(data[off+j*step], size)
				if !in {
					bad, ok = data[off+j*step], false
					return false
				}
				g.offsets[i] += v * stride
				i++
			}
			return true
		})
		if !ok {
			return g.outOfRange(k, bad)
		}
	}
	return nil
}

// outOfRange is the error of index v, out of range, in array k.
func (g *gatherOffsets) outOfRange(k int, v int64) error {
	return &shape.NodeError{Op: g.call, Node: fmt.Sprint(g.node),
		Err: &shape.IndexError{Op: g.op, Dim: g.axis + k, Index: int(v), Size: g.sizes[k]}}
}

// inRange checks every index against its axis's size, reading each once,
// and returns the NodeError of the first out of range.
func (g *gatherOffsets) inRange() error {
	for k, ix := range g.index {
		size := g.sizes[k]
		bad, ok := int64(0), true
		shape.ForEachRun(g.batch, ix.strides, ix.off, func(off, n, step int) bool {
			if step == 1 && allInRange(ix.data[off:off+n], size) {
				return true
			}
			for j := range n {
				if _, in := expr.Wrap(ix.data[off+j*step], size); !in {
					bad, ok = ix.data[off+j*step], false
					return false
				}
			}
			return true
		})
		if !ok {
			return g.outOfRange(k, bad)
		}
	}
	return nil
}

// allInRange reports whether every index is in [-size, size), expr.Wrap's
// range, by their least and greatest: a loop without a branch that
// depends on the data, so a long run of indices is checked at the speed
// memory delivers it.
func allInRange(index []int64, size int) bool {
	if len(index) == 0 {
		return true
	}
	lo, hi := index[0], index[0]
	for _, k := range index[1:] {
		lo, hi = min(lo, k), max(hi, k)
	}
	return lo >= -int64(size) && hi < int64(size)
}

// indexLayout is an index array as the gather reads it: its elements,
// offset and strides broadcast to the batch shape.
type indexLayout struct {
	data    []int64
	off     int
	strides []int
}

// newGatherOffsets prepares the offsets of X (shape xs, strides xst) that
// index arrays idx select under geo.
func newGatherOffsets(call string, n expr.Node, op string, geo expr.GatherGeometry, xst []int, idx []*tensor.Tensor[int64]) *gatherOffsets {
	g := &gatherOffsets{call: call, node: n, op: op, axis: geo.Axis, sizes: geo.Indexed, strides: xst[geo.Axis : geo.Axis+len(idx)], batch: geo.Batch}
	for _, ix := range idx {
		st, _ := shape.BroadcastStrides(ix.ShapeView(friend.K), ix.StridesView(friend.K), geo.Batch) // checked
		g.index = append(g.index, indexLayout{ix.Elems(friend.K), ix.Offset(), st})
	}
	return g
}

// tensorView returns e as a tensor when it is one or a chain of views of
// one (read in place, with no copy), else ok is false.
func tensorView[T tensor.Number](e expr.Exp[T]) (_ *tensor.Tensor[T], ok bool) {
	switch n := unwrap(e).(type) {
	case *tensor.Tensor[T]:
		return n, true
	case *expr.View[T]:
		base, ok := tensorView(n.X)
		if !ok {
			return nil, false
		}
		out, err := n.Apply(base)
		return out, err == nil
	}
	return nil, false
}

// operand returns e where it lies when it is a tensor or a view of one,
// else its value in a temporary.
func operand[T tensor.Number](ev *evaluation, e expr.Exp[T]) (*tensor.Tensor[T], error) {
	if t, ok := tensorView(e); ok {
		return t, nil
	}
	return materialize(ev, e)
}

// gatherParts reads what a gather of x by indices needs: x where it lies,
// the index arrays, and the geometry.
func gatherParts[T tensor.Number](ev *evaluation, g *expr.Gather[T]) (*tensor.Tensor[T], []*tensor.Tensor[int64], expr.GatherGeometry, error) {
	x, err := operand(ev, g.X)
	if err != nil {
		return nil, nil, expr.GatherGeometry{}, err
	}
	idx := make([]*tensor.Tensor[int64], len(g.Indices))
	is := make([]shape.Shape, len(g.Indices))
	for i, ix := range g.Indices {
		if idx[i], err = operand(ev, ix); err != nil {
			return nil, nil, expr.GatherGeometry{}, err
		}
		is[i] = idx[i].ShapeView(friend.K)
	}
	geo, err := g.Geometry(x.ShapeView(friend.K), is)
	return x, idx, geo, err // err is unreachable after Check
}

// gather evaluates a gather node into a new temporary.
func gather[T tensor.Number](ev *evaluation, n *expr.Gather[T]) (*tensor.Tensor[T], error) {
	return gatherInto(ev, nil, n)
}

// gathersInto reports whether a gather at the root of a tree assigned to
// dst writes dst itself: on the CPU, into a contiguous destination that
// no tensor of the gather's tree may share (fresh: none can).
func gathersInto[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], n *expr.Gather[T], fresh bool) bool {
	return ev.device == nil && dst.IsContiguous() && (fresh || !treeMayOverlap(n, dst.Region(friend.K)))
}

// gatherInto evaluates a gather node into dst (see gathersInto), or into
// a new temporary when dst is nil, and returns what it wrote.
func gatherInto[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], n *expr.Gather[T]) (*tensor.Tensor[T], error) {
	x, idx, geo, err := gatherParts(ev, n)
	if err != nil {
		return nil, err
	}
	st := &gatherStep[T]{n: n, x: x, idx: idx, geo: geo, dst: dst, direct: dst != nil,
		at: newGatherOffsets(ev.call, n, n.Name(), geo, x.StridesView(friend.K), idx)}
	if dst == nil {
		st.dst = temp[T](ev, n, geo.Result())
	}
	ev.perform(st)
	return st.dst, ev.err
}

// gatherStep is one gather: x read at the offsets its indices give into
// dst (contiguous, the gather's shape).
type gatherStep[T tensor.Number] struct {
	n   *expr.Gather[T]
	x   *tensor.Tensor[T]
	idx []*tensor.Tensor[int64]
	geo expr.GatherGeometry
	dst *tensor.Tensor[T]
	at  *gatherOffsets
	// direct: dst is the call's destination, not a temporary, so every
	// index is checked before the first element is written.
	direct bool
	host   *hostRun // the index check on the host, in a device evaluation
	kernel *Kernel  // the gather's kernel, in a device evaluation
}

// check reads the indices before any destination is written (runSteps
// calls it before run) and, since the step writes a temporary of its own,
// gathers as it reads: with one index array and no dimension before it,
// in one pass over the indices with no offsets kept (x[idx], take);
// otherwise the batch's offsets first, then every prefix position's blocks.
func (s *gatherStep[T]) check() error {
	if s.direct {
		if err := s.at.inRange(); err != nil {
			return err
		}
	}
	if len(s.at.index) == 1 && len(s.geo.Prefix) == 0 {
		return s.gatherOne()
	}
	if err := s.at.check(); err != nil {
		return err
	}
	s.copyBlocks()
	return nil
}

// run does nothing: check has gathered.
func (s *gatherStep[T]) run() {}

// gatherOne gathers by a single index array on x's first dimension,
// checking each index as it is read.
func (s *gatherStep[T]) gatherOne() error {
	xe, xst := s.x.Elems(friend.K), s.x.StridesView(friend.K)
	out := s.dst.Elems(friend.K)[s.dst.Offset():]
	ix, size, stride := s.at.index[0], s.at.sizes[0], s.at.strides[0]
	suffix, sst := s.geo.Suffix, xst[1:]
	block, run := blockOf(suffix), contiguousRun(suffix, sst)
	if block == 0 {
		block = 1 // the indices are checked all the same
	}
	xoff, i := s.x.Offset(), 0
	bad, ok := int64(0), true
	shape.ForEachRun(s.geo.Batch, ix.strides, ix.off, func(off, n, step int) bool {
		if len(suffix) == 0 && len(out) > 0 { // x[idx] of a vector, x[idx] over every dimension: one element each
			i, bad, ok = gatherElems(out, i, xe, xoff, stride, ix.data, off, n, step, size)
			return ok
		}
		for j := range n {
			v, in := expr.Wrap(ix.data[off+j*step], size)
			if !in {
				bad, ok = ix.data[off+j*step], false
				return false
			}
			src := xoff + v*stride
			switch {
			case len(out) == 0:
			case len(suffix) == 0:
				out[i] = xe[src]
			case run:
				copy(out[i:i+block], xe[src:src+block])
			default:
				k := i
				shape.ForEachOffset(suffix, sst, src, func(o int) {
					out[k] = xe[o]
					k++
				})
			}
			i += block
		}
		return true
	})
	if !ok {
		return s.at.outOfRange(0, bad)
	}
	return nil
}

// gatherElems writes out[i:i+n] = x[index[j]] for the n indices from
// data[off] by step, x's elements from xoff by stride, checking each index
// against size; it returns the next i, and the index at fault with false.
func gatherElems[T tensor.Number](out []T, i int, xe []T, xoff, stride int, data []int64, off, n, step, size int) (int, int64, bool) {
	out = out[i : i+n]
	if step == 1 && stride == 1 {
		if j, ok := gatherUnit(out, xe[xoff:xoff+size], data[off:off+n]); !ok {
			return i + j, data[off+j], false
		}
		return i + n, 0, true
	}
	for j := range out {
		v, in := expr.Wrap(data[off+j*step], size)
		if !in {
			return i + j, data[off+j*step], false
		}
		out[j] = xe[xoff+v*stride]
	}
	return i + n, 0, true
}

// gatherUnit writes out[j] = x[index[j]] (a negative index counting from
// the end), index and x both contiguous: the loop x[idx] of a vector
// spends its time in, with nothing in it but the load, the store and one
// predictable comparison, so that many loads of random positions are in
// flight at once. It returns the position of an index out of range.
func gatherUnit[T tensor.Number](out, x []T, index []int64) (int, bool) {
	out = out[:len(index)]
	n := int64(len(x))
	size := uint64(n)
	j := 0
	// four at a time while all four are in range: four independent random
	// loads in flight a trip (25% faster than one at a time at 1e6 of 1e6
	// float64, AMD EPYC); a negative or bad index ends the run, and the
	// loop below takes it
	for ; j+4 <= len(index); j += 4 {
		k := (*[4]int64)(index[j:])
		if uint64(k[0]) >= size || uint64(k[1]) >= size || uint64(k[2]) >= size || uint64(k[3]) >= size {
			break
		}
		o := (*[4]T)(out[j:])
		o[0], o[1], o[2], o[3] = x[k[0]], x[k[1]], x[k[2]], x[k[3]]
	}
	for ; j < len(index); j++ {
		k := index[j]
		if uint64(k) >= size {
			if k >= 0 || k < -n {
				return j, false
			}
			k += n
		}
		out[j] = x[k]
	}
	return 0, true
}

// copyBlocks copies, for each prefix position and each batch position,
// the suffix block of x at the checked offset into dst.
func (s *gatherStep[T]) copyBlocks() {
	xe, xst := s.x.Elems(friend.K), s.x.StridesView(friend.K)
	out := s.dst.Elems(friend.K)[s.dst.Offset():]
	suffix, sst := s.geo.Suffix, xst[len(xst)-len(s.geo.Suffix):]
	block := blockOf(suffix)
	if block == 0 || s.dst.Numel() == 0 {
		return
	}
	runOf := contiguousRun(suffix, sst)
	i := 0
	shape.ForEachOffset(s.geo.Prefix, xst[:len(s.geo.Prefix)], s.x.Offset(), func(base int) {
		if block == 1 { // one element an offset (m[:, idx]): nothing in the loop but the load and the store
			i += gatherAt(out[i:i+len(s.at.offsets)], xe, base, s.at.offsets)
			return
		}
		for _, o := range s.at.offsets {
			switch {
			case runOf:
				copy(out[i:i+block], xe[base+o:base+o+block])
			default:
				k := i
				shape.ForEachOffset(suffix, sst, base+o, func(src int) {
					out[k] = xe[src]
					k++
				})
			}
			i += block
		}
	})
}

// gatherAt writes out[j] = x[base+offsets[j]] for every offset (checked
// in range by the caller; negative along a flipped axis) and returns how
// many it wrote.
func gatherAt[T tensor.Number](out, x []T, base int, offsets []int) int {
	out = out[:len(offsets)]
	for j, o := range offsets {
		out[j] = x[base+o]
	}
	return len(offsets)
}

// contiguousRun reports whether dims with strides are one run of
// consecutive elements, first to last.
func contiguousRun(dims shape.Shape, strides []int) bool {
	want := 1
	for d := len(dims) - 1; d >= 0; d-- {
		if dims[d] != 1 && strides[d] != want {
			return false
		}
		want *= dims[d]
	}
	return true
}

// prepare readies the gather for a device evaluation. Its indices must be
// read before anything is written, so they are copied to the host and
// checked there at the gather's turn (hostrun.go: an index out of range is
// the CPU's IndexError, returned before the kernel is queued), and each
// batch position's offset in x is copied back; then one kernel gathers on
// the device, reading x where it lies (nothing of x is copied). The
// prefix's and the suffix's offsets depend on x's strides alone: they are
// computed here and copied with the batch's.
func (s *gatherStep[T]) prepare(d *onDevice) (err error) {
	ev, xst := d.ev, s.x.StridesView(friend.K)
	prefixDims, suffixDims := s.geo.Prefix, s.geo.Suffix
	batchSize, block := blockOf(s.geo.Batch), blockOf(suffixDims)
	prefix := temp[int64](ev, s.n, []int{blockOf(prefixDims)})
	offsets := temp[int64](ev, s.n, []int{batchSize})
	suffix := temp[int64](ev, s.n, []int{block})
	s.host, err = prepareOnHost(d, s.n, s.n.Name(), func(h *hostRun) {
		at := newGatherOffsets(s.at.call, s.n, s.n.Name(), s.geo, xst, hostReadAll(ev, h, s.n, s.idx))
		batch := hostWrite(ev, h, s.n, offsets, false).Elems(friend.K)
		fillOffsets(hostWrite(ev, h, s.n, prefix, false), prefixDims, xst[:len(prefixDims)])
		fillOffsets(hostWrite(ev, h, s.n, suffix, false), suffixDims, xst[len(xst)-len(suffixDims):])
		h.run = func() error {
			if err := at.check(); err != nil {
				return err
			}
			for i, o := range at.offsets {
				batch[i] = int64(o)
			}
			return nil
		}
	})
	if err != nil {
		return err
	}
	s.host.what = s.n.Name() + "'s indices, copied and checked, and their offsets in x copied back"
	count := int64(s.dst.Numel())
	if count == 0 {
		return nil
	}
	address := func(t *tensor.Tensor[int64]) uint64 { return ir.MemoryOf(t).Address(t.Offset()) }
	s.kernel = device.GatherKernel(tensor.DTypeOf[T](), count, int64(batchSize), int64(block),
		ir.MemoryOf(s.dst).Address(s.dst.Offset()), ir.MemoryOf(s.x).Address(s.x.Offset()),
		address(prefix), address(offsets), address(suffix))
	return d.compile(s.n, s.kernel)
}

// fillOffsets writes into t (contiguous) the offset, from the first
// element, of every position of dims with strides, in row-major order.
func fillOffsets(t *tensor.Tensor[int64], dims shape.Shape, strides []int) {
	out, i := t.Elems(friend.K)[t.Offset():], 0
	shape.ForEachOffset(dims, strides, 0, func(o int) {
		out[i] = int64(o)
		i++
	})
}

// launch checks the indices on the host (after the work queued before the
// gather) and queues the gather's kernel.
func (s *gatherStep[T]) launch(d *onDevice) error {
	if err := launchOnHost(d, s.host, s.n, s.n.Name()); err != nil || s.kernel == nil {
		return err
	}
	return d.backend.Launch(d.queue, s.kernel)
}

func (s *gatherStep[T]) cudaSource(pl *plan) string {
	if pl.device == nil {
		return hostSource(pl, s.describe(pl), "gathers")
	}
	var b strings.Builder
	b.WriteString(s.describe(pl))
	writeSources(&b, pl.work)
	return b.String()
}

func (s *gatherStep[T]) describe(pl *plan) string {
	name := "dst"
	if !s.direct {
		name = newTemp(pl, s.dst)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %s of %s by %s\n", name, s.dst.ShapeView(friend.K), tensor.DTypeOf[T](), s.n.Name(), nameOf(pl, s.x), indexNames(pl, s.idx))
	fmt.Fprintf(&b, "  indices checked first (%v positions), then %d blocks of %d elements copied\n",
		s.geo.Batch, s.dst.Numel()/max(1, blockOf(s.geo.Suffix)), blockOf(s.geo.Suffix))
	writeHostWork(&b, pl)
	return b.String()
}

func blockOf(s shape.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func indexNames(pl *plan, idx []*tensor.Tensor[int64]) string {
	names := make([]string, len(idx))
	for i, ix := range idx {
		names[i] = nameOf(pl, ix)
	}
	return strings.Join(names, ", ")
}

// readsIndices reports whether e's tree holds a node that checks index
// values when it runs (expr.IndexReader): a concatenation computes such a
// part aside, and AssignAll such a tree into a temporary, before any
// destination is written.
func readsIndices(e expr.Node) bool {
	return (&indexReaders{}).in(e)
}

// indexReaders remembers, per node, whether its tree reads indices, so that
// concatenations nested d deep, each asking of the one below, take work
// linear in d (a search of the whole tree below each level would be d²).
type indexReaders struct {
	memo map[expr.Node]bool
}

// in reports whether e's tree holds an expr.IndexReader.
func (r *indexReaders) in(e expr.Node) bool {
	keyed := isPointer(e)
	if keyed {
		if found, ok := r.memo[e]; ok {
			return found
		}
	}
	found := false
	expr.Walk(e, func(n expr.Node, depth int) bool {
		switch {
		case found:
		case depth == 0:
			_, found = n.(expr.IndexReader)
			return !found
		default:
			found = r.in(n)
		}
		return false
	})
	if keyed {
		if r.memo == nil {
			r.memo = map[expr.Node]bool{}
		}
		r.memo[e] = found
	}
	return found
}
