package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// AssignAll evaluates es[i] into dsts[i] for every i in one call, as if
// every tree were evaluated in full before any destination is written
// (NumPy's rule, extended to several results): a tree that reads memory
// another pair's destination addresses reads it as it was before the call.
// Where destinations overlap each other, the later pair's value is the one
// left there.
//
// A node shared by several trees (the same pointer: a reduction, a matrix
// product, a scan, an elementwise subtree) is computed once per call, as
// within one tree. On the CPU, when every destination has the same shape,
// every tree is elementwise at its root (a unary, binary or ternary op
// node) and no tree reads memory another destination addresses, the trees
// are lowered into one program that walks the iteration space once,
// computing each shared subexpression once per element and writing every
// destination: the gradients of an elementwise chain with respect to
// several inputs are one pass over memory. Otherwise each tree is
// evaluated in turn within the call, the trees that read another
// destination first, into temporaries copied into their destinations at
// the end.
//
// Every pair is checked as Assign checks it before anything is written; an
// error names the index of the pair at fault (its message starts with
// "pair i:" and wraps Assign's error, for errors.Is and errors.As), and
// leaves every destination unchanged. len(dsts) must equal len(es).
//
// On device tensors the trees are evaluated in turn as above, each tree's
// kernels queued in order on the device's default queue with the shared
// evaluation; no single multi-output kernel is generated.
//
// Every temporary of every pair (on the host or the device) is allocated,
// and every kernel compiled (Compiler), before the first step runs or the
// first kernel is queued, so an allocation that fails, or a kernel that
// does not compile, leaves every destination unchanged too; its error is
// a *shape.NodeError naming AssignAll and the node whose temporary or
// kernel it was, wrapping the *shape.MemoryError or the backend's error.
// A device fault after work was queued may leave some destinations
// written (docs/design.md, Errors).
func AssignAll[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) (err error) {
	const call = "AssignAll"
	if err := checkAll(call, dsts, es); err != nil || len(dsts) == 0 {
		return err
	}
	defer recoverAllocation(&err)
	return runOnce(call, dsts[0], func() func() { return holdPairs(call, dsts, es) }, lowerAssignAll(dsts, es))
}

// holdPairs holds every tensor of the pairs (holdAll) until the function
// it returns is called.
func holdPairs[T tensor.Number](call string, dsts []*tensor.Tensor[T], es []expr.Exp[T]) func() {
	drops := make([]func(), 0, len(dsts))
	dropAll := func() {
		for _, d := range drops {
			d()
		}
	}
	defer func() {
		if r := recover(); r != nil { // a released tensor in a later pair: the earlier pairs' holds end too
			dropAll()
			panic(r)
		}
	}()
	for i := range dsts {
		drops = append(drops, holdAll(call, dsts[i], es[i]))
	}
	return dropAll
}

// checkAll runs Assign's checks on every pair of AssignAll (or
// CompileAll), an error naming the pair at fault, and requires one
// expression per destination and every destination on one device.
func checkAll[T tensor.Number](call string, dsts []*tensor.Tensor[T], es []expr.Exp[T]) error {
	if len(dsts) != len(es) {
		return &shape.ArgumentError{Op: call, Name: "dsts, es", Value: fmt.Sprintf("%d destinations, %d expressions", len(dsts), len(es)),
			Reason: "needs one expression per destination"}
	}
	for i := range dsts {
		if err := checkAssign(call, dsts[i], es[i]); err != nil {
			return fmt.Errorf("pair %d: %w", i, err)
		}
		if dev, first := dsts[i].Device(), dsts[0].Device(); dev != first {
			return fmt.Errorf("pair %d: %w", i, &shape.DeviceError{Op: call, Devices: []fmt.Stringer{first, dev},
				Reason: "every destination must be on the same device"})
		}
	}
	return nil
}

// lowerPairs lowers AssignAll's checked pairs on the host: into one
// program when fusable allows, else tree by tree (evaluateAll).
func lowerPairs[T tensor.Number](ev *evaluation, dsts []*tensor.Tensor[T], es []expr.Exp[T]) error {
	if !fusable(dsts, es) {
		return evaluateAll(ev, dsts, es)
	}
	p, err := lowerAll(ev, dsts, es)
	if err != nil {
		return err
	}
	ev.perform(&assignStep[T]{p: p, dst: dsts[0], e: es[0]})
	return ev.err
}

