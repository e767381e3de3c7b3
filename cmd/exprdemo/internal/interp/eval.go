package interp

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/laze-go/laze/alloc"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/scalar"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Input is a named array the expression can use.
type Input struct {
	DType  DType
	Tensor any // *tensor.Tensor[T] of kitFor(DType)'s element type
}

// NewInput describes t, a *tensor.Tensor[T] of a supported element type;
// isBool marks a uint8 tensor that holds NumPy bools.
func NewInput(t any, isBool bool) (Input, error) {
	var d DType
	switch t.(type) {
	case *tensor.Tensor[uint8]:
		d = Uint8
		if isBool {
			d = Bool
		}
	case *tensor.Tensor[int8]:
		d = Int8
	case *tensor.Tensor[int16]:
		d = Int16
	case *tensor.Tensor[int32]:
		d = Int32
	case *tensor.Tensor[int64]:
		d = Int64
	case *tensor.Tensor[uint16]:
		d = Uint16
	case *tensor.Tensor[uint32]:
		d = Uint32
	case *tensor.Tensor[uint64]:
		d = Uint64
	case *tensor.Tensor[float32]:
		d = Float32
	case *tensor.Tensor[float64]:
		d = Float64
	default:
		return Input{}, fmt.Errorf("%T is not a tensor of a supported element type", t)
	}
	return Input{DType: d, Tensor: t}, nil
}

// Error is an evaluation error at source bytes [Pos, End): an unknown
// name, a shape mismatch, a bad argument. Err, when set, is the laze error
// underneath (errors.Is and errors.As reach it).
type Error struct {
	Pos, End int
	Msg      string
	Err      error
}

// Error returns the message.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

// Unwrap returns the laze error underneath, if any.
func (e *Error) Unwrap() error { return e.Err }

// LazeError returns v, a value recovered from a panic, as an error when it
// is one of laze's typed errors — an error whose message starts with
// "laze: ", as every error of shape/errors.go does, such as the
// shape.OverflowError a tensor constructor panics with for a size that
// does not fit — and nil for any other value, which is a bug.
func LazeError(v any) error {
	if err, ok := v.(error); ok && strings.HasPrefix(err.Error(), "laze: ") {
		return err
	}
	return nil
}

// Result is an evaluated expression.
type Result struct {
	DType  DType
	Shape  shape.Shape
	Tensor any    // *tensor.Tensor[T] of kitFor(DType)'s element type
	Parsed string // the parse, fully parenthesised
	Tree   string // the laze tree that was evaluated
	Plan   string // with explain: the steps, each with its lowered program
	CUDA   string // with explain on a GPU: the CUDA source of the final evaluation's kernels
	// Tuple holds the arrays of a tuple result (nonzero(x), where(c),
	// unique(x, return_counts=True)), each a Result of its own (DType,
	// Shape, Tensor, Tree); DType, Shape and Tensor are then unset.
	Tuple []*Result
}

// Options adjust Run.
type Options struct {
	// Explain fills Result.Plan (and, on a GPU, Result.CUDA).
	Explain bool
	// Device is where the inputs are copied and the evaluation runs; the
	// zero Device is the CPU. A GPU needs its allocator registered (a
	// build with -tags cuda, cuda.Open).
	Device alloc.Device
}

// WriteNPY writes the result to w as an .npy file, bools as NumPy bools.
func (r *Result) WriteNPY(w io.Writer) error {
	if r.Tuple != nil {
		return fmt.Errorf("the result is a tuple of %d arrays, which one .npy file cannot hold: save one of them (x[0])", len(r.Tuple))
	}
	return kitFor(r.DType).write(w, r.Tensor, r.DType == Bool)
}

// Run parses src and evaluates it over inputs. With explain, Result.Plan
// describes every evaluation, including subexpressions computed early
// because a view of them was taken.
func Run(src string, inputs map[string]Input, explain bool) (*Result, error) {
	return RunWith(src, inputs, Options{Explain: explain})
}

