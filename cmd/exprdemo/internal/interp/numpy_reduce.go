package interp

import (
	"math"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
)

// NumPy's other reductions: all, any, the nan functions, ptp,
// count_nonzero, average and linalg.norm, each the library's (package
// expr's numpyreduce.go), with NumPy's dtypes.

func init() {
	kw := []string{"axis", "keepdims"}
	for _, name := range []string{"all", "any"} {
		functions[name] = function{min: 1, max: 2, keywords: kw, build: numpyReduction(name, boolResult), method: true}
	}
	for _, name := range []string{"nansum", "nanprod"} {
		functions[name] = function{min: 1, max: 2, keywords: kw, build: numpyReduction(name, sumFor)}
	}
	for _, name := range []string{"nanmax", "nanmin", "ptp"} {
		functions[name] = function{min: 1, max: 2, keywords: kw, build: numpyReduction(name, sameType)}
	}
	functions["nanmean"] = function{min: 1, max: 2, keywords: kw, build: numpyReduction("nanmean", meanFor)}
	functions["nanvar"] = function{min: 1, max: 2, keywords: append(kw, "ddof"), build: numpyReduction("nanvar", meanFor)}
	functions["nanstd"] = function{min: 1, max: 2, keywords: append(kw, "ddof"), build: numpyReduction("nanstd", meanFor)}
	for _, name := range []string{"nanargmax", "nanargmin", "count_nonzero"} {
		functions[name] = function{min: 1, max: 2, keywords: kw, build: numpyReduction(name, sameType)}
	}
	functions["nancumsum"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: nanScan(ops.Sum)}
	functions["nancumprod"] = function{min: 1, max: 2, keywords: []string{"axis"}, build: nanScan(ops.Prod)}
	functions["average"] = function{min: 1, max: 2, keywords: []string{"axis", "weights", "keepdims"}, build: average}
	functions["linalg.norm"] = function{min: 1, max: 2, keywords: []string{"ord", "axis", "keepdims"}, build: norm}
}

func boolResult(DType) DType { return Bool }
func sameType(d DType) DType { return d }

// meanFor is the dtype NumPy's means and variances of d are in.
func meanFor(d DType) DType {
	if d.IsFloat() {
		return d
	}
	return Float64
}

// numpyReduction builds one of the reductions above: x in the dtype
// compute(x.dt) gives, axis= (one axis for the arg reductions), keepdims=,
// ddof= for the variances.
func numpyReduction(name string, compute func(DType) DType) builder {
	arg := name == "nanargmax" || name == "nanargmin"
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x, axes, keep, err := ev.reduceArgs(args, kw, arg)
		if err != nil {
			return value{}, err
		}
		g, err := expr.ReduceShape(name, x.s, axes, keep)
		if err != nil {
			return value{}, ev.fail(c, "", err)
		}
		opts := reduceOptions(axes, keep)
		if n := kw["ddof"]; n != nil {
			ddof, err := ev.integer(n, "ddof")
			if err != nil {
				return value{}, err
			}
			opts = append(opts, expr.DDof(ddof))
		}
		d := compute(x.dt)
		switch {
		case g.Count == 0 && (name == "nanmax" || name == "nanmin" || name == "ptp" || arg):
			return value{}, ev.failf(c, "%s: zero-size array to reduction operation %s which has no identity", ev.text(c), name)
		case name == "ptp" && x.dt == Bool:
			return value{}, ev.failf(c, "%s: ptp of a bool array subtracts bools, which NumPy refuses", ev.text(c))
		case name == "all" || name == "any":
			return value{dt: Bool, s: g.Result, node: numpyReduce(Bool, name, x.as(Bool), opts)}, nil
		case arg || name == "count_nonzero":
			return value{dt: Int64, s: g.Result, node: numpyReduce(x.dt, name, x.node, opts)}, nil
		}
		return value{dt: d, s: g.Result, node: numpyReduce(d, name, x.as(d), opts)}, nil
	}
}

// numpyReduce applies the library function of that name to x, a node of
// dtype d.
func numpyReduce(d DType, name string, x any, opts []expr.ReduceOption) any {
	switch name {
	case "nanmean", "nanvar", "nanstd":
		return floating(x, func(x expr.Exp[float64]) any { return floatReduce(name, x, opts) },
			func(x expr.Exp[float32]) any { return floatReduce(name, x, opts) })
	}
	return more(d).numpyReduce(name, x, opts)
}

func floatReduce[T float32 | float64](name string, x expr.Exp[T], opts []expr.ReduceOption) expr.Exp[T] {
	switch name {
	case "nanmean":
		return expr.NanMean(x, opts...)
	case "nanvar":
		return expr.NanVar(x, opts...)
	}
	return expr.NanStd(x, opts...)
}

func (kitOf[T]) numpyReduce(name string, x any, opts []expr.ReduceOption) any {
	e := x.(expr.Exp[T])
	switch name {
	case "all":
		return expr.All(e, opts...)
	case "any":
		return expr.Any(e, opts...)
	case "nansum":
		return expr.NanSum(e, opts...)
	case "nanprod":
		return expr.NanProd(e, opts...)
	case "nanmax":
		return expr.NanMax(e, opts...)
	case "nanmin":
		return expr.NanMin(e, opts...)
	case "ptp":
		return expr.Ptp(e, opts...)
	case "nanargmax":
		return expr.NanArgMax(e, opts...)
	case "nanargmin":
		return expr.NanArgMin(e, opts...)
	}
	return expr.CountNonzero(e, opts...)
}

