package interp

import (
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// This file holds NumPy's integer-array ("advanced") indexing, x[[0, 2]],
// x[:, idx], x[i, j], and take(a, indices, axis=None) and
// take_along_axis(arr, indices, axis), built on the library's IndexArrays,
// Take and TakeAlongAxis (expr/gather.go): lazy nodes whose indices are
// checked when the expression is evaluated (an index out of range is an
// IndexError naming the index, the axis and its size). Index arrays are
// read as int64 (NumPy's intp). Its init runs after funcs.go's, which
// makes the map.
func init() {
	functions["take"] = function{min: 2, max: 3, keywords: []string{"axis"}, params: []string{"indices", "axis"}, build: takeCall(false), method: true}
	functions["take_along_axis"] = function{min: 2, max: 3, keywords: []string{"axis"}, params: []string{"indices", "axis"}, build: takeCall(true)}
}

// gatherKit is what this file needs of a kit; every kitOf[T] has it.
type gatherKit interface {
	indexArrays(x any, idx []any) any
	take(x any, idx any, axis int, along, flat bool) any
}

func (kitOf[T]) indexArrays(x any, idx []any) any {
	ix := make([]expr.Exp[int64], len(idx))
	for i, v := range idx {
		if v != nil {
			ix[i] = v.(expr.Exp[int64])
		}
	}
	return expr.IndexArrays(x.(expr.Exp[T]), ix...)
}

func (kitOf[T]) take(x any, idx any, axis int, along, flat bool) any {
	e := x.(expr.Exp[T])
	if flat {
		e, axis = expr.Ravel(e), 0
	}
	if along {
		return expr.TakeAlongAxis(e, idx.(expr.Exp[int64]), axis)
	}
	return expr.Take(e, idx.(expr.Exp[int64]), axis)
}

// indexArray reads an index item's value as an int64 index (an array of
// integers, or an integer as a 0-d one), or fails naming the item.
func (ev *evaluator) indexArray(at lang.Node, v value, what string) (any, error) {
	if v.py != nil {
		i, err := ev.integerOf(at, v, what)
		if err != nil {
			return nil, err
		}
		return expr.Scalar(int64(i)), nil
	}
	if !v.dt.IsInteger() {
		return nil, ev.failf(at, "%s: arrays used as indices must be of integer (or boolean) type, not %s", ev.text(at), v.dt)
	}
	return v.as(Int64), nil
}

// arrayIndex applies a subscript holding integer arrays: the slices are
// applied as views first, each keeping its dimension, then the arrays and
// integers (0-d arrays, as in NumPy) index their dimensions together
// (IndexArrays: the broadcast shape takes their place when they are
// consecutive, and comes first otherwise). vals holds the values of the
// subscript's index items, in order.
func (ev *evaluator) arrayIndex(n *lang.Index, x value, vals []value) (value, error) {
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
	var idx []any
	var parts []string // the slices' text, ":" for the arrays, naming x sliced
	sliced := false
	for _, it := range items {
		switch it.Kind {
		case lang.ItemNewAxis:
			return value{}, ev.failf(it, "%s: None (np.newaxis) beside index arrays is not supported: apply it in a subscript of its own", ev.text(n))
		case lang.ItemSlice:
			start, end, step, err := ev.sliceBounds(it)
			if err != nil {
				return value{}, err
			}
			if start != tensor.None || end != tensor.None || step != 1 {
				t, s = k.slice(t, s, len(idx), start, end, step)
				sliced = true
			}
			parts = append(parts, ev.text(it))
			idx = append(idx, nil)
		case lang.ItemIndex:
			v := vals[0]
			vals = vals[1:]
			if v.py == nil && v.dt == Bool {
				return value{}, ev.failf(it.Start, "%s: a boolean array beside other indices is not supported: index with it alone (x[mask])", ev.text(n))
			}
			if v.py != nil {
				d := len(idx)
				i, err := ev.integerOf(it.Start, v, "an index")
				if err != nil {
					return value{}, err
				}
				if i < -s[d] || i >= s[d] {
					return value{}, &Error{Pos: it.Pos, End: it.End, Msg: ev.text(n), Err: &shape.IndexError{Op: "index", Dim: d, Index: i, Size: s[d]}}
				}
			}
			a, err := ev.indexArray(it.Start, v, "an index")
			if err != nil {
				return value{}, err
			}
			idx = append(idx, a)
			parts = append(parts, ":")
		}
	}
	xn := x.node
	if sliced {
		xn = k.named(ev.text(n.X)+"["+strings.Join(parts, ", ")+"]", t)
	}
	return ev.built(n, x.dt, kitFor(x.dt).(gatherKit).indexArrays(xn, idx))
}

// takeCall builds take(a, indices, axis=None) (a.take(indices)) and, when
// along is set, take_along_axis(arr, indices, axis): axis None takes
// from the array flattened.
func takeCall(along bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		x, err := ev.viewArray(c, args)
		if err != nil {
			return value{}, err
		}
		in := kw["indices"]
		if in == nil {
			return value{}, ev.failf(c, "%s: %s needs the indices", ev.text(c), c.Func)
		}
		iv, err := ev.indexValue(in)
		if err != nil {
			return value{}, err
		}
		idx, err := ev.indexArray(in, iv, "indices")
		if err != nil {
			return value{}, err
		}
		axis, flat := 0, true
		if an := kw["axis"]; an != nil && !isNoneNode(an) {
			if axis, err = ev.integer(an, "axis"); err != nil {
				return value{}, err
			}
			flat = false
		}
		if along && !flat && iv.py != nil {
			return value{}, ev.failf(in, "%s: take_along_axis needs an array of indices with the array's number of dimensions", ev.text(in))
		}
		return ev.built(c, x.dt, kitFor(x.dt).(gatherKit).take(x.node, idx, axis, along, flat))
	}
}

