package interp

import (
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
)

// NumPy's array constructors inside expressions: arange, linspace, zeros,
// ones, full, eye, identity, tri and zeros_like, ones_like, full_like.
// Each is a generator (expr.Arange…), a leaf that holds no memory: its
// elements are computed from their index in the fused loop. dtype= takes
// NumPy's names; without it each has NumPy's default dtype.
func init() {
	gen := func(params []string, build func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error)) function {
		return function{max: len(params), keywords: params, params: params, noArray: true,
			build: func(ev *evaluator, c *lang.Call, _ []value, kw map[string]lang.Node) (value, error) {
				return build(ev, c, kw)
			}}
	}
	functions["arange"] = gen([]string{"start", "stop", "step", "dtype"}, arangeCall)
	functions["linspace"] = gen([]string{"start", "stop", "num", "endpoint", "dtype"}, linspaceCall)
	functions["zeros"] = gen([]string{"shape", "dtype"}, fullCall("zeros", 0))
	functions["ones"] = gen([]string{"shape", "dtype"}, fullCall("ones", 1))
	functions["full"] = gen([]string{"shape", "fill_value", "dtype"}, fullCall("full", -1))
	functions["eye"] = gen([]string{"N", "M", "k", "dtype"}, diagonalGenCall(expr.GenEye))
	functions["identity"] = gen([]string{"n", "dtype"}, identityCall)
	functions["tri"] = gen([]string{"N", "M", "k", "dtype"}, diagonalGenCall(expr.GenTri))
	like := func(name string, fill float64) function {
		params := []string{"a", "dtype"}
		if fill < 0 {
			params = []string{"a", "fill_value", "dtype"}
		}
		return gen(params, likeCall(name, fill))
	}
	functions["zeros_like"] = like("zeros_like", 0)
	functions["ones_like"] = like("ones_like", 1)
	functions["full_like"] = like("full_like", -1)
}

// generated wraps generator node g of dtype d as a value, or the error
// Check finds in its arguments (a zero step, a negative size).
func (ev *evaluator) generated(c *lang.Call, d DType, g any) (value, error) {
	s, err := kitFor(d).shapeOfNode(g)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return value{dt: d, s: s, node: g}, nil
}

// dtypeArg reads dtype= (np.float32, float32, or Python's float, int,
// bool), def when absent or None.
func (ev *evaluator) dtypeArg(c *lang.Call, kw map[string]lang.Node, def DType) (DType, error) {
	n := kw["dtype"]
	if n == nil || isNoneNode(n) {
		return def, nil
	}
	if name, ok := n.(*lang.Name); ok {
		if d, ok := map[string]DType{"float": Float64, "int": Int64, "bool": Bool}[name.Name]; ok && !name.NumPy {
			return d, nil
		}
		if d, ok := ParseDType(name.Name); ok {
			return d, nil
		}
	}
	return 0, ev.failf(n, "%s: dtype= takes a dtype name (%s, or float, int, bool)", ev.text(c), strings.Join(DTypeNames(), " "))
}

// number reads argument name as a Python number (required unless def is
// given).
func (ev *evaluator) number(c *lang.Call, kw map[string]lang.Node, name string, def *pyNum) (pyNum, error) {
	n := kw[name]
	if n == nil {
		if def != nil {
			return *def, nil
		}
		return pyNum{}, ev.failf(c, "%s: %s needs %s= (a number)", ev.text(c), c.Func, name)
	}
	v, err := ev.eval(n)
	if err != nil {
		return pyNum{}, err
	}
	if v.py == nil {
		return pyNum{}, ev.failf(n, "%s: %s must be a number, not an array", ev.text(c), name)
	}
	return *v.py, nil
}

// arangeCall is np.arange(stop), np.arange(start, stop[, step]): int64 when
// every argument is an integer, else float64, as NumPy.
func arangeCall(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	one, zero := pyNum{kind: pyInt, i: 1}, pyNum{kind: pyInt}
	start, err := ev.number(c, kw, "start", nil)
	if err != nil {
		return value{}, err
	}
	var stop pyNum
	if kw["stop"] == nil || isNoneNode(kw["stop"]) { // arange(5): the one number is stop
		start, stop = zero, start
	} else if stop, err = ev.number(c, kw, "stop", nil); err != nil {
		return value{}, err
	}
	step, err := ev.number(c, kw, "step", &one)
	if err != nil {
		return value{}, err
	}
	def := Int64
	if start.kind == pyFloat || stop.kind == pyFloat || step.kind == pyFloat {
		def = Float64
	}
	d, err := ev.dtypeArg(c, kw, def)
	if err != nil {
		return value{}, err
	}
	ints := d != Float32 && d != Float64 && start.kind != pyFloat && stop.kind != pyFloat && step.kind != pyFloat
	return ev.generated(c, d, kitFor(d).arange(start, stop, step, ints))
}

