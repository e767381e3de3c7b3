package grad

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Of returns the gradient of loss with respect to each tensor of wrt: one
// expression tree per tensor, of that tensor's shape, built from the same
// node types as loss and reading loss's own nodes, so that it is evaluated
// lazily and fused like any other tree (kernels.Assign, kernels.Eval).
// Nothing is computed here.
//
// loss must hold exactly one element (a shape of size 1, such as () or
// (1,1)); use VJP for other shapes. Each tensor of wrt must be a leaf of
// loss, the very *tensor.Tensor that the tree holds: a view made with a
// tensor method is a tensor of its own, so differentiate through expr's
// view functions (expr.T(x), expr.Slice(x, …)) instead. A tensor of wrt
// that loss does not read, or whose memory loss reads through another
// tensor, is an error, as is a tree that fails expr.Check. The rules, and
// the subgradients chosen where an op has no derivative, are in the
// package doc.
func Of[T tensor.Float](loss expr.Exp[T], wrt ...*tensor.Tensor[T]) ([]expr.Exp[T], error) {
	info, err := expr.Check(loss)
	if err != nil {
		return nil, err
	}
	if n, _ := info.Shape.Size(); n != 1 {
		return nil, &shape.ShapeError{Op: "grad.Of", Shapes: []shape.Shape{info.Shape},
			Reason: fmt.Sprintf("the loss has %d elements, not one (use grad.VJP for a non-scalar output)", n)}
	}
	return vjp("grad.Of", loss, expr.Scalar(T(1)), shape.Shape{}, wrt)
}

// VJP returns the vector-Jacobian product vᵀ·∂out/∂x for each tensor x of
// wrt: the gradient of sum(v * out) with respect to x, one tree per tensor,
// of its shape. v must have out's shape (a ShapeError names both shapes
// otherwise); the other rules are Of's.
func VJP[T tensor.Float](out, v expr.Exp[T], wrt ...*tensor.Tensor[T]) ([]expr.Exp[T], error) {
	info, err := expr.Check(out)
	if err != nil {
		return nil, err
	}
	vinfo, err := expr.Check(v)
	if err != nil {
		return nil, err
	}
	if !vinfo.Shape.Equal(info.Shape) {
		return nil, &shape.ShapeError{Op: "grad.VJP", Shapes: []shape.Shape{info.Shape, vinfo.Shape},
			Reason: "the cotangent v must have the output's shape"}
	}
	return vjp("grad.VJP", out, v, vinfo.Shape, wrt)
}

// vjp builds the gradient trees of out seeded with v (of shape vs).
func vjp[T tensor.Float](call string, out expr.Exp[T], v expr.Exp[T], vs shape.Shape, wrt []*tensor.Tensor[T]) ([]expr.Exp[T], error) {
	b := newBuilder()
	root := strip[T](out)
	b.visit(root)
	if err := checkWrt(call, b, wrt); err != nil {
		return nil, err
	}
	for _, x := range wrt {
		b.wrt[x] = true
	}
	for _, n := range b.order {
		b.markNeeds(n)
	}
	if !b.needs[root] {
		return zerosFor(wrt), nil
	}
	b.add(root, contribution{e: v, s: vs})
	for i := len(b.order) - 1; i >= 0; i-- {
		if err := b.backward(b.order[i]); err != nil {
			return nil, &shape.NodeError{Op: call, Node: fmt.Sprint(b.order[i]), Err: err}
		}
	}
	grads := make([]expr.Exp[T], len(wrt))
	for i, x := range wrt {
		g, ok := total[T](b, x)
		if !ok {
			grads[i] = zeros[T](x.Shape())
			continue
		}
		grads[i] = exact[T](g, x.Shape())
	}
	return grads, nil
}

// zerosFor returns a zero gradient for each tensor.
func zerosFor[T tensor.Float](wrt []*tensor.Tensor[T]) []expr.Exp[T] {
	out := make([]expr.Exp[T], len(wrt))
	for i, x := range wrt {
		out[i] = zeros[T](x.Shape())
	}
	return out
}

// checkWrt returns an error for a nil tensor of wrt, one the tree does not
// read, and one whose memory the tree reads through another tensor (a view
// made with a tensor method), whose gradient would be lost.
func checkWrt[T tensor.Float](call string, b *builder, wrt []*tensor.Tensor[T]) error {
	for i, x := range wrt {
		name := fmt.Sprintf("wrt[%d]", i)
		if x == nil {
			return &shape.ArgumentError{Op: call, Name: name, Value: "<nil>", Reason: "the tensor is nil"}
		}
		if !b.seen[x] {
			return &shape.ArgumentError{Op: call, Name: name, Value: x.Shape(),
				Reason: "the tree does not read this tensor (a view made with a tensor method is a tensor of its own: take views with expr.T, expr.Slice… to differentiate through them)"}
		}
		for _, l := range b.leaves {
			if l == any(x) {
				continue
			}
			if r, ok := l.(friend.Tensor); ok && shape.MayOverlap(x.Region(friend.K), r.Region(friend.K)) {
				return &shape.ArgumentError{Op: call, Name: name, Value: x.Shape(),
					Reason: fmt.Sprintf("the tree also reads this tensor's memory through another tensor of shape %v (a view made with a tensor method), whose gradient would be lost: take views with expr.T, expr.Slice… instead", r.Region(friend.K).Shape)}
			}
		}
	}
	return nil
}

