package expr

import (
	"fmt"
	"reflect"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/dag"
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
// BroadcastError), operands whose broadcast or product has a size or byte
// count beyond an int (an OverflowError naming their shapes), an op not
// defined for T (a DTypeError), an op with the wrong number of operands or a
// nil operand, such as a nil *tensor.Tensor (an ArgumentError), a signed
// integer raised to a negative constant (an ArgumentError, as NumPy's
// ValueError; kernels checks other exponents' values), or tensors
// on different devices (a DeviceError). The fault comes wrapped in a
// *shape.NodeError that names the node at fault; errors.Is and errors.As see
// through it.
func Check[T tensor.Number](e Exp[T]) (Info, error) {
	in, err := check(e, "Check")
	if err != nil {
		return Info{}, err
	}
	if err := checkBytes[T]("result", in.shape); err != nil {
		return Info{}, &shape.NodeError{Op: "Check", Node: render(e), Err: err}
	}
	return Info{Shape: in.shape, Device: in.deviceOrCPU()}, nil
}

// checkBytes returns an OverflowError naming op when a tensor of T and shape
// s would have a byte count beyond an int (tensor's rule for a valid shape):
// no tensor can hold such a result.
func checkBytes[T tensor.Number](op string, s shape.Shape) error {
	if _, err := s.Bytes(tensor.ItemSize[T]()); err != nil {
		if oe, ok := err.(*shape.OverflowError); ok {
			oe.Op, oe.DType = op, tensor.DTypeOf[T]().String()
		}
		return err
	}
	return nil
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
	checkNode(cc *checking) (info, error)
}

// checking is the state of one check of a tree: the public operation it
// serves, for errors, and what was found for each node already checked, so
// that a node reached along several paths (an operand used twice, as the
// trees of gradients reuse their forward nodes) is checked once, and a
// check takes time linear in the number of distinct nodes.
type checking struct {
	call string
	seen dag.Memo[Node, info]
	// shapesOnly leaves out the checks of values (a negative constant
	// exponent of an integer power): Shape and Shapes answer shapes only.
	shapesOnly bool
}

// check checks n; call names the public operation, for errors. A nil n (a
// nil interface, or a nil *Tensor or node pointer) is an ArgumentError at
// node <nil>; checkOperand names the parent instead when there is one.
func check(n Node, call string) (info, error) {
	cc := &checking{call: call}
	return cc.check(n)
}

// check checks n, once per distinct node (pointer) within cc.
func (cc *checking) check(n Node) (info, error) {
	if n == nil {
		return info{}, nilNode(cc, n)
	}
	v := reflect.ValueOf(n)
	isPointer := v.Kind() == reflect.Pointer
	if isPointer && v.IsNil() {
		return info{}, nilNode(cc, n)
	}
	c, ok := n.(checker)
	if !ok {
		return leafInfo(n), nil
	}
	if !isPointer {
		return c.checkNode(cc) // a Chain: a value, which only forwards
	}
	if in, ok := cc.seen.Get(n); ok {
		return in, nil
	}
	in, err := c.checkNode(cc)
	if err == nil {
		cc.seen.Put(n, in)
	}
	return in, err
}

// nilNode is the error of a nil tree.
func nilNode(cc *checking, n Node) error {
	return &shape.NodeError{Op: cc.call, Node: render(n), Err: &shape.ArgumentError{
		Op: "expr", Name: "expression", Value: nilValue(n), Reason: "the expression is nil"}}
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

func (u *Unary[T]) checkNode(cc *checking) (info, error) {
	return checkOp[T](u, cc, u.Op, 1, u.X)
}

func (b *Binary[T]) checkNode(cc *checking) (info, error) {
	in, err := checkOp[T](b, cc, b.Op, 2, b.X, b.Y)
	if err == nil && b.Op == ops.Pow {
		err = checkConstExponent(b, cc, in.shape)
	}
	return in, err
}

// checkConstExponent refuses a constant negative exponent of an integer
// power (ops.RefusesNegativeExponent) whose result, of shape s, is not
// empty, as NumPy's loop meets it; package kernels checks the values of
// any other exponent before it writes.
func checkConstExponent[T tensor.Number](b *Binary[T], cc *checking, s shape.Shape) error {
	c, ok := Unwrap(b.Y).(*Const[T])
	if cc.shapesOnly || !ok || !ops.RefusesNegativeExponent[T]() || c.Value >= 0 {
		return nil
	}
	if n, _ := s.Size(); n == 0 {
		return nil
	}
	return &shape.NodeError{Op: cc.call, Node: render(b), Err: ops.NegativeExponentError(c.Value, nil)}
}

func (t *Ternary[T]) checkNode(cc *checking) (info, error) {
	return checkOp[T](t, cc, t.Op, 3, t.X, t.Y, t.Z)
}

func (c *Const[T]) checkNode(*checking) (info, error) {
	return info{shape: shape.Shape{}, anyDevice: true}, nil
}

func (n *Named[T]) checkNode(cc *checking) (info, error) {
	return checkOperand(n, cc, n.Name, 0, n.X)
}

// checkOp checks a node applying op to operands: the node's own arity and
// dtype, then each operand, then that the operands broadcast and share a
// device.
func checkOp[T tensor.Number](node Node, cc *checking, op ops.Op, arity int, operands ...Node) (info, error) {
	if err := checkOpFor[T](op, arity); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: err}
	}
	shapes := make([]shape.Shape, len(operands))
	out := info{anyDevice: true}
	for i, x := range operands {
		in, err := checkOperand(node, cc, op.String(), i, x)
		if err != nil {
			return info{}, err
		}
		shapes[i] = in.shape
		if err := out.join(in, op.String()); err != nil {
			return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: err}
		}
	}
	s, err := shape.Broadcast(shapes...) // an OverflowError too, when the result's size does not fit
	if err == nil {
		err = checkBytes[T](op.String(), s)
	}
	if err != nil {
		err = shape.Rename(err, op.String())
		return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: err}
	}
	out.shape = s
	return out, nil
}

