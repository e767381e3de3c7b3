package expr

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/laze-go/laze/internal/dag"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// PushViews returns a tree equal to e in which every view node has been
// pushed down through the elementwise nodes (Unary, Binary, Ternary, Named,
// Conversion) to the tensors, where it becomes a tensor view: (a + b).T
// becomes a.T + b.T, with no copy and no temporary. Evaluators call it before
// lowering a tree; it is exported so that the rewrite can be inspected.
//
// Through a node whose operands broadcast, each operand of another shape
// than the node's is first expanded to the node's shape (a stride-0 view),
// then viewed: (a[3,1] + b[4]).T is a.expand(3,4).T + b.expand(3,4).T.
// Operands of shape () (constants) stay as they are. A view stays in the
// tree, as a view node, in three places, and evaluators then apply it to a
// tensor holding the operand's value:
//
//   - above a node that is evaluated into a tensor anyway (a matrix product,
//     a reduction): the view is taken of that tensor, with no further copy;
//   - above a Reshape the tensor's strides cannot express (NumPy's reshape
//     copies then): only that operand is copied, into a contiguous tensor;
//   - above an elementwise node of shape () (every operand a scalar), whose
//     one value is computed first.
//
// The views below such nodes' operands (the operands of a product…) are
// left for the evaluator to push when it evaluates those operands. e itself
// is not changed. PushViews returns the error Check would return for a view
// whose arguments do not fit its operand, or for operands that do not
// broadcast on the way down.
func PushViews[T tensor.Number](e Exp[T]) (_ Exp[T], err error) {
	defer recoverPush(&err)
	p := newPusher[T]()
	return p.rewrite(bare(e)), nil
}

// recoverPush turns a typed shape error raised while pushing into *err.
func recoverPush(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(pushError); ok {
		*err = e.err
		return
	}
	recoverShapeError(err)
	if *err == nil {
		panic(r)
	}
}

// pushError carries an error out of the rewrite's recursion.
type pushError struct{ err error }

// viewSpec is one view, without its operand: what is pushed down.
type viewSpec struct {
	kind ViewKind
	args []int
}

func (s viewSpec) String() string { return fmt.Sprintf("%s%v", s.kind, s.args) }

// pusher is the state of one rewrite: the shapes of the nodes met, and the
// views taken of each tensor (so that a tensor read twice through the same
// views is one leaf).
type pusher[T tensor.Number] struct {
	shapes map[Node]shape.Shape
	views  map[leafKey]leafView[T]

	// A node reached along several paths (an operand used twice) is
	// rewritten once, and pushed into once per chain of views, so that the
	// rewritten tree shares its nodes as e does and takes time linear in
	// the number of distinct nodes.
	rewritten dag.Memo[Node, Exp[T]]
	pushed    dag.Memo[pushKey, Exp[T]]
}

// pushKey is a node and the chain of views pushed into it (its String).
type pushKey struct {
	n     Node
	chain string
}

// leafView is what leaf made of a tensor and a chain of views.
type leafView[T tensor.Number] struct {
	t       *tensor.Tensor[T]
	applied int
}

type leafKey struct {
	t     any
	chain string
}

func newPusher[T tensor.Number]() *pusher[T] {
	return &pusher[T]{shapes: map[Node]shape.Shape{}, views: map[leafKey]leafView[T]{}}
}

// viewRewriter is implemented by Conversion, whose operand has another
// element type: it rewrites and pushes into its operand with a pusher of
// that type.
type viewRewriter interface {
	rewriteViews() Node
	pushViews(chain []viewSpec) Node
}

func (c *Conversion[U, T]) rewriteViews() Node {
	x := newPusher[T]().rewrite(c.X)
	if x == c.X {
		return c
	}
	return &Conversion[U, T]{X: x}
}

func (c *Conversion[U, T]) pushViews(chain []viewSpec) Node {
	return &Conversion[U, T]{X: newPusher[T]().push(c.X, chain)}
}

// rewrite returns e with every view below it pushed down; the nodes that
// are not elementwise are kept as they are, operands included. A node is
// rewritten once.
func (p *pusher[T]) rewrite(e Exp[T]) Exp[T] {
	if !memoizable(e) {
		return p.rewriteNode(e)
	}
	if r, ok := p.rewritten.Get(e); ok {
		return r
	}
	r := p.rewriteNode(e)
	p.rewritten.Put(e, r)
	return r
}

