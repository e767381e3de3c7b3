package expr

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Info is what Check infers about a tree without evaluating it.
type Info struct {
	Shape  shape.Shape  // the result's shape
	Device alloc.Device // where the tensors live (CPU for a tree of constants)
}

// Check walks the whole tree and returns its result's shape and device, or
// the first fault it finds: operands that do not broadcast (a
// BroadcastError), an op not defined for T (a DTypeError), an op with the
// wrong number of operands (an ArgumentError), or tensors on different
// devices (a DeviceError). The fault comes wrapped in a *shape.NodeError that
// names the node at fault; errors.Is and errors.As see through it.
func Check[T tensor.Number](e Exp[T]) (Info, error) {
	in, err := check(e, "Check")
	if err != nil {
		return Info{}, err
	}
	return Info{Shape: in.shape, Device: in.deviceOrCPU()}, nil
}

// info is what checking a subtree finds.
type info struct {
	shape     shape.Shape
	device    alloc.Device
	anyDevice bool // only constants below: no device yet
}

func (in info) deviceOrCPU() alloc.Device {
	if in.anyDevice {
		return alloc.CPU
	}
	return in.device
}

// checker is implemented by the package's nodes; any other Node is a leaf.
type checker interface {
	checkNode(call string) (info, error)
}

// check checks n; call names the public operation, for errors.
func check(n Node, call string) (info, error) {
	if c, ok := n.(checker); ok {
		return c.checkNode(call)
	}
	return leafInfo(n), nil
}

// leafInfo describes a leaf that is not one of the package's nodes: a tensor
// or a user's Exp.
func leafInfo(n Node) info {
	in := info{shape: n.Shape(), anyDevice: true}
	if d, ok := n.(interface{ Device() alloc.Device }); ok {
		in.device, in.anyDevice = d.Device(), false
	}
	return in
}

func (u *Unary[T]) checkNode(call string) (info, error) {
	return checkOp[T](u, call, u.Op, 1, u.X)
}

func (b *Binary[T]) checkNode(call string) (info, error) {
	return checkOp[T](b, call, b.Op, 2, b.X, b.Y)
}

func (t *Ternary[T]) checkNode(call string) (info, error) {
	return checkOp[T](t, call, t.Op, 3, t.X, t.Y, t.Z)
}

func (c *Const[T]) checkNode(string) (info, error) {
	return info{shape: shape.Shape{}, anyDevice: true}, nil
}

func (n *Named[T]) checkNode(call string) (info, error) { return check(n.X, call) }

// checkOp checks a node applying op to operands: the node's own arity and
// dtype, then each operand, then that the operands broadcast and share a
// device.
func checkOp[T tensor.Number](node Node, call string, op ops.Op, arity int, operands ...Node) (info, error) {
	if err := checkOpFor[T](op, arity); err != nil {
		return info{}, &shape.NodeError{Op: call, Node: render(node), Err: err}
	}
	shapes := make([]shape.Shape, len(operands))
	out := info{anyDevice: true}
	for i, x := range operands {
		in, err := checkOperand(node, call, op.String(), i, x)
		if err != nil {
			return info{}, err
		}
		shapes[i] = in.shape
		if err := out.join(in, op.String()); err != nil {
			return info{}, &shape.NodeError{Op: call, Node: render(node), Err: err}
		}
	}
	s, err := shape.Broadcast(shapes...)
	if err != nil {
		renameBroadcast(err, op.String())
		return info{}, &shape.NodeError{Op: call, Node: render(node), Err: err}
	}
	out.shape = s
	return out, nil
}

// checkOperand checks operand i of node, which applies the op named name.
func checkOperand(node Node, call, name string, i int, x Node) (info, error) {
	if x == nil {
		return info{}, &shape.NodeError{Op: call, Node: render(node), Err: &shape.ArgumentError{
			Op: name, Name: fmt.Sprintf("operand %d", i), Value: nil, Reason: "an operand is missing"}}
	}
	return check(x, call)
}

// renameBroadcast names the op in a BroadcastError from shape.Broadcast.
func renameBroadcast(err error, name string) {
	var be *shape.BroadcastError
	if errors.As(err, &be) {
		be.Op = name
	}
}

// checkOpFor reports whether op is an op of the given arity defined for T.
func checkOpFor[T tensor.Number](op ops.Op, arity int) error {
	if op.Arity() != arity {
		return &shape.ArgumentError{Op: "expr", Name: "op", Value: op,
			Reason: fmt.Sprintf("a node with %d operands needs an op of arity %d", arity, arity)}
	}
	if op.Def().Domain == ops.FloatOnly && !tensor.IsFloat[T]() {
		return &shape.DTypeError{Op: op.String(), DType: tensor.DType[T](),
			Reason: "the op is defined for floating-point types only (convert the operand to float32 or float64)"}
	}
	return nil
}

// join merges an operand's device into the node's, which applies the op
// named name.
func (in *info) join(operand info, name string) error {
	switch {
	case operand.anyDevice:
	case in.anyDevice:
		in.device, in.anyDevice = operand.device, false
	case in.device != operand.device:
		return &shape.DeviceError{Op: name, Devices: []fmt.Stringer{in.device, operand.device}}
	}
	return nil
}
