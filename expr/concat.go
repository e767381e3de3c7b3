package expr

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Concatenation joins Parts along Axis (numpy.concatenate), or, with
// Stack, stacks them along a new axis Axis of the result
// (numpy.stack). Negative axes count from the end: of the parts' rank for
// a concatenation, of the result's rank (one more) for a stack.
//
// Evaluators write each part straight into its slice of the destination
// when a concatenation is the root of an assignment (no temporary for the
// whole), first computing aside every part that reads memory the
// destination overlaps; inside a larger tree a concatenation is computed
// once, into a temporary, and read from there.
type Concatenation[T tensor.Number] struct {
	Axis  int
	Parts []Exp[T]
	Stack bool
}

// Concatenate returns xs joined along axis, as numpy.concatenate(xs,
// axis): every part has the same rank (at least 1) and the same sizes but
// along axis. Parts that do not fit are a ShapeError naming every shape,
// the axis and the part at fault; no part at all is an ArgumentError.
func Concatenate[T tensor.Number](axis int, xs ...Exp[T]) Exp[T] {
	return &Concatenation[T]{Axis: axis, Parts: bareAll(xs)}
}

// Stack returns xs stacked along a new axis of the result, as
// numpy.stack(xs, axis): every part has the same shape, and axis may be
// any of the result's, from -(rank+1) to rank.
func Stack[T tensor.Number](axis int, xs ...Exp[T]) Exp[T] {
	return &Concatenation[T]{Axis: axis, Parts: bareAll(xs), Stack: true}
}

func bareAll[T tensor.Number](xs []Exp[T]) []Exp[T] {
	out := make([]Exp[T], len(xs))
	for i, x := range xs {
		out[i] = bare(x)
	}
	return out
}

// Name returns NumPy's name: "concatenate" or "stack".
func (c *Concatenation[T]) Name() string {
	if c.Stack {
		return "stack"
	}
	return "concatenate"
}

// Shape returns the result's shape. It panics with the error Check returns
// when the parts do not fit together.
func (c *Concatenation[T]) Shape() shape.Shape { return mustShape(c) }

// Operands returns the parts.
func (c *Concatenation[T]) Operands() []Node {
	out := make([]Node, len(c.Parts))
	for i, x := range c.Parts {
		out[i] = x
	}
	return out
}

// String prints the tree: "concatenate((a, b), axis=0)".
func (c *Concatenation[T]) String() string { return render(c) }

func (c *Concatenation[T]) render(b *strings.Builder) {
	b.WriteString(c.Name() + "((")
	for i, x := range c.Parts {
		if i > 0 {
			b.WriteString(", ")
		}
		renderTo(b, x)
	}
	if len(c.Parts) == 1 {
		b.WriteByte(',')
	}
	fmt.Fprintf(b, "), axis=%d)", c.Axis)
}

// ConcatAxis returns the normalised axis of the result along which the
// parts lie (0 ≤ axis < the result's rank), for parts of rank rank.
func (c *Concatenation[T]) ConcatAxis(rank int) (int, error) {
	if c.Stack {
		return shape.Axis(c.Name(), c.Axis, rank+1)
	}
	if rank == 0 {
		return 0, &shape.ArgumentError{Op: c.Name(), Name: "parts", Value: "rank 0",
			Reason: "zero-dimensional operands cannot be concatenated (use Stack)"}
	}
	return shape.Axis(c.Name(), c.Axis, rank)
}

func (c *Concatenation[T]) checkNode(cc *checking) (info, error) {
	fail := func(err error) (info, error) {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(c), Err: err}
	}
	name := c.Name()
	if len(c.Parts) == 0 {
		return fail(&shape.ArgumentError{Op: name, Name: "parts", Value: 0, Reason: "needs at least one operand"})
	}
	out := info{anyDevice: true}
	shapes := make([]shape.Shape, len(c.Parts))
	for i, x := range c.Parts {
		in, err := checkOperand(c, cc, name, i, x)
		if err != nil {
			return info{}, err
		}
		if err := out.join(in, name); err != nil {
			return fail(err)
		}
		shapes[i] = in.shape
	}
	first := shapes[0]
	axis, err := c.ConcatAxis(len(first))
	if err != nil {
		return fail(err)
	}
	total := 0
	for i, s := range shapes {
		if len(s) != len(first) {
			return fail(&shape.ShapeError{Op: name, Shapes: shapes,
				Reason: fmt.Sprintf("every operand must have the same rank, but operand 0 has %d dimension(s) and operand %d has %d", len(first), i, len(s))})
		}
		for d := range s {
			if s[d] != first[d] && (c.Stack || d != axis) {
				reason := fmt.Sprintf("the sizes must match except along axis %d, but along dimension %d operand 0 has size %d and operand %d has size %d",
					axis, d, first[d], i, s[d])
				if c.Stack {
					reason = fmt.Sprintf("every operand must have the same shape, but along dimension %d operand 0 has size %d and operand %d has size %d",
						d, first[d], i, s[d])
				}
				return fail(&shape.ShapeError{Op: name, Shapes: shapes, Reason: reason})
			}
		}
		if !c.Stack {
			if total += s[axis]; total < 0 {
				break // overflow: Size below reports it
			}
		}
	}
	res := first.Clone()
	if c.Stack {
		res = append(res[:axis], append(shape.Shape{len(shapes)}, first[axis:]...)...)
	} else {
		res[axis] = total
	}
	if _, err := res.Size(); err != nil || total < 0 {
		return fail(&shape.OverflowError{Op: name, What: "element count of the result", Inputs: shapes})
	}
	if err := checkBytes[T](name, res); err != nil {
		return fail(err)
	}
	out.shape = res
	return out, nil
}

// At computes the element at index: the element of the part that index
// falls in.
func (c *Concatenation[T]) At(index ...int) T {
	checkRank(c, index)
	axis, _ := c.ConcatAxis(len(c.Parts[0].Shape()))
	if c.Stack {
		src := append(append([]int{}, index[:axis]...), index[axis+1:]...)
		return c.Parts[index[axis]].At(src...)
	}
	k := index[axis]
	for _, x := range c.Parts {
		n := x.Shape()[axis]
		if k < n {
			src := append([]int{}, index...)
			src[axis] = k
			return x.At(src...)
		}
		k -= n
	}
	panic(&shape.IndexError{Op: "At", Dim: axis, Index: index[axis], Size: index[axis] - k})
}
