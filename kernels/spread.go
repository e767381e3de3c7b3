package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Two rewrites of the tree an evaluation writes into a destination, for
// the nodes that no strided view expresses and that would otherwise be
// computed into a temporary the pass then reads (issue 32's structured
// functions: Roll, Pad, Tile, Repeat). Both look only along the tree's
// elementwise spine: the op nodes, names and chains from the root down.
//
//   - A concatenation on the spine (spreadJoin): the spine's tree is
//     evaluated once per part, with the concatenation replaced by that part
//     and every other operand cut to the part's slice along the axis, and
//     each part's tree is written straight into its slice of the
//     destination (concatenate), as a concatenation at the root is. So
//     Roll(x)·2 + 1 writes x's two pieces, each doubled and incremented,
//     where it went through a temporary of Roll(x) before.
//   - A Reshape or Ravel on the spine that merges dimensions of an operand
//     whose strides cannot express the merge (Repeat's and Tile's reshape
//     of a broadcast): the pass runs in the operand's own, unmerged shape
//     instead (liftMerge): the destination is split into those dimensions
//     (a split is always a view), and so is every other operand of the
//     spine, so nothing is copied.
//
// Each part, and the lifted tree, is evaluated by evaluateInto again, so
// nested concatenations (a pad of several axes) and several merges are
// rewritten in turn. The values are the same as before: the same
// operations on the same elements, each written once; the alias analysis
// is concatenate's for the parts (a part that reads memory the destination
// may share is computed aside first) and the lowering's for the lifted pass
// (the split destination is the same memory).

// spine calls visit for the nodes of e's elementwise spine other than op
// nodes, names and chains (the spine's operands), depth first, until visit
// returns false; each node once.
func spine[T tensor.Number](e expr.Exp[T], visit func(expr.Exp[T]) bool) {
	seen := map[expr.Node]bool{}
	var walk func(expr.Exp[T]) bool
	walk = func(n expr.Exp[T]) bool {
		n = unwrap(n)
		if seen[n] {
			return true
		}
		if isPointer(n) {
			seen[n] = true
		}
		if op, ok := n.(expr.Elementwise[T]); ok {
			_, xs, k := op.OpParts()
			for _, x := range xs[:k] {
				if !walk(x) {
					return false
				}
			}
			return true
		}
		return visit(n)
	}
	walk(e)
}

// rebuild returns e's spine with each of its operands replaced by what
// replace returns for it (nodes shared in e stay shared), and e itself
// when nothing changed. Names are kept; chains are dropped.
func rebuild[T tensor.Number](e expr.Exp[T], replace func(expr.Exp[T]) expr.Exp[T]) expr.Exp[T] {
	done := map[expr.Node]expr.Exp[T]{}
	var walk func(expr.Exp[T]) expr.Exp[T]
	walk = func(n expr.Exp[T]) expr.Exp[T] {
		if c, ok := n.(expr.Chain[T]); ok {
			return walk(c.E)
		}
		if r, ok := done[n]; ok {
			return r
		}
		var r expr.Exp[T]
		switch n := n.(type) {
		case *expr.Named[T]:
			r = n
			if x := walk(n.X); x != n.X {
				r = &expr.Named[T]{Name: n.Name, X: x}
			}
		case *expr.Unary[T]:
			r = n
			if x := walk(n.X); x != n.X {
				r = &expr.Unary[T]{Op: n.Op, X: x}
			}
		case *expr.Binary[T]:
			r = n
			if x, y := walk(n.X), walk(n.Y); x != n.X || y != n.Y {
				r = &expr.Binary[T]{Op: n.Op, X: x, Y: y}
			}
		case *expr.Ternary[T]:
			r = n
			if x, y, z := walk(n.X), walk(n.Y), walk(n.Z); x != n.X || y != n.Y || z != n.Z {
				r = &expr.Ternary[T]{Op: n.Op, X: x, Y: y, Z: z}
			}
		default:
			r = replace(n)
		}
		if isPointer(n) {
			done[n] = r
		}
		return r
	}
	return walk(e)
}

// spreadJoin returns e as a concatenation of e's tree over each part of
// the first concatenation on its spine (see above), or false when the
// spine has none, or e is the concatenation itself, or spreading it would
// not save its temporary: it is broadcast along its axis (fewer than two
// elements there), or the tree reads indices (a gather's range check
// comes before any write; concatenate would compute every part aside).
func spreadJoin[T tensor.Number](ev *evaluation, e expr.Exp[T]) (*expr.Concatenation[T], bool) {
	var c *expr.Concatenation[T]
	spine(e, func(n expr.Exp[T]) bool {
		c, _ = n.(*expr.Concatenation[T])
		return c == nil
	})
	if c == nil || c == unwrap(e) || ev.indexReaders.in(e) {
		return nil, false
	}
	cs, err := ev.shapes.Of(c)
	if err != nil {
		return nil, false // unreachable after Check
	}
	partRank := len(cs)
	if c.Stack {
		partRank--
	}
	axis, err := c.ConcatAxis(partRank)
	if err != nil || cs[axis] < 2 {
		return nil, false
	}
	fromEnd := len(cs) - axis // the axis, counted from the last dimension (1)
	es, err := ev.shapes.Of(e)
	if err != nil || len(es) < fromEnd || es[len(es)-fromEnd] != cs[axis] {
		return nil, false
	}
	parts := make([]expr.Exp[T], len(c.Parts))
	start := 0
	for i, p := range c.Parts {
		size := 1
		if !c.Stack {
			ps, err := ev.shapes.Of(p)
			if err != nil {
				return nil, false // unreachable after Check
			}
			size = ps[axis]
		}
		parts[i] = rebuild(e, func(n expr.Exp[T]) expr.Exp[T] {
			if n == c {
				return p
			}
			return cutAlong(ev, n, fromEnd, start, start+size, c.Stack)
		})
		start += size
	}
	return &expr.Concatenation[T]{Axis: len(es) - fromEnd, Parts: parts, Stack: c.Stack}, true
}

