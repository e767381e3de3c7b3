package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A view (x.T, x[1:3], x.transpose(…), x.reshape(…)) of an input is an O(1)
// view of its tensor, named by its source. Of a computed expression, it is a
// lazy view node (expr.View): nothing is computed first; the evaluator
// pushes the view down to the expression's tensors ((a + 1).T reads a.T),
// and copies only what a reshape cannot view (Explain says which).

// leaf returns what a view of v is taken of: v's tensor when v is an input
// (or a view of one) and views are not lazy, else v's expression; n is the
// node v came from.
func (ev *evaluator) leaf(n lang.Node, v value) (any, error) {
	if v.py != nil {
		return nil, ev.failf(n, "%s is a number; views need an array", ev.text(n))
	}
	if t, ok := kitFor(v.dt).leafOf(v.node); ok && !ev.lazyViews {
		return t, nil
	}
	return v.node, nil
}

// viewed wraps t, a view of n's value of shape s: a tensor view as a leaf
// named by its source, a view node as it is.
func (ev *evaluator) viewed(n lang.Node, d DType, t any, s shape.Shape) value {
	k := kitFor(d)
	if _, ok := k.leafOf(t); !ok {
		return value{dt: d, s: s, node: t}
	}
	return value{dt: d, s: s, node: k.named(ev.text(n), t)}
}

func (ev *evaluator) attr(n *lang.Attr) (value, error) {
	if n.Name != "T" {
		return value{}, ev.failf(n, "%s: unknown attribute %q (only .T; methods: %s)", ev.text(n), n.Name, strings.Join(methodNames(), ", "))
	}
	x, err := ev.eval(n.X)
	if err != nil {
		return value{}, err
	}
	t, err := ev.leaf(n.X, x)
	if err != nil {
		return value{}, err
	}
	r, s := kitFor(x.dt).transposed(t, x.s)
	return ev.viewed(n, x.dt, r, s), nil
}

