package kernels

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// view lowers a view node: its views pushed down through the elementwise
// nodes to the tensors (expr.PushViews, asking the evaluation's shapes, so
// that the subtrees below each reduction of a deep tree are checked once in
// all), where they are tensor views, and the rewritten tree lowered in its
// place. A view PushViews leaves in place
// (above a product, a reduction, a Reshape the strides cannot express) is
// taken of the tensor holding its operand's value (viewed).
func (l *lowering[T]) view(n *expr.View[T]) (int, error) {
	e, err := expr.PushViewsWith[T](n, &l.ev.shapes)
	if err != nil {
		return 0, err // unreachable after the checks; kept so a bug surfaces as an error
	}
	if v, ok := e.(*expr.View[T]); ok {
		t, err := viewed(l, v)
		if err != nil {
			return 0, err
		}
		return l.leaf(t)
	}
	if l.ev.plan != nil {
		l.ev.plan.nameNodes(e) // x.T for the view of x read
	}
	l.note(func(*plan) string { return fmt.Sprintf("views pushed down to the tensors: %v is read as %v", n, e) })
	return l.node(e)
}

// viewed returns the tensor view a view node left by PushViews stands for:
// the view of its operand as a tensor (a tensor, a view of one, or the
// value of a product or reduction, computed once into a temporary, as it
// would be anyway). A Reshape whose operand's strides cannot express it
// copies that operand into a contiguous temporary first, as NumPy's reshape
// does; the copy is the only one made.
func viewed[T tensor.Number](l *lowering[T], v *expr.View[T]) (*tensor.Tensor[T], error) {
	return computed(l.ev, v, func() (*tensor.Tensor[T], error) {
		var base *tensor.Tensor[T]
		var err error
		x := unwrap(v.X)
		if xv, ok := x.(*expr.View[T]); ok {
			base, err = viewed(l, xv)
		} else {
			base, err = materialize(l.ev, x) // a product's or reduction's value, computed once
		}
		if err != nil {
			return nil, err
		}
		if _, isTensor := x.(*tensor.Tensor[T]); !isTensor {
			if _, isView := x.(*expr.View[T]); !isView {
				l.note(func(pl *plan) string {
					return fmt.Sprintf("view %v taken of %s, the value of %v (computed anyway), without a copy", v, nameOf(pl, base), x)
				})
			}
		}
		out, err := v.Apply(base)
		var nc *shape.NotContiguousError
		if !errors.As(err, &nc) {
			return out, err
		}
		c := temp[T](l.ev, v, base.ShapeView(friend.K))
		var copied expr.Exp[T] = base
		if l.ev.plan != nil {
			copied = expr.Name(nameOf(l.ev.plan, base), copied) // a name, not the values
		}
		if err := evaluate(l.ev, c, copied); err != nil {
			return nil, err
		}
		out, err = v.Apply(c)
		if err != nil {
			return nil, err
		}
		strides := shape.FormatInts(base.StridesView(friend.K))
		l.note(func(pl *plan) string {
			return fmt.Sprintf("materialised: %v needs a copy (strides %s cannot be read as shape %v), so %s was copied into %s",
				v, strides, out.ShapeView(friend.K), nameOf(pl, base), nameOf(pl, c))
		})
		return out, nil
	})
}

// note records a line for Explain about the program being lowered.
func (l *lowering[T]) note(f func(pl *plan) string) {
	if l.ev.plan != nil {
		l.p.notes = append(l.p.notes, f)
	}
}

// pushedViews returns e with its views pushed down (expr.PushViews) when it
// has any, for the plan cache to describe; ok is false when it has none,
// when it holds a node the signature cannot describe whatever the views do
// (a reduction, a concatenation: pushing would be wasted work on every
// Assign of such a tree), or when the rewrite fails (the full path then
// reports the error).
func pushedViews[T tensor.Number](e expr.Exp[T]) (_ expr.Exp[T], ok bool) {
	views, other := false, false
	walkOnce(e, func(n expr.Node) bool {
		switch n.(type) {
		case *expr.View[T]:
			views = true
		case *tensor.Tensor[T], *expr.Const[T], *expr.Named[T], expr.Chain[T], *expr.Unary[T], *expr.Binary[T], *expr.Ternary[T]:
		default:
			other = true
		}
		return !other
	})
	if !views || other {
		return nil, false
	}
	pushed, err := expr.PushViews(e)
	return pushed, err == nil
}

// reorders reports whether v only reorders its operand's dimensions (T,
// Transpose, Permute, MoveAxis): its value is every element of the
// operand's.
func reorders[T tensor.Number](v *expr.View[T]) bool {
	switch v.Kind {
	case expr.ViewT, expr.ViewTranspose, expr.ViewPermute, expr.ViewMoveAxis:
		return true
	}
	return false
}

// reorderedValue materialises a view that only reorders dimensions as the
// view of its operand's value: the operand is computed once (a second use
// of the same node, as d in d.T @ d, reads the same temporary), in its own
// layout, and read through the view (a product reads it as stored,
// transposed).
func reorderedValue[T tensor.Number](ev *evaluation, v *expr.View[T]) (*tensor.Tensor[T], error) {
	base, err := materialize(ev, v.X)
	if err != nil {
		return nil, err
	}
	out, err := v.Apply(base)
	if err == nil && ev.plan != nil {
		named := &expr.View[T]{Kind: v.Kind, Args: v.Args, X: expr.Name(nameOf(ev.plan, base), expr.Of[T](base))}
		ev.plan.name(out, named.String()) // x.T
	}
	return out, err
}
