package expr

import (
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"strings"

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
// is not changed. PushViews checks e first and returns the error Check
// would return (a view whose arguments do not fit its operand, operands
// that do not broadcast…), with PushViews as the operation.
func PushViews[T tensor.Number](e Exp[T]) (Exp[T], error) {
	return PushViewsWith(e, &Shapes{cc: checking{call: "PushViews", shapesOnly: true}})
}

// PushViewsWith is PushViews asking s for the shapes of e's nodes (see
// Shapes): an evaluator that pushes the views of several subtrees of one
// tree (the operand of each reduction) shares one Shapes, so that each
// node is checked once however deep the tree. It returns the error s finds
// in e, if any, before anything is rewritten.
//
// The rewrite takes time linear in the number of distinct nodes and the
// views above them: it goes down from the root with the chain of views
// met on the way (each node rewritten once per distinct chain), and builds
// each name of a viewed named tensor once, from the whole chain.
func PushViewsWith[T tensor.Number](e Exp[T], s *Shapes) (_ Exp[T], err error) {
	defer recoverPush(&err)
	e = bare(e)
	if _, err := s.Of(e); err != nil {
		return nil, err
	}
	p := pusher[T]{&pushState{shapes: s, chains: map[chainKey]*viewChain{}, leaves: map[leafKey]leafView{}}}
	return p.push(e, nil), nil
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

// viewChain is a chain of views to take of a node, innermost first: kind
// and args are the view taken of the node itself, outer the chain taken
// of that view (nil: none). Chains are built going down the tree, each
// view met put in front of the chain above it, so that they share their
// outer parts; pushState.chain makes equal chains one pointer, so that a
// pointer names a chain in the memos.
type viewChain struct {
	kind  ViewKind
	args  []int
	outer *viewChain
	len   int
}

// chainKey is what makes a chain: a view and the chain above it.
type chainKey struct {
	kind  ViewKind
	args  string // the arguments, encoded (argsKey)
	outer *viewChain
}

// argsKey encodes view arguments for a map key.
func argsKey(args []int) string {
	b := make([]byte, 0, 8*len(args))
	for _, a := range args {
		b = binary.LittleEndian.AppendUint64(b, uint64(a))
	}
	return string(b)
}

// pushState is the state of one rewrite, shared by the pushers of every
// element type (a Conversion's operand has another): the shapes of the
// nodes, the chains made, what each node became under each chain, and the
// views taken of each tensor (so that a tensor read twice through the same
// views is one leaf).
type pushState struct {
	shapes *Shapes
	chains map[chainKey]*viewChain
	leaves map[leafKey]leafView
	// A node reached along several paths (an operand used twice) is
	// rewritten once per chain of views, so that the rewritten tree shares
	// its nodes as e does.
	pushed dag.Memo[pushKey, Node]
}

// pusher rewrites the nodes of element type T.
type pusher[T tensor.Number] struct{ *pushState }

// pushKey is a node and the chain of views pushed into it.
type pushKey struct {
	n     Node
	chain *viewChain
}

// leafKey is a tensor and the chain of views taken of it.
type leafKey struct {
	t     any
	chain *viewChain
}

// leafView is what leaf made of a tensor and a chain of views: the tensor
// view (a *tensor.Tensor of the leaf's type) and how many of the chain's
// views it applies.
type leafView struct {
	t       any
	applied int
}

// chain returns the chain of the view (kind, args) taken of a node, then
// outer: one pointer for equal chains.
func (st *pushState) chain(kind ViewKind, args []int, outer *viewChain) *viewChain {
	key := chainKey{kind, argsKey(args), outer}
	if c, ok := st.chains[key]; ok {
		return c
	}
	n := 1
	if outer != nil {
		n += outer.len
	}
	c := &viewChain{kind: kind, args: slices.Clone(args), outer: outer, len: n}
	st.chains[key] = c
	return c
}

// after returns the chain left once its first k views are taken.
func (c *viewChain) after(k int) *viewChain {
	for range k {
		c = c.outer
	}
	return c
}

// viewRewriter is implemented by the node kinds that views pass through
// (the op nodes, views, names, chains and conversions): pushViews returns
// the node with chain pushed into its operands, sharing st. A conversion's
// operand has another element type: it pushes with a pusher of that type.
type viewRewriter interface {
	pushViews(st *pushState, chain *viewChain) Node
}

func (c *Conversion[U, T]) pushViews(st *pushState, chain *viewChain) Node {
	x := pusher[T]{st}.push(c.X, chain)
	if x == c.X {
		return c
	}
	return &Conversion[U, T]{X: x}
}

// push returns e with the views of chain (innermost first; nil for none)
// taken of it, and every view below it, pushed down as far as they go;
// the nodes that are not elementwise are kept as they are, operands
// included, with the views above them. Once per node and chain.
func (p pusher[T]) push(e Exp[T], chain *viewChain) Exp[T] {
	if !memoizable(e) {
		return p.pushNode(e, chain)
	}
	key := pushKey{e, chain}
	if r, ok := p.pushed.Get(key); ok {
		return r.(Exp[T])
	}
	r := p.pushNode(e, chain)
	p.pushed.Put(key, r)
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

// pushNode is push without the memo. Each node kind of the package pushes
// views through itself (its pushViews method); a tensor takes them as
// views of its own; any other node is evaluated into a tensor, then viewed.
func (p pusher[T]) pushNode(e Exp[T], chain *viewChain) Exp[T] {
	if isNil(e) {
		return e // unreachable: the tree was checked
	}
	switch n := e.(type) {
	case *tensor.Tensor[T]:
		if chain == nil {
			return e
		}
		v, k := p.leaf(n, chain)
		return wrap(v, chain.after(k))
	case viewRewriter:
		x, _ := n.pushViews(p.pushState, chain).(Exp[T]) // nil for a nil operand (unreachable: the tree was checked)
		return x
	}
	return wrap(e, chain)
}

func (c Chain[T]) pushViews(st *pushState, chain *viewChain) Node {
	return pusher[T]{st}.push(c.E, chain)
}

func (v *View[T]) pushViews(st *pushState, chain *viewChain) Node {
	p := pusher[T]{st}
	return p.push(v.X, p.chain(v.Kind, v.Args, chain))
}

func (n *Named[T]) pushViews(st *pushState, chain *viewChain) Node {
	p := pusher[T]{st}
	if chain == nil {
		if x := p.push(n.X, nil); x != n.X {
			return &Named[T]{Name: n.Name, X: x}
		}
		return n
	}
	if t, ok := n.X.(*tensor.Tensor[T]); ok && t != nil {
		// A named tensor keeps a name that says which view of it is read:
		// x.T, x.expand(2, 3).T.
		v, k := p.leaf(t, chain)
		named := &Named[T]{Name: viewedName(n.Name, chain, k), X: v}
		return wrap(named, chain.after(k))
	}
	return &Named[T]{Name: viewedName(n.Name, chain, chain.len), X: p.push(n.X, chain)}
}

func (u *Unary[T]) pushViews(st *pushState, chain *viewChain) Node {
	return pushElementwise(pusher[T]{st}, u, chain)
}

func (b *Binary[T]) pushViews(st *pushState, chain *viewChain) Node {
	return pushElementwise(pusher[T]{st}, b, chain)
}

func (t *Ternary[T]) pushViews(st *pushState, chain *viewChain) Node {
	return pushElementwise(pusher[T]{st}, t, chain)
}

// pushElementwise pushes chain into the operands of an op node, rebuilding
// the node when an operand changed. A unary node's operand has its shape
// and takes the views as they are; a node of two or three operands and
// shape () with views to take is computed, then viewed.
func pushElementwise[T tensor.Number](p pusher[T], n Elementwise[T], chain *viewChain) Exp[T] {
	op, xs, k := n.OpParts()
	var pushed []Exp[T]
	ok := true
	if k == 1 {
		pushed = []Exp[T]{p.push(xs[0], chain)}
	} else {
		pushed, ok = p.operands(n, chain, xs[:k]...)
	}
	if !ok {
		return wrap(p.push(n, nil), chain)
	}
	if slices.Equal(pushed, xs[:k]) {
		return n
	}
	return node(op, pushed...)
}

// operands pushes chain into the operands of a node n that broadcasts them
// together: an operand of the node's shape takes the views as they are,
// one of another shape is first expanded to the node's shape, and one of
// shape () takes none. It reports false for a node of shape () with views
// to take, which is computed and then viewed.
func (p pusher[T]) operands(n Exp[T], chain *viewChain, xs ...Exp[T]) ([]Exp[T], bool) {
	out := make([]Exp[T], len(xs))
	if chain == nil {
		for i, x := range xs {
			out[i] = p.push(x, nil)
		}
		return out, true
	}
	s := p.shapeOf(n)
	if len(s) == 0 {
		return nil, false
	}
	for i, x := range xs {
		xs := p.shapeOf(x)
		switch {
		case xs.Equal(s):
			out[i] = p.push(x, chain)
		case len(xs) == 0:
			out[i] = p.push(x, nil)
		default:
			out[i] = p.push(x, p.chain(ViewExpand, s, chain))
		}
	}
	return out, true
}

// leaf applies chain to t as tensor views, up to a Reshape the strides
// cannot express: it returns the view and how many of chain's views it
// applied. The views left stay view nodes over it (wrap): evaluators copy
// the tensor for the Reshape.
func (p pusher[T]) leaf(t *tensor.Tensor[T], chain *viewChain) (*tensor.Tensor[T], int) {
	key := leafKey{t: t, chain: chain}
	if v, ok := p.leaves[key]; ok {
		return v.t.(*tensor.Tensor[T]), v.applied
	}
	cur := t
	k := 0
	for c := chain; c != nil; c = c.outer {
		v := &View[T]{Kind: c.kind, Args: c.args, X: cur}
		next, err := v.Apply(cur)
		var nc *shape.NotContiguousError
		if errors.As(err, &nc) {
			break
		}
		if err != nil {
			p.fail(v, err) // unreachable: the tree was checked
		}
		cur = next
		k++
	}
	p.leaves[key] = leafView{cur, k}
	return cur, k
}

// viewedName is the name of the first k views of chain taken of a node
// named name: "x.T", "x.expand(2, 3).T". It is built once, from the whole
// chain.
func viewedName(name string, chain *viewChain, k int) string {
	var b strings.Builder
	b.WriteString(name)
	for c := chain; k > 0; c, k = c.outer, k-1 {
		renderView(&b, c.kind, c.args)
	}
	return b.String()
}

// wrap returns chain's views as view nodes over x.
func wrap[T tensor.Number](x Exp[T], chain *viewChain) Exp[T] {
	for c := chain; c != nil; c = c.outer {
		x = &View[T]{Kind: c.kind, Args: c.args, X: x}
	}
	return x
}

// shapeOf returns x's shape, checked once per node within the rewrite.
func (p pusher[T]) shapeOf(x Exp[T]) shape.Shape {
	s, err := p.shapes.Of(x)
	if err != nil {
		panic(pushError{err}) // unreachable: the tree was checked
	}
	return s
}

// fail stops the rewrite with err at node n, as Check reports it.
func (p pusher[T]) fail(n Node, err error) {
	panic(pushError{&shape.NodeError{Op: "PushViews", Node: render(n), Err: err}})
}
