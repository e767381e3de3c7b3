package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A scan (cumsum, cumprod) reads its operand materialised and contiguous
// (the operand's tree is evaluated into a temporary first, and a strided
// tensor is copied) and writes a new contiguous temporary of the same
// shape, which the rest of the tree reads as a leaf. Both are seen as
// (outer, length, inner): the scanned axis in the middle, the dimensions
// before it merged into outer and those after it into inner. A line is one
// (outer, inner) pair; it is folded first element first.
//
// On the CPU the inner dimension is the vector: for each outer index, row k
// of inner elements is combined with row k-1 by the op's loop, so every
// line advances in step and the order per line is sequential. On a GPU one
// thread folds one line (grid-stride over the lines), neighbouring threads
// reading neighbouring inner elements. Both orders give each line's sums in
// the same sequence, so CPU and GPU results agree bit for bit.

// scanStep is one scan: src (contiguous) into dst (contiguous, same shape).
type scanStep[T tensor.Number] struct {
	n                    *expr.Scan[T]
	def                  ops.ReducerDef
	src, dst             *tensor.Tensor[T]
	outer, length, inner int
}

// scan evaluates a scan node into a new temporary.
func scan[T tensor.Number](ev *evaluation, n *expr.Scan[T]) (*tensor.Tensor[T], error) {
	s := n.X.Shape()
	axis, err := shape.Axis(n.Name(), n.Axis, len(s))
	if err != nil {
		return nil, err // unreachable after Check
	}
	src, err := materialize(ev, n.X)
	if err != nil {
		return nil, err
	}
	if !src.IsContiguous() {
		if src, err = contiguousCopy(ev, src); err != nil {
			return nil, err
		}
	}
	st := &scanStep[T]{n: n, def: n.Op.Def(), src: src, dst: temp[T](ev, s), outer: 1, length: s[axis], inner: 1}
	for d, k := range s {
		switch {
		case d < axis:
			st.outer *= k
		case d > axis:
			st.inner *= k
		}
	}
	ev.perform(st)
	return st.dst, nil
}

// contiguousCopy copies t into a new contiguous temporary, on the host or
// on t's device.
func contiguousCopy[T tensor.Number](ev *evaluation, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	c := temp[T](ev, t.ShapeView(friend.K))
	return c, evaluate(ev, c, expr.Of[T](t))
}

// run folds every line on the host.
func (s *scanStep[T]) run() {
	src := s.src.Elems(friend.K)[s.src.Offset():]
	dst := s.dst.Elems(friend.K)[s.dst.Offset():]
	op, plane := s.def.Combine, s.length*s.inner
	if s.length == 0 || s.inner == 0 {
		return
	}
	for o := range s.outer {
		base := o * plane
		copy(dst[base:base+s.inner], src[base:base+s.inner])
		for k := 1; k < s.length; k++ {
			row := base + k*s.inner
			acc := dst[row : row+s.inner]
			copy(acc, dst[row-s.inner:row])
			combineVec(op, acc, src[row:row+s.inner])
		}
	}
}

// launch queues the scan's kernel: one thread per line.
func (s *scanStep[T]) launch(d *onDevice) error {
	k := s.kernel()
	if k.Work == 0 {
		return nil
	}
	return d.backend.Launch(d.queue, k)
}

// kernel is the launch of the scan's CUDA kernel.
func (s *scanStep[T]) kernel() *Kernel {
	lines := int64(s.outer) * int64(s.inner)
	if s.length == 0 {
		lines = 0
	}
	spec := scanSpec(tensor.DType[T](), s.def, lines*int64(s.length) >= wideIndexFrom)
	key := spec.key()
	k := &Kernel{Name: kernelName(key), Key: key, spec: spec, Work: lines,
		Threads: blockThreads, Blocks: max(ceilDiv(lines, blockThreads), 1)}
	for _, pa := range spec.paramList {
		var v uint64
		switch pa.kind {
		case paramPointer:
			t := s.dst
			if pa.a == 1 {
				t = s.src
			}
			v = memOf(t).address(t.Offset())
		case paramCount:
			v = uint64(lines)
		case paramReduced:
			v = uint64(s.length)
		case paramCols:
			v = uint64(s.inner)
		}
		k.Params = append(k.Params, v)
	}
	return k
}

// scanSpec is the structure of the scan kernel for dtype and def (cumsum,
// cumprod).
func scanSpec(dtype string, def ops.ReducerDef, wide bool) *kernelSpec {
	s := &kernelSpec{kind: kindScan, dtype: dtype, ctype: cTypes[dtype], red: &def, wide: wide, posOp: -1}
	s.paramList = s.params()
	return s
}

// scan writes the scan kernel's body: thread i folds line i, whose
// elements lie at base + k·inner for k < length.
func (g *cudaWriter) scan() {
	g.line(1, "const I count = (I)n, length = (I)m, inner = (I)inner_;")
	g.line(1, "for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < count; i += (I)blockDim.x * (I)gridDim.x) {")
	g.line(2, "const I base = i / inner * length * inner + i %% inner;")
	g.line(2, "T acc = o1[base];")
	g.line(2, "o0[base] = acc;")
	g.line(2, "for (I k = 1; k < length; ++k) {")
	g.line(3, "acc = (T)(%s);", cudaExpr(g.spec.red.Combine, "acc", "o1[base + k * inner]", ""))
	g.line(3, "o0[base + k * inner] = acc;")
	g.line(2, "}")
	g.line(1, "}")
}

func (s *scanStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.dst)
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %s\n", name, s.header(pl))
	if pl.device != nil {
		writeSources(&b, pl.work)
		return b.String()
	}
	if k := s.kernel(); k.Work > 0 {
		b.WriteString(k.Source())
	} else {
		b.WriteString("// no kernel: the result has no elements\n")
	}
	return b.String()
}

func (s *scanStep[T]) describe(pl *plan) string {
	name := newTemp(pl, s.dst)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %s\n", name, s.dst.ShapeView(friend.K), tensor.DType[T](), s.header(pl))
	if pl.device != nil {
		b.WriteString("  one thread per line, each folding its line first element first\n")
		writeWork(&b, pl.work)
		return b.String()
	}
	fmt.Fprintf(&b, "  %d lines of %d, folded first element first, %d lines in step\n", s.outer*s.inner, s.length, s.inner)
	return b.String()
}

// header names the scan and its operand for Explain.
func (s *scanStep[T]) header(pl *plan) string {
	return fmt.Sprintf("%s of %s along axis %d", s.n.Name(), nameOf(pl, s.src), s.n.Axis)
}
