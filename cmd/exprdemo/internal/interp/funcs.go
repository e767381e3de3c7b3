package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// function is one callable name: how many positional arguments it takes,
// which keywords, and how it builds its node.
type function struct {
	min, max int
	keywords []string
	build    func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error)
	method   bool // also callable as x.name(…)
	tupleArg bool // the first argument is a tuple of arrays, which build evaluates (kw[""]): concatenate, stack
	// methodOnly: callable as x.name(…) only, as ndarray.flatten, which
	// NumPy has no function of.
	methodOnly bool
	// params names the positional arguments after the array, in order: each
	// given by position is passed to build as that keyword, unevaluated
	// (an axis, a tuple of axes, a shape), as diagonal(x, 1, axis2=0).
	params []string
	// noArray: every positional argument is one of params (passed to
	// build unevaluated, args nil), as np.arange(0, 5) and np.eye(3),
	// which take no array.
	noArray bool
}

// functions is filled in init, as its entries refer to the evaluator.
var functions map[string]function

func init() {
	functions = map[string]function{}
	for _, op := range ops.All() {
		for _, name := range CLINames(op) {
			functions[name] = function{min: op.Arity(), max: op.Arity(), build: tableBuilder(name, op), method: op == ops.Clamp}
		}
	}
	for _, r := range []expr.ReduceOp{ops.Sum, ops.Mean, ops.Prod, ops.Max, ops.Min, ops.ArgMax, ops.ArgMin} {
		functions[r.String()] = function{min: 1, max: 2, keywords: []string{"axis", "keepdims"}, build: reduction(r), method: true}
	}
	functions["transpose"] = function{min: 1, max: -1, build: transposeCall, method: true}
	functions["reshape"] = function{min: 2, max: -1, build: reshapeCall, method: true}
	for _, d := range []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64} {
		functions[d.String()] = function{min: 1, max: 1, build: cast(d)}
	}
}

// call evaluates a function or method call.
func (ev *evaluator) call(c *lang.Call) (value, error) {
	if name, ok := c.Recv.(*lang.Name); ok && name.NumPy && name.Name == "linalg" {
		plain := *c // np.linalg.norm(x): the function linalg.norm
		plain.Recv, plain.Func = nil, "linalg."+c.Func
		c = &plain
	}
	if v, ok, err := ev.ufuncMethod(c); ok {
		return v, err
	}
	if v, ok, err := ev.astype(c); ok {
		return v, err
	}
	f, ok := functions[c.Func]
	if !ok || c.Recv != nil && !f.method && !f.methodOnly || c.Recv == nil && f.methodOnly {
		return value{}, ev.unknownFunction(c)
	}
	nodes := c.Args
	if c.Recv != nil {
		nodes = append([]lang.Node{c.Recv}, nodes...)
	}
	if len(nodes) < f.min || f.max >= 0 && len(nodes) > f.max {
		return value{}, ev.failf(c, "%s: %s takes %s, not %d", ev.text(c), c.Func, arity(f), len(nodes))
	}
	kw := map[string]lang.Node{}
	for _, k := range c.Keywords {
		if !slices.Contains(f.keywords, k.Name) {
			return value{}, ev.failf(k, "%s: %s has no keyword argument %q", ev.text(c), c.Func, k.Name)
		}
		if _, dup := kw[k.Name]; dup {
			return value{}, ev.failf(k, "%s: keyword argument %q given twice", ev.text(c), k.Name)
		}
		kw[k.Name] = k.Value
	}
	if f.noArray { // arange(0, 5, 2): every argument by name
		for i, n := range nodes {
			if _, dup := kw[f.params[i]]; dup {
				return value{}, ev.failf(c, "%s: %s given twice", ev.text(c), f.params[i])
			}
			kw[f.params[i]] = n
		}
		return f.build(ev, c, nil, kw)
	}
	if f.params != nil { // squeeze(x, 0): the axis given by position
		for i, n := range nodes[1:] {
			name := f.params[i]
			if _, dup := kw[name]; dup {
				return value{}, ev.failf(c, "%s: %s given twice", ev.text(c), name)
			}
			kw[name] = n
		}
		nodes = nodes[:1]
	}
	if c.Func == "transpose" || c.Func == "reshape" {
		x, err := ev.eval(nodes[0])
		if err != nil {
			return value{}, err
		}
		return f.build(ev, c, []value{x}, map[string]lang.Node{"": &lang.Tuple{Elems: nodes[1:]}})
	}
	if len(nodes) == 2 && f.keywords != nil { // sum(x, 0): the axis given by position
		if _, dup := kw["axis"]; dup {
			return value{}, ev.failf(c, "%s: axis given twice", ev.text(c))
		}
		kw["axis"], nodes = nodes[1], nodes[:1]
	}
	if f.tupleArg {
		kw[""] = nodes[0]
		return f.build(ev, c, nil, kw)
	}
	args := make([]value, len(nodes))
	for i, n := range nodes {
		v, err := ev.evalArg(n)
		if err != nil {
			return value{}, err
		}
		args[i] = v
	}
	return f.build(ev, c, args, kw)
}