// linspaceCall is np.linspace(start, stop, num=50, endpoint=True), float64
// unless dtype= says otherwise.
func linspaceCall(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	start, err := ev.number(c, kw, "start", nil)
	if err != nil {
		return value{}, err
	}
	stop, err := ev.number(c, kw, "stop", nil)
	if err != nil {
		return value{}, err
	}
	num, err := ev.intArg(c, kw, "num", 50, false)
	if err != nil {
		return value{}, err
	}
	endpoint := true
	if n := kw["endpoint"]; n != nil {
		if endpoint, err = ev.flag(n); err != nil {
			return value{}, err
		}
	}
	d, err := ev.dtypeArg(c, kw, Float64)
	if err != nil {
		return value{}, err
	}
	return ev.generated(c, d, kitFor(d).linspace(start.float(), stop.float(), num, endpoint))
}

// fullCall is np.zeros(shape), np.ones(shape) (fill 0 or 1, float64) and
// np.full(shape, fill_value) (fill < 0: the value's own dtype, as NumPy).
func fullCall(name string, fill float64) func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
		dims, err := ev.intsArg(c, kw, "shape", "a dimension")
		if err != nil {
			return value{}, err
		}
		v := pyNum{kind: pyFloat, f: fill}
		if fill < 0 {
			if v, err = ev.number(c, kw, "fill_value", nil); err != nil {
				return value{}, err
			}
		}
		d, err := ev.dtypeArg(c, kw, map[bool]DType{true: Float64, false: v.dtype()}[fill >= 0])
		if err != nil {
			return value{}, err
		}
		return ev.generated(c, d, kitFor(d).full(v, dims))
	}
}

// diagonalGenCall is np.eye(N, M=None, k=0) and np.tri(N, M=None, k=0),
// float64 unless dtype= says otherwise.
func diagonalGenCall(kind expr.GenKind) func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
		n, err := ev.intArg(c, kw, "N", 0, true)
		if err != nil {
			return value{}, err
		}
		m := n
		if kw["M"] != nil && !isNoneNode(kw["M"]) {
			if m, err = ev.intArg(c, kw, "M", n, true); err != nil {
				return value{}, err
			}
		}
		k, err := ev.intArg(c, kw, "k", 0, false)
		if err != nil {
			return value{}, err
		}
		d, err := ev.dtypeArg(c, kw, Float64)
		if err != nil {
			return value{}, err
		}
		return ev.generated(c, d, kitFor(d).diagonalGen(kind, n, m, k))
	}
}

// identityCall is np.identity(n): np.eye(n).
func identityCall(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	n, err := ev.intArg(c, kw, "n", 0, true)
	if err != nil {
		return value{}, err
	}
	d, err := ev.dtypeArg(c, kw, Float64)
	if err != nil {
		return value{}, err
	}
	return ev.generated(c, d, kitFor(d).diagonalGen(expr.GenEye, n, n, 0))
}

// likeCall is np.zeros_like(a), np.ones_like(a) and np.full_like(a,
// fill_value) (fill < 0): a's shape and dtype (or dtype=).
func likeCall(name string, fill float64) func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
	return func(ev *evaluator, c *lang.Call, kw map[string]lang.Node) (value, error) {
		if kw["a"] == nil {
			return value{}, ev.failf(c, "%s: %s needs an array", ev.text(c), name)
		}
		a, err := ev.eval(kw["a"])
		if err != nil {
			return value{}, err
		}
		a = a.strong()
		v := pyNum{kind: pyFloat, f: fill}
		if fill < 0 {
			if v, err = ev.number(c, kw, "fill_value", nil); err != nil {
				return value{}, err
			}
		}
		d, err := ev.dtypeArg(c, kw, a.dt)
		if err != nil {
			return value{}, err
		}
		return ev.generated(c, d, kitFor(d).full(v, a.s))
	}
}

// generators are the kit's constructors of generator nodes of its element
// type (bool as uint8).
type generators interface {
	arange(start, stop, step pyNum, ints bool) any
	linspace(start, stop float64, num int, endpoint bool) any
	full(v pyNum, dims []int) any
	diagonalGen(kind expr.GenKind, n, m, k int) any
	shapeOfNode(x any) (shape.Shape, error)
}

func (kitOf[T]) arange(start, stop, step pyNum, ints bool) any {
	if ints {
		return expr.Arange(T(start.i), T(stop.i), T(step.i))
	}
	return expr.Arange(T(start.float()), T(stop.float()), T(step.float()))
}

func (kitOf[T]) linspace(start, stop float64, num int, endpoint bool) any {
	return expr.Linspace[T](start, stop, num, endpoint)
}

func (kitOf[T]) full(v pyNum, dims []int) any {
	if v.kind == pyFloat {
		return expr.Full(T(v.f), dims...)
	}
	return expr.Full(T(v.i), dims...)
}

func (kitOf[T]) diagonalGen(kind expr.GenKind, n, m, k int) any {
	if kind == expr.GenTri {
		return expr.Tri[T](n, m, k)
	}
	return expr.Eye[T](n, m, k)
}

func (kitOf[T]) shapeOfNode(x any) (shape.Shape, error) {
	info, err := expr.Check(x.(expr.Exp[T]))
	return info.Shape, err
}