// RunWith is Run with options: on a GPU, the inputs are copied there and
// every evaluation allocates there; Result.Tensor stays on the device (it
// prints, and saves, through the host).
func RunWith(src string, inputs map[string]Input, opts Options) (*Result, error) {
	root, err := parseWithin(src, MaxEvalDepth, "eval")
	if err != nil {
		return nil, err
	}
	a, err := alloc.For(opts.Device)
	if err != nil {
		return nil, err
	}
	if inputs, err = moveInputs(inputs, opts.Device); err != nil {
		return nil, err
	}
	explain := opts.Explain
	ev := &evaluator{src: src, inputs: inputs, explain: explain, alloc: a}
	v, err := ev.evalTuple(root)
	if err != nil {
		return nil, err
	}
	if v.tuple != nil {
		r := tupleResult(v)
		r.Parsed = lang.Format(root)
		return r, nil
	}
	v = v.strong()
	r := &Result{DType: v.dt, Shape: v.s, Parsed: lang.Format(root), Tree: fmt.Sprint(v.node)}
	k := kitFor(v.dt)
	if explain {
		plan, err := k.explain(v.node, v.s, a)
		if err != nil {
			return nil, ev.fail(root, "", err)
		}
		ev.plan = append(ev.plan, plan)
		r.Plan = renumber(strings.Join(ev.plan, ""))
		if !opts.Device.IsCPU() {
			if r.CUDA, err = k.cudaSource(v.node, v.s, a); err != nil {
				return nil, ev.fail(root, "", err)
			}
		}
	}
	if r.Tensor, err = k.evaluate(v.node, v.s, a); err != nil {
		return nil, ev.fail(root, "", err)
	}
	return r, nil
}

// The depth limits, in operations applied one over another (lang.Depth:
// a + b + c is 2 deep, x[0][1] 2). The work of the interpreter is linear in
// the expression, but some of laze's passes over a tree grow with the
// square of its depth: pushing views down names each pushed view by all
// the views above it, and package grad asks every node its shape, which
// checks the whole tree below it. These limits keep those passes to about
// a second: 10,000 chained subscripts evaluate in about 0.4 s, and grad of
// 1,000 takes about 0.7 s, where 10,000 would take minutes.
const (
	// MaxEvalDepth is the deepest expression Run evaluates.
	MaxEvalDepth = 10000
	// MaxGradDepth is the deepest expression Grad differentiates.
	MaxGradDepth = 1000
)

// parseWithin parses src and refuses a parse deeper than limit, the limit
// of command cmd.
func parseWithin(src string, limit int, cmd string) (lang.Node, error) {
	root, err := lang.Parse(src)
	if err != nil {
		return nil, err
	}
	if d := lang.Depth(root); d > limit {
		pos, end := root.Span()
		return nil, &Error{Pos: pos, End: end, Msg: fmt.Sprintf("the expression is %d operations deep (one applied over another: a + b + c is 2, x[0][1] is 2); %s accepts at most %d", d, cmd, limit)}
	}
	return root, nil
}

// moveInputs copies the inputs to dev (none is copied for the CPU).
func moveInputs(inputs map[string]Input, dev alloc.Device) (map[string]Input, error) {
	if dev.IsCPU() {
		return inputs, nil
	}
	moved := make(map[string]Input, len(inputs))
	for name, in := range inputs {
		t, err := kitFor(in.DType).toDevice(in.Tensor, dev)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", name, err)
		}
		moved[name] = Input{DType: in.DType, Tensor: t}
	}
	return moved, nil
}

var stepLabel = regexp.MustCompile(`(?m)^step \d+:`)

// renumber numbers the steps of plans joined together in one sequence.
func renumber(plan string) string {
	n := 0
	return stepLabel.ReplaceAllStringFunc(plan, func(string) string {
		n++
		return fmt.Sprintf("step %d:", n)
	})
}

// evaluator turns a parse into a laze tree.
type evaluator struct {
	src     string
	inputs  map[string]Input
	explain bool
	alloc   alloc.Allocator // where evaluations allocate
	plan    []string        // explain: the computations done while building
	temps   int
	// lazyViews takes every view of an input as a view node over its
	// tensor (expr.T(a)), not a tensor view (a.T()), so that the inputs
	// are the tree's leaves (Grad differentiates with respect to them).
	lazyViews bool
	// eager lists the subexpressions computed while building (x[mask]),
	// which no gradient flows through.
	eager []eagerNode
}

// fail returns an Error at n, saying what failed there.
func (ev *evaluator) fail(n lang.Node, msg string, err error) error {
	pos, end := n.Span()
	if msg == "" {
		msg = ev.src[pos:end]
	}
	return &Error{Pos: pos, End: end, Msg: msg, Err: err}
}

// failf returns an Error at n with a message and no laze error.
func (ev *evaluator) failf(n lang.Node, format string, args ...any) error {
	pos, end := n.Span()
	return &Error{Pos: pos, End: end, Msg: fmt.Sprintf(format, args...)}
}