// contribution is one part of a node's gradient: a tree (an expr.Exp of
// the node's element type) and its shape, which broadcasts to the node's.
type contribution struct {
	e any
	s shape.Shape
}

// builder is the state of one differentiation: the tree's nodes in
// topological order, which of them lead to a tensor of wrt, and the
// gradient contributions gathered so far.
type builder struct {
	seen   map[expr.Node]bool
	order  []expr.Node // operands before the nodes that read them
	leaves []any       // the distinct tensors the tree reads
	wrt    map[any]bool
	needs  map[expr.Node]bool
	grads  map[expr.Node][]contribution
	// shapes answers the shapes of the tree's nodes, each node checked
	// once for the whole differentiation: a node's own Shape checks the
	// whole tree below it, so that asking every node of a chain d deep
	// cost O(d²) (minutes at 10,000).
	shapes expr.Shapes
}

func newBuilder() *builder {
	return &builder{seen: map[expr.Node]bool{}, wrt: map[any]bool{}, needs: map[expr.Node]bool{},
		grads: map[expr.Node][]contribution{}}
}

// visit adds n and the nodes below it to the order, each once.
func (b *builder) visit(n expr.Node) {
	if b.seen[n] {
		return
	}
	b.seen[n] = true
	if p, ok := n.(expr.Parent); ok {
		for _, x := range p.Operands() {
			b.visit(stripAny(x))
		}
	} else if isTensor(n) {
		b.leaves = append(b.leaves, n)
	}
	b.order = append(b.order, n)
}

// markNeeds records whether n leads to a tensor of wrt; its operands have
// been marked before it.
func (b *builder) markNeeds(n expr.Node) {
	if b.wrt[n] {
		b.needs[n] = true
		return
	}
	if p, ok := n.(expr.Parent); ok {
		for _, x := range p.Operands() {
			if b.needs[stripAny(x)] {
				b.needs[n] = true
				return
			}
		}
	}
}

// shapeOf returns n's shape, worked out once.
func (b *builder) shapeOf(n expr.Node) shape.Shape {
	s, err := b.shapes.Of(n)
	if err != nil {
		panic(err) // unreachable: the tree passed Check
	}
	return s
}

// add records a contribution to n's gradient, unless n leads to no tensor
// of wrt.
func (b *builder) add(n expr.Node, c contribution) {
	if b.needs[n] {
		b.grads[n] = append(b.grads[n], c)
	}
}

// backward passes n's gradient on to its operands, by n's rule.
func (b *builder) backward(n expr.Node) error {
	if len(b.grads[n]) == 0 || b.wrt[n] {
		return nil
	}
	if done, err := backwardAs[float64](b, n); done {
		return err
	}
	if done, err := backwardAs[float32](b, n); done {
		return err
	}
	return nil // integer nodes: no gradient flows through integers
}

// total returns the sum of n's contributions and its shape; false when
// there are none.
func total[T tensor.Float](b *builder, n expr.Node) (contribution, bool) {
	cs := b.grads[n]
	if len(cs) == 0 {
		return contribution{}, false
	}
	sum := cs[0]
	for _, c := range cs[1:] {
		s, err := shape.Broadcast(sum.s, c.s)
		if err != nil {
			panic(err) // contributions broadcast to the node's shape
		}
		sum = contribution{e: add(sum.e.(expr.Exp[T]), c.e.(expr.Exp[T])), s: s}
	}
	return sum, true
}

// exact returns c's tree broadcast to shape s, which c's shape broadcasts
// to.
func exact[T tensor.Float](c contribution, s shape.Shape) expr.Exp[T] {
	e := c.e.(expr.Exp[T])
	if c.s.Equal(s) {
		return e
	}
	return expr.Expand(e, s...)
}

// zeros is a tree of zeros of shape s.
func zeros[T tensor.Float](s shape.Shape) expr.Exp[T] {
	return exact[T](contribution{e: expr.Scalar(T(0)), s: shape.Shape{}}, s)
}

// strip removes the nodes that only name or chain an expression.
func strip[T tensor.Number](e expr.Exp[T]) expr.Exp[T] { return expr.Unwrap(e) }

// labelled is a Named node of any element type.
type labelled interface {
	expr.Parent
	Label() string
}

// stripAny removes the Named nodes above a node of any element type
// (Chains never sit inside a tree).
func stripAny(n expr.Node) expr.Node {
	for {
		l, ok := n.(labelled)
		if !ok {
			return n
		}
		n = l.Operands()[0]
	}
}

// isTensor reports whether n is a tensor of any element type.
func isTensor(n expr.Node) bool {
	_, ok := n.(friend.Tensor)
	return ok
}