// cutAlong returns n's elements lo to hi along the dimension fromEnd
// places from its last (a Slice view; for a stack, where hi is lo+1, an
// Index view, which drops the dimension); n itself when it broadcasts
// along that dimension (it lacks it, or has it of size 1: it is the same
// for every part, and a stack's part has one dimension less, which n then
// broadcasts to as it is, or with the size-1 dimension indexed away).
func cutAlong[T tensor.Number](ev *evaluation, n expr.Exp[T], fromEnd, lo, hi int, stack bool) expr.Exp[T] {
	ns, err := ev.shapes.Of(n)
	if err != nil || len(ns) < fromEnd {
		return n
	}
	d := len(ns) - fromEnd
	switch {
	case stack && ns[d] == 1:
		return expr.Index(n, d, 0)
	case ns[d] == 1:
		return n
	case stack:
		return expr.Index(n, d, lo)
	}
	return expr.Slice(n, d, lo, hi, 1)
}

// liftMerge returns dst split into the unmerged dimensions of the first
// merge on e's spine that no view expresses, and e's tree with the merge
// taken away and every other operand of the spine split the same way (see
// above); false when the spine has no such merge, or it is broadcast
// along a merged dimension (the destination could not be split to match).
func liftMerge[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], e expr.Exp[T]) (*tensor.Tensor[T], expr.Exp[T], bool) {
	var merge *expr.View[T]
	var wide shape.Shape
	spine(e, func(n expr.Exp[T]) bool {
		if v, ok := n.(*expr.View[T]); ok {
			wide = mergedFrom(ev, v)
			merge = v
		}
		return wide == nil
	})
	if wide == nil {
		return nil, nil, false
	}
	out, err := ev.shapes.Of(merge)
	if err != nil {
		return nil, nil, false // unreachable after Check
	}
	es := dst.Shape()
	lead := len(es) - len(out)
	if lead < 0 || !es[lead:].Equal(out) {
		return nil, nil, false
	}
	lifted := append(es[:lead:lead], wide...)
	split, err := dst.View(lifted...)
	if err != nil {
		return nil, nil, false // unreachable: splitting dimensions is a view
	}
	if pl := ev.plan; pl != nil {
		pl.name(split, fmt.Sprintf("%s.reshape(%s)", nameOf(pl, dst), strings.ReplaceAll(strings.Trim(shape.FormatInts(lifted), "()"), ",", ", ")))
	}
	tree := rebuild(e, func(n expr.Exp[T]) expr.Exp[T] {
		if n == merge {
			return merge.X
		}
		ns, err := ev.shapes.Of(n)
		if err != nil || len(ns) == 0 {
			return n // a scalar broadcasts to any shape
		}
		return expr.Reshape(expr.BroadcastTo(n, es...), lifted...)
	})
	return split, tree, true
}

// mergedFrom returns the shape of v's operand when v is a Reshape or Ravel
// that only merges consecutive dimensions of it, and no strided view
// expresses the merge (PushViews leaves v in place); nil otherwise.
func mergedFrom[T tensor.Number](ev *evaluation, v *expr.View[T]) shape.Shape {
	if v.Kind != expr.ViewReshape && v.Kind != expr.ViewRavel {
		return nil
	}
	wide, err := ev.shapes.Of(v.X)
	if err != nil {
		return nil
	}
	out, err := ev.shapes.Of(v)
	if err != nil || !onlyMerges(wide, out) {
		return nil
	}
	pushed, err := expr.PushViewsWith[T](v, &ev.shapes)
	if left, ok := pushed.(*expr.View[T]); err != nil || !ok || (left.Kind != expr.ViewReshape && left.Kind != expr.ViewRavel) {
		return nil
	}
	return wide
}

// onlyMerges reports whether out is wide with runs of consecutive
// dimensions merged (each of out's dimensions the product of a run of
// wide's, in order), and wide has more dimensions; no dimension may be 0.
func onlyMerges(wide, out shape.Shape) bool {
	if len(wide) <= len(out) {
		return false
	}
	i := 0
	for _, o := range out {
		if o == 0 {
			return false
		}
		p := 1
		for i < len(wide) && p < o {
			if wide[i] == 0 || wide[i] > o/p { // p·wide[i] > o, without overflow
				return false
			}
			p *= wide[i]
			i++
		}
		if p != o {
			return false
		}
	}
	for ; i < len(wide); i++ {
		if wide[i] != 1 {
			return false
		}
	}
	return true
}
