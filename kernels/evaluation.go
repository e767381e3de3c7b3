package kernels

import (
	"errors"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// evaluation is one public call (Assign, Eval…) with every evaluation it
// makes on the way: the nodes that cannot fuse (products, reductions, the
// operands of casts) are computed once each into temporaries, which live
// until the call returns.
//
// An evaluation acquires before it writes: lowering a tree allocates every
// temporary its steps need and perform keeps the steps (on a device, after
// each has acquired what its launch needs: prepare), so that every
// allocation of the call, and every error found on the way, comes before
// the first step runs or is queued (Program.start). A call that fails before that
// has written nothing.
type evaluation struct {
	call  string
	done  map[expr.Node]any // node → the *tensor.Tensor holding its value
	temps []interface{ Release() error }
	plan  *plan // set by Explain: steps are described instead of run

	device *onDevice // set for device tensors: steps are queued there
	err    error     // the first error a step's prepare returned; nothing is run after it

	pending []step // the steps perform kept, in order: the Program's

	// copies fill the host temporaries of operands copied aside
	// (copyAside) with the operands' values; a run runs them before the
	// first step.
	copies []func()

	// shapes answers the shapes of the nodes met, each node checked once
	// per call, so nested reductions cost time linear in their depth.
	shapes expr.Shapes

	// indexReaders answers which trees hold a gather, each node searched
	// once per call, so nested concatenations cost time linear in depth.
	indexReaders indexReaders

	// The destination as scratch (spill.go): tee is the reduction operand
	// armSpills is having stored, and where, until its reduction is
	// lowered; spilled maps each stored operand to its destination.
	tee     *pendingTee
	spilled map[expr.Node]any

	// sameReductions holds the reductions of tensors computed so far, by
	// what they compute (reductionKey), so that equal reductions written as
	// different nodes are computed once.
	sameReductions map[reductionKey]any
}

// step is one piece of work an evaluation performs: a pass of a program, a
// reduction, a matrix product, a scan. The step types and all their methods
// are in steps.go.
type step interface {
	run()
	// prepare acquires on the device everything launch needs (temporaries,
	// contiguous copies, which it performs as steps of their own, before
	// this one), so that launch only queues work.
	prepare(d *onDevice) error
	launch(d *onDevice) error
	describe(pl *plan) string
	cudaSource(pl *plan) string
}

// perform keeps s to be run once everything the call needs is acquired,
// or, when the evaluation only explains, describes it. On a device, s
// first acquires what its launch needs (prepare).
func (ev *evaluation) perform(s step) {
	if ev.err != nil {
		return
	}
	if ev.device != nil {
		// prepare may perform steps of its own (contiguous copies): an
		// error one of them recorded must survive prepare's own nil.
		if err := s.prepare(ev.device); err != nil && ev.err == nil {
			ev.err = err
		}
		if ev.err != nil {
			return
		}
	}
	if ev.plan != nil {
		ev.plan.add(s)
		return
	}
	ev.pending = append(ev.pending, s)
}

// runHost runs an evaluation's work on the CPU: the operands copied aside
// first, then the steps (Program.start).
func runHost(copies []func(), steps []step) error {
	for _, c := range copies {
		c()
	}
	return runSteps(steps)
}

// runSteps runs steps on the CPU in order, a group that the CPU executor's
// banding rule (kernels/internal/cpu/bands.go) allows band by band. A step
// that reads values it must check first (a gather's indices: checked)
// checks them before it runs; the first error stops the steps.
func runSteps(steps []step) error {
	for i := 0; i < len(steps); {
		if c, ok := steps[i].(checked); ok {
			if err := c.check(); err != nil {
				return err
			}
		}
		j := bandGroup(steps, i)
		if j-i < 2 {
			steps[i].run()
			i++
			continue
		}
		bandGroupOf(steps[i:j]).Run()
		i = j
	}
	return nil
}

// checked is a step that reads values before it runs and may refuse them
// (a gather's or scatter's indices out of range).
type checked interface {
	check() error
}

func newEvaluation(call string) *evaluation {
	return &evaluation{call: call, done: map[expr.Node]any{}}
}

// temp allocates a temporary for node at's value (or for a copy of it),
// on the evaluation's device, that lives until the call returns. An
// allocation that fails panics with a NodeError naming the call and at
// (blame), which the call recovers into its error.
func temp[T tensor.Number](ev *evaluation, at expr.Node, dims []int) *tensor.Tensor[T] {
	defer blame(ev.call, at)
	var t *tensor.Tensor[T]
	if ev.device != nil {
		t = deviceTemp[T](ev, dims)
	} else {
		t = tensor.Empty[T](dims)
	}
	ev.temps = append(ev.temps, t)
	return t
}

// blame, deferred by an allocation made during call for node at, retypes
// the panic of an allocation that failed (allocationFailure) as a
// *shape.NodeError naming the call and at, wrapping the allocator's
// error, and panics again; any other panic goes on as it was.
func blame(call string, at expr.Node) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(error); ok && allocationFailure(e) {
		panic(atNode(call, at, e))
	}
	panic(r)
}

// atNode wraps err, found at node n during call, in a *shape.NodeError,
// unless it already names its node.
func atNode(call string, n expr.Node, err error) error {
	var ne *shape.NodeError
	if errors.As(err, &ne) {
		return err
	}
	return &shape.NodeError{Op: call, Node: expr.Render(n), Err: err}
}

// release gives every temporary back to the caching allocator.
func (ev *evaluation) release() {
	for _, t := range ev.temps {
		_ = t.Release()
	}
	ev.temps = nil
}

// computed returns the tensor holding n's value, computing it with compute
// the first time n is met in this call.
func computed[T tensor.Number](ev *evaluation, n expr.Node, compute func() (*tensor.Tensor[T], error)) (*tensor.Tensor[T], error) {
	if t, ok := ev.done[n]; ok {
		return t.(*tensor.Tensor[T]), nil
	}
	t, err := compute()
	if err != nil {
		return nil, err
	}
	ev.done[n] = t
	return t, nil
}

// materialize returns e as a tensor: e itself when it is one, else its value
// computed once into a temporary.
func materialize[T tensor.Number](ev *evaluation, e expr.Exp[T]) (*tensor.Tensor[T], error) {
	e = unwrap(e)
	switch n := e.(type) {
	case *tensor.Tensor[T]:
		return n, nil
	case *expr.View[T]:
		if reorders(n) {
			return reorderedValue(ev, n)
		}
	}
	if compute := stepsOf(ev, e); compute != nil { // computed into a temporary of its own anyway
		return computed(ev, e, compute)
	}
	return computed(ev, e, func() (*tensor.Tensor[T], error) {
		s, err := ev.shapes.Of(e)
		if err != nil {
			return nil, err
		}
		dst := temp[T](ev, e, s)
		return dst, evaluate(ev, dst, e)
	})
}

// unwrap strips the nodes that only name or chain an expression.
func unwrap[T tensor.Number](e expr.Exp[T]) expr.Exp[T] { return expr.Unwrap(e) }