// evalArg evaluates an argument; None stands for a missing bound (clip).
func (ev *evaluator) evalArg(n lang.Node) (value, error) {
	if name, ok := n.(*lang.Name); ok && name.Name == "None" {
		if _, shadowed := ev.inputs["None"]; !shadowed {
			return value{dt: tensor.Invalid}, nil // None: no dtype
		}
	}
	return ev.eval(n)
}

func isNone(v value) bool { return v.dt == tensor.Invalid }

func arity(f function) string {
	switch {
	case f.max < 0:
		return fmt.Sprintf("at least %d arguments", f.min)
	case f.min == f.max && f.min == 1:
		return "1 argument"
	case f.min == f.max:
		return fmt.Sprintf("%d arguments", f.min)
	}
	return fmt.Sprintf("%d to %d arguments", f.min, f.max)
}

func (ev *evaluator) unknownFunction(c *lang.Call) error {
	var names []string
	for name, f := range functions {
		if c.Recv == nil && !f.methodOnly || c.Recv != nil && (f.method || f.methodOnly) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	kind := "function"
	if c.Recv != nil {
		kind = "method"
	}
	// The name as written: np.linalg.NAME is called as "linalg.NAME",
	// whose FuncPos is NAME's.
	written := strings.TrimPrefix(c.Func, "linalg.")
	return &Error{Pos: c.FuncPos, End: c.FuncPos + len(written),
		Msg: fmt.Sprintf("unknown %s %q (known: %v)", kind, c.Func, names)}
}

// noneArgs refuses None where a value is needed.
func noneArgs(ev *evaluator, c *lang.Call, args []value) error {
	for i, a := range args {
		if isNone(a) {
			return ev.failf(c, "%s: argument %d of %s cannot be None", ev.text(c), i+1, c.Func)
		}
	}
	return nil
}

// elementwise builds a binary op computed in the arguments' result type.
func elementwise(op ops.Op) func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		d, err := resultType(args...)
		if err != nil {
			return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
		}
		return ev.apply(c, op, d, d, args...)
	}
}

// keepType builds a unary op that keeps its argument's dtype (abs, relu);
// on bools both are the identity.
func keepType(op ops.Op) func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		if x.dt == Bool {
			return x, nil
		}
		return ev.apply(c, op, x.dt, x.dt, x)
	}
}

// floatFunction builds exp, log, sqrt, arctan2…: the arguments promoted
// together (one argument: as a strong value), computed in floatFor of that.
func floatFunction(op ops.Op) func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		if len(args) == 1 {
			x := args[0].strong()
			d := floatFor(x.dt)
			return ev.apply(c, op, d, d, x)
		}
		d, err := resultType(args...) // arctan2(int8, float32) as NumPy promotes, then in a float dtype
		if err != nil {
			return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
		}
		d = floatFor(d)
		return ev.apply(c, op, d, d, args...)
	}
}

// where(cond, x, y): cond as bool, x and y promoted together.
func where(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	d, err := resultType(args[1], args[2])
	if err != nil {
		return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
	}
	cond := value{dt: Bool, s: args[0].s, node: args[0].as(Bool)} // bool(cond), then 0 or 1 in d
	return ev.apply(c, ops.Where, d, d, cond, args[1], args[2])
}

// clip(x, lo, hi), either bound None.
func clip(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	x, lo, hi := args[0], args[1], args[2]
	if isNone(x) {
		return value{}, ev.failf(c, "%s: clip needs an array to clip, not None", ev.text(c))
	}
	var given []value
	for _, v := range []value{x, lo, hi} {
		if !isNone(v) {
			given = append(given, v)
		}
	}
	d, err := resultType(given...)
	if err != nil {
		return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
	}
	x = x.strong()
	switch {
	case isNone(lo) && isNone(hi):
		return value{}, ev.failf(c, "%s: clip needs at least one of the bounds", ev.text(c))
	case isNone(lo):
		return ev.apply(c, ops.Minimum, d, d, x, hi)
	case isNone(hi):
		return ev.apply(c, ops.Maximum, d, d, x, lo)
	}
	return ev.apply(c, ops.Clamp, d, d, x, lo, hi)
}

// cast builds float32(x), int64(x)…; bool(x) is x != 0.
func cast(d DType) func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0]
		if x.py != nil && x.py.kind != pyFloat && d.IsInteger() {
			if _, err := weakType(*x.py, d); err != nil {
				return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
			}
		}
		return value{dt: d, s: x.s, node: x.as(d)}, nil
	}
}
