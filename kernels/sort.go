package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A sort (numpy.sort) or argsort reads its operand materialised and
// contiguous, as a scan does (the operand's tree is evaluated into a
// temporary first, and a strided tensor is copied), and writes a new
// contiguous temporary of the same shape, which the rest of the tree reads
// as a leaf: the sorted values, or the int64 positions (an argsort is a
// foreign node, read through cast.go's int64Leaf). Both are seen as
// (outer, length, inner), the sorted axis in the middle; a line is one
// (outer, inner) pair. The CPU sorts each line on its own (cpu.Sort,
// cpu.ArgSort: NaNs set apart, then an insertion sort, pdqsort or an LSD
// radix sort by the line's length, the result that of a stable sort),
// lines shared among goroutines. A partial sort (expr.Sorting.Kth, which
// Median and Quantile build) is a quickselect of each kth position
// (cpu.Partition), in linear time. A sort has no device kernel: on a
// device it runs on the host, between the device work before and after it
// (hostrun.go).

// sortLines returns x (the operand of a sort along axis) materialised and
// contiguous, and its (outer, length, inner) geometry.
func sortLines[T tensor.Number](ev *evaluation, n expr.Node, name string, x expr.Exp[T], axis int) (src *tensor.Tensor[T], g sortGeometry, err error) {
	s, err := ev.shapes.Of(x)
	if err != nil {
		return nil, g, err // unreachable after Check
	}
	d, err := shape.Axis(name, axis, len(s))
	if err != nil {
		return nil, g, err // unreachable after Check
	}
	if src, err = materialize(ev, x); err != nil {
		return nil, g, err
	}
	if !src.IsContiguous() {
		if src, err = contiguousCopy(ev, n, src); err != nil {
			return nil, g, err
		}
	}
	g = sortGeometry{shape: s, axis: d, outer: 1, length: s[d], inner: 1}
	for k, size := range s {
		switch {
		case k < d:
			g.outer *= size
		case k > d:
			g.inner *= size
		}
	}
	return src, g, nil
}

// sortGeometry is a sort's operand seen as (outer, length, inner).
type sortGeometry struct {
	shape                shape.Shape
	axis                 int // normalised
	outer, length, inner int
}

// sortValues evaluates a sort node into a new temporary.
func sortValues[T tensor.Number](ev *evaluation, n *expr.Sorting[T]) (*tensor.Tensor[T], error) {
	src, g, err := sortLines(ev, n, "sort", n.X, n.Axis)
	if err != nil {
		return nil, err
	}
	st := &sortStep[T]{n: n, src: src, dst: temp[T](ev, n, g.shape), g: g, kth: n.Kth()}
	ev.perform(st)
	return st.dst, ev.err
}

// argSortValues evaluates an argsort node into a new int64 temporary.
func argSortValues[T tensor.Number](ev *evaluation, n *expr.ArgSorting[T]) (*tensor.Tensor[int64], error) {
	src, g, err := sortLines(ev, n, "argsort", n.X, n.Axis)
	if err != nil {
		return nil, err
	}
	st := &sortStep[T]{n: n, src: src, idx: temp[int64](ev, n, g.shape), g: g}
	ev.perform(st)
	return st.idx, ev.err
}

// int64Leaf lowers a foreign node whose value is int64 positions (an
// argsort, a searchsorted): computed once, by compute, into a temporary
// read as a leaf of the int64 tree (T is int64 whenever such a node is an
// Exp[T]).
func int64Leaf[T tensor.Number](l *lowering[T], n expr.Node, compute func() (*tensor.Tensor[int64], error)) (int, bool, error) {
	idx, err := computed(l.ev, n, compute)
	if err != nil {
		return 0, true, err
	}
	slot, err := l.leaf(any(idx).(*tensor.Tensor[T]))
	return slot, true, err
}

// sortStep is one sort or argsort: src (contiguous) into dst, or idx for
// an argsort (contiguous, the same shape).
type sortStep[T tensor.Number] struct {
	n   expr.Node // the *expr.Sorting[T] or *expr.ArgSorting[T]
	src *tensor.Tensor[T]
	dst *tensor.Tensor[T]     // a sort's result, or nil
	idx *tensor.Tensor[int64] // an argsort's result, or nil
	g   sortGeometry
	kth []int // a partial sort's positions (expr.Sorting.Kth), or nil
	// host is the step's twin on the host, in a device evaluation.
	host *hostRun
}

// run sorts every line on the host.
func (s *sortStep[T]) run() {
	src := s.src.Elems(friend.K)[s.src.Offset():]
	if s.idx != nil {
		cpu.ArgSort(s.idx.Elems(friend.K)[s.idx.Offset():], src, s.g.outer, s.g.length, s.g.inner)
		return
	}
	if s.kth != nil {
		cpu.Partition(s.dst.Elems(friend.K)[s.dst.Offset():], src, s.g.outer, s.g.length, s.g.inner, s.kth)
		return
	}
	cpu.Sort(s.dst.Elems(friend.K)[s.dst.Offset():], src, s.g.outer, s.g.length, s.g.inner)
}

// prepare builds the sort's host twin for a device evaluation and launch
// runs it (hostrun.go): a sort has no device kernel.
func (s *sortStep[T]) prepare(d *onDevice) (err error) {
	s.host, err = prepareOnHost(d, s.n, s.name(), func(h *hostRun) {
		twin := *s
		twin.src = hostRead(d.ev, h, s.n, s.src)
		if s.idx != nil {
			twin.idx = hostWrite(d.ev, h, s.n, s.idx, false)
		} else {
			twin.dst = hostWrite(d.ev, h, s.n, s.dst, false)
		}
		h.run = func() error { twin.run(); return nil }
	})
	return err
}

func (s *sortStep[T]) launch(d *onDevice) error { return launchOnHost(d, s.host, s.n, s.name()) }

// name is NumPy's name of the step's function.
func (s *sortStep[T]) name() string {
	switch {
	case s.idx != nil:
		return "argsort"
	case s.kth != nil:
		return "partition"
	}
	return "sort"
}

func (s *sortStep[T]) cudaSource(pl *plan) string {
	return hostSource(pl, s.describe(pl), "sorts")
}

func (s *sortStep[T]) describe(pl *plan) string {
	var b strings.Builder
	if s.idx != nil {
		fmt.Fprintf(&b, "%s %v int64 = argsort of %s along axis %d\n", newTemp(pl, s.idx), s.g.shape, nameOf(pl, s.src), s.g.axis)
	} else {
		fmt.Fprintf(&b, "%s %v %s = %s of %s along axis %d\n", newTemp(pl, s.dst), s.g.shape, tensor.DTypeOf[T](), s.name(), nameOf(pl, s.src), s.g.axis)
	}
	lines := s.g.outer * s.g.inner
	verb, order := "sorted", "stable"
	if s.kth != nil {
		verb, order = "partitioned", fmt.Sprintf("positions %v as a stable sort puts them", s.kth)
	}
	how := verb + " where they lie"
	if s.g.inner > 1 {
		how = "each gathered, " + verb + " and scattered back"
	}
	fmt.Fprintf(&b, "  %d lines of %d, %s; %s, NaNs last", lines, s.g.length, how, order)
	if lines > 1 && lines*s.g.length >= cpu.ParallelThreshold {
		b.WriteString("; lines shared among goroutines")
	}
	b.WriteByte('\n')
	writeHostWork(&b, pl)
	return b.String()
}
