package interp

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
)

// pyKind is the type of a Python number.
type pyKind int

const (
	pyBool pyKind = iota
	pyInt
	pyFloat
)

// pyNum is a Python number: a literal, a constant, or arithmetic on them.
// It is "weak" (NEP 50): meeting an array, it takes the array's dtype
// where its kind allows.
type pyNum struct {
	kind pyKind
	i    int64 // bool and int
	f    float64
}

func (p pyNum) float() float64 {
	if p.kind == pyFloat {
		return p.f
	}
	return float64(p.i)
}

// dtype is the dtype NumPy gives the number on its own (np.asarray).
func (p pyNum) dtype() DType {
	switch p.kind {
	case pyBool:
		return Bool
	case pyInt:
		return Int64
	}
	return Float64
}

// typeName is the number's Python type, for messages.
func (p pyNum) typeName() string {
	return [...]string{pyBool: "'bool'", pyInt: "'int'", pyFloat: "'float'"}[p.kind]
}

// String writes the number as Python does.
func (p pyNum) String() string {
	switch p.kind {
	case pyBool:
		if p.i != 0 {
			return "True"
		}
		return "False"
	case pyInt:
		return fmt.Sprint(p.i)
	}
	return fmt.Sprint(p.f)
}

// value is what an expression evaluates to while the tree is built: an
// array (a laze node of dtype dt and shape s) or a Python number.
type value struct {
	dt   DType
	s    shape.Shape
	node any    // expr.Exp[T] of kitFor(dt)'s T; nil for a Python number
	py   *pyNum // the Python number, or nil for an array
	// tuple holds the arrays of a tuple (nonzero, unique with
	// return_counts: searching.go), which only a subscript or the whole
	// expression may be; nil otherwise.
	tuple []value
}

func number(p pyNum) value { return value{dt: p.dtype(), s: shape.Shape{}, py: &p} }

// as returns v's node in dtype d: v's own node, a conversion of it, or, for
// a Python number, a constant (whose range the caller checked). To bool,
// the values compare with 0 first (bool(x) is x != 0).
func (v value) as(d DType) any {
	k := kitFor(d)
	if v.py != nil {
		if d == Bool {
			return k.constant(0, b2i(v.py.float() != 0), true)
		}
		return k.constant(v.py.f, v.py.i, v.py.kind != pyFloat)
	}
	if d == v.dt {
		return v.node
	}
	if d == Bool {
		own := kitFor(v.dt)
		return k.convert(own.op(ops.Ne, v.node, own.constant(0, 0, true)))
	}
	return k.convert(v.node)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// strong returns v as an array: a Python number becomes a 0-d array of
// its own dtype.
func (v value) strong() value {
	if v.py == nil {
		return v
	}
	return value{dt: v.dt, s: shape.Shape{}, node: v.as(v.dt)}
}

// weakType is the dtype of a Python number p meeting an array of dtype d
// (NEP 50), with the error NumPy 2 gives for an integer out of d's range.
func weakType(p pyNum, d DType) (DType, error) {
	switch {
	case p.kind == pyFloat && !d.IsFloat():
		return Float64, nil
	case p.kind == pyInt && d == Bool:
		return Int64, nil
	case p.kind == pyInt && d.IsInteger():
		lo, hi := intRange(d)
		if float64(p.i) < lo || float64(p.i) > hi {
			return 0, fmt.Errorf("Python integer %d out of bounds for %s", p.i, d)
		}
	}
	return d, nil
}

// intRange is the range of an integer dtype, as floats.
func intRange(d DType) (lo, hi float64) {
	b := d.Bits()
	if d.IsUnsigned() {
		return 0, math.Exp2(float64(b)) - 1
	}
	return -math.Exp2(float64(b - 1)), math.Exp2(float64(b-1)) - 1
}

// resultType is the dtype NumPy computes an operation on vs in: the
// arrays' dtypes promoted, then each Python number weakly.
func resultType(vs ...value) (DType, error) {
	var d DType
	arrays := false
	for _, v := range vs {
		if v.py == nil {
			if !arrays {
				d = v.dt
			}
			d, arrays = promote(d, v.dt), true
		}
	}
	if !arrays {
		// Only Python numbers: the widest kind, as Python's own arithmetic.
		for _, v := range vs {
			d = max(d, v.dt)
		}
		return d, nil
	}
	for _, v := range vs {
		if v.py != nil {
			var err error
			if d, err = weakType(*v.py, d); err != nil {
				return 0, err
			}
		}
	}
	return d, nil
}
