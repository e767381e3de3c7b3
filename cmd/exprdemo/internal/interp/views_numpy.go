package interp

import (
	"fmt"
	"slices"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// This file holds NumPy's view functions beyond x.T, transpose, reshape
// and subscripts: squeeze, expand_dims, broadcast_to, swapaxes, moveaxis,
// flip, fliplr, flipud, ravel, flatten and diagonal, with NumPy's
// arguments (by position or keyword) and its errors. Each checks its
// arguments against the array's shape first, so that a bad call is an
// error naming the values at fault, then takes the view with the kit's
// view: of an input, an O(1) tensor view; of a computed expression, a lazy
// view node (see views.go). Its init runs after funcs.go's, which makes
// the map.
func init() {
	axis := []string{"axis"}
	functions["squeeze"] = function{min: 1, max: 2, keywords: axis, params: axis, build: squeezeCall, method: true}
	functions["expand_dims"] = function{min: 1, max: 2, keywords: axis, params: axis, build: expandDimsCall}
	functions["broadcast_to"] = function{min: 1, max: 2, keywords: []string{"shape"}, params: []string{"shape"}, build: broadcastToCall}
	swap := []string{"axis1", "axis2"}
	functions["swapaxes"] = function{min: 1, max: 3, keywords: swap, params: swap, build: swapAxesCall, method: true}
	move := []string{"source", "destination"}
	functions["moveaxis"] = function{min: 1, max: 3, keywords: move, params: move, build: moveAxisCall}
	functions["flip"] = function{min: 1, max: 2, keywords: axis, params: axis, build: flipCall}
	functions["fliplr"] = function{min: 1, max: 1, build: flipSideCall(1)}
	functions["flipud"] = function{min: 1, max: 1, build: flipSideCall(0)}
	functions["ravel"] = function{min: 1, max: 1, build: ravelCall, method: true}
	functions["flatten"] = function{min: 1, max: 1, build: ravelCall, methodOnly: true}
	diag := []string{"offset", "axis1", "axis2"}
	functions["diagonal"] = function{min: 1, max: 4, keywords: diag, params: diag, build: diagonalCall, method: true}
}

// viewArray returns the array a view call c applies to: args[0], which a
// function (np.flip(3)), unlike a method, also takes as a Python number,
// a 0-d array as NumPy makes it.
func (ev *evaluator) viewArray(c *lang.Call, args []value) (value, error) {
	x := args[0]
	if isNone(x) {
		return value{}, ev.failf(c, "%s: %s needs an array, not None", ev.text(c), c.Func)
	}
	if c.Recv == nil {
		x = x.strong()
	}
	return x, nil
}

// viewOf takes the view of kind k with args (the tensor method's
// arguments, checked by the caller) of x, the array call c applies to.
func (ev *evaluator) viewOf(c *lang.Call, x value, k expr.ViewKind, args ...int) (value, error) {
	t, err := ev.leaf(recvOrFirst(c), x)
	if err != nil {
		return value{}, err
	}
	kit := kitFor(x.dt)
	r, s, err := kit.view(k, args, t, x.s)
	if _, isTensor := kit.leafOf(t); err == nil && isTensor {
		if _, ok := kit.leafOf(r); !ok {
			// A tensor's view that is a node (a ravel that a device tensor's
			// strides do not allow, copied when evaluated): over x's named
			// node, so that Explain names what it copies (a.T.ravel()).
			r, s, err = kit.view(k, args, x.node, x.s)
		}
	}
	if err != nil {
		return value{}, ev.fail(c, "", err)
	}
	return ev.viewed(c, x.dt, r, s), nil
}

// intsArg reads argument name of call c, required: an integer or a tuple
// of them (what says which, for messages: "an axis", "a dimension").
func (ev *evaluator) intsArg(c *lang.Call, kw map[string]lang.Node, name, what string) ([]int, error) {
	n := kw[name]
	if n == nil {
		return nil, ev.failf(c, "%s: %s needs %s= (an integer or a tuple of them)", ev.text(c), c.Func, name)
	}
	if isNoneNode(n) {
		return nil, ev.failf(n, "%s: %s=None is not allowed: give an integer or a tuple of them", ev.text(c), name)
	}
	if t, ok := n.(*lang.Tuple); ok {
		out := make([]int, 0, len(t.Elems))
		for _, e := range t.Elems {
			v, err := ev.integer(e, what)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := ev.integer(n, what)
	return []int{v}, err
}

// intArg reads argument name of call c, an integer, def when absent.
func (ev *evaluator) intArg(c *lang.Call, kw map[string]lang.Node, name string, def int, required bool) (int, error) {
	n := kw[name]
	if n == nil {
		if required {
			return 0, ev.failf(c, "%s: %s needs %s= (an integer)", ev.text(c), c.Func, name)
		}
		return def, nil
	}
	return ev.integer(n, name)
}

// normalizeAxes checks axes (negative ones counting from the end) against
// an array of ndim dimensions and returns them normalised, as NumPy's
// normalize_axis_tuple: an axis out of range, or one named twice, is an
// error at call c; name is the argument's, for messages.
func (ev *evaluator) normalizeAxes(c *lang.Call, axes []int, ndim int, name string) ([]int, error) {
	return ev.normalizeAxesOf(c, axes, ndim, name, "an array")
}

// normalizeAxesOf is normalizeAxes for axes of what (for messages: "an
// array", or "the result" for expand_dims's positions).
func (ev *evaluator) normalizeAxesOf(c *lang.Call, axes []int, ndim int, name, what string) ([]int, error) {
	arg := "" // which argument, where it is not axis: "source: ", as NumPy's "axis2: axis 2 is out of bounds…"
	if name != "axis" {
		arg = name + ": "
	}
	out := make([]int, len(axes))
	for i, a := range axes {
		if a < -ndim || a >= ndim {
			return nil, ev.failf(c, "%s: %saxis %d is out of bounds for %s of %s", ev.text(c), arg, a, what, dimensions(ndim))
		}
		if a < 0 {
			a += ndim
		}
		if slices.Contains(out[:i], a) {
			return nil, ev.failf(c, "%s: %saxis %d is repeated in %s (%s of %s)", ev.text(c), arg, axes[i], shape.FormatInts(axes), what, dimensions(ndim))
		}
		out[i] = a
	}
	return out, nil
}

// dimensions writes "1 dimension", "2 dimensions".
func dimensions(n int) string {
	if n == 1 {
		return "1 dimension"
	}
	return fmt.Sprintf("%d dimensions", n)
}

// squeezeCall is squeeze(x, axis=None): without axis, every dimension of
// size 1 removed; with axis (an int or a tuple), those, each of which must
// have size 1, as in NumPy (laze's Squeeze keeps a named dimension of
// another size; here it is an error).
func squeezeCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	axes, err := ev.axes(kw["axis"], false)
	if err != nil {
		return value{}, err
	}
	if axes == nil {
		return ev.viewOf(c, x, expr.ViewSqueeze)
	}
	if axes, err = ev.normalizeAxes(c, axes, len(x.s), "axis"); err != nil {
		return value{}, err
	}
	for _, a := range axes {
		if x.s[a] != 1 {
			return value{}, ev.failf(c, "%s: cannot squeeze axis %d of size %d (shape %v): only axes of size 1 can be squeezed", ev.text(c), a, x.s[a], x.s)
		}
	}
	if len(axes) == 0 {
		return x, nil // axis=(): nothing removed (laze's Squeeze() would remove every size-1 dimension)
	}
	return ev.viewOf(c, x, expr.ViewSqueeze, axes...)
}

// expandDimsCall is expand_dims(x, axis): a dimension of size 1 at each
// of axis (an int or a tuple), positions in the result.
func expandDimsCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	axes, err := ev.intsArg(c, kw, "axis", "an axis")
	if err != nil {
		return value{}, err
	}
	if axes, err = ev.normalizeAxesOf(c, axes, len(x.s)+len(axes), "axis", "the result"); err != nil {
		return value{}, err
	}
	return ev.viewOf(c, x, expr.ViewExpandDims, axes...)
}

// broadcastToCall is broadcast_to(x, shape): x broadcast to shape (an int
// or a tuple) by NumPy's rules, which the shapes must follow.
func broadcastToCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	dims, err := ev.intsArg(c, kw, "shape", "a dimension")
	if err != nil {
		return value{}, err
	}
	to := shape.Shape(dims)
	for _, d := range dims {
		if d < 0 {
			return value{}, ev.failf(c, "%s: all elements of the shape %v must be non-negative", ev.text(c), to)
		}
	}
	if err := broadcastsTo(x.s, to); err != nil {
		return value{}, ev.failf(c, "%s: cannot broadcast an array of shape %v to shape %v: %v", ev.text(c), x.s, to, err)
	}
	if n, err := to.Size(); broadcastLimit > 0 && (err != nil || n > broadcastLimit) {
		return value{}, ev.failf(c, "%s: the shape %v has more than %d elements (the limit broadcastLimit sets)", ev.text(c), to, broadcastLimit)
	}
	return ev.viewOf(c, x, expr.ViewBroadcastTo, dims...)
}