// memoizable reports whether e is a node that the rewrite memoises: a
// pointer (every node of the package but Chain, which only forwards), not
// nil.
func memoizable(e Node) bool {
	if e == nil {
		return false
	}
	v := reflect.ValueOf(e)
	return v.Kind() == reflect.Pointer && !v.IsNil()
}

// rewriteNode is rewrite without the memo.
func (p *pusher[T]) rewriteNode(e Exp[T]) Exp[T] {
	switch n := e.(type) {
	case Chain[T]:
		return p.rewrite(n.E)
	case *View[T]:
		if n == nil {
			return e
		}
		return p.push(p.rewrite(n.X), []viewSpec{{n.Kind, n.Args}})
	case *Unary[T]:
		if n == nil {
			return e
		}
		if x := p.rewrite(n.X); x != n.X {
			return &Unary[T]{Op: n.Op, X: x}
		}
	case *Binary[T]:
		if n == nil {
			return e
		}
		x, y := p.rewrite(n.X), p.rewrite(n.Y)
		if x != n.X || y != n.Y {
			return &Binary[T]{Op: n.Op, X: x, Y: y}
		}
	case *Ternary[T]:
		if n == nil {
			return e
		}
		x, y, z := p.rewrite(n.X), p.rewrite(n.Y), p.rewrite(n.Z)
		if x != n.X || y != n.Y || z != n.Z {
			return &Ternary[T]{Op: n.Op, X: x, Y: y, Z: z}
		}
	case *Named[T]:
		if n == nil {
			return e
		}
		if x := p.rewrite(n.X); x != n.X {
			return &Named[T]{Name: n.Name, X: x}
		}
	case viewRewriter:
		if !isNil(e) {
			return n.rewriteViews().(Exp[T])
		}
	}
	return e
}

// push returns the views of chain (innermost first) taken of x, whose own
// views have been pushed already, pushed down as far as they go; once per
// node and chain.
func (p *pusher[T]) push(x Exp[T], chain []viewSpec) Exp[T] {
	if !memoizable(x) {
		return p.pushNode(x, chain)
	}
	key := pushKey{x, fmt.Sprint(chain)}
	if r, ok := p.pushed.Get(key); ok {
		return r
	}
	r := p.pushNode(x, chain)
	p.pushed.Put(key, r)
	return r
}

// pushNode is push without the memo.
func (p *pusher[T]) pushNode(x Exp[T], chain []viewSpec) Exp[T] {
	if isNil(x) {
		p.fail(x, &shape.ArgumentError{Op: chain[0].kind.String(), Name: "operand 0", Value: nilValue(x),
			Reason: "an operand is missing"})
	}
	switch n := x.(type) {
	case *tensor.Tensor[T]:
		v, k := p.leaf(n, chain)
		return p.wrap(v, chain[k:])
	case *Named[T]:
		if t, ok := n.X.(*tensor.Tensor[T]); ok && t != nil {
			// A named tensor keeps a name that says which view of it is read:
			// x.T, x.expand(2, 3).T.
			v, k := p.leaf(t, chain)
			named := &Named[T]{Name: render(views(n, chain[:k])), X: v}
			p.shapes[named] = v.Shape()
			return p.wrap(named, chain[k:])
		}
		return &Named[T]{Name: render(views(n, chain)), X: p.push(n.X, chain)}
	case *Unary[T]:
		return &Unary[T]{Op: n.Op, X: p.push(n.X, chain)}
	case *Binary[T]:
		if xs := p.operands(n, chain, n.X, n.Y); xs != nil {
			return &Binary[T]{Op: n.Op, X: xs[0], Y: xs[1]}
		}
	case *Ternary[T]:
		if xs := p.operands(n, chain, n.X, n.Y, n.Z); xs != nil {
			return &Ternary[T]{Op: n.Op, X: xs[0], Y: xs[1], Z: xs[2]}
		}
	case viewRewriter:
		return n.pushViews(chain).(Exp[T])
	}
	return p.wrap(x, chain) // evaluated into a tensor, then viewed
}

