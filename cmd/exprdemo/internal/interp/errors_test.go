package interp

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/shape"
)

// TestErrors checks that each bad expression fails with an Error at the
// right column that says what is wrong, reaching laze's typed error where
// there is one.
func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		col  int
		says string
		is   error // a laze error kind, or nil
	}{
		{"a + zz", 5, `unknown name "zz"`, nil},
		{"a + f[:2]", 1, "cannot be broadcast", shape.ErrBroadcast},
		{"a @ a", 1, "inner dimensions differ", shape.ErrShape},
		{"a @ 2", 1, "matmul needs arrays", nil},
		{"1 @ 2", 1, "matmul needs arrays", nil},
		{"a[2]", 3, "out of range", shape.ErrIndex},
		{"a[0, 0, 0]", 1, "too many indices", nil},
		{"a[..., ...]", 8, "single ellipsis", nil},
		{"a[::0]", 3, "step cannot be zero", nil},
		{"a[1.5]", 3, "an index must be an integer", nil},
		{"a[f]", 3, "arrays used as indices must be of integer (or boolean) type", nil},
		{"3[0]", 1, "cannot be indexed", nil},
		{"(3).T", 1, "(3) is a number", nil},
		{"a.shape", 1, `unknown attribute "shape"`, nil},
		{"a.foo()", 3, `unknown method "foo"`, nil},
		{"a.x", 1, `unknown attribute "x"`, nil},
		{"exp.T", 1, `unknown name "exp"`, nil},
		{"frobnicate(a)", 1, `unknown function "frobnicate"`, nil},
		{"a.where(a, a)", 3, `unknown method "where"`, nil},
		{"exp(a, a)", 1, "exp takes 1 argument, not 2", nil},
		{"where(a, a)", 1, "where takes 1 or 3 arguments, not 2", nil},
		{"sum(a, axis=0, axis=1)", 16, "given twice", nil},
		{"sum(a, 0, axis=1)", 1, "axis given twice", nil},
		{"sum(a, ddof=1)", 8, "no keyword argument \"ddof\"", nil},
		{"sum(a, axis=5)", 1, "out of range", shape.ErrDimension},
		{"sum(a, axis=(0, 0))", 1, "sum", shape.ErrInvalid},
		{"sum(a, axis=1.5)", 13, "an axis must be an integer", nil},
		{"sum(a, keepdims=2.5)", 17, "want True or False", nil},
		{"argmax(a, axis=(0, 1))", 16, "one axis or None", nil},
		{"max(a[:, :0])", 1, "zero-size array to reduction operation max", nil},
		{"a.transpose(0)", 1, "do not match an array of 2 dimensions", nil},
		{"a.transpose(0, 0)", 1, "repeated", nil},
		{"a.transpose(0, 5)", 1, "out of bounds", nil},
		{"a.reshape(4, -1)", 1, "", shape.ErrShape},
		{"a.reshape(x)", 11, `unknown name "x"`, nil},
		// NumPy's views: each error names the axis, the rank or the shapes.
		{"np.flip(a, 2)", 1, "axis 2 is out of bounds for an array of 2 dimensions", nil},
		{"np.flip(a + 1, (0, -2))", 1, "axis -2 is repeated in (0,-2)", nil},
		{"np.arange(0, 1, 0)", 1, "arange: step = 0: must not be zero", shape.ErrInvalid},
		{"np.zeros((2, -1))", 1, "full: shape[1] = -1: a dimension size must not be negative", shape.ErrInvalid},
		{"np.eye(2, dtype=np.complex64)", 17, "dtype= takes a dtype name", nil},
		{"np.linspace(0, a)", 16, "stop must be a number, not an array", nil},
		{"np.full_like(1)", 1, "", nil},
		{"np.squeeze(a, 0)", 1, "cannot squeeze axis 0 of size 2 (shape (2,3))", nil},
		{"(a + 1)[None].squeeze(axis=(0, -2))", 1, "cannot squeeze axis 1 of size 2 (shape (1,2,3))", nil},
		{"a[None].squeeze((0, 0))", 1, "axis 0 is repeated in (0,0)", nil},
		{"np.squeeze(a[None], axis=3)", 1, "axis 3 is out of bounds for an array of 3 dimensions", nil},
		{"np.expand_dims(a, 3)", 1, "axis 3 is out of bounds for the result of 3 dimensions", nil},
		{"np.expand_dims(f, (0, -3))", 1, "axis -3 is repeated in (0,-3) (the result of 3 dimensions)", nil},
		{"np.expand_dims(a)", 1, "expand_dims needs axis=", nil},
		{"np.broadcast_to(a, (4, 3))", 1, "cannot broadcast an array of shape (2,3) to shape (4,3): its dimension 0 has size 2, not 1 or 4", nil},
		{"np.broadcast_to(a * 2, 3)", 1, "cannot broadcast an array of shape (2,3) to shape (3,): it has more dimensions (2) than the shape (1)", nil},
		{"np.broadcast_to(f, (-1, 3))", 1, "all elements of the shape (-1,3) must be non-negative", nil},
		{"np.broadcast_to(f, (1 << 40, 1 << 40, 1 << 40, 3))", 1, "overflows", shape.ErrOverflow},
		{"np.swapaxes(a, 0, 2)", 1, "axis2: axis 2 is out of bounds for an array of 2 dimensions", nil},
		{"a.swapaxes(0)", 1, "swapaxes needs axis2=", nil},
		{"np.moveaxis(a, (0,), (1, 0))", 1, "source (0,) and destination (1,0) must have the same number of elements", nil},
		{"np.moveaxis(a, (0, 0), (1, 0))", 1, "source: axis 0 is repeated in (0,0)", nil},
		{"np.moveaxis(a, 0, -3)", 1, "destination: axis -3 is out of bounds for an array of 2 dimensions", nil},
		{"np.moveaxis(a, 0, None)", 19, "destination=None is not allowed", nil},
		{"np.diagonal(f)", 1, "diagonal needs an array of at least 2 dimensions, not 1 (shape (3,))", nil},
		{"np.diagonal(a, 0, 1, -1)", 1, "axis1 (1) and axis2 (-1) are the same axis of an array of 2 dimensions", nil},
		{"(a - 1).diagonal(axis2=5)", 1, "axis2: axis 5 is out of bounds for an array of 2 dimensions", nil},
		{"np.diagonal(a, 1.5)", 16, "offset must be an integer", nil},
		{"np.diagonal(a, 1, offset=2)", 1, "offset given twice", nil},
		{"np.fliplr(f)", 1, "fliplr needs an array of at least 2 dimensions, not 1 (shape (3,))", nil},
		{"np.flipud(3)", 1, "flipud needs an array of at least 1 dimension, not 0 (shape ())", nil},
		{"np.ravel(None)", 1, "ravel needs an array, not None", nil},
		{"(3).ravel()", 1, "(3) is a number", nil},
		{"flatten(a)", 1, `unknown function "flatten"`, nil},
		{"a.flip()", 3, `unknown method "flip"`, nil},
		{"a.flat", 1, "methods: all, any, argmax, argmin, argsort, astype, clip, cumprod, cumsum, diagonal, dot, flatten", nil},
		{"-b", 1, "negating a bool array", nil},
		{"b - b", 1, "subtracting bool arrays", nil},
		{"u + 300", 1, "Python integer 300 out of bounds for uint8", nil},
		{"u + -1", 1, "Python integer -1 out of bounds for uint8", nil},
		{"int8(300)", 1, "out of bounds for int8", nil},
		{"1 / 0", 1, "division by zero", nil},
		{"1 // 0", 1, "integer division or modulo by zero", nil},
		{"1.5 % 0", 1, "division by zero", nil},
		{"0.0 ** -1", 1, "negative power", nil},
		{"i ** -1", 1, "exponent = -1: integers to negative integer powers are not allowed", shape.ErrInvalid},
		{"s ** (h - 3)", 1, "exponent at index (0,) = -2: integers to negative integer powers", shape.ErrInvalid},
		{"2 * (i ** (i - 1))", 1, "exponent at index (0,0) = -1", shape.ErrInvalid},
		{"9223372036854775807 + 1", 1, "does not fit in 64 bits", nil},
		{"2 ** 100", 1, "does not fit in 64 bits", nil},
		{"-(-9223372036854775807 - 1)", 1, "integer overflow", nil},
		{"(-9223372036854775807 - 1) // -1", 1, "does not fit", nil},
		{"(1, 2) + a", 1, "a tuple is not an array", nil},
		{"clip(None, 1, 2)", 1, "needs an array to clip", nil},
		{"clip(a, None, None)", 1, "at least one of the bounds", nil},
		{"exp(None)", 1, "cannot be None", nil},
		{"sqrt(a - 10) + sqrt(i) @ 2", 16, "matmul needs arrays", nil},
	}
	in := testInputs(t)
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := Run(tt.src, in, false)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Run = %v, want an *Error", err)
			}
			if col := lang.Column(tt.src, e.Pos); col != tt.col || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("column %d %q, want column %d saying %q", col, err, tt.col, tt.says)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not match %v", err, tt.is)
			}
		})
	}
	if _, err := Run("a +", in, false); !errors.As(err, new(*lang.SyntaxError)) {
		t.Errorf("a syntax error comes back as %T", err)
	}
}

