package interp

import (
	"math"
	"slices"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// This file holds NumPy's structured functions: tile, repeat, roll, diff,
// outer, trace, diag, tril, triu and pad, with NumPy's arguments (by
// position or keyword) and its errors, built on the library's Tile,
// Repeat, Roll, Diff, Outer, Trace, Diag, Tril, Triu and Pad
// (expr/structured.go, expr/triangle.go, expr/diag.go, expr/pad.go):
// compositions of views, generators and concatenations, lazy like every
// node. The arguments are checked here first, so that a bad call is an
// error naming the argument and its value. Its init runs after funcs.go's,
// which makes the map.
func init() {
	functions["tile"] = function{min: 1, max: 2, keywords: []string{"reps"}, params: []string{"reps"}, build: tileCall}
	rep := []string{"repeats", "axis"}
	functions["repeat"] = function{min: 1, max: 3, keywords: rep, params: rep, build: repeatCall, method: true}
	roll := []string{"shift", "axis"}
	functions["roll"] = function{min: 1, max: 3, keywords: roll, params: roll, build: rollCall}
	diff := []string{"n", "axis"}
	functions["diff"] = function{min: 1, max: 3, keywords: diff, params: diff, build: diffCall}
	functions["outer"] = function{min: 2, max: 2, build: outerCall}
	tr := []string{"offset", "axis1", "axis2"}
	functions["trace"] = function{min: 1, max: 4, keywords: tr, params: tr, build: traceCall, method: true}
	k := []string{"k"}
	functions["diag"] = function{min: 1, max: 2, keywords: k, params: k, build: diagCall}
	functions["tril"] = function{min: 1, max: 2, keywords: k, params: k, build: triangleCall(false)}
	functions["triu"] = function{min: 1, max: 2, keywords: k, params: k, build: triangleCall(true)}
	functions["pad"] = function{min: 1, max: 3, keywords: []string{"pad_width", "mode", "constant_values"},
		params: []string{"pad_width", "mode"}, build: padCall}
}

// structuredKit is what this file needs of a kit; every kitOf[T] has it.
type structuredKit interface {
	tile(x any, reps []int) any
	repeat(x any, repeats, axis int, flat bool) any
	roll(x any, xs shape.Shape, shifts, axes []int, flat bool) any
	diff(x any, n, axis int, boolean bool) any
	outer(x, y any) any
	diag(x any, k int) any
	triangle(x any, xs shape.Shape, k int, upper bool) any
	pad(x any, widths [][2]int, mode expr.PadMode, v float64, i int64, isInt bool) any
}

func structured(d DType) structuredKit { return kitFor(d).(structuredKit) }

func (kitOf[T]) tile(x any, reps []int) any { return expr.Tile(x.(expr.Exp[T]), reps...) }

func (kitOf[T]) repeat(x any, repeats, axis int, flat bool) any {
	e := x.(expr.Exp[T])
	if flat {
		e, axis = expr.Ravel(e), 0
	}
	return expr.Repeat(e, repeats, axis)
}

func (kitOf[T]) roll(x any, xs shape.Shape, shifts, axes []int, flat bool) any {
	e := x.(expr.Exp[T])
	if flat && len(xs) == 1 { // no ravel and reshape around it: the roll stays on the tree's spine, written in place
		return expr.Roll(e, shifts[0], 0)
	}
	if flat {
		return expr.Reshape(expr.Roll(expr.Ravel(e), shifts[0], 0), xs...)
	}
	for i, a := range axes {
		e = expr.Roll(e, shifts[i], a)
	}
	return e
}

// diff is numpy.diff; of bools (boolean), x[1:] != x[:-1], as NumPy.
func (kitOf[T]) diff(x any, n, axis int, boolean bool) any {
	e := x.(expr.Exp[T])
	if !boolean {
		return expr.Diff(e, n, axis)
	}
	for range n {
		e = expr.Apply(ops.Ne, expr.Slice(e, axis, 1, tensor.None, 1), expr.Slice(e, axis, tensor.None, -1, 1))
	}
	return e
}

func (kitOf[T]) outer(x, y any) any { return expr.Outer(x.(expr.Exp[T]), y.(expr.Exp[T])) }

func (kitOf[T]) diag(x any, k int) any { return expr.Diag(x.(expr.Exp[T]), k) }

// triangle is tril (triu when upper is set); a vector is first broadcast
// to a square matrix, as NumPy does.
func (kitOf[T]) triangle(x any, xs shape.Shape, k int, upper bool) any {
	e := x.(expr.Exp[T])
	if len(xs) == 1 {
		e = expr.BroadcastTo(e, xs[0], xs[0])
	}
	if upper {
		return expr.Triu(e, k)
	}
	return expr.Tril(e, k)
}

func (kitOf[T]) pad(x any, widths [][2]int, mode expr.PadMode, v float64, i int64, isInt bool) any {
	value := T(v)
	if isInt {
		value = T(i)
	}
	return expr.Pad(x.(expr.Exp[T]), widths, mode, value)
}

// built checks node, built for c (a call, or a subscript) in dtype d: a
// laze error is an error at c. Under FuzzRun's broadcastLimit, a result larger than it is
// refused too (np.tile(a, 10**6) is as short as broadcast_to's).
func (ev *evaluator) built(c lang.Node, d DType, node any) (value, error) {
	s, err := more(d).check(node)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	if n, err := s.Size(); broadcastLimit > 0 && (err != nil || n > broadcastLimit) {
		return value{}, ev.failf(c, "%s: the result's shape %v has more than %d elements (the limit broadcastLimit sets)", ev.text(c), s, broadcastLimit)
	}
	return value{dt: d, s: s, node: node}, nil
}

// oneAxis reads argument name of call c, an axis of an array of ndim
// dimensions, def when absent; with none set, None (or absence when def
// is nil) gives ok false.
func (ev *evaluator) oneAxis(c *lang.Call, kw map[string]lang.Node, name string, def *int, ndim int) (axis int, ok bool, err error) {
	n := kw[name]
	if n == nil && def == nil || n != nil && isNoneNode(n) {
		return 0, false, nil
	}
	a := 0
	if n == nil {
		a = *def
	} else if a, err = ev.integer(n, name); err != nil {
		return 0, false, err
	}
	norm, err := ev.normalizeAxes(c, []int{a}, ndim, name)
	if err != nil {
		return 0, false, err
	}
	return norm[0], true, nil
}

// tileCall is tile(A, reps): reps an integer or a tuple of them, each
// non-negative.
func tileCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	reps, err := ev.intsArg(c, kw, "reps", "reps")
	if err != nil {
		return value{}, err
	}
	for _, r := range reps {
		if r < 0 {
			return value{}, ev.failf(c, "%s: reps %s: negative repetitions (%d) are not allowed", ev.text(c), shape.FormatInts(reps), r)
		}
	}
	return ev.built(c, x.dt, structured(x.dt).tile(x.node, reps))
}