// operands pushes chain into the operands of a node that broadcasts them
// together: an operand of the node's shape takes the views as they are,
// one of another shape is first expanded to the node's shape, and one of
// shape () stays. It returns nil for a node of shape (), which is computed
// and then viewed.
func (p *pusher[T]) operands(n Exp[T], chain []viewSpec, xs ...Exp[T]) []Exp[T] {
	s := p.shapeOf(n)
	if len(s) == 0 {
		return nil
	}
	// The views' own arguments are checked before anything is expanded, so
	// that a bad argument is reported as the view's error.
	p.chainShape(n, s, chain)
	out := make([]Exp[T], len(xs))
	for i, x := range xs {
		xs := p.shapeOf(x)
		switch {
		case xs.Equal(s):
			out[i] = p.push(x, chain)
		case len(xs) == 0:
			out[i] = x
		default:
			expand := viewSpec{ViewExpand, slices.Clone(s)}
			out[i] = p.push(x, append([]viewSpec{expand}, chain...))
		}
	}
	return out
}

// leaf applies chain to t as tensor views, up to a Reshape the strides
// cannot express: it returns the view and how many of chain's views it
// applied. The views left stay view nodes over it (wrap): evaluators copy
// the tensor for the Reshape.
func (p *pusher[T]) leaf(t *tensor.Tensor[T], chain []viewSpec) (*tensor.Tensor[T], int) {
	key := leafKey{t: t, chain: fmt.Sprint(chain)}
	if v, ok := p.views[key]; ok {
		return v.t, v.applied
	}
	cur := t
	k := 0
	for _, s := range chain {
		v := &View[T]{Kind: s.kind, Args: s.args, X: cur}
		next, err := v.Apply(cur)
		var nc *shape.NotContiguousError
		if errors.As(err, &nc) {
			break
		}
		if err != nil {
			p.fail(v, err)
		}
		cur = next
		k++
	}
	p.views[key] = leafView[T]{cur, k}
	return cur, k
}

// views returns chain's views as view nodes over x, unchecked (for names).
func views[T tensor.Number](x Exp[T], chain []viewSpec) Exp[T] {
	for _, s := range chain {
		x = &View[T]{Kind: s.kind, Args: s.args, X: x}
	}
	return x
}

// wrap returns chain's views as view nodes over x, checking their arguments.
func (p *pusher[T]) wrap(x Exp[T], chain []viewSpec) Exp[T] {
	if len(chain) == 0 {
		return x
	}
	p.chainShape(x, p.shapeOf(x), chain)
	return views(x, chain)
}

// chainShape returns the shape chain's views give an operand x of shape s,
// failing with the first view's error.
func (p *pusher[T]) chainShape(x Exp[T], s shape.Shape, chain []viewSpec) shape.Shape {
	for _, c := range chain {
		v := &View[T]{Kind: c.kind, Args: c.args, X: x}
		out, err := v.viewShape(s)
		if err != nil {
			p.fail(v, err)
		}
		x, s = v, out
		p.shapes[v] = out
	}
	return s
}

// shapeOf returns x's shape, computing each node's once.
func (p *pusher[T]) shapeOf(x Exp[T]) shape.Shape {
	if s, ok := p.shapes[x]; ok {
		return s
	}
	var s shape.Shape
	switch n := x.(type) {
	case *Const[T]:
		s = shape.Shape{}
	case *Named[T]:
		s = p.shapeOf(n.X)
	case *Unary[T]:
		s = p.shapeOf(n.X)
	case *Binary[T]:
		s = p.broadcast(n, n.Op.String(), n.X, n.Y)
	case *Ternary[T]:
		s = p.broadcast(n, n.Op.String(), n.X, n.Y, n.Z)
	case *View[T]:
		var err error
		if s, err = n.viewShape(p.shapeOf(n.X)); err != nil {
			p.fail(n, err)
		}
	default:
		in, err := check(x, "PushViews")
		if err != nil {
			panic(pushError{err})
		}
		s = in.shape
	}
	p.shapes[x] = s
	return s
}

func (p *pusher[T]) broadcast(n Exp[T], name string, xs ...Exp[T]) shape.Shape {
	shapes := make([]shape.Shape, len(xs))
	for i, x := range xs {
		if isNil(x) {
			p.fail(n, &shape.ArgumentError{Op: name, Name: fmt.Sprintf("operand %d", i), Value: nilValue(x),
				Reason: "an operand is missing"})
		}
		shapes[i] = p.shapeOf(x)
	}
	s, err := shape.Broadcast(shapes...)
	if err != nil {
		renameBroadcast(err, name)
		p.fail(n, err)
	}
	return s
}

// fail stops the rewrite with err at node n, as Check reports it.
func (p *pusher[T]) fail(n Node, err error) {
	panic(pushError{&shape.NodeError{Op: "PushViews", Node: render(n), Err: err}})
}
