package interp

import (
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
)

// reduction builds sum, mean, prod, max, min, argmax and argmin with
// NumPy's axis= and keepdims= and its result types: sums and products of
// narrow integers widen to 64 bits, means of integers are float64, arg
// reductions are int64.
func reduction(r expr.ReduceOp) func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x, axes, keep, err := ev.reduceArgs(args, kw, r.Def().Arg)
		if err != nil {
			return value{}, err
		}
		g, err := expr.ReduceShape(r.String(), x.s, axes, keep)
		if err != nil {
			return value{}, ev.fail(c, "", err)
		}
		d := reduceType(r, x.dt)
		k := kitFor(d)
		switch {
		case r.Def().NeedsData && g.Count == 0 && r == ops.Mean:
			// NumPy's mean of nothing is nan (with a warning); laze's Mean refuses it.
			sum := k.reduce(ops.Sum, x.as(d), axes, keep)
			return value{dt: d, s: g.Result, node: k.op(ops.Div, sum, k.constant(0, 0, true))}, nil
		case r.Def().NeedsData && g.Count == 0:
			return value{}, ev.failf(c, "%s: zero-size array to reduction operation %s which has no identity", ev.text(c), r)
		case r.Def().Arg:
			return value{dt: d, s: g.Result, node: kitFor(x.dt).argReduce(r, x.node, axes, keep)}, nil
		}
		return value{dt: d, s: g.Result, node: k.reduce(r, x.as(d), axes, keep)}, nil
	}
}

// reduceType is the dtype NumPy gives reduction r of dtype d.
func reduceType(r expr.ReduceOp, d DType) DType {
	switch {
	case r.Def().Arg:
		return Int64
	case r == ops.Sum || r == ops.Prod:
		return sumFor(d)
	case r == ops.Mean && !d.IsFloat():
		return Float64
	}
	return d
}

// reduceArgs reads a reduction's operand (as a strong value), its axis=
// (one axis at most where single is set) and keepdims=.
func (ev *evaluator) reduceArgs(args []value, kw map[string]lang.Node, single bool) (x value, axes []int, keep bool, err error) {
	x = args[0].strong()
	if axes, err = ev.axes(kw["axis"], single); err != nil {
		return x, nil, false, err
	}
	keep, err = ev.flag(kw["keepdims"])
	return x, axes, keep, err
}

// axes reads axis=: None (every axis, nil), an int, or a tuple of ints;
// arg reductions take one axis at most.
func (ev *evaluator) axes(n lang.Node, single bool) ([]int, error) {
	if n == nil {
		return nil, nil
	}
	if name, ok := n.(*lang.Name); ok && name.Name == "None" {
		return nil, nil
	}
	if t, ok := n.(*lang.Tuple); ok {
		if single {
			return nil, ev.failf(n, "axis=%s: argmax and argmin take one axis or None, not a tuple", ev.text(n))
		}
		axes := []int{}
		for _, e := range t.Elems {
			a, err := ev.integer(e, "an axis")
			if err != nil {
				return nil, err
			}
			axes = append(axes, a)
		}
		return axes, nil
	}
	a, err := ev.integer(n, "an axis")
	return []int{a}, err
}

// integer evaluates n to a Python integer (a literal, or arithmetic on
// literals such as -1).
func (ev *evaluator) integer(n lang.Node, what string) (int, error) {
	v, err := ev.eval(n)
	if err != nil {
		return 0, err
	}
	return ev.integerOf(n, v, what)
}

// integerOf is integer for v, the value of n, already evaluated.
func (ev *evaluator) integerOf(n lang.Node, v value, what string) (int, error) {
	if v.py == nil || v.py.kind != pyInt {
		return 0, ev.failf(n, "%s: %s must be an integer", ev.text(n), what)
	}
	return int(v.py.i), nil
}

// flag reads keepdims=: True or False (absent is False).
func (ev *evaluator) flag(n lang.Node) (bool, error) {
	if n == nil {
		return false, nil
	}
	v, err := ev.eval(n)
	if err != nil {
		return false, err
	}
	if v.py == nil || v.py.kind == pyFloat {
		return false, ev.failf(n, "keepdims=%s: want True or False", ev.text(n))
	}
	return v.py.i != 0, nil
}
