package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/tensor"
)

// A searchsorted (expr.Searching) reads its sorted array a contiguous (a
// tree is evaluated into a temporary first, a strided tensor copied) and
// its values v materialised and contiguous, and writes a new contiguous
// int64 temporary of v's shape, which the rest of the tree reads as a
// leaf (it is a foreign node, read through cast.go's int64Leaf, as an
// argsort is). The CPU binary-searches each element of v (cpu.SearchSorted);
// there is no device kernel: on a device it runs on the host, as a sort
// does (hostrun.go).

// searchValues evaluates a searchsorted node into a new int64 temporary.
func searchValues[T tensor.Number](ev *evaluation, n *expr.Searching[T]) (*tensor.Tensor[int64], error) {
	a, err := contiguousOperand(ev, n, n.A)
	if err != nil {
		return nil, err
	}
	v, err := contiguousOperand(ev, n, n.V)
	if err != nil {
		return nil, err
	}
	st := &searchStep[T]{n: n, a: a, v: v, idx: temp[int64](ev, n, v.ShapeView(friend.K))}
	ev.perform(st)
	return st.idx, ev.err
}

// contiguousOperand returns x, an operand of n, materialised and
// contiguous.
func contiguousOperand[T tensor.Number](ev *evaluation, n expr.Node, x expr.Exp[T]) (*tensor.Tensor[T], error) {
	t, err := materialize(ev, x)
	if err != nil {
		return nil, err
	}
	if !t.IsContiguous() {
		return contiguousCopy(ev, n, t)
	}
	return t, nil
}

// searchStep is one searchsorted: a and v (contiguous) into idx
// (contiguous, v's shape).
type searchStep[T tensor.Number] struct {
	n    *expr.Searching[T]
	a, v *tensor.Tensor[T]
	idx  *tensor.Tensor[int64]
	host *hostRun // the step's twin on the host, in a device evaluation
}

// run searches for every element of v on the host.
func (s *searchStep[T]) run() {
	a := s.a.Elems(friend.K)[s.a.Offset():][:s.a.Numel()]
	v := s.v.Elems(friend.K)[s.v.Offset():][:s.v.Numel()]
	cpu.SearchSorted(s.idx.Elems(friend.K)[s.idx.Offset():], a, v, s.n.Right)
}

// prepare builds the searchsorted's host twin for a device evaluation
// and launch runs it (hostrun.go): it has no device kernel.
func (s *searchStep[T]) prepare(d *onDevice) (err error) {
	s.host, err = prepareOnHost(d, s.n, "searchsorted", func(h *hostRun) {
		twin := *s
		twin.a, twin.v = hostRead(d.ev, h, s.n, s.a), hostRead(d.ev, h, s.n, s.v)
		twin.idx = hostWrite(d.ev, h, s.n, s.idx, false)
		h.run = func() error { twin.run(); return nil }
	})
	return err
}

func (s *searchStep[T]) launch(d *onDevice) error {
	return launchOnHost(d, s.host, s.n, "searchsorted")
}

func (s *searchStep[T]) cudaSource(pl *plan) string {
	return hostSource(pl, s.describe(pl), "searchsorted")
}

func (s *searchStep[T]) describe(pl *plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v int64 = searchsorted of %s in %s (%s), side=%s\n", newTemp(pl, s.idx), s.v.ShapeView(friend.K),
		nameOf(pl, s.v), nameOf(pl, s.a), tensor.DTypeOf[T](), s.n.Side())
	fmt.Fprintf(&b, "  %d binary searches in %d sorted elements; NaNs last", s.v.Numel(), s.a.Numel())
	if s.v.Numel() >= cpu.ParallelThreshold/16 && s.v.Numel() > 1 {
		b.WriteString("; shared among goroutines")
	}
	b.WriteByte('\n')
	writeHostWork(&b, pl)
	return b.String()
}
