package interp

import (
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
)

// This file holds NumPy's contractions: matmul (the @ operator as a
// function), dot, vdot, inner, tensordot(a, b, axes=2 | axes=([…], […]))
// and einsum('subscripts', a, b, …), built on the library's Dot, Inner,
// Tensordot and Einsum (expr/contract.go, expr/einsum.go). Python numbers
// become 0-d arrays of their own dtype (np.asarray), the arrays' dtypes
// promote, and bools are computed in int64 and compared with 0, as the @
// operator does. Its init runs after funcs.go's, which makes the map
// (hence the file name: init functions run in file-name order).
func init() {
	functions["matmul"] = function{min: 2, max: 2, build: contractCall("matmul")}
	functions["dot"] = function{min: 2, max: 2, build: contractCall("dot"), method: true}
	functions["vdot"] = function{min: 2, max: 2, build: contractCall("vdot")}
	functions["inner"] = function{min: 2, max: 2, build: contractCall("inner")}
	functions["tensordot"] = function{min: 2, max: 3, keywords: []string{"axes"}, params: []string{"b", "axes"}, build: tensordotCall}
	// tupleArg: the arguments are read by einsumCall itself, the first
	// being the subscripts, a string, which is no value.
	functions["einsum"] = function{min: 1, max: -1, build: einsumCall, tupleArg: true}
}

// contractKit is what this file needs of a kit; every kitOf[T] has it.
type contractKit interface {
	contract(name string, xs []any, subscripts string, axesA, axesB []int, n int) any
}

func (kitOf[T]) contract(name string, xs []any, subscripts string, axesA, axesB []int, n int) any {
	ops := make([]expr.Exp[T], len(xs))
	for i, x := range xs {
		ops[i] = x.(expr.Exp[T])
	}
	switch name {
	case "matmul":
		return expr.MatMul(ops[0], ops[1])
	case "dot":
		return expr.Dot(ops[0], ops[1])
	case "vdot":
		return expr.Dot(expr.Ravel(ops[0]), expr.Ravel(ops[1]))
	case "inner":
		return expr.Inner(ops[0], ops[1])
	case "tensordot":
		if axesA == nil {
			return expr.TensordotN(ops[0], ops[1], n)
		}
		return expr.Tensordot(ops[0], ops[1], axesA, axesB)
	}
	return expr.Einsum(subscripts, ops...)
}

// contraction builds contraction name of args (see contractKit) in their
// promoted dtype, checked: a laze error (shapes that do not contract) is
// an error at call c.
func (ev *evaluator) contraction(c *lang.Call, name string, args []value, subscripts string, axesA, axesB []int, n int) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	for i := range args {
		args[i] = args[i].strong()
	}
	d, err := resultType(args...)
	if err != nil {
		return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
	}
	compute := d
	if d == Bool {
		compute = Int64
	}
	xs := make([]any, len(args))
	for i, a := range args {
		xs[i] = a.as(compute)
	}
	node := kitFor(compute).(contractKit).contract(name, xs, subscripts, axesA, axesB, n)
	s, err := more(compute).check(node)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	v := value{dt: compute, s: s, node: node}
	if d == Bool {
		return value{dt: Bool, s: s, node: v.as(Bool)}, nil
	}
	return v, nil
}

// contractCall builds matmul(a, b), dot(a, b) (a.dot(b)), vdot(a, b)
// (the flattened arrays' inner product) and inner(a, b).
func contractCall(name string) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if name == "matmul" {
			for _, a := range args {
				if a.py != nil {
					return value{}, ev.failf(c, "%s: matmul needs arrays of at least one dimension, not numbers (use * to scale)", ev.text(c))
				}
			}
		}
		return ev.contraction(c, name, args, "", nil, nil, 0)
	}
}

// tensordotCall is tensordot(a, b, axes=2): axes an integer (the last
// axes of a against the first of b), or a pair of axis lists (or of
// single axes), ([1, 2], [0, 1]).
func tensordotCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	bn := kw["b"]
	if bn == nil {
		return value{}, ev.failf(c, "%s: tensordot needs two arrays", ev.text(c))
	}
	b, err := ev.evalArg(bn)
	if err != nil {
		return value{}, err
	}
	args = append(args, b)
	n, an := 2, kw["axes"]
	if an == nil {
		return ev.contraction(c, "tensordot", args, "", nil, nil, n)
	}
	if t, ok := an.(*lang.Tuple); ok {
		if len(t.Elems) != 2 {
			return value{}, ev.failf(an, "%s: axes must be an integer or a pair of axis lists, not %d items", ev.text(an), len(t.Elems))
		}
		axesA, err := ev.axisList(t.Elems[0])
		if err != nil {
			return value{}, err
		}
		axesB, err := ev.axisList(t.Elems[1])
		if err != nil {
			return value{}, err
		}
		return ev.contraction(c, "tensordot", args, "", axesA, axesB, 0)
	}
	if n, err = ev.integer(an, "axes"); err != nil {
		return value{}, err
	}
	return ev.contraction(c, "tensordot", args, "", nil, nil, n)
}

// axisList reads an axis or a list (tuple) of them.
func (ev *evaluator) axisList(n lang.Node) ([]int, error) {
	if t, ok := n.(*lang.Tuple); ok {
		out := []int{}
		for _, e := range t.Elems {
			a, err := ev.integer(e, "an axis")
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	}
	a, err := ev.integer(n, "an axis")
	return []int{a}, err
}

// einsumCall is einsum('subscripts', a, b, …).
func einsumCall(ev *evaluator, c *lang.Call, _ []value, _ map[string]lang.Node) (value, error) {
	s, ok := c.Args[0].(*lang.Str)
	if !ok {
		return value{}, ev.failf(c.Args[0], "%s: einsum's first argument is the subscripts, a string such as 'ij,jk->ik'", ev.text(c.Args[0]))
	}
	if len(c.Args) < 2 {
		return value{}, ev.failf(c, "%s: einsum needs at least one array after the subscripts", ev.text(c))
	}
	args := make([]value, len(c.Args)-1)
	for i, n := range c.Args[1:] {
		v, err := ev.evalArg(n)
		if err != nil {
			return value{}, err
		}
		args[i] = v
	}
	return ev.contraction(c, "einsum", args, s.Value, nil, nil, 0)
}