// TestInputs checks NewInput's dtypes and that inputs shadow constants.
func TestInputs(t *testing.T) {
	for _, tt := range []struct {
		t      any
		isBool bool
		want   DType
	}{
		{vec([]uint8{1}), true, Bool}, {vec([]uint8{1}), false, Uint8}, {vec([]int16{1}), false, Int16},
		{vec([]uint32{1}), false, Uint32}, {vec([]int64{1}), false, Int64}, {vec([]float64{1}), false, Float64},
	} {
		in, err := NewInput(tt.t, tt.isBool)
		if err != nil || in.DType != tt.want {
			t.Errorf("NewInput(%T) = %v, %v; want %v", tt.t, in.DType, err, tt.want)
		}
	}
	if _, err := NewInput(vec([]int{1}), false); err == nil {
		t.Errorf("NewInput of a Tensor[int] succeeded")
	}
	r, err := Run("pi + e", map[string]Input{"e": {Float64, vec([]float64{1})}}, false)
	if err != nil || !r.Shape.Equal(shape.Of(1)) {
		t.Errorf("an input named e must shadow the constant: %v %v", r, err)
	}
	if _, ok := ParseDType("float16"); ok {
		t.Errorf("float16 parsed")
	}
	if DType(42).String() != "dtype(42)" {
		t.Errorf("DType(42) = %s", DType(42))
	}
}