// broadcastLimit, when positive, is the most elements broadcast_to may
// give. It is 0 (no limit) but in FuzzRun, where a short source must stay
// cheap to evaluate: broadcast_to is the one function whose result a few
// characters can make as large as the machine's memory, or larger than
// anything a reduction of it can go through in a fuzzer's time
// (sum(np.broadcast_to(1, 10**12))).
var broadcastLimit int

// broadcastsTo says why shape from does not broadcast to shape to (nil
// when it does): to has fewer dimensions, or a dimension of from is
// neither 1 nor to's size there.
func broadcastsTo(from, to shape.Shape) error {
	if len(from) > len(to) {
		return fmt.Errorf("it has more dimensions (%d) than the shape (%d)", len(from), len(to))
	}
	lead := len(to) - len(from)
	for i, n := range from {
		if n != 1 && n != to[lead+i] {
			return fmt.Errorf("its dimension %d has size %d, not 1 or %d", i, n, to[lead+i])
		}
	}
	return nil
}

// swapAxesCall is swapaxes(x, axis1, axis2): the two dimensions swapped.
func swapAxesCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	var axes [2]int
	for i, name := range []string{"axis1", "axis2"} {
		a, err := ev.intArg(c, kw, name, 0, true)
		if err != nil {
			return value{}, err
		}
		norm, err := ev.normalizeAxes(c, []int{a}, len(x.s), name)
		if err != nil {
			return value{}, err
		}
		axes[i] = norm[0]
	}
	return ev.viewOf(c, x, expr.ViewTranspose, axes[0], axes[1])
}

