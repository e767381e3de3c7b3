package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// evaluation is one public call (Assign, Eval…) with every evaluation it
// makes on the way: the nodes that cannot fuse (products, reductions, the
// operands of casts) are computed once each into temporaries, which live
// until the call returns.
type evaluation struct {
	call  string
	done  map[expr.Node]any // node → the *tensor.Tensor holding its value
	temps []interface{ Release() error }
	plan  *plan // set by Explain: steps are described instead of run

	device *onDevice // set for device tensors: steps are queued there
	err    error     // the first error a device step returned; later steps are skipped

	// held, when set, makes perform keep the steps instead of running them
	// (AssignAll lowers every tree, allocating every temporary, before the
	// first step writes anything); runHeld runs them in order.
	held    bool
	pending []step

	// shapes answers the shapes of the nodes met, each node checked once
	// per call, so nested reductions cost time linear in their depth.
	shapes expr.Shapes
}

// step is one piece of work an evaluation performs: a pass of a program, a
// reduction, a matrix product, a scan. The step types and all their methods
// are in steps.go.
type step interface {
	run()
	launch(d *onDevice) error
	describe(pl *plan) string
	cudaSource(pl *plan) string
}

// perform runs s, queues it on the evaluation's device, or, when the
// evaluation only explains, describes it.
func (ev *evaluation) perform(s step) {
	switch {
	case ev.plan != nil:
		ev.plan.add(s)
	case ev.held:
		ev.pending = append(ev.pending, s)
	case ev.device != nil:
		if ev.err != nil {
			return
		}
		if err := s.launch(ev.device); err != nil && ev.err == nil {
			ev.err = err
		}
	default:
		s.run()
	}
}

// runHeld runs the steps perform kept, in order.
func (ev *evaluation) runHeld() {
	for _, s := range ev.pending {
		s.run()
	}
	ev.pending = nil
}

func newEvaluation(call string) *evaluation {
	return &evaluation{call: call, done: map[expr.Node]any{}}
}

// temp allocates a temporary that lives until the call returns.
// on the evaluation's device.
func temp[T tensor.Number](ev *evaluation, dims []int) *tensor.Tensor[T] {
	var t *tensor.Tensor[T]
	if ev.device != nil {
		t = deviceTemp[T](ev, dims)
	} else {
		t = tensor.Empty[T](dims)
	}
	ev.temps = append(ev.temps, t)
	return t
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
	case *expr.Reduction[T]: // computed into a temporary of its own shape anyway
		return computed(ev, n, func() (*tensor.Tensor[T], error) { return reduce(ev, n) })
	case *expr.View[T]:
		if reorders(n) {
			return reorderedValue(ev, n)
		}
	}
	return computed(ev, e, func() (*tensor.Tensor[T], error) {
		s, err := ev.shapes.Of(e)
		if err != nil {
			return nil, err
		}
		dst := temp[T](ev, s)
		return dst, evaluate(ev, dst, e)
	})
}

// unwrap strips the nodes that only name or chain an expression.
func unwrap[T tensor.Number](e expr.Exp[T]) expr.Exp[T] { return expr.Unwrap(e) }
