package expr

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Exp is an expression whose elements have type T: a tensor, a constant or
// a node combining other expressions. *tensor.Tensor[T] satisfies it as it
// is.
//
// Shape returns the shape the expression has when evaluated; for a node
// whose operands do not broadcast it panics with the error Check returns. At
// computes the single element at index, without evaluating anything else: it
// is for inspection and tests, and costs a walk of the tree per call; use
// kernels.Assign or kernels.Eval for whole tensors.
type Exp[T tensor.Number] interface {
	Shape() shape.Shape
	At(index ...int) T
}

// Node is an expression of any element type, as Walk visits it. Nodes with
// operands also implement Parent.
type Node interface {
	Shape() shape.Shape
}

// Parent is a node with operands.
type Parent interface {
	Node
	Operands() []Node
}

// Elementwise is implemented by the op nodes (Unary, Binary, Ternary): an
// op applied to the elements of its operands, broadcast together. Code that
// treats the three alike (lowering, gradients, rewrites) reads them through
// it rather than switching on the three types. Only this package's op
// nodes implement it (Check validates their operands as op nodes).
type Elementwise[T tensor.Number] interface {
	Exp[T]
	// OpParts returns the node's op and its operands, xs[:n]; n is 0 for
	// a nil node. It does not allocate.
	OpParts() (op Op, xs [3]Exp[T], n int)
	opNode()
}

// Op names an elementwise operation (add, exp, where…). Its String method
// gives the name NumPy uses for the function.
type Op = ops.Op

// Unary applies Op to each element of X.
type Unary[T tensor.Number] struct {
	Op Op
	X  Exp[T]
}

// Binary applies Op to the elements of X and Y, broadcast together.
type Binary[T tensor.Number] struct {
	Op   Op
	X, Y Exp[T]
}

// Ternary applies Op (where, clip) to the elements of X, Y and Z, broadcast
// together.
type Ternary[T tensor.Number] struct {
	Op      Op
	X, Y, Z Exp[T]
}

// Const is a scalar constant; it broadcasts to any shape (its own is ()).
type Const[T tensor.Number] struct {
	Value T
}

// Named gives an expression a name, used when the tree is printed. It
// evaluates as X.
type Named[T tensor.Number] struct {
	Name string
	X    Exp[T]
}

// Shape returns the shape of X.
func (u *Unary[T]) Shape() shape.Shape { return u.X.Shape() }

// Shape returns X's and Y's shapes broadcast together. It panics with the
// error Check returns when they do not broadcast.
func (b *Binary[T]) Shape() shape.Shape { return mustShape(b) }

// Shape returns X's, Y's and Z's shapes broadcast together. It panics with
// the error Check returns when they do not broadcast.
func (t *Ternary[T]) Shape() shape.Shape { return mustShape(t) }

// Shape returns (), the shape of a scalar.
func (c *Const[T]) Shape() shape.Shape { return shape.Shape{} }

// Shape returns the shape of X.
func (n *Named[T]) Shape() shape.Shape { return n.X.Shape() }

func (*Unary[T]) opNode()   {}
func (*Binary[T]) opNode()  {}
func (*Ternary[T]) opNode() {}

// OpParts returns Op and X.
func (u *Unary[T]) OpParts() (Op, [3]Exp[T], int) {
	if u == nil {
		return 0, [3]Exp[T]{}, 0
	}
	return u.Op, [3]Exp[T]{u.X}, 1
}

// OpParts returns Op, X and Y.
func (b *Binary[T]) OpParts() (Op, [3]Exp[T], int) {
	if b == nil {
		return 0, [3]Exp[T]{}, 0
	}
	return b.Op, [3]Exp[T]{b.X, b.Y}, 2
}

// OpParts returns Op, X, Y and Z.
func (t *Ternary[T]) OpParts() (Op, [3]Exp[T], int) {
	if t == nil {
		return 0, [3]Exp[T]{}, 0
	}
	return t.Op, [3]Exp[T]{t.X, t.Y, t.Z}, 3
}

// Operands returns X.
func (u *Unary[T]) Operands() []Node { return []Node{u.X} }

// Operands returns X and Y.
func (b *Binary[T]) Operands() []Node { return []Node{b.X, b.Y} }

// Operands returns X, Y and Z.
func (t *Ternary[T]) Operands() []Node { return []Node{t.X, t.Y, t.Z} }

// Operands returns X.
func (n *Named[T]) Operands() []Node { return []Node{n.X} }

// Label returns the node's name. With Operands it lets code that walks trees
// of any element type (Walk) find what each name stands for.
func (n *Named[T]) Label() string { return n.Name }

// mustShape returns n's checked shape, panicking with Check's error.
func mustShape(n Node) shape.Shape {
	cc := &checking{call: "Shape", shapesOnly: true}
	info, err := cc.check(n)
	if err != nil {
		panic(err)
	}
	return info.shape
}
