package interp

import (
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
)

// This file holds the composite, scan and joining functions (var, std,
// softmax, log_softmax, logsumexp, cumsum, cumprod, concatenate, stack) and
// boolean-mask indexing. Its init runs after funcs.go's, which makes the
// map.
func init() {
	reduceKw := []string{"axis", "keepdims"}
	functions["var"] = function{min: 1, max: 2, keywords: []string{"axis", "keepdims", "ddof"}, build: varianceCall(false), method: true}
	functions["std"] = function{min: 1, max: 2, keywords: []string{"axis", "keepdims", "ddof"}, build: varianceCall(true), method: true}
	functions["logsumexp"] = function{min: 1, max: 2, keywords: reduceKw, build: logSumExpCall}
	functions["softmax"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: softmaxCall(false)}
	functions["log_softmax"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: softmaxCall(true)}
	functions["cumsum"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: scanCall(ops.Sum), method: true}
	functions["cumprod"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: scanCall(ops.Prod), method: true}
	functions["concatenate"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: joinCall(false), tupleArg: true}
	functions["stack"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: joinCall(true), tupleArg: true}
}

// moreKit is what this file's functions need of a kit beyond kit's methods;
// every kitOf[T] has it.
type moreKit interface {
	scan(op expr.ReduceOp, x any, axis int) any
	join(axis int, stack bool, xs []any) any
	check(x any) (shape.Shape, error)
	maskSelect(t, mask any) (any, error)
	numpyReduce(name string, x any, opts []expr.ReduceOption) any
}

func more(d DType) moreKit { return kitFor(d).(moreKit) }

func (kitOf[T]) scan(op expr.ReduceOp, x any, axis int) any {
	return &expr.Scan[T]{Op: op, X: x.(expr.Exp[T]), Axis: axis}
}

func (kitOf[T]) join(axis int, stack bool, xs []any) any {
	parts := make([]expr.Exp[T], len(xs))
	for i, x := range xs {
		parts[i] = x.(expr.Exp[T])
	}
	if stack {
		return expr.Stack(axis, parts...)
	}
	return expr.Concatenate(axis, parts...)
}

func (kitOf[T]) check(x any) (shape.Shape, error) {
	info, err := expr.Check(x.(expr.Exp[T]))
	return info.Shape, err
}

// maskSelect is x[mask] for x (a tensor or node of T) and mask (of bools,
// as uint8); MaskedSelect evaluates either when it is a node.
func (kitOf[T]) maskSelect(x, mask any) (any, error) {
	return kernels.MaskedSelect[T, uint8](x.(expr.Exp[T]), mask.(expr.Exp[uint8]))
}

// floating applies f64 or f32 to x, a float64 or float32 node.
func floating(x any, f64 func(expr.Exp[float64]) any, f32 func(expr.Exp[float32]) any) any {
	if x, ok := x.(expr.Exp[float32]); ok {
		return f32(x)
	}
	return f64(x.(expr.Exp[float64]))
}

// reduceOptions turns axis= and keepdims= into the library's options.
func reduceOptions(axes []int, keep bool) []expr.ReduceOption {
	var opts []expr.ReduceOption
	if axes != nil {
		opts = append(opts, expr.Axis(axes...))
	}
	if keep {
		opts = append(opts, expr.KeepDims())
	}
	return opts
}

// varianceCall builds var and std (NumPy's, with ddof=): float64 for
// integers and bools, the input's type for floats; over no elements NaN, as
// NumPy (laze's Var refuses it, so that case is 0/0).
func varianceCall(std bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x, axes, keep, err := ev.reduceArgs(args, kw, false)
		if err != nil {
			return value{}, err
		}
		ddof := 0
		if n := kw["ddof"]; n != nil {
			if ddof, err = ev.integer(n, "ddof"); err != nil {
				return value{}, err
			}
		}
		g, err := expr.ReduceShape(c.Func, x.s, axes, keep)
		if err != nil {
			return value{}, ev.fail(c, "", err)
		}
		d := x.dt
		if !d.IsFloat() {
			d = Float64
		}
		k := kitFor(d)
		if g.Count == 0 {
			sum := k.reduce(ops.Sum, x.as(d), axes, keep)
			return value{dt: d, s: g.Result, node: k.op(ops.Div, sum, k.constant(0, 0, true))}, nil
		}
		opts := append(reduceOptions(axes, keep), expr.DDof(ddof))
		node := floating(x.as(d),
			func(x expr.Exp[float64]) any {
				if std {
					return expr.Std(x, opts...)
				}
				return expr.Var(x, opts...)
			},
			func(x expr.Exp[float32]) any {
				if std {
					return expr.Std(x, opts...)
				}
				return expr.Var(x, opts...)
			})
		return value{dt: d, s: g.Result, node: node}, nil
	}
}

// logSumExpCall builds scipy's logsumexp(x, axis=None, keepdims=False),
// computed in floatFor(dtype) as exp is.
func logSumExpCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x, axes, keep, err := ev.reduceArgs(args, kw, false)
	if err != nil {
		return value{}, err
	}
	d := floatFor(x.dt)
	opts := reduceOptions(axes, keep)
	node := floating(x.as(d),
		func(x expr.Exp[float64]) any { return expr.LogSumExp(x, opts...) },
		func(x expr.Exp[float32]) any { return expr.LogSumExp(x, opts...) })
	s, err := more(d).check(node)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return value{dt: d, s: s, node: node}, nil
}

