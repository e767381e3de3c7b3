package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// MaskedSelect returns the elements of x where mask is nonzero, in
// row-major order, as a new 1-D tensor: NumPy's x[mask] for a boolean mask
// of x's shape (a nonzero mask element, NaN included, counts as true, as
// bool(nan) does). x and mask may be any trees; each is evaluated first
// (a tensor is read in place). Their shapes must be equal: a mask of
// another shape is a ShapeError naming both (NumPy's boolean index does
// not broadcast either). It runs on the CPU: tensors on a device are a
// DeviceError (copy them with To). An allocation that fails (x's or
// mask's value, a contiguous copy, the result) is a *shape.NodeError
// naming MaskedSelect and the node, wrapping the *shape.MemoryError.
func MaskedSelect[T, M tensor.Number](x expr.Exp[T], mask expr.Exp[M]) (_ *tensor.Tensor[T], err error) {
	const call = "MaskedSelect"
	defer recoverAllocation(&err)
	defer blame(call, x) // the result, x's elements selected
	xi, err := expr.Check(x)
	if err != nil {
		return nil, shape.Rename(err, call)
	}
	mi, err := expr.Check(mask)
	if err != nil {
		return nil, shape.Rename(err, call)
	}
	if !xi.Shape.Equal(mi.Shape) {
		return nil, &shape.ShapeError{Op: call, Shapes: []shape.Shape{xi.Shape, mi.Shape},
			Reason: "the mask must have the shape of the operand (a boolean index does not broadcast)"}
	}
	for _, d := range []interface{ IsCPU() bool }{xi.Device, mi.Device} {
		if !d.IsCPU() {
			return nil, &shape.DeviceError{Op: call, Devices: []fmt.Stringer{xi.Device, mi.Device},
				Reason: "MaskedSelect runs on the CPU; copy the tensors to it with To"}
		}
	}
	xt, done, err := evalOrSelf(x)
	if err != nil {
		return nil, shape.Rename(err, call)
	}
	defer done()
	mt, done, err := evalOrSelf(mask)
	if err != nil {
		return nil, shape.Rename(err, call)
	}
	defer done()
	xd, md := flat(call, x, xt), flat(call, mask, mt)
	out := []T{}
	for k, m := range md {
		if m != 0 {
			out = append(out, xd[k])
		}
	}
	r, err := tensor.FromSlice(out, []int{len(out)})
	if err != nil {
		return nil, atNode(call, x, err)
	}
	return r, nil
}

// flat returns t, the value of node at, as its elements in row-major
// order: its storage when it is contiguous, else a copy, whose allocation
// failing panics with a NodeError naming call and at.
func flat[T tensor.Number](call string, at expr.Node, t *tensor.Tensor[T]) []T {
	defer blame(call, at)
	c := t.Contiguous()
	if c.Numel() == 0 {
		return nil
	}
	return c.Elems(friend.K)[c.Offset():][:c.Numel()]
}

// evalOrSelf returns e when it is a tensor, else its value, with the
// function that gives the value's memory back once it has been read
// (nothing to give back for e itself).
func evalOrSelf[T tensor.Number](e expr.Exp[T]) (*tensor.Tensor[T], func(), error) {
	if t, ok := unwrap(e).(*tensor.Tensor[T]); ok {
		return t, func() {}, nil
	}
	t, err := Eval(e)
	if err != nil {
		return nil, nil, err
	}
	return t, func() { _ = t.Release() }, nil
}
