package interp

import (
	"slices"

	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/internal/ops"
)

// The elementwise functions come from the op table (internal/ops): each op
// is offered under the names of its CLI column (its NumPy name by default),
// and tableBuilder picks how its result's dtype follows NumPy's from the
// row, so that a new row needs no edit here.

// builder builds a function's node from its evaluated arguments.
type builder = func(*evaluator, *lang.Call, []value, map[string]lang.Node) (value, error)

// CLINames returns the names the CLI offers op under.
func CLINames(op ops.Op) []string {
	if names := op.Def().CLI; len(names) > 0 {
		return names
	}
	return []string{op.String()}
}

// ElementwiseNames lists the CLI names of every op of the table, in table
// order, for the usage text.
func ElementwiseNames() []string {
	var names []string
	for _, op := range ops.All() {
		names = append(names, CLINames(op)...)
	}
	return names
}

// tableBuilder returns how the CLI builds op's function called name.
func tableBuilder(name string, op ops.Op) builder {
	def := op.Def()
	switch {
	case op == ops.Where:
		return where
	case op == ops.Clamp:
		return clip
	case op == ops.Invert:
		return invertFunction
	case op == ops.Ldexp:
		return ldexp
	case op == ops.FloatPower:
		return float64Function(op)
	case op == ops.Positive && name == "positive":
		return positive
	case def.Domain == ops.IntOnly && def.Infix == "":
		return integerFunction(op) // gcd, lcm
	case def.Arity == 2 && def.Infix != "":
		return operatorFunction(op) // add, less…: as the operator
	case def.Truth && op == ops.LogicalNot || def.Truth && def.Arity == 2:
		return logical(op)
	case def.Truth:
		return predicate(op)
	case def.Domain == ops.FloatOnly || slices.Contains(def.CLIFloat, name):
		return floatFunction(op) // the op table's columns: NumPy's rint has float loops only
	case def.Arity == 2:
		return elementwise(op)
	case def.CLIKeepsDType:
		return keepType(op) // round keeps integers' dtype, as NumPy's does; stop_gradient is the identity
	}
	return integerOnBool(op)
}

// operatorFunction builds an operator's NumPy function (add(x, y) is x + y).
func operatorFunction(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		return ev.arith(c, op, args[0], args[1])
	}
}

// logical builds logical_and, logical_or, logical_xor and logical_not: the
// arguments as bools (nonzero, NaN included, is true), a bool result.
func logical(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		bools := make([]value, len(args))
		for i, a := range args {
			bools[i] = value{dt: Bool, s: a.s, node: a.strong().as(Bool)}
		}
		return ev.apply(c, op, Bool, Bool, bools...)
	}
}

// predicate builds isnan, isinf, isfinite: computed in the argument's
// dtype, a bool result.
func predicate(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		return ev.apply(c, op, x.dt, Bool, x)
	}
}

// integerOnBool builds a unary op that keeps its argument's dtype, except
// that bools compute in int8, as NumPy's ufuncs without a bool loop do
// (square, sign, reciprocal); negative refuses bools, as the - operator.
func integerOnBool(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		x := args[0].strong()
		switch {
		case x.dt == Bool && op == ops.Neg:
			return value{}, ev.failf(c, "%s: negating a bool array is not supported, as in NumPy", ev.text(c))
		case x.dt == Bool:
			return ev.apply(c, op, Int8, Int8, x)
		}
		return ev.apply(c, op, x.dt, x.dt, x)
	}
}

// invertFunction builds invert (bitwise_not): the operator ~.
func invertFunction(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	return ev.invert(c, args[0])
}

// positive builds positive, which NumPy refuses for bools (conj and
// conjugate, the same op, compute them in int8).
func positive(ev *evaluator, c *lang.Call, args []value, kw map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	if x := args[0].strong(); x.dt == Bool {
		return value{}, ev.failf(c, "%s: positive is not defined for bool arrays, as in NumPy", ev.text(c))
	}
	return integerOnBool(ops.Positive)(ev, c, args, kw)
}

// integerFunction builds gcd and lcm: the arguments promoted together, which
// must give an integer dtype (NumPy has no bool or float loop for them).
func integerFunction(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		d, err := resultType(args...)
		if err != nil {
			return value{}, ev.failf(c, "%s: %v", ev.text(c), err)
		}
		if d == Bool || d.IsFloat() {
			return value{}, ev.failf(c, "%s: %s is defined for integers only, not %s, as in NumPy", ev.text(c), op, d)
		}
		return ev.apply(c, op, d, d, args...)
	}
}

// float64Function builds float_power: computed in float64 whatever the
// operands' dtypes, as NumPy's is.
func float64Function(op ops.Op) builder {
	return func(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
		if err := noneArgs(ev, c, args); err != nil {
			return value{}, err
		}
		return ev.apply(c, op, Float64, Float64, args...)
	}
}

// ldexp builds ldexp(x, n): n of an integer or bool dtype (or a Python
// int), the result in x's float dtype (floatFor of an integer x), as
// NumPy's loops (float, int) -> float.
func ldexp(ev *evaluator, c *lang.Call, args []value, _ map[string]lang.Node) (value, error) {
	if err := noneArgs(ev, c, args); err != nil {
		return value{}, err
	}
	x, n := args[0], args[1]
	if n.py != nil && n.py.kind == pyFloat || n.py == nil && n.dt.IsFloat() {
		return value{}, ev.failf(c, "%s: ldexp's exponent must be an integer, not a float, as in NumPy", ev.text(c))
	}
	d := Float64
	if x.py == nil {
		d = floatFor(x.dt)
	}
	return ev.apply(c, ops.Ldexp, d, d, x, n)
}
