package interp

import (
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
)

// This file holds NumPy's sorting and selection functions: sort, argsort
// (also as a method), median, quantile and percentile, on the library's
// Sort, ArgSort, Median, Quantile and Percentile (expr/sort.go,
// expr/quantile.go). laze's sort is always stable (NaNs last, ties in
// their order), so every kind= gives NumPy's kind="stable" result: the
// same values as any kind, and for argsort the indices NumPy's stable
// kind gives. a.sort() sorts in place in NumPy and is not supported.
// axis=None works on the array flattened; one axis otherwise (NumPy's
// tuples of axes for median and quantile are not supported); q is one
// number. Its init runs after funcs.go's, which makes the map.
func init() {
	sortKw := []string{"axis", "kind"}
	functions["sort"] = function{min: 1, max: 3, keywords: sortKw, params: sortKw, build: sortCall(false)}
	functions["argsort"] = function{min: 1, max: 3, keywords: sortKw, params: sortKw, build: sortCall(true), method: true}
	medKw := []string{"axis", "keepdims"}
	functions["median"] = function{min: 1, max: 3, keywords: medKw, params: medKw, build: medianCall}
	qKw := []string{"q", "axis", "keepdims"}
	functions["quantile"] = function{min: 2, max: 4, keywords: qKw, params: qKw, build: quantileCall(false)}
	functions["percentile"] = function{min: 2, max: 4, keywords: qKw, params: qKw, build: quantileCall(true)}
}

// sortingKit is what this file needs of a kit; every kitOf[T] has it.
type sortingKit interface {
	sort(x any, axis int, flat, arg bool) any
}

func sorting(d DType) sortingKit { return kitFor(d).(sortingKit) }

// sort is Sort (ArgSort where arg is set) of x along axis, or of x
// flattened along 0.
func (kitOf[T]) sort(x any, axis int, flat, arg bool) any {
	e := x.(expr.Exp[T])
	if flat {
		e, axis = expr.Ravel(e), 0
	}
	if arg {
		return expr.ArgSort(e, axis)
	}
	return expr.Sort(e, axis)
}

// sortKinds are the kind= values NumPy takes; laze sorts stably for all.
var sortKinds = map[string]bool{"quicksort": true, "mergesort": true, "heapsort": true, "stable": true}

// selectionAxis reads axis= for sort, median and quantile: def when absent
// (nil: None), checked against x's rank; flat is true for None.
func (ev *evaluator) selectionAxis(c *lang.Call, kw map[string]lang.Node, def *int, x value) (axis int, flat bool, err error) {
	if n, ok := kw["axis"].(*lang.Tuple); ok {
		return 0, false, ev.failf(n, "%s: %s takes one axis or None, not a tuple", ev.text(c), c.Func)
	}
	axis, ok, err := ev.oneAxis(c, kw, "axis", def, len(x.s))
	if err != nil {
		return 0, false, err
	}
	if !ok && len(x.s) == 0 && def != nil {
		return 0, false, ev.failf(c, "%s: axis %d is out of bounds for array of dimension 0", ev.text(c), *def)
	}
	return axis, !ok, nil
}

// sortCall builds sort(a, axis=-1, kind=None) and argsort (int64), in
// a's dtype.
func sortCall(arg bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		if kn := kw["kind"]; kn != nil && !isNoneNode(kn) {
			s, ok := kn.(*lang.Str)
			if !ok || !sortKinds[s.Value] {
				return value{}, ev.failf(kn, "%s: kind must be 'quicksort', 'mergesort', 'heapsort' or 'stable'", ev.text(kn))
			}
		}
		last := -1
		axis, flat, err := ev.selectionAxis(c, kw, &last, x)
		if err != nil {
			return value{}, err
		}
		d := x.dt
		if arg {
			d = Int64
		}
		return ev.built(c, d, sorting(x.dt).sort(x.node, axis, flat, arg))
	}
}

// medianCall builds median(a, axis=None, keepdims=False): float64 for
// integers and bools, a's type for floats, as NumPy.
func medianCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x := args[0].strong()
	axis, flat, err := ev.selectionAxis(c, kw, nil, x)
	if err != nil {
		return value{}, err
	}
	keep, err := ev.flag(kw["keepdims"])
	if err != nil {
		return value{}, err
	}
	d := x.dt
	if !d.IsFloat() {
		d = Float64
	}
	xs := x.s
	node := floating(x.as(d),
		func(e expr.Exp[float64]) any { return selectionOf(e, axis, flat, keep, xs, expr.Median[float64]) },
		func(e expr.Exp[float32]) any { return selectionOf(e, axis, flat, keep, xs, expr.Median[float32]) })
	return ev.built(c, d, node)
}

// selectionOf applies f (Median, or a quantile) to x along axis, or to x
// flattened; with keepdims over a flattened x, the result is given x's
// rank back (every dimension of size 1), as NumPy.
func selectionOf[T float32 | float64](x expr.Exp[T], axis int, flat, keep bool, xs []int, f func(expr.Exp[T], int, bool) expr.Exp[T]) expr.Exp[T] {
	if !flat {
		return f(x, axis, keep)
	}
	r := f(expr.Ravel(x), 0, false)
	if keep {
		ones := make([]int, len(xs))
		for i := range ones {
			ones[i] = 1
		}
		r = expr.Reshape(r, ones...)
	}
	return r
}

// quantileCall builds quantile(a, q, axis=None, keepdims=False) and
// percentile (q in percent): always float64, as NumPy, whose quantile of
// float32 values computes in float64.
func quantileCall(percent bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		qn := kw["q"]
		if qn == nil {
			return value{}, ev.failf(c, "%s: %s needs q (a number)", ev.text(c), c.Func)
		}
		if _, ok := qn.(*lang.Tuple); ok {
			return value{}, ev.failf(qn, "%s: q must be one number: several quantiles at once are not supported", ev.text(qn))
		}
		q, err := ev.number(c, kw, "q", nil)
		if err != nil {
			return value{}, err
		}
		axis, flat, err := ev.selectionAxis(c, kw, nil, x)
		if err != nil {
			return value{}, err
		}
		keep, err := ev.flag(kw["keepdims"])
		if err != nil {
			return value{}, err
		}
		f := func(e expr.Exp[float64], axis int, keep bool) expr.Exp[float64] {
			if percent {
				return expr.Percentile(e, q.float(), axis, keep)
			}
			return expr.Quantile(e, q.float(), axis, keep)
		}
		xf := x.as(Float64).(expr.Exp[float64])
		return ev.built(c, Float64, selectionOf(xf, axis, flat, keep, x.s, f))
	}
}
