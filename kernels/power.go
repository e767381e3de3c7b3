package kernels

import (
	"slices"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// checkExponents returns the error of the first power of a signed integer
// type in e whose exponent has a negative value (NumPy's "Integers to
// negative integer powers are not allowed"), before anything is written:
// ops.NegativeExponentError naming the value and its index in the exponent,
// in a NodeError at the power node. expr.Check refused constant exponents;
// any other exponent is reduced to its minimum (one pass over it, fused
// with its tree), and only a negative minimum makes it computed in full to
// find the first negative value. Nested powers are checked innermost
// first, so that every exponent evaluated is one the evaluators accept.
// Float and unsigned trees pay one walk of the tree.
func checkExponents(call string, e expr.Node) error {
	return runChecks(exponentChecks(call, e))
}

// exponentChecks returns checkExponents' checks of e, innermost power
// first: a compiled Program runs them again before each run.
func exponentChecks(call string, e expr.Node) []func() error {
	var checks []func() error
	walkOnce(e, func(n expr.Node) bool {
		if c := exponentCheck(call, n); c != nil {
			checks = append(checks, c)
		}
		return true
	})
	slices.Reverse(checks) // parents come first in a walk
	return checks
}

// runChecks returns the first error of checks, run in order.
func runChecks(checks []func() error) error {
	for _, c := range checks {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// exponentCheck returns the check of n's exponent when n is a power of a
// signed integer type, else nil.
func exponentCheck(call string, n expr.Node) func() error {
	switch n := n.(type) {
	case *expr.Binary[int]:
		return powerCheck(call, n)
	case *expr.Binary[int8]:
		return powerCheck(call, n)
	case *expr.Binary[int16]:
		return powerCheck(call, n)
	case *expr.Binary[int32]:
		return powerCheck(call, n)
	case *expr.Binary[int64]:
		return powerCheck(call, n)
	}
	return nil
}

// powerCheck returns the check of b's exponent when b is a power whose
// exponent is not a constant (which expr.Check has seen), else nil.
func powerCheck[T tensor.Number](call string, b *expr.Binary[T]) func() error {
	if b.Op != ops.Pow {
		return nil
	}
	if _, ok := expr.Unwrap(b.Y).(*expr.Const[T]); ok {
		return nil
	}
	return func() error { return checkExponent(call, b) }
}

// checkExponent checks the values of b's exponent; a power with an empty
// result reads none of them.
func checkExponent[T tensor.Number](call string, b *expr.Binary[T]) error {
	info, err := expr.Check[T](b)
	if err != nil {
		return shape.Rename(err, call)
	}
	if n, _ := info.Shape.Size(); n == 0 {
		return nil
	}
	low, err := hostValue(call, expr.Min(b.Y), info.Device)
	if err != nil {
		return err
	}
	defer low.Release()
	if low.Item() >= 0 {
		return nil
	}
	values, err := hostValue(call, b.Y, info.Device)
	if err != nil {
		return err
	}
	if y, ok := expr.Unwrap(b.Y).(*tensor.Tensor[T]); !ok || y != values {
		defer values.Release()
	}
	for index, v := range values.All() {
		if v < 0 {
			return &shape.NodeError{Op: call, Node: b.String(), Err: ops.NegativeExponentError(v, slices.Clone(index))}
		}
	}
	return nil
}

// hostValue evaluates the checked tree e on dev into a new tensor on the
// CPU, for the caller to release; a CPU tensor is returned as it is.
func hostValue[T tensor.Number](call string, e expr.Exp[T], dev alloc.Device) (*tensor.Tensor[T], error) {
	if t, ok := expr.Unwrap(e).(*tensor.Tensor[T]); ok && dev.IsCPU() {
		return t, nil
	}
	a, err := alloc.For(dev)
	if err != nil {
		return nil, noBackend(call, dev)
	}
	t := tensor.Empty[T](e.Shape(), tensor.WithAllocator(a))
	if err := execute(call, t, e); err != nil {
		_ = t.Release()
		return nil, err
	}
	if dev.IsCPU() {
		return t, nil
	}
	defer t.Release()
	return t.To(alloc.CPU)
}

// checksExponent reports whether a call evaluating an op node (op, with
// exponent its second operand) must check the exponent's values: op is a
// power of a signed integer type whose exponent is not a constant of at
// least 0.
func checksExponent[T tensor.Number](op ops.Op, exponent expr.Exp[T]) bool {
	if op != ops.Pow || !ops.RefusesNegativeExponent[T]() {
		return false
	}
	c, ok := expr.Unwrap(exponent).(*expr.Const[T])
	return !ok || c.Value < 0
}