// FuzzRun evaluates arbitrary expressions over the test inputs: no input
// may panic, and every error must be a SyntaxError or an Error with a
// position inside the expression.
func FuzzRun(f *testing.F) {
	for _, tt := range numpyTable {
		f.Add(tt.src)
	}
	for _, s := range []string{"a[1:, None, ..., ::-1]", "sum(a.T @ a, axis=(0, 1), keepdims=True)", "where(b, u, s) // 3", "a.reshape(3, 2).transpose()"} {
		f.Add(s)
	}
	// Once super-linear (TestWorkIsLinear): a chain of views of a computed
	// value, and nested subscripts whose innermost item fails.
	f.Add("(a+1)" + strings.Repeat("[::-1]", 30))
	f.Add(strings.Repeat("a[", 16) + "zz" + strings.Repeat("]", 16))
	in := testInputs(f)
	broadcastLimit = 1 << 16 // keeps the shapes broadcast_to makes small too
	f.Cleanup(func() { broadcastLimit = 0 })
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 200 {
			return // keeps shapes (and time) small
		}
		_, err := Run(src, in, len(src)%2 == 0)
		if err == nil {
			return
		}
		var se *lang.SyntaxError
		var e *Error
		switch {
		case errors.As(err, &se):
			if se.Pos < 0 || se.Pos > len(src) {
				t.Fatalf("%q: syntax error at %d, outside the source", src, se.Pos)
			}
		case errors.As(err, &e):
			if e.Pos < 0 || e.End > len(src) || e.Pos > e.End {
				t.Fatalf("%q: error at [%d, %d), outside the source", src, e.Pos, e.End)
			}
		default:
			t.Fatalf("%q: error %T without a position: %v", src, err, err)
		}
	})
}

func TestRunWithUnopenedDevice(t *testing.T) {
	_, err := RunWith("1 + 2", nil, Options{Device: alloc.CUDA(11)})
	if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cuda:11") {
		t.Errorf("RunWith on a device nobody opened: %v; want a DeviceError naming it", err)
	}
}

// TestLazeError sorts recovered panic values: laze's typed errors are
// errors to report, anything else a bug.
func TestLazeError(t *testing.T) {
	overflow := &shape.OverflowError{Op: "Empty", Shape: shape.Of(1<<30, 1<<30, 1<<30), What: "element count"}
	tests := []struct {
		name string
		v    any
		laze bool
	}{
		{"OverflowError", overflow, true},
		{"wrapped", fmt.Errorf("laze: Eval: %w", overflow), true},
		{"laze message", errors.New("laze: Alloc: out of memory"), true},
		{"other error", errors.New("boom"), false},
		{"string", "laze: not an error value", false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		got := LazeError(tt.v)
		if tt.laze && got != tt.v || !tt.laze && got != nil {
			t.Errorf("%s: LazeError(%v) = %v; want it as an error: %v", tt.name, tt.v, got, tt.laze)
		}
	}
}

// TestEvaluateTooLarge evaluates into a destination whose constructor
// panics with an OverflowError: the kit returns it as an error.
func TestEvaluateTooLarge(t *testing.T) {
	k := kitFor(Float64)
	_, err := k.evaluate(k.constant(1, 1, false), shape.Of(math.MaxInt/4+1, 4), alloc.Default())
	var oe *shape.OverflowError
	if !errors.As(err, &oe) {
		t.Errorf("evaluate into (MaxInt/4+1, 4) float64 = %v, want an OverflowError", err)
	}
}