// text returns n's source.
func (ev *evaluator) text(n lang.Node) string {
	pos, end := n.Span()
	return ev.src[pos:end]
}

func (ev *evaluator) eval(n lang.Node) (value, error) {
	switch n := n.(type) {
	case *lang.Num:
		if n.IsInt {
			return number(pyNum{kind: pyInt, i: n.Int}), nil
		}
		return number(pyNum{kind: pyFloat, f: n.Float}), nil
	case *lang.Name:
		return ev.name(n)
	case *lang.Paren:
		return ev.eval(n.X)
	case *lang.Unary:
		return ev.unary(n)
	case *lang.Binary:
		return ev.binary(n)
	case *lang.Call:
		v, err := ev.call(n)
		if err != nil {
			return value{}, err
		}
		return ev.noTuple(n, v)
	case *lang.Attr:
		return ev.attr(n)
	case *lang.Index:
		return ev.index(n)
	case *lang.Tuple:
		return value{}, ev.failf(n, "%s: a tuple is not an array (tuples go in axis=, reshape and transpose)", ev.text(n))
	}
	return value{}, ev.failf(n, "unsupported syntax")
}

// constants are the names that stand for Python numbers.
var constants = map[string]pyNum{
	"True":  {kind: pyBool, i: 1},
	"False": {kind: pyBool, i: 0},
	"pi":    {kind: pyFloat, f: math.Pi},
	"e":     {kind: pyFloat, f: math.E},
	"inf":   {kind: pyFloat, f: math.Inf(1)},
	"nan":   {kind: pyFloat, f: math.NaN()},
}

// numpyConstants are the numbers NumPy names: np.pi, np.e, np.inf, np.nan.
var numpyConstants = map[string]pyNum{
	"pi":  {kind: pyFloat, f: math.Pi},
	"e":   {kind: pyFloat, f: math.E},
	"inf": {kind: pyFloat, f: math.Inf(1)},
	"nan": {kind: pyFloat, f: math.NaN()},
}

// name resolves an input (which shadows a constant of the same name), or
// one of NumPy's constants written np.NAME (which no input shadows).
func (ev *evaluator) name(n *lang.Name) (value, error) {
	if n.NumPy {
		if c, ok := numpyConstants[n.Name]; ok {
			return number(c), nil
		}
		known := slices.Sorted(maps.Keys(numpyConstants))
		return value{}, ev.failf(n, "unknown NumPy name \"np.%s\" (known: np.%s; np.newaxis inside a subscript)", n.Name, strings.Join(known, ", np."))
	}
	if in, ok := ev.inputs[n.Name]; ok {
		k := kitFor(in.DType)
		return value{dt: in.DType, s: k.shapeOf(in.Tensor), node: k.named(n.Name, in.Tensor)}, nil
	}
	if c, ok := constants[n.Name]; ok {
		return number(c), nil
	}
	names := make([]string, 0, len(ev.inputs))
	for name := range ev.inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	have := "there are no inputs"
	if len(names) > 0 {
		have = "the inputs are " + strings.Join(names, ", ")
	}
	return value{}, ev.failf(n, "unknown name %q (%s; add one with -i %s=file.npy or -rand %s=2x3)", n.Name, have, n.Name, n.Name)
}

func (ev *evaluator) unary(n *lang.Unary) (value, error) {
	x, err := ev.eval(n.X)
	if err != nil {
		return value{}, err
	}
	if n.Op == "~" {
		return ev.invert(n, x)
	}
	switch {
	case n.Op == "+":
		return x, nil
	case x.py != nil && x.py.kind == pyFloat:
		return number(pyNum{kind: pyFloat, f: -x.py.f}), nil
	case x.py != nil:
		if x.py.i == math.MinInt64 {
			return value{}, ev.failf(n, "%s: integer overflow", ev.text(n))
		}
		return number(pyNum{kind: pyInt, i: -x.py.i}), nil
	case x.dt == Bool:
		return value{}, ev.failf(n, "%s: negating a bool array is not supported, as in NumPy (use ~ in NumPy, or 1 - x here)", ev.text(n))
	}
	return ev.apply(n, ops.Neg, x.dt, x.dt, x)
}