// indexValue evaluates an index item or take's indices: a list literal of
// integers ([0, 2], [[1], [0]]) is an int64 array, as NumPy reads it; a
// parenthesised tuple is refused (NumPy reads x[(0, 2)] as x[0, 2]).
func (ev *evaluator) indexValue(n lang.Node) (value, error) {
	t, ok := n.(*lang.Tuple)
	if !ok {
		return ev.evalArg(n)
	}
	if !strings.HasPrefix(ev.text(n), "[") {
		return value{}, ev.failf(n, "%s: a tuple as an index is not supported: write its items in the subscript (x[0, 2]), or a list for an index array (x[[0, 2]])", ev.text(n))
	}
	var data []int64
	s, err := ev.listShape(t, &data)
	if err != nil {
		return value{}, err
	}
	x, err := tensor.FromSlice(data, s)
	if err != nil {
		return value{}, ev.fail(n, "", err)
	}
	return value{dt: Int64, s: s, node: kitFor(Int64).named(ev.text(n), x)}, nil
}

// listShape reads a nested list of integers into data, in row-major
// order, and returns its shape; a ragged list is an error naming it.
func (ev *evaluator) listShape(t *lang.Tuple, data *[]int64) (shape.Shape, error) {
	var inner shape.Shape
	for i, e := range t.Elems {
		var s shape.Shape
		if sub, ok := e.(*lang.Tuple); ok {
			var err error
			if s, err = ev.listShape(sub, data); err != nil {
				return nil, err
			}
		} else {
			v, err := ev.integer(e, "an index")
			if err != nil {
				return nil, err
			}
			*data = append(*data, int64(v))
		}
		if i == 0 {
			inner = s
		} else if !inner.Equal(s) {
			return nil, ev.failf(t, "%s: a ragged list (items of shapes %v and %v) is not an index array", ev.text(t), inner, s)
		}
	}
	return append(shape.Shape{len(t.Elems)}, inner...), nil
}
