package interp

import (
	"testing"

	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for structured.go: the dtypes, shapes and values
// were printed by NumPy 1.24 (/usr/bin/python3) for these expressions on
// testInputs, and TestAgainstNumPy runs them through NumPy again.
func init() {
	numpyTable = append(numpyTable, []numpyRow{
		{"np.tile(a, 2)", Float64, shape.Of(2, 6), []float64{0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 3.0, 4.0, 5.0}, false, false},
		{"np.tile(i, (2, 1, 1))", Int32, shape.Of(2, 2, 3), []float64{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, false, false},
		{"np.tile(b, (2,))", Bool, shape.Of(6), []float64{1, 0, 1, 1, 0, 1}, false, false},
		{"np.tile(3, 2)", Int64, shape.Of(2), []float64{3, 3}, false, false},
		{"np.tile(f, 0)", Float32, shape.Of(0), []float64{}, false, false},
		{"np.repeat(a, 2)", Float64, shape.Of(12), []float64{0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0}, false, false},
		{"np.repeat(i, 2, axis=0)", Int32, shape.Of(4, 3), []float64{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, false, false},
		{"a.repeat(2, axis=-1)", Float64, shape.Of(2, 6), []float64{0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0}, false, false},
		{"np.repeat(u, 0)", Uint8, shape.Of(0), []float64{}, false, false},
		{"np.repeat(h, repeats=3)", Int16, shape.Of(9), []float64{1, 1, 1, 2, 2, 2, 3, 3, 3}, false, false},
		{"np.roll(a, 1)", Float64, shape.Of(2, 3), []float64{5.0, 0.0, 1.0, 2.0, 3.0, 4.0}, false, false},
		{"np.roll(a, -1, axis=1)", Float64, shape.Of(2, 3), []float64{1.0, 2.0, 0.0, 4.0, 5.0, 3.0}, false, false},
		{"np.roll(i, (1, 1), axis=(0, 1))", Int32, shape.Of(2, 3), []float64{5, 3, 4, 2, 0, 1}, false, false},
		{"np.roll(a, (1, 2), axis=1)", Float64, shape.Of(2, 3), []float64{0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, false, false},
		{"np.roll(f, 4)", Float32, shape.Of(3), []float64{2.5, 0.5, -1.5}, false, false},
		{"np.roll(a, 2, axis=(0, 1))", Float64, shape.Of(2, 3), []float64{1.0, 2.0, 0.0, 4.0, 5.0, 3.0}, false, false},
		{"np.diff(a)", Float64, shape.Of(2, 2), []float64{1.0, 1.0, 1.0, 1.0}, false, false},
		{"np.diff(a, axis=0)", Float64, shape.Of(1, 3), []float64{3.0, 3.0, 3.0}, false, false},
		{"np.diff(u)", Uint8, shape.Of(2), []float64{11, 251}, false, false},
		{"np.diff(b)", Bool, shape.Of(2), []float64{1, 1}, false, false},
		{"np.diff(i, 2)", Int32, shape.Of(2, 1), []float64{0, 0}, false, false},
		{"np.diff(h, n=0)", Int16, shape.Of(3), []float64{1, 2, 3}, false, false},
		{"np.diff(s)", Int8, shape.Of(2), []float64{-1, -124}, false, false},
		{"np.diff(a, 4)", Float64, shape.Of(2, 0), []float64{}, false, false},
		{"np.diff(a * 2, 1, 0)", Float64, shape.Of(1, 3), []float64{6.0, 6.0, 6.0}, false, false},
		{"np.outer(f, h)", Float32, shape.Of(3, 3), []float64{0.5, 1.0, 1.5, -1.5, -3.0, -4.5, 2.5, 5.0, 7.5}, false, false},
		{"np.outer(b, b)", Bool, shape.Of(3, 3), []float64{1, 0, 1, 0, 0, 0, 1, 0, 1}, false, false},
		{"np.outer(u, 2)", Int64, shape.Of(3, 1), []float64{500, 10, 0}, false, false},
		{"np.outer(a, i)", Float64, shape.Of(6, 6), []float64{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 0.0, 5.0, 10.0, 15.0, 20.0, 25.0}, false, false},
		{"np.trace(a)", Float64, shape.Of(), []float64{4.0}, false, false},
		{"a.trace(1)", Float64, shape.Of(), []float64{6.0}, false, false},
		{"np.trace(i)", Int64, shape.Of(), []float64{4}, false, false},
		{"np.trace(a, -1)", Float64, shape.Of(), []float64{3.0}, false, false},
		{"np.trace(b[None, :], 0, 1, 0)", Int64, shape.Of(), []float64{1}, false, false},
		{"np.trace(u[None, :])", Uint64, shape.Of(), []float64{250}, false, false},
		{"np.diag(f)", Float32, shape.Of(3, 3), []float64{0.5, 0.0, 0.0, 0.0, -1.5, 0.0, 0.0, 0.0, 2.5}, false, false},
		{"np.diag(a, 1)", Float64, shape.Of(2), []float64{1.0, 5.0}, false, false},
		{"np.diag(h, -1)", Int16, shape.Of(4, 4), []float64{0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0}, false, false},
		{"np.diag(b)", Bool, shape.Of(3, 3), []float64{1, 0, 0, 0, 0, 0, 0, 0, 1}, false, false},
		{"np.diag(a + 1)", Float64, shape.Of(2), []float64{1.0, 5.0}, false, false},
		{"np.tril(a)", Float64, shape.Of(2, 3), []float64{0.0, 0.0, 0.0, 3.0, 4.0, 0.0}, false, false},
		{"np.triu(a, 1)", Float64, shape.Of(2, 3), []float64{0.0, 1.0, 2.0, 0.0, 0.0, 5.0}, false, false},
		{"np.tril(i, -1)", Int32, shape.Of(2, 3), []float64{0, 0, 0, 3, 0, 0}, false, false},
		{"np.triu(f)", Float32, shape.Of(3, 3), []float64{0.5, -1.5, 2.5, 0.0, -1.5, 2.5, 0.0, 0.0, 2.5}, false, false},
		{"np.tril(b)", Bool, shape.Of(3, 3), []float64{1, 0, 0, 1, 0, 0, 1, 0, 1}, false, false},
		{"np.triu(a * 2, k=-1)", Float64, shape.Of(2, 3), []float64{0.0, 2.0, 4.0, 6.0, 8.0, 10.0}, false, false},
		{"np.pad(a, 1)", Float64, shape.Of(4, 5), []float64{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, false, false},
		{"np.pad(a, ((1, 0), (0, 2)), mode='edge')", Float64, shape.Of(3, 5), []float64{0.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 5.0}, false, false},
		{"np.pad(i, (1, 2), 'reflect')", Int32, shape.Of(5, 6), []float64{4, 3, 4, 5, 4, 3, 1, 0, 1, 2, 1, 0, 4, 3, 4, 5, 4, 3, 1, 0, 1, 2, 1, 0, 4, 3, 4, 5, 4, 3}, false, false},
		{"np.pad(f, 4, mode='symmetric')", Float32, shape.Of(11), []float64{2.5, 2.5, -1.5, 0.5, 0.5, -1.5, 2.5, 2.5, -1.5, 0.5, 0.5}, false, false},
		{"np.pad(u, (2, 1), mode='wrap')", Uint8, shape.Of(6), []float64{5, 0, 250, 5, 0, 250}, false, false},
		{"np.pad(a, 1, constant_values=-2.5)", Float64, shape.Of(4, 5), []float64{-2.5, -2.5, -2.5, -2.5, -2.5, -2.5, 0.0, 1.0, 2.0, -2.5, -2.5, 3.0, 4.0, 5.0, -2.5, -2.5, -2.5, -2.5, -2.5, -2.5}, false, false},
		{"np.pad(i, ((0,), (1,)), mode='constant', constant_values=7)", Int32, shape.Of(2, 5), []float64{7, 0, 1, 2, 7, 7, 3, 4, 5, 7}, false, false},
		{"np.pad(b, 1, constant_values=True)", Bool, shape.Of(5), []float64{1, 1, 0, 1, 1}, false, false},
		{"np.pad(a * 2, 3, mode='reflect')", Float64, shape.Of(8, 9), []float64{8.0, 10.0, 8.0, 6.0, 8.0, 10.0, 8.0, 6.0, 8.0, 2.0, 4.0, 2.0, 0.0, 2.0, 4.0, 2.0, 0.0, 2.0, 8.0, 10.0, 8.0, 6.0, 8.0, 10.0, 8.0, 6.0, 8.0, 2.0, 4.0, 2.0, 0.0, 2.0, 4.0, 2.0, 0.0, 2.0, 8.0, 10.0, 8.0, 6.0, 8.0, 10.0, 8.0, 6.0, 8.0, 2.0, 4.0, 2.0, 0.0, 2.0, 4.0, 2.0, 0.0, 2.0, 8.0, 10.0, 8.0, 6.0, 8.0, 10.0, 8.0, 6.0, 8.0, 2.0, 4.0, 2.0, 0.0, 2.0, 4.0, 2.0, 0.0, 2.0}, false, false},
		{"np.pad(h, ((2, 3),), 'symmetric')", Int16, shape.Of(8), []float64{2, 1, 1, 2, 3, 3, 2, 1}, false, false},
		{"np.pad(s, 1, constant_values=-1.9)", Int8, shape.Of(5), []float64{-1, -128, 127, 3, -1}, false, false},
		{"np.pad(u, 1, constant_values=300)", Uint8, shape.Of(5), []float64{44, 250, 5, 0, 44}, false, false},
		{"np.pad(a, 0, mode='wrap')", Float64, shape.Of(2, 3), []float64{0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, false, false},
		{"np.pad(np.pad(f, 1), 2, mode='edge') + 1", Float32, shape.Of(9), []float64{1.0, 1.0, 1.0, 1.5, -0.5, 3.5, 1.0, 1.0, 1.0}, false, false},
	}...)
}

// TestStructuredErrors checks the errors of tile, repeat, roll, diff,
// outer, trace, diag, tril, triu and pad: each names the call, the
// argument at fault and its value; a laze error underneath (an axis out of
// range found by the library) is reachable with errors.Is.
func TestStructuredErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"np.tile(a, (2, -1))", "reps (2,-1): negative repetitions (-1) are not allowed", nil},
		{"np.tile(a, 1.5)", "reps must be an integer", nil},
		{"np.tile(a)", "tile needs reps=", nil},
		{"np.repeat(a, -2)", "repeats = -2: negative repetitions are not allowed", nil},
		{"np.repeat(a, (1, 2))", "repeats must be one integer: a count per element is not supported", nil},
		{"np.repeat(a, 2, axis=2)", "axis 2 is out of bounds for an array of 2 dimensions", nil},
		{"np.repeat(a)", "repeat needs repeats=", nil},
		{"np.roll(a, 1, axis=-3)", "axis -3 is out of bounds for an array of 2 dimensions", nil},
		{"np.roll(a, (1, 2, 3), axis=(0, 1))", "shift (1,2,3) and axis (0,1) cannot be broadcast together (3 and 2 items)", nil},
		{"np.roll(a, 0.5)", "a shift must be an integer", nil},
		{"np.diff(a, -1)", "order n = -1: it must be non-negative", nil},
		{"np.diff(3)", "diff needs an array of at least 1 dimension, not 0", nil},
		{"np.diff(a, axis=2)", "axis 2 is out of bounds for an array of 2 dimensions", nil},
		{"np.diff(a, axis=None)", "axis=None is not allowed", nil},
		{"np.diff(a, prepend=0)", `diff has no keyword argument "prepend"`, nil},
		{"np.outer(a, None)", "argument 2 of outer cannot be None", nil},
		{"np.trace(f)", "diagonal needs an array of at least 2 dimensions, not 1 (shape (3,))", nil},
		{"np.trace(a, axis1=1, axis2=-1)", "axis1 (1) and axis2 (-1) are the same axis", nil},
		{"np.diag(np.tile(a, (1, 1, 1)))", "diag needs an array of 1 or 2 dimensions, not 3 (shape (1,2,3))", nil},
		{"np.diag(a, k=0.5)", "k must be an integer", nil},
		{"np.tril(3)", "tril needs an array of at least 1 dimension, not 0", nil},
		{"np.triu(a, 1.0)", "k must be an integer", nil},
		{"np.pad(a)", "pad needs pad_width=", nil},
		{"np.pad(a, -1)", "pad_width -1 for axis 0 is negative", nil},
		{"np.pad(a, ((1, 2), (3, 4), (5, 6)))", "pad_width of shape (3,2) cannot be broadcast to (2, 2), one (before, after) pair per axis of the array of shape (2,3)", nil},
		{"np.pad(a, (1, 2, 3))", "pad_width of shape (3,) cannot be broadcast to (2, 2)", nil},
		{"np.pad(a, ((1, 2), 3))", "a ragged pad_width", nil},
		{"np.pad(a, 1.5)", "a pad width must be an integer", nil},
		{"np.pad(a, 1, mode='mean')", "mode 'mean' is not supported (laze pads with constant, edge, reflect, symmetric or wrap)", nil},
		{"np.pad(a, 1, mode='mirror')", `mode = "mirror": must be one of constant, edge, reflect, symmetric, wrap`, shape.ErrInvalid},
		{"np.pad(a, 1, mode=1)", "mode must be a string", nil},
		{"np.pad(a, 1, 'edge', constant_values=2)", "constant_values is only for mode 'constant', not 'edge'", nil},
		{"np.pad(a, 1, constant_values=a)", "constant_values must be a number", nil},
		{"np.pad(u, 1, constant_values=300.5)", "constant_values = 300.5 does not fit uint8", nil},
		{"np.pad(a[:0], 1, mode='reflect')", "axis 0 of x's shape (0,3) is empty: only mode constant can extend it", shape.ErrInvalid},
	})
}

// TestDiffLargeOrder checks that an order far past the axis's size gives
// the empty result at once (the library builds one difference per order).
func TestDiffLargeOrder(t *testing.T) {
	r, err := Run("np.diff(a, 10**18)", testInputs(t), false)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Shape.Equal(shape.Of(2, 0)) {
		t.Errorf("shape %v, want (2, 0)", r.Shape)
	}
}
