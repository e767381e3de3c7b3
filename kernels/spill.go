package kernels

import (
	"sync/atomic"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The destination as scratch. Softmax is exp(x - m) / sum(exp(x - m)): the
// subtree e = exp(x - m) is the operand of a reduction and also a term of
// the pass that writes the destination. Without help the reduction's pass
// computes e to fold it and the final pass computes it again: two
// evaluations of exp per element. When e has the destination's shape, the
// reduction's pass also stores e into the destination (a further output of
// its program, as AssignAll's), and the final pass reads it back from
// there, in place (each element is read just before it is overwritten, at
// the same position): one exp per element, as PyTorch's softmax computes
// it into its output and rescales.
//
// The rule keeps every result what it was, bit for bit (the stored values
// are the ones the final pass would have computed, by the same loops), and
// applies only where it cannot change one:
//   - on the host (a device evaluation recomputes);
//   - e is an op node of the destination's shape whose elementwise tree
//     costs at least spillCost (a transcendental function: recomputing a
//     cheaper tree costs less than storing and reloading it);
//   - e is the operand of a reduction that this call computes, and e
//     appears outside every reduction and view in the tree written to the
//     destination;
//   - one subtree per destination (the first candidate found): a second
//     stored there would overwrite the first before the final pass reads
//     it;
//   - no tensor any tree of the call reads, under any node, may share
//     memory with the destination, and no other destination of the call
//     may (AssignAll): the reduction's pass writes the destination before
//     the other steps run, so nothing may read the old contents after it.
// A call that fails writes nothing either way: the reduction is lowered,
// with every temporary allocated, before any step runs.

// spillCost is the least cost (ops.Op.Cost, an add being 1) of a subtree
// worth storing into the destination rather than computing twice.
const spillCost = 8

// spillOff turns the rule off, for the tests that compare both ways.
var spillOff atomic.Bool

// spillsTaken counts the reductions lowered with a tee, for the tests.
var spillsTaken atomic.Int64

// spillCandidate is a subtree e to store into the destination from the
// pass of the reduction red, whose operand it is.
type spillCandidate[T tensor.Number] struct {
	e   expr.Exp[T]
	red *expr.Reduction[T]
}

// pendingTee is the reduction operand e whose reduction armSpills is
// computing, and the destination (a *tensor.Tensor) to store e into.
type pendingTee struct {
	e   expr.Node
	dst any
}

// armSpills finds, for each pair (dsts[i], es[i]) of the call that the
// rule allows, the subtree to store into dsts[i], and computes its
// reduction now, storing it (runReduction takes the tee): the final pass of
// the pair then reads it (lowering.spilledLeaf).
func armSpills[T tensor.Number](ev *evaluation, dsts []*tensor.Tensor[T], es []expr.Exp[T]) error {
	if spillOff.Load() || ev.device != nil {
		return nil
	}
	for i, dst := range dsts {
		candidates := spillCandidates(ev, dst, es[i])
		if len(candidates) == 0 || !spillSafe(dsts, es, i) {
			continue
		}
		for _, c := range candidates {
			if _, done := ev.done[c.red]; done {
				continue
			}
			if _, stored := ev.spilled[c.e]; stored {
				continue // into another pair's destination
			}
			ev.tee = &pendingTee{e: c.e, dst: dst}
			red := c.red
			_, err := computed(ev, red, func() (*tensor.Tensor[T], error) { return reduce(ev, red) })
			ev.tee = nil // taken by runReduction; never left armed
			if err != nil {
				return err
			}
			if _, stored := ev.spilled[c.e]; stored {
				break // one subtree per destination: a second would overwrite the first
			}
		}
	}
	return nil
}

// spillSafe reports whether the reduction's pass may write dsts[i] early:
// no tree reads memory it may address and no other destination overlaps
// it.
func spillSafe[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T], i int) bool {
	if dsts[i].Numel() == 0 {
		return false
	}
	r := dsts[i].Region(friend.K)
	for k := range dsts {
		if treeMayOverlap(es[k], r) || (k != i && shape.MayOverlap(r, dsts[k].Region(friend.K))) {
			return false
		}
	}
	return true
}