// repeatCall is repeat(a, repeats, axis=None) (a.repeat(repeats)):
// repeats one non-negative integer (NumPy's array of counts per element
// is not supported); axis None repeats the flattened array.
func repeatCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	rn := kw["repeats"]
	if rn == nil {
		return value{}, ev.failf(c, "%s: repeat needs repeats= (an integer)", ev.text(c))
	}
	if _, ok := rn.(*lang.Tuple); ok {
		return value{}, ev.failf(rn, "%s: repeats must be one integer: a count per element is not supported", ev.text(rn))
	}
	r, err := ev.integer(rn, "repeats")
	if err != nil {
		return value{}, err
	}
	if r < 0 {
		return value{}, ev.failf(rn, "%s: repeats = %d: negative repetitions are not allowed", ev.text(c), r)
	}
	axis, ok, err := ev.oneAxis(c, kw, "axis", nil, len(x.s))
	if err != nil {
		return value{}, err
	}
	return ev.built(c, x.dt, structured(x.dt).repeat(x.node, r, axis, !ok))
}

// rollCall is roll(a, shift, axis=None): shift an integer or a tuple,
// axis None (the flattened array rolled, then given its shape back), an
// axis or a tuple of them; shift and axis broadcast together as in NumPy
// (one shift for several axes, or several shifts summed on one axis).
func rollCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	shifts, err := ev.intsArg(c, kw, "shift", "a shift")
	if err != nil {
		return value{}, err
	}
	flat := kw["axis"] == nil || isNoneNode(kw["axis"])
	var axes []int
	if flat {
		axes = []int{0}
	} else {
		if axes, err = ev.intsArg(c, kw, "axis", "an axis"); err != nil {
			return value{}, err
		}
		for i, a := range axes { // repeated axes are allowed: their shifts add up
			norm, err := ev.normalizeAxes(c, []int{a}, len(x.s), "axis")
			if err != nil {
				return value{}, err
			}
			axes[i] = norm[0]
		}
	}
	switch {
	case len(shifts) == len(axes):
	case len(shifts) == 1:
		shifts = slices.Repeat(shifts, len(axes))
	case len(axes) == 1:
		axes = slices.Repeat(axes, len(shifts))
	default:
		return value{}, ev.failf(c, "%s: shift %s and axis %s cannot be broadcast together (%d and %d items)", ev.text(c),
			shape.FormatInts(shifts), shape.FormatInts(axes), len(shifts), len(axes))
	}
	if flat {
		total := 0
		for _, s := range shifts {
			total += s
		}
		shifts = []int{total}
	}
	return ev.built(c, x.dt, structured(x.dt).roll(x.node, x.s, shifts, axes, flat))
}