// nanScan builds nancumsum and nancumprod: cumsum and cumprod of x with
// NaN as 0 (1 for the product), as NumPy defines them.
func nanScan(op expr.ReduceOp) builder {
	scan := scanCall(op)
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		if x.dt.IsFloat() {
			identity := 0.0
			if op == ops.Prod {
				identity = 1
			}
			k := kitFor(x.dt)
			x.node = k.op(ops.Where, k.op(ops.IsNaN, x.node), k.constant(identity, 0, false), x.node)
		}
		return scan(ev, c, []value{x}, kw)
	}
}

// average builds average(a, axis=None, weights=None, keepdims=False):
// float64 for integers (and for weights that promote to it), NumPy's 1-D
// weights along one axis reshaped to broadcast along it.
func average(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x, axes, keep, err := ev.reduceArgs(args, kw, false)
	if err != nil {
		return value{}, err
	}
	g, err := expr.ReduceShape("average", x.s, axes, keep)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	d := meanFor(x.dt)
	var w *value
	if n := kw["weights"]; n != nil && !isNoneNode(n) {
		wv, err := ev.eval(n)
		if err != nil {
			return value{}, err
		}
		wv = wv.strong()
		if d = meanFor(promote(x.dt, wv.dt)); len(wv.s) == 1 && len(x.s) > 1 && len(axes) == 1 {
			if wv, err = ev.alongAxis(c, wv, axes[0], x.s); err != nil {
				return value{}, err
			}
		}
		if _, err := shape.Broadcast(x.s, wv.s); err != nil || len(wv.s) > len(x.s) {
			return value{}, ev.failf(c, "%s: the weights' shape %v does not match a's %v (NumPy: same shape, or 1-D along one axis)", ev.text(c), wv.s, x.s)
		}
		w = &wv
	}
	opts := reduceOptions(axes, keep)
	node := floating(x.as(d), func(x expr.Exp[float64]) any { return expr.Average(x, weightsOf[float64](w, d), opts...) },
		func(x expr.Exp[float32]) any { return expr.Average(x, weightsOf[float32](w, d), opts...) })
	return value{dt: d, s: g.Result, node: node}, nil
}

// weightsOf is w's node in d (nil for no weights).
func weightsOf[T float32 | float64](w *value, d DType) expr.Exp[T] {
	if w == nil {
		return nil
	}
	return w.as(d).(expr.Exp[T])
}

// alongAxis reshapes the 1-D w to broadcast along axis of an array of
// shape xs: (n, 1, …, 1), with one 1 per axis after it.
func (ev *evaluator) alongAxis(c *lang.Call, w value, axis int, xs shape.Shape) (value, error) {
	a, err := shape.Axis("average", axis, len(xs))
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	if w.s[0] != xs[a] {
		return value{}, ev.failf(c, "%s: 1-D weights of length %d along axis %d of length %d", ev.text(c), w.s[0], axis, xs[a])
	}
	dims := []int{w.s[0]}
	for range len(xs) - a - 1 {
		dims = append(dims, 1)
	}
	t, err := ev.leaf(c, w)
	if err != nil {
		return value{}, err
	}
	r, s, err := kitFor(w.dt).reshape(t, w.s, dims)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return ev.viewed(c, w.dt, r, s), nil
}

// norm builds np.linalg.norm(x, ord=None, axis=None, keepdims=False) as
// NumPy's: no axis and no ord is the 2-norm of x flattened; an int axis (or
// a 1-D x) a vector norm; two axes (or a 2-D x with an ord) a matrix norm,
// 'fro' by default (ord= takes numbers: 1, -1, inf, -inf for matrices).
func norm(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x, axes, keep, err := ev.reduceArgs(args, kw, false)
	if err != nil {
		return value{}, err
	}
	ord, hasOrd := math.NaN(), false
	if n := kw["ord"]; n != nil && !isNoneNode(n) {
		v, err := ev.eval(n)
		if err != nil {
			return value{}, err
		}
		if v.py == nil {
			return value{}, ev.failf(n, "ord=%s: want a number (1, 2, inf, -inf…)", ev.text(n))
		}
		ord, hasOrd = v.py.float(), true
	}
	matrix := len(axes) == 2 || axes == nil && hasOrd && len(x.s) == 2
	switch {
	case len(axes) > 2 || axes == nil && hasOrd && len(x.s) > 2:
		return value{}, ev.failf(c, "%s: norm takes one axis (a vector norm) or two (a matrix norm)", ev.text(c))
	case matrix && hasOrd && ord != 1 && ord != -1 && !math.IsInf(ord, 0):
		return value{}, ev.failf(c, "%s: the matrix norm ord=%v needs singular values, which laze does not compute (ord 1, -1, inf, -inf and the default 'fro' work)", ev.text(c), ord)
	case !hasOrd:
		ord = 2
	}
	if matrix && axes == nil {
		axes = []int{0, 1}
	}
	g, err := expr.ReduceShape("norm", x.s, axes, keep)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	d := meanFor(x.dt)
	opts := reduceOptions(axes, keep)
	build := func(isMatrix bool) func(e any) any {
		return func(e any) any {
			return floating(e, func(e expr.Exp[float64]) any { return normOf(e, isMatrix, hasOrd, ord, opts) },
				func(e expr.Exp[float32]) any { return normOf(e, isMatrix, hasOrd, ord, opts) })
		}
	}
	return value{dt: d, s: g.Result, node: build(matrix)(x.as(d))}, nil
}

func normOf[T float32 | float64](x expr.Exp[T], matrix, hasOrd bool, ord float64, opts []expr.ReduceOption) expr.Exp[T] {
	switch {
	case matrix && !hasOrd:
		return expr.FrobeniusNorm(x, opts...)
	case matrix:
		return expr.MatrixNorm(x, ord, opts...)
	}
	return expr.VectorNorm(x, ord, opts...)
}