// invert builds ~x: the bitwise complement of an integer, logical not of a
// bool (as NumPy's invert), an error for floats; a Python int folds as
// Python's ~ (-x - 1, bools included).
func (ev *evaluator) invert(n lang.Node, x value) (value, error) {
	switch {
	case x.py != nil && x.py.kind == pyFloat || x.py == nil && x.dt.IsFloat():
		return value{}, ev.failf(n, "%s: ~ (bitwise invert) is defined for integers and bools, not for floats, as in NumPy", ev.text(n))
	case x.py != nil:
		return number(pyNum{kind: pyInt, i: ^x.py.i}), nil
	case x.dt == Bool:
		return ev.apply(n, ops.LogicalNot, Bool, Bool, x)
	}
	return ev.apply(n, ops.Invert, x.dt, x.dt, x)
}

// apply builds op over args computed in dtype compute, giving dtype out
// (a comparison's result is bool), with the broadcast shape.
func (ev *evaluator) apply(n lang.Node, op ops.Op, compute, out DType, args ...value) (value, error) {
	shapes := make([]shape.Shape, len(args))
	nodes := make([]any, len(args))
	for i, a := range args {
		shapes[i], nodes[i] = a.s, a.as(compute)
	}
	if !op.Def().Domain.Accepts(compute.IsFloat()) {
		return value{}, ev.failf(n, "%s: %s is defined for %s only, not %s, as in NumPy", ev.text(n), op, op.Def().Domain, compute)
	}
	s, err := shape.Broadcast(shapes...)
	if err != nil {
		return value{}, ev.fail(n, "", err)
	}
	node := kitFor(compute).op(op, nodes...)
	if out != compute {
		node = kitFor(out).convert(node)
	}
	return value{dt: out, s: s, node: node}, nil
}

// binaryOps maps the arithmetic and comparison operators to ops: the
// binary ops of the op table that print infix (Def.Infix).
var binaryOps = infixOps()

func infixOps() map[string]ops.Op {
	m := map[string]ops.Op{}
	for _, op := range ops.All() {
		if def := op.Def(); def.Arity == 2 && def.Infix != "" {
			m[def.Infix] = op
		}
	}
	return m
}

func (ev *evaluator) binary(n *lang.Binary) (value, error) {
	x, err := ev.eval(n.X)
	if err != nil {
		return value{}, err
	}
	y, err := ev.eval(n.Y)
	if err != nil {
		return value{}, err
	}
	if n.Op == "@" {
		return ev.matmul(n, x, y)
	}
	return ev.arith(n, binaryOps[n.Op], x, y)
}

// arith builds x op y for an operator's op (or its NumPy function: add,
// less…), with NumPy's dtype rules: two Python numbers fold as Python
// computes them, comparisons give bool, / on integers gives float64.
func (ev *evaluator) arith(n lang.Node, op ops.Op, x, y value) (value, error) {
	if x.py != nil && y.py != nil {
		p, err := foldPython(op.Def().Infix, *x.py, *y.py)
		if err != nil {
			return value{}, ev.failf(n, "%s: %v", ev.text(n), err)
		}
		return number(p), nil
	}
	d, err := resultType(x, y)
	if err != nil {
		return value{}, ev.failf(n, "%s: %v", ev.text(n), err)
	}
	switch {
	case op.Def().Arity == 2 && isComparison(op):
		return ev.apply(n, op, d, Bool, x, y)
	case op == ops.Div && !d.IsFloat():
		return ev.apply(n, op, Float64, Float64, x, y)
	case d == Bool:
		return ev.boolArith(n, op, x, y)
	}
	return ev.apply(n, op, d, d, x, y)
}

func isComparison(op ops.Op) bool {
	return op == ops.Eq || op == ops.Ne || op == ops.Lt || op == ops.Le || op == ops.Gt || op == ops.Ge
}

// boolArith follows NumPy on two bool arrays: + is or, * is and, - is an
// error, and //, %, ** compute in int8.
func (ev *evaluator) boolArith(n lang.Node, op ops.Op, x, y value) (value, error) {
	switch op {
	case ops.Add:
		return ev.apply(n, ops.Maximum, Bool, Bool, x, y)
	case ops.Mul:
		return ev.apply(n, ops.Mul, Bool, Bool, x, y)
	case ops.Sub:
		return value{}, ev.failf(n, "%s: subtracting bool arrays is not supported, as in NumPy (use != for xor)", ev.text(n))
	case ops.BitwiseAnd, ops.BitwiseOr, ops.BitwiseXor:
		return ev.apply(n, op, Bool, Bool, x, y) // on 0 and 1: logical and, or, xor
	}
	return ev.apply(n, op, Int8, Int8, x, y)
}

