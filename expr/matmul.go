package expr

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// MatProduct is the matrix product X @ Y with NumPy's matmul semantics: the
// last two dimensions multiply, the dimensions before them are batches that
// broadcast, and a 1-D operand is a row (X) or a column (Y) vector whose
// added dimension is removed from the result.
//
// A product cannot be fused into an elementwise pass: evaluators compute it
// once, into a temporary (or straight into the destination when it is the
// root), and fuse the elementwise rest of the tree around it.
type MatProduct[T tensor.Number] struct {
	X, Y Exp[T]
}

// MatMul returns the lazy product x @ y (NumPy's matmul). An inner-dimension
// mismatch is a ShapeError naming both shapes, as in "(2,3) @ (4,5)".
func MatMul[T tensor.Number](x, y Exp[T]) Exp[T] {
	return &MatProduct[T]{X: bare(x), Y: bare(y)}
}

// Shape returns the product's shape. It panics with the error Check returns
// when the operands do not multiply.
func (m *MatProduct[T]) Shape() shape.Shape { return mustShape(m) }

// Operands returns X and Y.
func (m *MatProduct[T]) Operands() []Node { return []Node{m.X, m.Y} }

// String prints the tree: "(a @ b)".
func (m *MatProduct[T]) String() string { return render(m) }

func (m *MatProduct[T]) render(b *strings.Builder) {
	b.WriteByte('(')
	renderTo(b, m.X)
	b.WriteString(" @ ")
	renderTo(b, m.Y)
	b.WriteByte(')')
}

func (m *MatProduct[T]) checkNode(cc *checking) (info, error) {
	x, err := checkOperand(m, cc, "matmul", 0, m.X)
	if err != nil {
		return info{}, err
	}
	y, err := checkOperand(m, cc, "matmul", 1, m.Y)
	if err != nil {
		return info{}, err
	}
	out := x
	if err := out.join(y, "matmul"); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(m), Err: err}
	}
	geo, err := ProductShape(x.shape, y.shape)
	if err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(m), Err: err}
	}
	out.shape = geo.Result
	return out, nil
}

// ProductGeometry is how MatProduct lays its operands out, once 1-D operands
// are promoted to matrices: Batch is the broadcast batch shape, M×K times
// K×N the matrix product, and Result the product's shape with the promoted
// dimensions removed again.
type ProductGeometry struct {
	Batch   shape.Shape
	M, K, N int
	Result  shape.Shape
}

// ProductShape works out the geometry of x @ y for operands of shapes x and
// y under NumPy's matmul rules. A 0-D operand is an ArgumentError, an inner
// mismatch a ShapeError naming both shapes ("(2,3) @ (4,5)"), batch
// dimensions that do not broadcast a BroadcastError, and a result (or batch)
// whose size does not fit in an int (shape.Shape.Size's rule) an
// OverflowError naming both operands.
func ProductShape(x, y shape.Shape) (ProductGeometry, error) {
	for i, s := range []shape.Shape{x, y} {
		if len(s) == 0 {
			return ProductGeometry{}, &shape.ArgumentError{Op: "matmul", Name: fmt.Sprintf("operand %d", i), Value: s,
				Reason: "a scalar has no dimension to multiply (use * for a scalar product)"}
		}
	}
	xm, ym := promoteRow(x), promoteColumn(y)
	g := ProductGeometry{M: xm[len(xm)-2], K: xm[len(xm)-1], N: ym[len(ym)-1]}
	if k := ym[len(ym)-2]; k != g.K {
		return ProductGeometry{}, &shape.ShapeError{Op: "matmul", Shapes: []shape.Shape{x.Clone(), y.Clone()}, Sep: " @ ",
			Reason: fmt.Sprintf("the inner dimensions differ (%d and %d)", g.K, k)}
	}
	batch, err := shape.Broadcast(xm[:len(xm)-2], ym[:len(ym)-2])
	if err != nil {
		err = shape.Rename(err, "matmul")
		if oe, ok := err.(*shape.OverflowError); ok {
			oe.Inputs = []shape.Shape{x.Clone(), y.Clone()}
		}
		return ProductGeometry{}, err
	}
	g.Batch = batch
	g.Result = batch.Clone()
	if len(x) > 1 {
		g.Result = append(g.Result, g.M)
	}
	if len(y) > 1 {
		g.Result = append(g.Result, g.N)
	}
	if _, err := g.Result.Size(); err != nil {
		if oe, ok := err.(*shape.OverflowError); ok {
			oe.Op, oe.Inputs = "matmul", []shape.Shape{x.Clone(), y.Clone()}
		}
		return ProductGeometry{}, err
	}
	return g, nil
}

// promoteRow returns s as a matrix: a 1-D shape (k) becomes (1,k).
func promoteRow(s shape.Shape) shape.Shape {
	if len(s) == 1 {
		return shape.Shape{1, s[0]}
	}
	return s
}

// promoteColumn returns s as a matrix: a 1-D shape (k) becomes (k,1).
func promoteColumn(s shape.Shape) shape.Shape {
	if len(s) == 1 {
		return shape.Shape{s[0], 1}
	}
	return s
}

// At computes the element at index of X @ Y: one dot product.
func (m *MatProduct[T]) At(index ...int) T {
	checkRank(m, index)
	g, _ := ProductShape(m.X.Shape(), m.Y.Shape())
	rest := index[len(g.Batch):]
	i, j := 0, 0
	if len(m.X.Shape()) > 1 {
		i, rest = rest[0], rest[1:]
	}
	if len(m.Y.Shape()) > 1 {
		j = rest[0]
	}
	var sum T
	for k := range g.K {
		sum += matrixAt(m.X, index[:len(g.Batch)], i, k, true) * matrixAt(m.Y, index[:len(g.Batch)], k, j, false)
	}
	return sum
}

// matrixAt reads element (r, c) of an operand's matrix at a batch index of
// the broadcast batch shape. row tells a 1-D operand's role: a row vector
// (X) or a column vector (Y).
func matrixAt[T tensor.Number](x Exp[T], batch []int, r, c int, row bool) T {
	s := x.Shape()
	if len(s) == 1 {
		if row {
			return x.At(c)
		}
		return x.At(r)
	}
	own := broadcastIndex(batch, s[:len(s)-2])
	return x.At(append(own, r, c)...)
}