// checkOperand checks operand i of node, which applies the op named name.
// A missing operand (nil), or a nil *Tensor or node pointer, is an
// ArgumentError at node.
func checkOperand(node Node, cc *checking, name string, i int, x Node) (info, error) {
	if isNil(x) {
		reason := "an operand is missing"
		if x != nil {
			reason = "the operand is a nil pointer"
		}
		return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: &shape.ArgumentError{
			Op: name, Name: fmt.Sprintf("operand %d", i), Value: nilValue(x), Reason: reason}}
	}
	return cc.check(x)
}

// isNil reports whether n is nil or holds a nil pointer (a typed nil
// *tensor.Tensor, a nil node), which has no shape to check.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// nilValue describes a nil operand for an error: nil, or the typed nil,
// "(*tensor.Tensor[float64])(nil)".
func nilValue(n Node) any {
	if n == nil {
		return nil
	}
	return fmt.Sprintf("(%T)(nil)", n)
}

// checkOpFor reports whether op is an op of the given arity defined for T.
func checkOpFor[T tensor.Number](op ops.Op, arity int) error {
	if op.Arity() != arity {
		return &shape.ArgumentError{Op: "expr", Name: "op", Value: op,
			Reason: fmt.Sprintf("a node with %d operands needs an op of arity %d", arity, arity)}
	}
	if domain := op.Def().Domain; !domain.Accepts(tensor.IsFloat[T]()) {
		hint := "convert the operand to float32 or float64"
		if domain == ops.IntOnly {
			hint = "convert the operand to an integer type"
		}
		return &shape.DTypeError{Op: op.String(), DType: tensor.DTypeOf[T]().String(),
			Reason: fmt.Sprintf("the op is defined for %s only (%s)", domain, hint)}
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

// Shapes answers the shapes of the nodes of trees, checking each distinct
// node once however many questions name it or its ancestors: an evaluator
// that asks the shape of every reduction in a chain of nested reductions
// (Sum of Sum of …) takes time linear in the chain's length, where each
// node's own Shape method checks its whole subtree again. Its zero value is
// ready to use. It holds its answers, so use one per evaluation, while the
// trees' shapes do not change.
type Shapes struct{ cc checking }

// Of returns n's shape, or the error Check would find in n.
func (s *Shapes) Of(n Node) (shape.Shape, error) {
	if s.cc.call == "" {
		s.cc.call, s.cc.shapesOnly = "Shape", true
	}
	in, err := s.cc.check(n)
	return in.shape, err
}