// foldPython computes an operator on two Python numbers as Python does.
func foldPython(op string, x, y pyNum) (pyNum, error) {
	if op == "@" {
		return pyNum{}, errors.New("matmul needs arrays, not numbers")
	}
	if isComparison(binaryOps[op]) {
		return pyNum{kind: pyBool, i: b2i(ops.Apply(binaryOps[op], x.float(), y.float(), 0) != 0)}, nil
	}
	bitwise := op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>"
	switch {
	case bitwise && (x.kind == pyFloat || y.kind == pyFloat):
		return pyNum{}, fmt.Errorf("unsupported operand type(s) for %s: %s and %s", op, x.typeName(), y.typeName())
	case bitwise && x.kind == pyBool && y.kind == pyBool && op != "<<" && op != ">>":
		p, _ := foldInt(op, x.i, y.i)
		return pyNum{kind: pyBool, i: p.i}, nil // True & False is False, as in Python
	case x.kind != pyFloat && y.kind != pyFloat && op != "/":
		return foldInt(op, x.i, y.i)
	}
	a, b := x.float(), y.float()
	if b == 0 && (op == "/" || op == "//" || op == "%") {
		return pyNum{}, errors.New("division by zero")
	}
	if op == "**" && a == 0 && b < 0 {
		return pyNum{}, errors.New("0.0 cannot be raised to a negative power")
	}
	var r float64
	switch op {
	case "//":
		r = scalar.FloorDiv(a, b)
	case "%":
		r = scalar.Mod(a, b)
	default:
		r = ops.Apply(binaryOps[op], a, b, 0)
	}
	return pyNum{kind: pyFloat, f: r}, nil
}

// foldInt computes Python integer arithmetic, refusing results beyond 64
// bits (Python's integers are unbounded; laze's are not).
func foldInt(op string, a, b int64) (pyNum, error) {
	if b == 0 && (op == "//" || op == "%") {
		return pyNum{}, errors.New("integer division or modulo by zero")
	}
	if op == "**" && b < 0 {
		return foldPython(op, pyNum{kind: pyFloat, f: float64(a)}, pyNum{kind: pyFloat, f: float64(b)})
	}
	x, y, r := big.NewInt(a), big.NewInt(b), new(big.Int)
	switch op {
	case "&":
		return pyNum{kind: pyInt, i: a & b}, nil
	case "|":
		return pyNum{kind: pyInt, i: a | b}, nil
	case "^":
		return pyNum{kind: pyInt, i: a ^ b}, nil
	case "<<", ">>":
		if b < 0 {
			return pyNum{}, errors.New("negative shift count")
		}
		if op == ">>" {
			return pyNum{kind: pyInt, i: a >> min(b, 63)}, nil
		}
		r.Lsh(x, uint(min(b, 64)))
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "//":
		if a == math.MinInt64 && b == -1 {
			return pyNum{}, errors.New("the result 9223372036854775808 does not fit in 64 bits")
		}
		return pyNum{kind: pyInt, i: scalar.Div(a, b)}, nil
	case "%":
		return pyNum{kind: pyInt, i: scalar.Mod(a, b)}, nil
	case "**":
		if b > 64 && a != 0 && a != 1 && a != -1 {
			return pyNum{}, fmt.Errorf("%d ** %d does not fit in 64 bits", a, b)
		}
		r.Exp(x, y, nil)
	}
	if !r.IsInt64() {
		return pyNum{}, fmt.Errorf("the result %v does not fit in 64 bits", r)
	}
	return pyNum{kind: pyInt, i: r.Int64()}, nil
}

// matmul builds x @ y; bool matrices multiply as NumPy's (or of ands).
func (ev *evaluator) matmul(n *lang.Binary, x, y value) (value, error) {
	if x.py != nil || y.py != nil {
		return value{}, ev.failf(n, "%s: matmul needs arrays of at least one dimension, not numbers (use * to scale)", ev.text(n))
	}
	g, err := expr.ProductShape(x.s, y.s)
	if err != nil {
		return value{}, ev.fail(n, "", err)
	}
	d, _ := resultType(x, y)
	compute := d
	if d == Bool {
		compute = Int64
	}
	node := kitFor(compute).matmul(x.as(compute), y.as(compute))
	v := value{dt: compute, s: g.Result, node: node}
	if d == Bool {
		return value{dt: Bool, s: g.Result, node: v.as(Bool)}, nil
	}
	return v, nil
}
