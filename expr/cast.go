package expr

import (
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Conversion converts the elements of X, of type T, to U, elementwise.
// Evaluators fuse it: the converted values are produced block by block.
type Conversion[U, T tensor.Number] struct {
	X Exp[T]
}

// Foreign is a node of an Exp[U] whose operand has another element type: a
// Conversion, an ArgReduction. Evaluators lower it through its operand's
// type, which OperandDType names (Go has no generic methods, so the node
// cannot hand the type itself over).
type Foreign interface {
	Node
	// OperandDType returns the operand's element type.
	OperandDType() tensor.DType
}

// OperandDType returns T's dtype: the element type X is read in.
func (c *Conversion[U, T]) OperandDType() tensor.DType { return tensor.DTypeOf[T]() }

// Cast converts e's elements to U inside a tree: Cast[float64](ints) is an
// Exp[float64]. The conversion is Go's: integers wrap to the target's width
// (int8(300) is 44), floats to integers truncate toward zero, and float64 to
// float32 rounds to nearest. A float that is NaN, infinite or out of the
// integer type's range gives a platform-dependent value, as in Go (the Go
// spec leaves it unspecified; on amd64 it is the type's minimum for signed
// 32- and 64-bit types): clip before converting when that can happen.
func Cast[U, T tensor.Number](e Exp[T]) Exp[U] {
	return &Conversion[U, T]{X: bare(e)}
}

// Shape returns X's shape.
func (c *Conversion[U, T]) Shape() shape.Shape { return c.X.Shape() }

// Operands returns X.
func (c *Conversion[U, T]) Operands() []Node { return []Node{c.X} }

// At converts X's element at index.
func (c *Conversion[U, T]) At(index ...int) U { return U(c.X.At(index...)) }

// String prints the tree as NumPy's conversion call: "float64(x)".
func (c *Conversion[U, T]) String() string { return render(c) }

func (c *Conversion[U, T]) render(b *strings.Builder) {
	renderCall(b, tensor.DTypeOf[U]().String(), c.X)
}

func (c *Conversion[U, T]) checkNode(cc *checking) (info, error) {
	return checkOperand(c, cc, tensor.DTypeOf[U]().String(), 0, c.X)
}