// softmaxCall builds scipy's softmax and log_softmax along one axis, in
// floatFor(dtype). scipy's axis=None (every element as one line) is not
// supported: the axis is required.
func softmaxCall(logarithm bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		n := kw["axis"]
		if name, ok := n.(*lang.Name); n == nil || ok && name.Name == "None" {
			return value{}, ev.failf(c, "%s: %s needs axis= (an integer); the softmax of every element at once (axis=None) is not supported", ev.text(c), c.Func)
		}
		axis, err := ev.integer(n, "an axis")
		if err != nil {
			return value{}, err
		}
		d := floatFor(x.dt)
		node := floating(x.as(d),
			func(x expr.Exp[float64]) any {
				if logarithm {
					return expr.LogSoftmax(x, axis)
				}
				return expr.Softmax(x, axis)
			},
			func(x expr.Exp[float32]) any {
				if logarithm {
					return expr.LogSoftmax(x, axis)
				}
				return expr.Softmax(x, axis)
			})
		s, err := more(d).check(node)
		if err != nil {
			return value{}, ev.fail(c, "", err)
		}
		return value{dt: d, s: s, node: node}, nil
	}
}

// scanCall builds cumsum and cumprod with NumPy's dtypes (sumFor: narrow
// integers and bools widen to 64 bits). Without axis (or axis=None) NumPy
// scans x flattened: x is computed first and viewed as 1-D.
func scanCall(op expr.ReduceOp) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		d := sumFor(x.dt)
		v := value{dt: d, s: x.s, node: x.as(d)}
		axis := 0
		if n := kw["axis"]; n != nil && !isNoneNode(n) {
			a, err := ev.integer(n, "an axis")
			if err != nil {
				return value{}, err
			}
			if _, err := shape.Axis(c.Func, a, len(x.s)); err != nil {
				return value{}, ev.fail(c, "", err)
			}
			axis = a
		} else {
			t, err := ev.leaf(c, v)
			if err != nil {
				return value{}, err
			}
			flat, s, err := kitFor(d).reshape(t, v.s, []int{-1})
			if err != nil {
				return value{}, ev.fail(c, "", err)
			}
			v = ev.viewed(c, d, flat, s)
		}
		return value{dt: d, s: v.s, node: more(d).scan(op, v.node, axis)}, nil
	}
}

func isNoneNode(n lang.Node) bool {
	name, ok := n.(*lang.Name)
	return ok && name.Name == "None"
}

// joinCall builds concatenate((xs…), axis=0) and stack((xs…), axis=0) in
// the parts' promoted dtype.
func joinCall(stack bool) builder {
	return func(ev *evaluator, c *lang.Call, _ []value, kw map[string]lang.Node) (value, error) {
		tuple, ok := kw[""].(*lang.Tuple)
		if !ok {
			return value{}, ev.failf(kw[""], "%s: %s takes a tuple of arrays first: %s((a, b), axis=0)", ev.text(c), c.Func, c.Func)
		}
		axis := 0
		if n := kw["axis"]; n != nil {
			if isNoneNode(n) {
				return value{}, ev.failf(n, "%s: axis=None (joining the arrays flattened) is not supported", ev.text(c))
			}
			a, err := ev.integer(n, "an axis")
			if err != nil {
				return value{}, err
			}
			axis = a
		}
		parts := make([]value, len(tuple.Elems))
		for i, e := range tuple.Elems {
			v, err := ev.evalArg(e)
			if err != nil {
				return value{}, err
			}
			if isNone(v) {
				return value{}, ev.failf(e, "%s: part %d of %s cannot be None", ev.text(c), i, c.Func)
			}
			parts[i] = v.strong()
		}
		d, err := resultType(parts...)
		if err != nil {
			return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
		}
		nodes := make([]any, len(parts))
		for i, p := range parts {
			nodes[i] = p.as(d)
		}
		node := more(d).join(axis, stack, nodes)
		s, err := more(d).check(node)
		if err != nil {
			return value{}, ev.fail(c, "", err)
		}
		return value{dt: d, s: s, node: node}, nil
	}
}

// maskIndex is x[mask] for a boolean array mask of x's shape: the
// selected elements in row-major order, computed now (the result's length
// depends on the values). Any other array index is refused.
func (ev *evaluator) maskIndex(n *lang.Index, x, mask value) (value, error) {
	item := n.Items[0]
	if mask.dt != Bool {
		return value{}, &Error{Pos: item.Pos, End: item.End, Msg: ev.text(n) + ": only integers, slices (:), ellipsis (...), None and boolean arrays are valid indices; an index array of dtype " +
			mask.dt.String() + " (integer array indexing) is not supported"}
	}
	t, err := ev.leaf(n.X, x)
	if err != nil {
		return value{}, err
	}
	m, err := ev.leaf(item.Start, mask)
	if err != nil {
		return value{}, err
	}
	r, err := more(x.dt).maskSelect(t, m)
	if err != nil {
		return value{}, ev.fail(n, "", err)
	}
	ev.eager = append(ev.eager, eagerNode{at: n, of: x.node})
	return ev.viewed(n, x.dt, r, kitFor(x.dt).shapeOf(r)), nil
}