// spillCandidates returns the reductions of root's elementwise part whose
// operand is an op node of dst's shape, costing at least spillCost, that
// root also uses outside every reduction and view.
func spillCandidates[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], root expr.Exp[T]) []spillCandidate[T] {
	outside, reds := elementwisePart(root)
	var out []spillCandidate[T]
	for _, r := range reds {
		e := unwrap(r.X)
		if !outside[e] || treeCost(e) < spillCost {
			continue
		}
		if s, err := ev.shapes.Of(e); err != nil || !s.Equal(dst.ShapeView(friend.K)) {
			continue
		}
		out = append(out, spillCandidate[T]{e: e, red: r})
	}
	return out
}

// elementwisePart walks root through its op nodes (and views, below which
// values are read at other positions), returning the op nodes met outside
// every view and the reductions met anywhere on the way, each once.
func elementwisePart[T tensor.Number](root expr.Exp[T]) (outside map[expr.Node]bool, reds []*expr.Reduction[T]) {
	outside = map[expr.Node]bool{}
	type visit struct {
		n      expr.Node
		viewed bool
	}
	seen := map[visit]bool{}
	listed := map[*expr.Reduction[T]]bool{}
	var walk func(e expr.Exp[T], viewed bool)
	walk = func(e expr.Exp[T], viewed bool) {
		e = unwrap(e)
		if !isPointer(e) || seen[visit{e, viewed}] {
			return
		}
		seen[visit{e, viewed}] = true
		switch n := e.(type) {
		case *expr.Reduction[T]:
			if !listed[n] {
				listed[n] = true
				reds = append(reds, n)
			}
		case *expr.View[T]:
			walk(n.X, true)
		case expr.Elementwise[T]:
			if !viewed {
				outside[e] = true
			}
			_, xs, k := n.OpParts()
			for _, x := range xs[:k] {
				walk(x, viewed)
			}
		}
	}
	walk(root, false)
	return outside, reds
}

// treeCost is the cost of computing e's elementwise tree once per element:
// the ops.Op.Cost of each op node in it, each node once, stopping at
// anything that is not an op node (a tensor, a constant, a reduction's
// value).
func treeCost[T tensor.Number](e expr.Exp[T]) int {
	seen := map[expr.Node]bool{}
	var cost func(e expr.Exp[T]) int
	cost = func(e expr.Exp[T]) int {
		n, ok := unwrap(e).(expr.Elementwise[T])
		if !ok || seen[n] {
			return 0
		}
		seen[n] = true
		op, xs, k := n.OpParts()
		c := op.Cost()
		for _, x := range xs[:k] {
			c += cost(x)
		}
		return c
	}
	return cost(e)
}

// takeTee returns the destination armSpills armed for the reduction
// operand x, recording that the reduction's pass stores x there, or nil.
func takeTee[T tensor.Number](ev *evaluation, x expr.Exp[T]) *tensor.Tensor[T] {
	if ev.tee == nil || ev.tee.e != unwrap(x) {
		return nil
	}
	t, ok := ev.tee.dst.(*tensor.Tensor[T])
	if !ok {
		return nil
	}
	if ev.spilled == nil {
		ev.spilled = map[expr.Node]any{}
	}
	ev.spilled[ev.tee.e] = t
	ev.tee = nil
	spillsTaken.Add(1)
	return t
}

// spilledLeaf returns the destination e was stored into by a reduction's
// pass, when this lowering is the pass that writes that destination.
func (l *lowering[T]) spilledLeaf(e expr.Exp[T]) (*tensor.Tensor[T], bool) {
	if l.ev.spilled == nil || l.p.red != nil || l.multi {
		return nil, false
	}
	t, ok := l.ev.spilled[e].(*tensor.Tensor[T])
	return t, ok && t == l.dst
}

// holdsSpill reports whether a reduction's pass stored a subtree into this
// lowering's destination for it to read: nothing else may then be written
// there before the pass (a product straight into the destination).
func (l *lowering[T]) holdsSpill() bool {
	for _, t := range l.ev.spilled {
		if t == any(l.dst) {
			return true
		}
	}
	return false
}
