package interp

import (
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
)

// NumPy's ufuncs of two results return a tuple; the CLI evaluates one
// array, so it takes one of the two by a subscript: modf(x)[0] is the
// fractional part, divmod(x, y)[1] the remainder. The library builds both
// (expr.Modf, expr.Frexp, expr.DivMod).

// pairFunction builds both results of a two-result function.
type pairFunction struct {
	arity int
	build func(ev *evaluator, c *lang.Call, args []value) ([2]value, error)
}

var pairFunctions = map[string]pairFunction{
	"modf":   {1, modfPair},
	"frexp":  {1, frexpPair},
	"divmod": {2, divmodPair},
}

func init() {
	for name, f := range pairFunctions {
		functions[name] = function{min: f.arity, max: f.arity, build: unsubscriptedPair}
	}
}

// unsubscriptedPair is a two-result function called without a subscript.
func unsubscriptedPair(ev *evaluator, c *lang.Call, _ []value, _ map[string]lang.Node) (value, error) {
	return value{}, ev.failf(c, "%s: %s returns two arrays (a tuple); take one with %s[0] or %s[1]", ev.text(c), c.Func, ev.text(c), ev.text(c))
}

// pairIndex evaluates f(…)[k] for a two-result function f; ok is false
// when n is no such subscript.
func (ev *evaluator) pairIndex(n *lang.Index) (v value, ok bool, err error) {
	c, isCall := n.X.(*lang.Call)
	if !isCall || c.Recv != nil || len(n.Items) != 1 || n.Items[0].Kind != lang.ItemIndex {
		return value{}, false, nil
	}
	f, isPair := pairFunctions[c.Func]
	if !isPair {
		return value{}, false, nil
	}
	if len(c.Args) != f.arity || len(c.Keywords) > 0 {
		return value{}, true, ev.failf(c, "%s: %s takes %d positional argument(s)", ev.text(c), c.Func, f.arity)
	}
	k, err := ev.integer(n.Items[0].Start, "an index")
	if err != nil {
		return value{}, true, err
	}
	if k < -2 || k > 1 {
		return value{}, true, ev.failf(n, "%s: index %d is out of range for the 2 results of %s", ev.text(n), k, c.Func)
	}
	args := make([]value, len(c.Args))
	for i, a := range c.Args {
		if args[i], err = ev.eval(a); err != nil {
			return value{}, true, err
		}
	}
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, true, err
	}
	both, err := f.build(ev, c, args)
	return both[(k+2)%2], true, err
}

// modfPair is modf: in floatFor of x's dtype, as NumPy's float loops.
func modfPair(ev *evaluator, c *lang.Call, args []value) ([2]value, error) {
	x := args[0].strong()
	d := floatFor(x.dt)
	var frac, whole any
	if d == Float32 {
		frac, whole = expr.Modf(x.as(d).(expr.Exp[float32]))
	} else {
		frac, whole = expr.Modf(x.as(d).(expr.Exp[float64]))
	}
	return [2]value{{dt: d, s: x.s, node: frac}, {dt: d, s: x.s, node: whole}}, nil
}

// frexpPair is frexp: the mantissa in floatFor of x's dtype, the exponent
// int32.
func frexpPair(ev *evaluator, c *lang.Call, args []value) ([2]value, error) {
	x := args[0].strong()
	d := floatFor(x.dt)
	var mantissa, exponent any
	if d == Float32 {
		mantissa, exponent = expr.Frexp(x.as(d).(expr.Exp[float32]))
	} else {
		mantissa, exponent = expr.Frexp(x.as(d).(expr.Exp[float64]))
	}
	return [2]value{{dt: d, s: x.s, node: mantissa}, {dt: Int32, s: x.s, node: exponent}}, nil
}

// divmodPair is divmod: x // y and x % y with the operators' dtype rules
// (two Python numbers fold as Python's divmod).
func divmodPair(ev *evaluator, c *lang.Call, args []value) ([2]value, error) {
	var both [2]value
	for i, op := range []string{"//", "%"} {
		v, err := ev.arith(c, binaryOps[op], args[0], args[1])
		if err != nil {
			return both, err
		}
		both[i] = v
	}
	return both, nil
}