// methodNames lists the methods, x.name(…), sorted: those of functions
// and astype.
func methodNames() []string {
	names := []string{"astype"}
	for name, f := range functions {
		if f.method || f.methodOnly {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// reversed is the permutation that reverses n axes (x.T, transpose()).
func reversed(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = n - 1 - i
	}
	return p
}

// intList reads the integers of reshape(…) and transpose(…): given one by
// one, or as one tuple.
func (ev *evaluator) intList(t *lang.Tuple, what string) ([]int, error) {
	elems := t.Elems
	if len(elems) == 1 {
		if inner, ok := elems[0].(*lang.Tuple); ok {
			elems = inner.Elems
		}
	}
	out := make([]int, 0, len(elems))
	for _, e := range elems {
		v, err := ev.integer(e, what)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// transposeCall is x.transpose(axes…): no axes reverses them all.
func transposeCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x := args[0]
	perm, err := ev.intList(kw[""].(*lang.Tuple), "an axis")
	if err != nil {
		return value{}, err
	}
	if len(perm) == 0 {
		perm = reversed(len(x.s))
	}
	if err := checkPermutation(perm, len(x.s)); err != nil {
		return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
	}
	t, err := ev.leaf(recvOrFirst(c), x)
	if err != nil {
		return value{}, err
	}
	r, s := kitFor(x.dt).permute(t, x.s, perm)
	return ev.viewed(c, x.dt, r, s), nil
}

// recvOrFirst is the node of the array a view call applies to.
func recvOrFirst(c *lang.Call) lang.Node {
	if c.Recv != nil {
		return c.Recv
	}
	return c.Args[0]
}

// checkPermutation checks that perm (negative axes counting from the end)
// orders the n axes, and normalises it.
func checkPermutation(perm []int, n int) error {
	if len(perm) != n {
		return fmt.Errorf("axes %v do not match an array of %d dimensions", perm, n)
	}
	seen := make([]bool, n)
	for i, a := range perm {
		if a < -n || a >= n {
			return fmt.Errorf("axis %d is out of bounds for an array of %d dimensions", a, n)
		}
		if a < 0 {
			a += n
			perm[i] = a
		}
		if seen[a] {
			return fmt.Errorf("axis %d repeated in %v", a, perm)
		}
		seen[a] = true
	}
	return nil
}

// reshapeCall is x.reshape(dims…) with at most one -1; it is a view when
// the strides allow, else a copy (as NumPy's).
func reshapeCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x := args[0]
	dims, err := ev.intList(kw[""].(*lang.Tuple), "a dimension")
	if err != nil {
		return value{}, err
	}
	t, err := ev.leaf(recvOrFirst(c), x)
	if err != nil {
		return value{}, err
	}
	r, s, err := kitFor(x.dt).reshape(t, x.s, dims)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return ev.viewed(c, x.dt, r, s), nil
}

// index applies a NumPy basic subscript: integers drop a dimension
// (negative ones count from the end), slices keep it with start:stop:step,
// ... stands for the dimensions not named, None inserts a dimension of 1.
func (ev *evaluator) index(n *lang.Index) (value, error) {
	if v, ok, err := ev.pairIndex(n); ok {
		return v, err
	}
	x, err := ev.evalTuple(n.X)
	if err != nil {
		return value{}, err
	}
	if x.tuple != nil {
		return ev.tupleIndex(n, x)
	}
	if x.py != nil {
		return value{}, ev.failf(n, "%s: a number cannot be indexed", ev.text(n))
	}
	// Each index item is evaluated once, here, so that nested subscripts
	// cost linear time, not exponential.
	var vals []value
	arrays := false
	for _, it := range n.Items {
		if it.Kind == lang.ItemIndex {
			v, err := ev.indexValue(it.Start)
			if err != nil {
				return value{}, err
			}
			vals = append(vals, v)
			arrays = arrays || v.py == nil
		}
	}
	if arrays {
		if len(n.Items) == 1 && vals[0].dt == Bool {
			return ev.maskIndex(n, x, vals[0]) // x[mask]
		}
		return ev.arrayIndex(n, x, vals) // x[[0, 2]], x[:, idx]
	}
	items, err := ev.expandEllipsis(n, len(x.s))
	if err != nil {
		return value{}, err
	}
	t, err := ev.leaf(n.X, x)
	if err != nil {
		return value{}, err
	}
	k := kitFor(x.dt)
	s := x.s
	dim := 0 // the dimension of the view the next item applies to
	for _, it := range items {
		switch it.Kind {
		case lang.ItemNewAxis:
			t, s = k.unsqueeze(t, s, dim)
			dim++
		case lang.ItemIndex:
			i, err := ev.integerOf(it.Start, vals[0], "an index")
			vals = vals[1:]
			if err != nil {
				return value{}, err
			}
			if i < -s[dim] || i >= s[dim] {
				return value{}, &Error{Pos: it.Pos, End: it.End, Msg: ev.text(n), Err: &shape.IndexError{Op: "index", Dim: dim, Index: i, Size: s[dim]}}
			}
			t, s = k.index(t, s, dim, (i+s[dim])%s[dim])
		case lang.ItemSlice:
			start, end, step, err := ev.sliceBounds(it)
			if err != nil {
				return value{}, err
			}
			t, s = k.slice(t, s, dim, start, end, step)
			dim++
		}
	}
	return ev.viewed(n, x.dt, t, s), nil
}

// expandEllipsis replaces ... (or its absence) with full slices, so that
// the items name every dimension of an array of rank ndim.
func (ev *evaluator) expandEllipsis(n *lang.Index, ndim int) ([]lang.IndexItem, error) {
	named, ellipsis := 0, -1
	for i, it := range n.Items {
		switch it.Kind {
		case lang.ItemEllipsis:
			if ellipsis >= 0 {
				return nil, ev.failf(it, "%s: an index can only have a single ellipsis ('...')", ev.text(n))
			}
			ellipsis = i
		case lang.ItemIndex, lang.ItemSlice:
			named++
		}
	}
	if named > ndim {
		return nil, ev.failf(n, "%s: too many indices for an array of %d dimensions: %d were indexed", ev.text(n), ndim, named)
	}
	full := lang.IndexItem{Kind: lang.ItemSlice}
	var items []lang.IndexItem
	for i, it := range n.Items {
		if i == ellipsis {
			for range ndim - named {
				items = append(items, full)
			}
			continue
		}
		items = append(items, it)
	}
	if ellipsis < 0 {
		for range ndim - named {
			items = append(items, full)
		}
	}
	return items, nil
}

// sliceBounds reads start:stop:step, with tensor.None for a part left out
// (or None); a zero step is an error, as in Python.
func (ev *evaluator) sliceBounds(it lang.IndexItem) (start, end, step int, err error) {
	part := func(n lang.Node, absent int) (int, error) {
		if n == nil {
			return absent, nil
		}
		if name, ok := n.(*lang.Name); ok && name.Name == "None" {
			return absent, nil
		}
		return ev.integer(n, "a slice bound")
	}
	if step, err = part(it.Step, 1); err != nil {
		return
	}
	if step == 0 {
		return 0, 0, 0, ev.failf(it, "slice step cannot be zero")
	}
	if start, err = part(it.Start, tensor.None); err != nil {
		return
	}
	end, err = part(it.Stop, tensor.None)
	return
}
