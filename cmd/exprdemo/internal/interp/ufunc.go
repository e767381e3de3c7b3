package interp

import (
	"slices"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
)

// NumPy's ufunc methods on the binary functions of the op table:
// np.subtract.reduce(x, axis=0, keepdims=False), np.add.accumulate(x,
// axis=0), np.less.outer(x, y). Each is built from the function itself (so
// its dtype rules hold), as the library's UfuncReduce, UfuncAccumulate and
// UfuncOuter are: the ops that are a reduction's fold go to that reduction
// (sum, prod, max, min, all, any, nanmax, nanmin; cumsum, cumprod), any
// other folds left to right along one axis.

// ufuncOps maps the CLI names of the binary ops to them.
var ufuncOps = map[string]ops.Op{}

// reductionOf names the reduction a binary op's reduce is, and scanOf its
// accumulate.
var (
	reductionOf = map[ops.Op]string{ops.Add: "sum", ops.Mul: "prod", ops.Maximum: "max", ops.Minimum: "min",
		ops.LogicalAnd: "all", ops.LogicalOr: "any", ops.Fmax: "nanmax", ops.Fmin: "nanmin"}
	scanOf = map[ops.Op]string{ops.Add: "cumsum", ops.Mul: "cumprod"}
)

func init() {
	for _, op := range ops.All() {
		if op.Arity() == 2 {
			for _, name := range CLINames(op) {
				ufuncOps[name] = op
			}
		}
	}
}