// moveAxisCall is moveaxis(x, source, destination): dimensions source (an
// int or a tuple) moved to positions destination (as many), the others
// keeping their order. It is taken as the permutation that does it (a
// Permute view), which tensor.MoveAxisOrder finds as the tensor method
// MoveAxis does.
func moveAxisCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	n := len(x.s)
	var lists [2][]int
	for i, name := range []string{"source", "destination"} {
		axes, err := ev.intsArg(c, kw, name, "an axis")
		if err != nil {
			return value{}, err
		}
		if lists[i], err = ev.normalizeAxes(c, axes, n, name); err != nil {
			return value{}, err
		}
	}
	src, dst := lists[0], lists[1]
	if len(src) != len(dst) {
		return value{}, ev.failf(c, "%s: source %s and destination %s must have the same number of elements", ev.text(c), shape.FormatInts(src), shape.FormatInts(dst))
	}
	return ev.viewOf(c, x, expr.ViewPermute, tensor.MoveAxisOrder(x.s, src, dst)...)
}

// flipCall is flip(x, axis=None): the order of the elements reversed
// along axis (an int or a tuple), or along every dimension.
func flipCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	axes, err := ev.axes(kw["axis"], false)
	if err != nil {
		return value{}, err
	}
	if axes == nil {
		return ev.viewOf(c, x, expr.ViewFlip)
	}
	if axes, err = ev.normalizeAxes(c, axes, len(x.s), "axis"); err != nil {
		return value{}, err
	}
	if len(axes) == 0 {
		return x, nil // axis=(): nothing flipped (laze's Flip() would flip every dimension)
	}
	return ev.viewOf(c, x, expr.ViewFlip, axes...)
}

// flipSideCall builds fliplr (axis 1, of an array of at least two
// dimensions) and flipud (axis 0, at least one).
func flipSideCall(axis int) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		x, err := ev.viewArray(c, args)
		if err != nil {
			return value{}, err
		}
		if len(x.s) <= axis {
			return value{}, ev.failf(c, "%s: %s needs an array of at least %s, not %d (shape %v)", ev.text(c), c.Func, dimensions(axis+1), len(x.s), x.s)
		}
		return ev.viewOf(c, x, expr.ViewFlip, axis)
	}
}

// ravelCall is ravel(x), x.ravel() and x.flatten(): the elements in
// row-major order, one dimension; a view where the strides allow, else a
// copy (flatten always copies in NumPy: an expression's value is never
// shared with its operands, so the value is the same).
func ravelCall(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	return ev.viewOf(c, x, expr.ViewRavel)
}

// diagonalCall is diagonal(x, offset=0, axis1=0, axis2=1): the diagonal at
// offset of the matrices axis1 and axis2 form, those dimensions removed and
// the diagonal appended as the last.
func diagonalCall(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	x, err := ev.viewArray(c, args)
	if err != nil {
		return value{}, err
	}
	var v [3]int
	for i, name := range []string{"offset", "axis1", "axis2"} {
		if v[i], err = ev.intArg(c, kw, name, []int{0, 0, 1}[i], false); err != nil {
			return value{}, err
		}
	}
	n := len(x.s)
	if n < 2 {
		return value{}, ev.failf(c, "%s: diagonal needs an array of at least 2 dimensions, not %d (shape %v)", ev.text(c), n, x.s)
	}
	given := v
	for i, name := range []string{"axis1", "axis2"} {
		norm, err := ev.normalizeAxes(c, []int{v[1+i]}, n, name)
		if err != nil {
			return value{}, err
		}
		v[1+i] = norm[0]
	}
	if v[1] == v[2] {
		return value{}, ev.failf(c, "%s: axis1 (%d) and axis2 (%d) are the same axis of an array of %s", ev.text(c), given[1], given[2], dimensions(n))
	}
	return ev.viewOf(c, x, expr.ViewDiagonal, v[0], v[1], v[2])
}
