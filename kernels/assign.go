package kernels

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Assign evaluates e into dst, which may be any tensor or strided view (a
// slice with steps, a transpose, a column of another tensor). dst's shape
// must equal e's: the destination never broadcasts, and e does not stretch
// to fit it, except that a scalar result (shape ()) fills dst, as mshadow's
// dst = 0. The whole tree is checked, and every temporary it needs
// allocated, before anything is written, so on error dst (and every
// operand) is unchanged; the error names the node at fault (a
// *shape.NodeError wrapping a BroadcastError, DTypeError, DeviceError, the
// MemoryError of a temporary that could not be allocated, or an
// ArgumentError for a signed integer raised to a negative exponent, whose
// values are read for that) or, for the destination, both shapes.
//
// dst may overlap e's operands: the result is what NumPy gives, as if e were
// computed in full before any element of dst is written (see docs/design.md).
func Assign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return assign("Assign", dst, e)
}

// AddAssign adds e to dst in place (dst += e); e broadcasts to dst's shape.
func AddAssign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return assign("AddAssign", dst, expr.Add[T](dst, e))
}

// SubAssign subtracts e from dst in place (dst -= e).
func SubAssign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return assign("SubAssign", dst, expr.Sub[T](dst, e))
}

// MulAssign multiplies dst by e in place (dst *= e).
func MulAssign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return assign("MulAssign", dst, expr.Mul[T](dst, e))
}

// DivAssign divides dst by e in place (dst /= e), with expr.Div's rules.
func DivAssign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return assign("DivAssign", dst, expr.Div[T](dst, e))
}

// Fill sets every element of dst to v, in parallel for large tensors.
func Fill[T tensor.Number](dst *tensor.Tensor[T], v T) error {
	return assign("Fill", dst, expr.Scalar(v))
}

// Eval evaluates e into a new contiguous tensor (Eigen's eval()), allocated
// from the default caching allocator.
func Eval[T tensor.Number](e expr.Exp[T]) (_ *tensor.Tensor[T], err error) {
	defer recoverAllocation(&err)
	info, err := expr.Check(e)
	if err != nil {
		return nil, shape.Rename(err, "Eval")
	}
	if err := checkExponents("Eval", e); err != nil {
		return nil, err
	}
	a, err := alloc.For(info.Device)
	if err != nil {
		return nil, noBackend("Eval", info.Device)
	}
	dst := result[T](e, info.Shape, a)
	// A new contiguous destination of the checked shape passes every
	// destination check, so the tree is not checked a second time.
	if err := execute("Eval", dst, e); err != nil {
		_ = dst.Release()
		return nil, err
	}
	return dst, nil
}

// result allocates Eval's result for e from a; an allocation that fails
// panics with a NodeError naming Eval and e.
func result[T tensor.Number](e expr.Exp[T], dims []int, a alloc.Allocator) *tensor.Tensor[T] {
	defer blame("Eval", e)
	return tensor.Empty[T](dims, tensor.WithAllocator(a))
}

// assign is every Assign of this file: the tree's Program, from the plan
// cache or compiled for the call, run (assignVia).
func assign[T tensor.Number](call string, dst *tensor.Tensor[T], e expr.Exp[T]) (err error) {
	defer recoverAllocation(&err)
	return assignVia(call, nil, dst, e)
}

// execute evaluates a checked tree into dst: one Program, compiled, run
// and released (runOnce). On a device, it returns when the result is ready
// to read.
func execute[T tensor.Number](call string, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return runOnce(call, dst, func() func() { return holdAll(call, dst, e) }, lowerAssign(dst, e))
}

// evaluateRoot is evaluate for the tree a call assigns to dst: with the
// destination as scratch (armSpills) first.
func evaluateRoot[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	if err := armSpills(ev, []*tensor.Tensor[T]{dst}, []expr.Exp[T]{e}); err != nil {
		return err
	}
	return evaluate(ev, dst, e)
}