// ufuncMethod evaluates c when it is a ufunc method call (np.add.reduce(…));
// ok is false otherwise.
func (ev *evaluator) ufuncMethod(c *lang.Call) (v value, ok bool, err error) {
	recv, isName := c.Recv.(*lang.Name)
	if !isName || c.Func != "reduce" && c.Func != "accumulate" && c.Func != "outer" {
		return value{}, false, nil
	}
	op, isUfunc := ufuncOps[recv.Name]
	if !isUfunc {
		return value{}, false, nil
	}
	kw := map[string]lang.Node{}
	for _, k := range c.Keywords {
		kw[k.Name] = k.Value
	}
	want, keywords := 1, []string{"axis", "keepdims"}
	switch c.Func {
	case "outer":
		want, keywords = 2, nil
	case "accumulate":
		keywords = []string{"axis"}
	}
	if len(c.Args) != want {
		return value{}, true, ev.failf(c, "%s: %s.%s takes %d array(s)", ev.text(c), recv.Name, c.Func, want)
	}
	for name := range kw {
		if !slices.Contains(keywords, name) {
			return value{}, true, ev.failf(c, "%s: %s.%s has no keyword argument %q", ev.text(c), recv.Name, c.Func, name)
		}
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
	build := functions[recv.Name].build
	switch c.Func {
	case "outer":
		v, err = ev.outer(c, build, args[0], args[1])
	case "accumulate":
		v, err = ev.accumulate(c, op, recv.Name, build, args[0], kw)
	default:
		v, err = ev.ufuncReduce(c, op, recv.Name, build, args[0], kw)
	}
	return v, true, err
}

// axisZero is NumPy's default axis of reduce and accumulate.
var axisZero = &lang.Num{Text: "0", IsInt: true}

// ufuncReduce is op.reduce(x, axis=0, keepdims=False).
func (ev *evaluator) ufuncReduce(c *lang.Call, op ops.Op, name string, build builder, x value, kw map[string]lang.Node) (value, error) {
	if kw["axis"] == nil {
		kw["axis"] = axisZero
	}
	if r, ok := reductionOf[op]; ok {
		return functions[r].build(ev, c, []value{x}, kw)
	}
	if t, ok := kw["axis"].(*lang.Tuple); ok && len(t.Elems) != 1 || isNoneNode(kw["axis"]) {
		return value{}, ev.failf(c, "%s: reduction operation %q is not reorderable, so at most one axis may be specified", ev.text(c), name)
	}
	axes, err := ev.axes(kw["axis"], false)
	if err != nil {
		return value{}, err
	}
	keep, err := ev.flag(kw["keepdims"])
	if err != nil {
		return value{}, err
	}
	x = x.strong()
	a, err := shape.Axis(name+".reduce", axes[0], len(x.s))
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	if x.s[a] == 0 {
		return value{}, ev.failf(c, "%s: zero-size array to reduction operation %s which has no identity", ev.text(c), name)
	}
	acc, err := ev.along(c, x, a, 0)
	for i := 1; i < x.s[a] && err == nil; i++ {
		var xi value
		if xi, err = ev.along(c, x, a, i); err == nil {
			acc, err = build(ev, c, []value{acc, xi}, nil)
		}
	}
	if err != nil || !keep {
		return acc, err
	}
	k := kitFor(acc.dt)
	r, s := k.unsqueeze(acc.node, acc.s, a)
	return value{dt: acc.dt, s: s, node: r}, nil
}

// accumulate is op.accumulate(x, axis=0).
func (ev *evaluator) accumulate(c *lang.Call, op ops.Op, name string, build builder, x value, kw map[string]lang.Node) (value, error) {
	if kw["axis"] == nil {
		kw["axis"] = axisZero
	}
	if s, ok := scanOf[op]; ok {
		return functions[s].build(ev, c, []value{x}, kw)
	}
	axis, err := ev.integer(kw["axis"], "an axis")
	if err != nil {
		return value{}, err
	}
	x = x.strong()
	a, err := shape.Axis(name+".accumulate", axis, len(x.s))
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	if x.s[a] == 0 {
		return x, nil
	}
	first, err := ev.along(c, x, a, 0)
	if err != nil {
		return value{}, err
	}
	parts := []value{first}
	for i := 1; i < x.s[a]; i++ {
		xi, err := ev.along(c, x, a, i)
		if err != nil {
			return value{}, err
		}
		next, err := build(ev, c, []value{parts[i-1], xi}, nil)
		if err != nil {
			return value{}, err
		}
		parts = append(parts, next)
	}
	d := parts[len(parts)-1].dt // the running values' dtype: the first part converts to it
	nodes := make([]any, len(parts))
	for i, p := range parts {
		nodes[i] = p.as(d)
	}
	s := append(append(shape.Shape{}, x.s[:a]...), append(shape.Shape{x.s[a]}, x.s[a+1:]...)...)
	return value{dt: d, s: s, node: more(d).join(a, true, nodes)}, nil
}

// outer is op.outer(x, y): x with y's rank of trailing axes of size 1,
// then the function.
func (ev *evaluator) outer(c *lang.Call, build builder, x, y value) (value, error) {
	x, y = x.strong(), y.strong()
	k := kitFor(x.dt)
	for range y.s {
		x.node, x.s = k.unsqueeze(x.node, x.s, len(x.s))
	}
	return build(ev, c, []value{x, y}, nil)
}

// along is x[…, i, …], index i of axis a, as a view node.
func (ev *evaluator) along(c *lang.Call, x value, a, i int) (value, error) {
	r, s := kitFor(x.dt).index(x.node, x.s, a, i)
	return value{dt: x.dt, s: s, node: r}, nil
}

// astype evaluates x.astype(dtype) when c is that call: the dtype a name,
// NumPy's (np.float32, float32, np.int8…) or Python's (float, int, bool);
// ok is false for any other call.
func (ev *evaluator) astype(c *lang.Call) (v value, ok bool, err error) {
	if c.Recv == nil || c.Func != "astype" {
		return value{}, false, nil
	}
	if len(c.Args) != 1 || len(c.Keywords) > 0 {
		return value{}, true, ev.failf(c, "%s: astype takes one dtype, x.astype(np.float32)", ev.text(c))
	}
	name, isName := c.Args[0].(*lang.Name)
	var d DType
	if isName {
		d, isName = map[string]DType{"float": Float64, "int": Int64, "bool": Bool}[name.Name]
		if !isName {
			d, isName = ParseDType(name.Name)
		}
	}
	if !isName {
		return value{}, true, ev.failf(c.Args[0], "%s: astype takes a dtype name (%s, or float, int, bool)", ev.text(c), strings.Join(DTypeNames(), " "))
	}
	x, err := ev.eval(c.Recv)
	if err != nil {
		return value{}, true, err
	}
	v, err = cast(d)(ev, c, []value{x.strong()}, nil)
	return v, true, err
}
