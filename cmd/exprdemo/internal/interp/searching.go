package interp

import (
	"fmt"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
)

// This file holds NumPy's searchsorted, nonzero, where with one argument
// and unique, on the library's SearchSorted (a lazy node, expr/search.go)
// and Nonzero and UniqueCounts (eager: their length depends on the
// values, kernels/unique.go), which are computed while the tree is built,
// as x[mask] is.
//
// Tuples: nonzero(x), where(cond) and unique(x, return_counts=True) return
// a tuple of arrays in NumPy. The CLI has no tuple values beyond this: such
// a call is either subscripted by an integer, nonzero(x)[0] (an int64
// array, usable anywhere an array is), or the whole expression, whose
// result is then the tuple (Result.Tuple), printed as NumPy prints one:
// "(array([0, 1]), array([2, 0]))". Anywhere else it is an error that says
// to take an item. Its init runs after funcs.go's, which registers the
// three-argument where this extends.
func init() {
	functions["searchsorted"] = function{min: 2, max: 3, keywords: []string{"v", "side"}, params: []string{"v", "side"}, build: searchSortedCall, method: true}
	functions["nonzero"] = function{min: 1, max: 1, build: nonzeroCall, method: true}
	functions["unique"] = function{min: 1, max: 2, keywords: []string{"return_counts"}, params: []string{"return_counts"}, build: uniqueCall}
	three := functions["where"]
	functions["where"] = function{min: 1, max: 3, build: func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		switch len(args) {
		case 1: // np.where(cond) is np.asarray(cond).nonzero()
			return nonzeroCall(ev, c, args, kw)
		case 2:
			return value{}, ev.failf(c, "%s: where takes 1 or 3 arguments, not 2: either both or neither of x and y should be given", ev.text(c))
		}
		return three.build(ev, c, args, kw)
	}}
}

// searchingKit is what this file needs of a kit; every kitOf[T] has it.
type searchingKit interface {
	searchSorted(a, v any, right bool) any
	nonzero(x any) ([]any, []shape.Shape, error)
	unique(x any) (values, counts any, n int, err error)
}

func searching(d DType) searchingKit { return kitFor(d).(searchingKit) }

func (kitOf[T]) searchSorted(a, v any, right bool) any {
	return expr.SearchSorted(a.(expr.Exp[T]), v.(expr.Exp[T]), right)
}

// nonzero is kernels.Nonzero of x: one int64 tensor per axis, with their
// shapes.
func (kitOf[T]) nonzero(x any) ([]any, []shape.Shape, error) {
	ts, err := kernels.Nonzero(x.(expr.Exp[T]))
	if err != nil {
		return nil, nil, err
	}
	out, shapes := make([]any, len(ts)), make([]shape.Shape, len(ts))
	for i, t := range ts {
		out[i], shapes[i] = t, t.Shape()
	}
	return out, shapes, nil
}

// unique is kernels.UniqueCounts of x: the values (a tensor of T), the
// counts (int64) and their length.
func (kitOf[T]) unique(x any) (values, counts any, n int, err error) {
	v, c, err := kernels.UniqueCounts(x.(expr.Exp[T]))
	if err != nil {
		return nil, nil, 0, err
	}
	return v, c, v.Numel(), nil
}

// searchSortedCall builds searchsorted(a, v, side='left') in a's and v's
// result type (NumPy compares in it); the result is int64 of v's shape. a
// must be 1-D: the library's ShapeError otherwise.
func searchSortedCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	vn := kw["v"]
	if vn == nil {
		return value{}, ev.failf(c, "%s: searchsorted needs v (the values to insert)", ev.text(c))
	}
	v, err := ev.eval(vn)
	if err != nil {
		return value{}, err
	}
	right := false
	if sn := kw["side"]; sn != nil && !isNoneNode(sn) {
		s, ok := sn.(*lang.Str)
		if !ok || s.Value != "left" && s.Value != "right" {
			return value{}, ev.failf(sn, "%s: side must be 'left' or 'right'", ev.text(sn))
		}
		right = s.Value == "right"
	}
	a := args[0].strong()
	d, err := resultType(a, v)
	if err != nil {
		return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
	}
	return ev.built(c, Int64, searching(d).searchSorted(a.as(d), v.as(d), right))
}

// nonzeroCall is nonzero(x), x.nonzero() and where(cond): a tuple of one
// int64 array per axis, computed now. A 0-d x is an error, as in NumPy 2.1
// (NumPy 1.x read it as 1-d, with a DeprecationWarning).
func nonzeroCall(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x := args[0].strong()
	ts, shapes, err := searching(x.dt).nonzero(x.node)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	items := make([]value, len(ts))
	for i, t := range ts {
		items[i] = value{dt: Int64, s: shapes[i], node: t}
	}
	return value{tuple: items}, nil
}

// uniqueCall is unique(x, return_counts=False): x's distinct values
// sorted (x flattened; NaNs one, at the end), and with return_counts the
// tuple of the values and their int64 counts; computed now.
func uniqueCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	counts, err := ev.flag(kw["return_counts"])
	if err != nil {
		return value{}, err
	}
	x := args[0].strong()
	vals, cs, n, err := searching(x.dt).unique(x.node)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	v := value{dt: x.dt, s: shape.Shape{n}, node: kitFor(x.dt).named(ev.text(c), vals)}
	if !counts {
		return v, nil
	}
	v.node = vals
	return value{tuple: []value{v, {dt: Int64, s: shape.Shape{n}, node: cs}}}, nil
}

// evalTuple evaluates n, which may be a call returning a tuple (the whole
// expression, or the operand of a subscript).
func (ev *evaluator) evalTuple(n lang.Node) (value, error) {
	if c, ok := n.(*lang.Call); ok {
		return ev.call(c)
	}
	return ev.eval(n)
}

// noTuple refuses a tuple where an array is needed.
func (ev *evaluator) noTuple(n lang.Node, v value) (value, error) {
	if v.tuple != nil {
		return value{}, ev.failf(n, "%s returns a tuple of %d arrays; take one with %s[0]", ev.text(n), len(v.tuple), ev.text(n))
	}
	return v, nil
}

// tupleIndex is t[k] for a tuple t: its item k (negative counts from the
// end), named by the subscript.
func (ev *evaluator) tupleIndex(n *lang.Index, t value) (value, error) {
	if len(n.Items) != 1 || n.Items[0].Kind != lang.ItemIndex {
		return value{}, ev.failf(n, "%s: a tuple takes one integer index", ev.text(n))
	}
	k, err := ev.integer(n.Items[0].Start, "an index")
	if err != nil {
		return value{}, err
	}
	if k < -len(t.tuple) || k >= len(t.tuple) {
		return value{}, ev.failf(n, "%s: tuple index %d out of range (the tuple has %d arrays)", ev.text(n), k, len(t.tuple))
	}
	item := t.tuple[(k+len(t.tuple))%len(t.tuple)]
	item.node = kitFor(item.dt).named(ev.text(n), item.node)
	return item, nil
}

// tupleResult is a Result holding a tuple's arrays.
func tupleResult(t value) *Result {
	r := &Result{}
	for _, item := range t.tuple {
		r.Tuple = append(r.Tuple, &Result{DType: item.dt, Shape: item.s, Tensor: item.node, Tree: fmt.Sprint(item.node)})
	}
	return r
}