// evaluate lowers e for dst and performs the program's step; a
// concatenation performs a step per part, each writing its slice of dst
// (concat.go), and a gather writes dst itself where it can (gather.go). Nothing runs before evaluation.run.
func evaluate[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	return evaluateInto(ev, dst, e, false)
}

// evaluateInto is evaluate; fresh reports that no tensor of e's tree may
// share dst's memory (concatenate).
func evaluateInto[T tensor.Number](ev *evaluation, dst *tensor.Tensor[T], e expr.Exp[T], fresh bool) error {
	switch n := unwrap(e).(type) {
	case *expr.Concatenation[T]:
		return concatenate(ev, dst, n, fresh)
	case *expr.Gather[T]:
		if gathersInto(ev, dst, n, fresh) {
			_, err := gatherInto(ev, dst, n)
			return err
		}
	}
	if j, ok := spreadJoin(ev, e); ok {
		return concatenate(ev, dst, j, fresh)
	}
	if split, lifted, ok := liftMerge(ev, dst, e); ok {
		return evaluateInto(ev, split, lifted, fresh)
	}
	p, err := lower(ev, assignTo(dst), e, nil)
	if err != nil {
		return err
	}
	ev.perform(&assignStep[T]{p: p, dst: dst, e: e})
	return ev.err
}

// checkAssign runs every check that can fail before lowering: the tree's,
// then the destination's shape, device and layout against it, then the
// values of integer powers' exponents (power.go).
func checkAssign[T tensor.Number](call string, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	if dst == nil || e == nil {
		return &shape.ArgumentError{Op: call, Name: "dst or e", Value: nil, Reason: "both the destination and the expression are needed"}
	}
	info, err := expr.Check(e)
	if err != nil {
		return shape.Rename(err, call)
	}
	if dev := dst.Device(); dev != info.Device && !(info.Device.IsCPU() && constantOnly(e)) {
		return &shape.DeviceError{Op: call, Devices: []fmt.Stringer{dev, info.Device},
			Reason: "the destination and the expression are on different devices"}
	}
	dims := dst.ShapeView(friend.K)
	if !dims.Equal(info.Shape) && len(info.Shape) > 0 {
		return &shape.ShapeError{Op: call, Shapes: []shape.Shape{dims.Clone(), info.Shape},
			Reason: "the destination's shape must equal the expression's (the destination does not broadcast)"}
	}
	if err := shape.CheckWritable(call, dims, dst.StridesView(friend.K)); err != nil {
		return err
	}
	return checkExponents(call, e)
}

// constantOnly reports whether e reads no tensor (Fill's tree), so that it
// evaluates on the destination's device, whichever that is.
func constantOnly(e expr.Node) bool {
	tensors := 0
	walkOnce(e, func(n expr.Node) bool {
		if _, ok := n.(interface{ Device() alloc.Device }); ok {
			tensors++
		}
		return tensors == 0
	})
	return tensors == 0
}

// recoverAllocation turns a panic raised by an allocation that failed
// during the call (allocationFailure; a temporary's comes as a NodeError
// naming the call and the node, from evaluation.blame) into the call's
// error; any other panic goes on. Every temporary is allocated before the
// first step runs (evaluation.run), so nothing has been written.
func recoverAllocation(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(error); ok && allocationFailure(e) {
		*err = e
		return
	}
	panic(r)
}

// allocationFailure reports whether err is an allocation that failed: a
// temporary or a result too large (over the allocator's limit, or refused
// by a device: a MemoryError) or a size that overflows (an
// OverflowError), the typed errors tensor constructors panic with.
func allocationFailure(err error) bool {
	return errors.Is(err, shape.ErrMemory) || errors.Is(err, shape.ErrOverflow)
}

// noBackend reports a device with no evaluator in this build or process.
func noBackend(call string, dev alloc.Device) error {
	return &shape.DeviceError{Op: call, Devices: []fmt.Stringer{dev},
		Reason: "no backend evaluates on this device; the CUDA backend comes with package cuda (build tag cuda, cuda.Open)"}
}
