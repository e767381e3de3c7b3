package kernels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/tensor"
)

// A concatenation (or stack) is evaluated part by part: each part is
// assigned to its slice of the destination (a Narrow along the axis, or an
// Index for a stack), with the ordinary lowering, so each part's tree is
// one fused pass and no temporary holds the whole result. Inside a larger
// tree the destination is a temporary, which the rest of the tree reads.
//
// Aliasing: a part written early could overwrite memory that a later part
// reads (Assign(a, Concatenate(0, a[1:], a[:1])) rotates a). So before any
// slice is written, every part whose tree reads memory the destination may
// share (treeMayOverlap, under any node) is computed aside, into a
// temporary; the parts are then assigned from those. The result is NumPy's:
// as if every part were read before the destination is written. A part
// holding a gather (readsIndices) is computed aside too, so that an index
// out of range is found before any slice is written.
//
// Depth: the shapes come from the evaluation's memo (one check of each
// node per call), and a part whose tree was found not to read the
// destination's memory (or a temporary's: no tree reads a temporary just
// allocated) is assigned with no further search below it: a concatenation
// nested in it writes a slice of that memory. So concatenations nested d
// deep take work linear in d, not d² (a search of the whole tree below
// each).

// concatenate writes every part of c into its slice of dst, whose shape is
// c's. fresh reports that no tensor of c's tree may share dst's memory
// (dst is a temporary, or a slice of a destination c's tree was searched
// against): the parts are then written straight away.
func concatenate[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], c *expr.Concatenation[T], fresh bool) error {
	s0, err := ev.shapes.Of(c.Parts[0])
	if err != nil {
		return err // unreachable after Check
	}
	axis, err := c.ConcatAxis(len(s0))
	if err != nil {
		return err // unreachable after Check
	}
	target := dst.Region(friend.K)
	parts := make([]expr.Exp[T], len(c.Parts))
	for i, x := range c.Parts {
		parts[i] = x
		if (fresh || !treeMayOverlap(x, target)) && !ev.indexReaders.in(x) {
			continue
		}
		aside, err := computeAside(ev, x)
		if err != nil {
			return err
		}
		parts[i] = aside
	}
	start := 0
	for i, x := range parts {
		at := start
		var view *tensor.Tensor[T]
		if c.Stack {
			view = dst.Index(axis, i)
		} else {
			s, err := ev.shapes.Of(x)
			if err != nil {
				return err // unreachable after Check
			}
			view = dst.Narrow(axis, start, s[axis])
			start += s[axis]
		}
		if view.Numel() == 0 {
			continue
		}
		nameSlice(ev.plan, dst, view, axis, at, i, c.Stack)
		if err := evaluateInto(ev, view, x, true); err != nil {
			return err
		}
	}
	return nil
}

// computeAside returns x's value in a new temporary: a copy of a tensor, or
// a tree evaluated.
func computeAside[T tensor.Number](ev *evaluation, x expr.Exp[T]) (*tensor.Tensor[T], error) {
	if t, ok := unwrap(x).(*tensor.Tensor[T]); ok {
		return copyAside(ev, t)
	}
	s, err := ev.shapes.Of(x)
	if err != nil {
		return nil, err // unreachable after Check
	}
	t := temp[T](ev, x, s)
	return t, evaluateInto(ev, t, x, true)
}

// concatenated evaluates a concatenation inside a tree into a new
// temporary.
func concatenated[T tensor.Number](ev *evaluation, c *expr.Concatenation[T]) (*tensor.Tensor[T], error) {
	s, err := ev.shapes.Of(c)
	if err != nil {
		return nil, err // unreachable after Check
	}
	t := temp[T](ev, c, s)
	return t, concatenate(ev, t, c, true)
}

// nameSlice names, for Explain, the slice of dst a part is written into
// as NumPy writes it ("dst[:, 2:6]", "dst[:, 1]" for a stack's part i),
// when dst has a name; at is the slice's start along axis.
func nameSlice[T tensor.Number](pl *plan, dst, view *tensor.Tensor[T], axis, at, i int, stack bool) {
	if pl == nil {
		return
	}
	name, ok := pl.names[dst]
	if !ok {
		return
	}
	index := strconv.Itoa(i)
	if !stack {
		index = fmt.Sprintf("%d:%d", at, at+view.ShapeView(friend.K)[axis])
	}
	pl.name(view, name+"["+strings.Repeat(":, ", axis)+index+"]")
}