// diffCall is diff(a, n=1, axis=-1): the n-th difference along axis (of
// bools, x[1:] != x[:-1], as NumPy). prepend= and append= are not
// supported.
func diffCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	n, err := ev.intArg(c, kw, "n", 1, false)
	if err != nil {
		return value{}, err
	}
	if n < 0 {
		return value{}, ev.failf(c, "%s: order n = %d: it must be non-negative", ev.text(c), n)
	}
	if len(x.s) == 0 {
		return value{}, ev.failf(c, "%s: diff needs an array of at least 1 dimension, not 0 (shape ())", ev.text(c))
	}
	last := -1
	axis, _, err := ev.oneAxis(c, kw, "axis", &last, len(x.s))
	if err != nil {
		return value{}, err
	}
	if isNoneNode(kw["axis"]) {
		return value{}, ev.failf(kw["axis"], "%s: axis=None is not allowed: give an integer", ev.text(c))
	}
	// n past the axis's size leaves it empty, as n equal to it does: the
	// library builds n differences, so n = 10**18 would never end.
	n = min(n, x.s[axis])
	return ev.built(c, x.dt, structured(x.dt).diff(x.node, n, axis, x.dt == Bool))
}

// outerCall is outer(a, b): both flattened, a[i]·b[j], in their promoted
// dtype (of bools, their and, as NumPy's multiply).
func outerCall(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
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
	return ev.built(c, d, structured(d).outer(args[0].as(d), args[1].as(d)))
}

// traceCall is trace(a, offset=0, axis1=0, axis2=1) (a.trace()): the sum
// of diagonal(a, offset, axis1, axis2) along its last axis, in the dtype
// NumPy's sum gives (narrow integers and bools in 64 bits).
func traceCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	dv, err := diagonalCall(ev, c, args, kw)
	if err != nil {
		return value{}, err
	}
	d := reduceType(ops.Sum, dv.dt)
	g, err := expr.ReduceShape("sum", dv.s, []int{-1}, false)
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return value{dt: d, s: g.Result, node: kitFor(d).reduce(ops.Sum, dv.as(d), []int{-1}, false)}, nil
}

// diagCall is diag(v, k=0): of a vector, the matrix with it on the k-th
// diagonal; of a matrix, its k-th diagonal (a view).
func diagCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	k, err := ev.intArg(c, kw, "k", 0, false)
	if err != nil {
		return value{}, err
	}
	if len(x.s) != 1 && len(x.s) != 2 {
		return value{}, ev.failf(c, "%s: diag needs an array of 1 or 2 dimensions, not %d (shape %v)", ev.text(c), len(x.s), x.s)
	}
	if len(x.s) == 2 {
		return ev.viewOf(c, x, expr.ViewDiagonal, k, 0, 1)
	}
	return ev.built(c, x.dt, structured(x.dt).diag(x.node, k))
}

// triangleCall builds tril(m, k=0) and, when upper is set, triu(m, k=0):
// the elements above (below) the k-th diagonal of the last two dimensions
// set to 0; a vector is read as the square matrix of its rows repeated,
// as NumPy does.
func triangleCall(upper bool) builder {
	return func(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
		x, err := ev.viewArray(c, args)
		if err != nil {
			return value{}, err
		}
		k, err := ev.intArg(c, kw, "k", 0, false)
		if err != nil {
			return value{}, err
		}
		if len(x.s) == 0 {
			return value{}, ev.failf(c, "%s: %s needs an array of at least 1 dimension, not 0 (shape ())", ev.text(c), c.Func)
		}
		return ev.built(c, x.dt, structured(x.dt).triangle(x.node, x.s, k, upper))
	}
}

// numpyPadModes are np.pad's modes that laze does not have.
var numpyPadModes = []string{"linear_ramp", "maximum", "mean", "median", "minimum", "empty"}

