package expr

import (
	"strconv"
	"strings"

	"github.com/laze-go/laze/tensor"
)

// renderer is implemented by the package's nodes.
type renderer interface {
	render(b *strings.Builder)
}

// render prints a tree as the expression it stands for. A leaf that is not
// one of the package's nodes (a tensor) prints as "tensor" and its shape;
// Named gives a leaf a shorter name.
func render(n Node) string {
	var b strings.Builder
	renderTo(&b, n)
	return b.String()
}

// Render prints n as error messages name a node (shape.NodeError's Node):
// a tree as the expression it stands for, a tensor as "tensor" and its
// shape, never its values (which, on a device, printing would copy).
func Render(n Node) string { return render(n) }

func renderTo(b *strings.Builder, n Node) {
	if isNil(n) { // nil, or a nil *Tensor or node pointer
		b.WriteString("<nil>")
		return
	}
	if r, ok := n.(renderer); ok {
		r.render(b)
		return
	}
	b.WriteString("tensor")
	b.WriteString(n.Shape().String())
}

// renderCall prints name(operands…).
func renderCall(b *strings.Builder, name string, operands ...Node) {
	b.WriteString(name)
	b.WriteByte('(')
	for i, x := range operands {
		if i > 0 {
			b.WriteString(", ")
		}
		renderTo(b, x)
	}
	b.WriteByte(')')
}

func (u *Unary[T]) render(b *strings.Builder) {
	if u.Op.Valid() && u.Op.Def().Infix != "" {
		b.WriteString("(" + u.Op.Def().Infix)
		renderTo(b, u.X)
		b.WriteByte(')')
		return
	}
	renderCall(b, u.Op.String(), u.X)
}

func (bn *Binary[T]) render(b *strings.Builder) {
	if bn.Op.Valid() && bn.Op.Def().Infix != "" {
		b.WriteByte('(')
		renderTo(b, bn.X)
		b.WriteString(" " + bn.Op.Def().Infix + " ")
		renderTo(b, bn.Y)
		b.WriteByte(')')
		return
	}
	renderCall(b, bn.Op.String(), bn.X, bn.Y)
}

func (t *Ternary[T]) render(b *strings.Builder) { renderCall(b, t.Op.String(), t.X, t.Y, t.Z) }

func (c *Const[T]) render(b *strings.Builder) { b.WriteString(formatScalar(c.Value)) }

func (n *Named[T]) render(b *strings.Builder) { b.WriteString(n.Name) }

// formatScalar prints a constant as Python would: integers in decimal,
// floats in the shortest form that reads back exactly.
func formatScalar[T tensor.Number](v T) string {
	if tensor.IsFloat[T]() {
		return strconv.FormatFloat(float64(v), 'g', -1, tensor.ItemSize[T]()*8)
	}
	if v < 0 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(uint64(v), 10)
}

// String prints the tree: "exp(x)", "(-x)".
func (u *Unary[T]) String() string { return render(u) }

// String prints the tree: "(a + b)", "maximum(a, b)".
func (bn *Binary[T]) String() string { return render(bn) }

// String prints the tree: "where(c, a, b)".
func (t *Ternary[T]) String() string { return render(t) }

// String prints the value: "2", "0.5".
func (c *Const[T]) String() string { return render(c) }

// String returns the name.
func (n *Named[T]) String() string { return n.Name }