// crossed reports, per pair, whether its tree reads memory another pair's
// destination may address, or its destination may overlap another's, or
// it holds a gather (readsIndices: its indices are checked before any
// destination is written).
func crossed[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) []bool {
	regions := make([]shape.Region, len(dsts))
	for i, d := range dsts {
		regions[i] = d.Region(friend.K)
	}
	out := make([]bool, len(dsts))
	for i := range dsts {
		for j := range dsts {
			if i != j && (shape.MayOverlap(regions[i], regions[j]) || treeMayOverlap(es[i], regions[j]) || readsIndices(es[i])) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// evaluateAll evaluates every pair with one evaluation (each shared node
// computed once): first the trees that read another destination (or whose
// destination overlaps another), into temporaries; then the others,
// straight into their destinations, which no other tree reads; then the
// temporaries are copied into their destinations in order. Each tree's
// own destination is handled by the lowering's aliasing analysis, as in
// Assign.
func evaluateAll[T tensor.Number](ev *evaluation, dsts []*tensor.Tensor[T], es []expr.Exp[T]) error {
	if err := armSpills(ev, dsts, es); err != nil {
		return err
	}
	viaTemp := crossed(dsts, es)
	temps := make([]*tensor.Tensor[T], len(dsts))
	for i, e := range es {
		if viaTemp[i] {
			temps[i] = temp[T](ev, e, dsts[i].ShapeView(friend.K))
			if err := evaluate(ev, temps[i], e); err != nil {
				return err
			}
		}
	}
	for i, e := range es {
		if !viaTemp[i] {
			if err := evaluate(ev, dsts[i], e); err != nil {
				return err
			}
		}
	}
	for i, t := range temps {
		if t != nil {
			if err := evaluate[T](ev, dsts[i], t); err != nil {
				return err
			}
		}
	}
	return nil
}

// fusable reports whether AssignAll can lower every tree into one program:
// more than one pair, destinations of one shape, every tree an op node at
// its root (its value is an instruction's, never a tensor read in place),
// and no tree reading another destination's memory, nor destinations
// overlapping each other.
func fusable[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) bool {
	if len(dsts) < 2 {
		return false
	}
	dims := dsts[0].ShapeView(friend.K)
	for i, e := range es {
		if !dsts[i].ShapeView(friend.K).Equal(dims) {
			return false
		}
		if _, ok := unwrap(e).(expr.Elementwise[T]); !ok {
			return false
		}
	}
	for _, c := range crossed(dsts, es) {
		if c {
			return false
		}
	}
	return true
}

// lowerAll lowers every tree into one program over the destinations'
// common shape: one slot per distinct node across the trees, dsts[0] as
// operand 0 and the others as operands after the leaves, each written from
// its tree's slot after every block (no instruction writes a destination in
// place, so every read of a block precedes its writes). A leaf is copied
// aside when it overlaps any destination unsafely (mustCopy).
func lowerAll[T tensor.Number](ev *evaluation, dsts []*tensor.Tensor[T], es []expr.Exp[T]) (*program[T], error) {
	to := assignTo(dsts[0])
	l := &lowering[T]{ev: ev, dst: to.t, dims: to.dims, p: &program[T]{}, root: es[0], target: targetRegion(to), multi: true}
	for _, d := range dsts[1:] {
		l.targets = append(l.targets, d.Region(friend.K))
	}
	l.addOperand(to.t.Elems(friend.K), to.t.Offset(), to.strides, ir.MemoryOf(to.t))
	slots := make([]int, len(es))
	for i, e := range es {
		s, err := l.node(e)
		if err != nil {
			return nil, err
		}
		slots[i] = s
	}
	p := l.p
	p.Result = slots[0]
	p.Leaves = l.leaves
	for i, d := range dsts[1:] {
		p.Outs = append(p.Outs, ir.Output{Operand: len(l.bstrides), Slot: slots[1+i]})
		l.addOperand(d.Elems(friend.K), d.Offset(), d.StridesView(friend.K), ir.MemoryOf(d))
	}
	p.Shape, p.Strides = longInnermost(shape.Coalesce(l.dims, l.bstrides...))
	l.allocateRegisters()
	return p, nil
}