// padCall is pad(array, pad_width, mode='constant', constant_values=0):
// pad_width in NumPy's forms, broadcast to one (before, after) pair per
// axis — an integer (every side), (before, after) or ((before, after),)
// (every axis), ((b0, a0), (b1, a1), …) (one per axis), ((w0,), (w1,), …)
// —; mode constant, edge, reflect, symmetric or wrap; constant_values a
// number (only with mode constant), cast to the array's dtype.
func padCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	wn := kw["pad_width"]
	if wn == nil {
		return value{}, ev.failf(c, "%s: pad needs pad_width= (an integer, a (before, after) pair, or one pair per axis)", ev.text(c))
	}
	widths, err := ev.padWidths(c, wn, x.s)
	if err != nil {
		return value{}, err
	}
	mode := expr.PadConstant
	if mn := kw["mode"]; mn != nil {
		s, ok := mn.(*lang.Str)
		if !ok {
			return value{}, ev.failf(mn, "%s: mode must be a string such as 'constant' or 'reflect'", ev.text(mn))
		}
		if slices.Contains(numpyPadModes, s.Value) {
			return value{}, ev.failf(mn, "%s: mode '%s' is not supported (laze pads with constant, edge, reflect, symmetric or wrap)", ev.text(c), s.Value)
		}
		if mode, err = expr.ParsePadMode(s.Value); err != nil {
			return value{}, ev.fail(mn, ev.text(c), err)
		}
	}
	var v pyNum // 0
	v.kind = pyInt
	if vn := kw["constant_values"]; vn != nil {
		if mode != expr.PadConstant {
			return value{}, ev.failf(vn, "%s: constant_values is only for mode 'constant', not '%s'", ev.text(c), mode)
		}
		val, err := ev.eval(vn)
		if err != nil {
			return value{}, err
		}
		if val.py == nil {
			return value{}, ev.failf(vn, "%s: constant_values must be a number (one value for every side)", ev.text(vn))
		}
		v = *val.py
	}
	i, f, isInt := v.i, v.f, v.kind != pyFloat
	switch {
	case x.dt == Bool:
		i, isInt = b2i(v.float() != 0), true
	case x.dt.IsInteger() && !isInt:
		lo, hi := intRange(x.dt)
		if math.IsNaN(f) || f < lo || f > hi {
			return value{}, ev.failf(kw["constant_values"], "%s: constant_values = %v does not fit %s", ev.text(c), f, x.dt)
		}
		i, isInt = int64(f), true // truncated, as NumPy's cast
	}
	return ev.built(c, x.dt, structured(x.dt).pad(x.node, widths, mode, f, i, isInt))
}

// padWidths reads pad_width n (integers, nested in tuples) and broadcasts
// it to one (before, after) pair per axis of an array of shape xs, as
// NumPy's np.broadcast_to(pad_width, (ndim, 2)).
func (ev *evaluator) padWidths(c *lang.Call, n lang.Node, xs shape.Shape) ([][2]int, error) {
	var data []int
	s, err := ev.intTree(n, &data)
	if err != nil {
		return nil, err
	}
	if len(s) > 2 {
		return nil, ev.failf(n, "%s: pad_width of shape %v has more than 2 dimensions: give an integer, (before, after), or one pair per axis", ev.text(c), s)
	}
	rows, cols := 1, 1
	switch len(s) {
	case 1:
		cols = s[0]
	case 2:
		rows, cols = s[0], s[1]
	}
	ndim := len(xs)
	if rows != 1 && rows != ndim || cols != 1 && cols != 2 {
		return nil, ev.failf(n, "%s: pad_width of shape %v cannot be broadcast to (%d, 2), one (before, after) pair per axis of the array of shape %v",
			ev.text(c), s, ndim, xs)
	}
	out := make([][2]int, ndim)
	for d := range out {
		for j := range 2 {
			r, k := min(d, rows-1), min(j, cols-1)
			out[d][j] = data[r*cols+k]
			if out[d][j] < 0 {
				return nil, ev.failf(n, "%s: pad_width %d for axis %d is negative: widths must be non-negative", ev.text(c), out[d][j], d)
			}
		}
	}
	return out, nil
}

// intTree reads an integer or nested tuples of them into data, in
// row-major order, and returns their shape; a ragged nesting is an error.
func (ev *evaluator) intTree(n lang.Node, data *[]int) (shape.Shape, error) {
	t, ok := n.(*lang.Tuple)
	if !ok {
		v, err := ev.integer(n, "a pad width")
		if err != nil {
			return nil, err
		}
		*data = append(*data, v)
		return shape.Shape{}, nil
	}
	var inner shape.Shape
	for i, e := range t.Elems {
		s, err := ev.intTree(e, data)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			inner = s
		} else if !inner.Equal(s) {
			return nil, ev.failf(t, "%s: a ragged pad_width (items of shapes %v and %v)", ev.text(t), inner, s)
		}
	}
	return append(shape.Shape{len(t.Elems)}, inner...), nil
}
