package interp

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// testInputs are the arrays the NumPy table uses:
//
//	a = np.arange(6.).reshape(2, 3)            i = np.arange(6, dtype=np.int32).reshape(2, 3)
//	u = np.array([250, 5, 0], np.uint8)        b = np.array([True, False, True])
//	f = np.array([0.5, -1.5, 2.5], np.float32) s = np.array([-128, 127, 3], np.int8)
//	w = np.array([1, 2, 3], np.uint64)         h = np.array([1, 2, 3], np.int16)
func testInputs(t testing.TB) map[string]Input {
	a, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	i, _ := tensor.Arange[int32](0, 6, 1).View(2, 3)
	in := map[string]Input{
		"a": {Float64, a}, "i": {Int32, i},
		"u": {Uint8, vec([]uint8{250, 5, 0})}, "b": {Bool, vec([]uint8{1, 0, 1})},
		"f": {Float32, vec([]float32{0.5, -1.5, 2.5})}, "s": {Int8, vec([]int8{-128, 127, 3})},
		"w": {Uint64, vec([]uint64{1, 2, 3})}, "h": {Int16, vec([]int16{1, 2, 3})},
	}
	return in
}

func vec[T tensor.Number](v []T) *tensor.Tensor[T] {
	t, _ := tensor.FromSlice(v, shape.Of(len(v)))
	return t
}

var nan = math.NaN()

// numpyRow is one row of numpyTable: an expression, and the dtype, shape
// and values NumPy gives for it (legacy and differs as described there).
type numpyRow struct {
	src     string
	dtype   DType
	shape   shape.Shape
	values  []float64
	legacy  bool
	differs bool
}

// numpyTable lists expressions with the dtype, shape and values NumPy 2
// gives, worked out by hand from NumPy's documented rules. legacy marks the
// rows where NumPy 1.x gives another dtype: its value-based casting of
// Python numbers (NEP 50 changed them), or floor, ceil and trunc of
// integers, which NumPy 2.1 stopped converting to floats; differs marks the rows where laze
// differs from NumPy by design (float16, which laze lacks, becomes
// float32).
var numpyTable = []numpyRow{
	{"np.arange(5)", Int64, shape.Of(5), []float64{0, 1, 2, 3, 4}, false, false},
	{"np.arange(2, 11, 3)", Int64, shape.Of(3), []float64{2, 5, 8}, false, false},
	{"np.arange(0, 1, 0.25)", Float64, shape.Of(4), []float64{0, .25, .5, .75}, false, false},
	{"np.arange(start=3, stop=-3, step=-2)", Int64, shape.Of(3), []float64{3, 1, -1}, false, false},
	{"np.arange(4, dtype=np.float32) / 2", Float32, shape.Of(4), []float64{0, .5, 1, 1.5}, false, false},
	{"np.exp(-np.arange(3) * 0.5) * a[0]", Float64, shape.Of(3), []float64{0, 0.6065306597126334, 2 * 0.36787944117144233}, false, false},
	{"np.linspace(0, 1, 5)", Float64, shape.Of(5), []float64{0, .25, .5, .75, 1}, false, false},
	{"np.linspace(2, 3, 4, endpoint=False)", Float64, shape.Of(4), []float64{2, 2.25, 2.5, 2.75}, false, false},
	{"np.zeros((2, 3)) + a", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.ones(3, dtype=np.int32) + i[1]", Int32, shape.Of(3), []float64{4, 5, 6}, false, false},
	{"np.full((2, 1), 7) * i", Int64, shape.Of(2, 3), []float64{0, 7, 14, 21, 28, 35}, false, false},
	{"np.full(2, 1.5)", Float64, shape.Of(2), []float64{1.5, 1.5}, false, false},
	{"np.eye(2, 3, k=1)", Float64, shape.Of(2, 3), []float64{0, 1, 0, 0, 0, 1}, false, false},
	{"np.eye(3)[::-1].T", Float64, shape.Of(3, 3), []float64{0, 0, 1, 0, 1, 0, 1, 0, 0}, false, false},
	{"np.identity(2, dtype=np.int8)", Int8, shape.Of(2, 2), []float64{1, 0, 0, 1}, false, false},
	{"np.tri(2, 3, -1) * a", Float64, shape.Of(2, 3), []float64{0, 0, 0, 3, 0, 0}, false, false},
	{"np.zeros_like(i) + 1", Int32, shape.Of(2, 3), []float64{1, 1, 1, 1, 1, 1}, false, false},
	{"np.ones_like(f)", Float32, shape.Of(3), []float64{1, 1, 1}, false, false},
	{"np.full_like(a, 2) * a", Float64, shape.Of(2, 3), []float64{0, 2, 4, 6, 8, 10}, false, false},
	{"np.arange(6).reshape(2, 3).T", Int64, shape.Of(3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"i / 2", Float64, shape.Of(2, 3), []float64{0, .5, 1, 1.5, 2, 2.5}, false, false},
	{"i // 4", Int32, shape.Of(2, 3), []float64{0, 0, 0, 0, 1, 1}, false, false},
	{"-i // 4", Int32, shape.Of(2, 3), []float64{0, -1, -1, -1, -1, -2}, false, false},
	{"-i % 4", Int32, shape.Of(2, 3), []float64{0, 3, 2, 1, 0, 3}, false, false},
	{"a // 2", Float64, shape.Of(2, 3), []float64{0, 0, 1, 1, 2, 2}, false, false},
	{"a % -4", Float64, shape.Of(2, 3), []float64{0, -3, -2, -1, 0, -3}, false, false},
	{"(i + 0.5) % 2", Float64, shape.Of(2, 3), []float64{.5, 1.5, .5, 1.5, .5, 1.5}, false, false},
	{"i ** 2", Int32, shape.Of(2, 3), []float64{0, 1, 4, 9, 16, 25}, false, false},
	{"u + 1", Uint8, shape.Of(3), []float64{251, 6, 1}, false, false},
	{"u - 251", Uint8, shape.Of(3), []float64{255, 10, 5}, false, false},
	{"s * 2", Int8, shape.Of(3), []float64{0, -2, 6}, false, false},
	{"u + 1.5", Float64, shape.Of(3), []float64{251.5, 6.5, 1.5}, true, false},
	{"f * 2.5", Float32, shape.Of(3), []float64{1.25, -3.75, 6.25}, false, false},
	{"-f", Float32, shape.Of(3), []float64{-0.5, 1.5, -2.5}, false, false},
	{"f + a[0]", Float64, shape.Of(3), []float64{0.5, -0.5, 4.5}, false, false},
	{"i + f", Float64, shape.Of(2, 3), []float64{0.5, -0.5, 4.5, 3.5, 2.5, 7.5}, false, false},
	{"h + f", Float32, shape.Of(3), []float64{1.5, 0.5, 5.5}, false, false},
	{"u + s", Int16, shape.Of(3), []float64{122, 132, 3}, false, false},
	{"w + s", Float64, shape.Of(3), []float64{-127, 129, 6}, false, false},
	{"b + b", Bool, shape.Of(3), []float64{1, 0, 1}, false, false},
	{"b * 2", Int64, shape.Of(3), []float64{2, 0, 2}, false, false},
	{"b / b", Float64, shape.Of(3), []float64{1, nan, 1}, false, false},
	{"a > 2", Bool, shape.Of(2, 3), []float64{0, 0, 0, 1, 1, 1}, false, false},
	{"(a > 2) == b", Bool, shape.Of(2, 3), []float64{0, 1, 0, 1, 0, 1}, false, false},
	{"where(b, f, -1)", Float32, shape.Of(3), []float64{0.5, -1, 2.5}, false, false},
	{"where(a - 1, a, 9)", Float64, shape.Of(2, 3), []float64{0, 9, 2, 3, 4, 5}, false, false},
	{"clip(a, 1, 4)", Float64, shape.Of(2, 3), []float64{1, 1, 2, 3, 4, 4}, false, false},
	{"maximum(i, 2.5)", Float64, shape.Of(2, 3), []float64{2.5, 2.5, 2.5, 3, 4, 5}, false, false},
	{"minimum(u, s)", Int16, shape.Of(3), []float64{-128, 5, 0}, false, false},
	{"sum(i)", Int64, shape.Of(), []float64{15}, false, false},
	{"sum(u)", Uint64, shape.Of(), []float64{255}, false, false},
	{"sum(s)", Int64, shape.Of(), []float64{2}, false, false},
	{"sum(b)", Int64, shape.Of(), []float64{2}, false, false},
	{"prod(h)", Int64, shape.Of(), []float64{6}, false, false},
	{"mean(i, axis=0)", Float64, shape.Of(3), []float64{1.5, 2.5, 3.5}, false, false},
	{"mean(f)", Float32, shape.Of(), []float64{0.5}, false, false},
	{"max(a, axis=1, keepdims=True)", Float64, shape.Of(2, 1), []float64{2, 5}, false, false},
	{"min(s)", Int8, shape.Of(), []float64{-128}, false, false},
	{"argmin(f)", Int64, shape.Of(), []float64{1}, false, false},
	{"argmax(a, axis=0)", Int64, shape.Of(3), []float64{1, 1, 1}, false, false},
	{"argmax(a, axis=-1, keepdims=True)", Int64, shape.Of(2, 1), []float64{2, 2}, false, false},
	{"sum(a, axis=(0, 1))", Float64, shape.Of(), []float64{15}, false, false},
	{"a.sum(axis=-1)", Float64, shape.Of(2), []float64{3, 12}, false, false},
	{"a @ a.T", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
	{"i @ i.T", Int32, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
	{"b @ b", Bool, shape.Of(), []float64{1}, false, false},
	{"a[0] @ a[1]", Float64, shape.Of(), []float64{14}, false, false},
	{"i @ f", Float64, shape.Of(2), []float64{3.5, 8}, false, false},
	{"sqrt(i)", Float64, shape.Of(2, 3), []float64{0, 1, math.Sqrt2, math.Sqrt(3), 2, math.Sqrt(5)}, false, false},
	{"sqrt(h * h)", Float32, shape.Of(3), []float64{1, 2, 3}, false, false},
	{"sqrt(u)", Float32, shape.Of(3), []float64{float64(float32(math.Sqrt(250))), float64(float32(math.Sqrt(5))), 0}, false, true},
	{"exp(0 * a)", Float64, shape.Of(2, 3), []float64{1, 1, 1, 1, 1, 1}, false, false},
	{"log(exp(a))", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"abs(s)", Int8, shape.Of(3), []float64{-128, 127, 3}, false, false},
	{"relu(f)", Float32, shape.Of(3), []float64{0.5, 0, 2.5}, false, false},
	{"sigmoid(0 * f)", Float32, shape.Of(3), []float64{0.5, 0.5, 0.5}, false, false},
	{"tanh(0 * a) + sin(0 * a) + cos(0 * a)", Float64, shape.Of(2, 3), []float64{1, 1, 1, 1, 1, 1}, false, false},
	{"float32(i) / 2", Float32, shape.Of(2, 3), []float64{0, .5, 1, 1.5, 2, 2.5}, false, false},
	{"int64(f)", Int64, shape.Of(3), []float64{0, -1, 2}, false, false},
	{"bool(a - 1)", Bool, shape.Of(2, 3), []float64{1, 0, 1, 1, 1, 1}, false, false},
	{"uint8(s)", Uint8, shape.Of(3), []float64{128, 127, 3}, false, false},
	{"a.T[1]", Float64, shape.Of(2), []float64{1, 4}, false, false},
	{"a[:, ::-2]", Float64, shape.Of(2, 2), []float64{2, 0, 5, 3}, false, false},
	{"a[None, 1, -2:]", Float64, shape.Of(1, 2), []float64{4, 5}, false, false},
	{"a.reshape(-1)[::2]", Float64, shape.Of(3), []float64{0, 2, 4}, false, false},
	{"a.transpose(1, 0)[..., 0]", Float64, shape.Of(3), []float64{0, 1, 2}, false, false},
	{"a.T.reshape(2, 3)", Float64, shape.Of(2, 3), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"(a * 2)[1, ::2]", Float64, shape.Of(2), []float64{6, 10}, false, false},
	// Views of expressions: lazy, pushed down to the inputs (a reshape of a
	// transposed sum copies).
	{"(a + i).T.reshape(6)", Float64, shape.Of(6), []float64{0, 6, 2, 8, 4, 10}, false, false},
	{"(a - mean(a, axis=0)).T @ (a - mean(a, axis=0))", Float64, shape.Of(3, 3), []float64{4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5}, false, false},
	{"(u + 1)[::-1]", Uint8, shape.Of(3), []float64{1, 6, 251}, false, false},
	{"(f * 2)[None][0, 1:]", Float32, shape.Of(2), []float64{-3, 5}, false, false},
	{"(a + 1).reshape(3, 2)[:, 1]", Float64, shape.Of(3), []float64{2, 4, 6}, false, false},
	// NumPy's view functions: of inputs (O(1) tensor views, a ravel of a
	// transposed input a copy) and of expressions (lazy view nodes), with
	// arguments by position and by keyword, negative axes and tuples.
	{"np.squeeze(a[None])", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.squeeze(a[:, None, :1], axis=(1, -1))", Float64, shape.Of(2), []float64{0, 3}, false, false},
	{"a[None].squeeze(0)", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.squeeze(a[None], axis=0)", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.squeeze(f[None], ())", Float32, shape.Of(1, 3), []float64{0.5, -1.5, 2.5}, false, false},
	{"(a + 1)[:, :1].squeeze()", Float64, shape.Of(2), []float64{1, 4}, false, false},
	{"np.squeeze(3)", Int64, shape.Of(), []float64{3}, false, false},
	{"np.expand_dims(f, 0)", Float32, shape.Of(1, 3), []float64{0.5, -1.5, 2.5}, false, false},
	{"np.expand_dims(a, (0, -1))", Float64, shape.Of(1, 2, 3, 1), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.expand_dims(i * 2, axis=1)", Int32, shape.Of(2, 1, 3), []float64{0, 2, 4, 6, 8, 10}, false, false},
	{"np.expand_dims(a + f, 0).squeeze(0)", Float64, shape.Of(2, 3), []float64{0.5, -0.5, 4.5, 3.5, 2.5, 7.5}, false, false},
	{"np.broadcast_to(f, (2, 3))", Float32, shape.Of(2, 3), []float64{0.5, -1.5, 2.5, 0.5, -1.5, 2.5}, false, false},
	{"np.broadcast_to(a[:, :1], (2, 2, 3))", Float64, shape.Of(2, 2, 3), []float64{0, 0, 0, 3, 3, 3, 0, 0, 0, 3, 3, 3}, false, false},
	{"np.broadcast_to(u + 1, shape=(2, 3))", Uint8, shape.Of(2, 3), []float64{251, 6, 1, 251, 6, 1}, false, false},
	{"np.broadcast_to(a.sum(axis=0), (2, 3))", Float64, shape.Of(2, 3), []float64{3, 5, 7, 3, 5, 7}, false, false},
	{"np.broadcast_to(2, 3)", Int64, shape.Of(3), []float64{2, 2, 2}, false, false},
	{"np.swapaxes(a, 0, 1)", Float64, shape.Of(3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"a[None].swapaxes(-1, 0)", Float64, shape.Of(3, 2, 1), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"np.swapaxes(i + 1, axis1=1, axis2=0)", Int32, shape.Of(3, 2), []float64{1, 4, 2, 5, 3, 6}, false, false},
	{"np.moveaxis(a[None], 0, -1)", Float64, shape.Of(2, 3, 1), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.moveaxis(a.reshape(1, 2, 3), -1, 0)", Float64, shape.Of(3, 1, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"np.moveaxis(i.reshape(2, 3, 1), (0, 2), (2, 0))", Int32, shape.Of(1, 3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"np.moveaxis(a * 2, source=0, destination=1)", Float64, shape.Of(3, 2), []float64{0, 6, 2, 8, 4, 10}, false, false},
	{"np.flip(a)", Float64, shape.Of(2, 3), []float64{5, 4, 3, 2, 1, 0}, false, false},
	{"np.flip(a, 0)", Float64, shape.Of(2, 3), []float64{3, 4, 5, 0, 1, 2}, false, false},
	{"np.flip(a, axis=-1)", Float64, shape.Of(2, 3), []float64{2, 1, 0, 5, 4, 3}, false, false},
	{"np.flip(a + 1, 0)", Float64, shape.Of(2, 3), []float64{4, 5, 6, 1, 2, 3}, false, false},
	{"np.flip(i, (0, 1))", Int32, shape.Of(2, 3), []float64{5, 4, 3, 2, 1, 0}, false, false},
	{"np.flip(f, ())", Float32, shape.Of(3), []float64{0.5, -1.5, 2.5}, false, false},
	{"np.flip(b & (u > 1))", Bool, shape.Of(3), []float64{0, 0, 1}, false, false},
	{"np.fliplr(a)", Float64, shape.Of(2, 3), []float64{2, 1, 0, 5, 4, 3}, false, false},
	{"np.fliplr(b[None] & (u > 1))", Bool, shape.Of(1, 3), []float64{0, 0, 1}, false, false},
	{"np.flipud(a * 2)", Float64, shape.Of(2, 3), []float64{6, 8, 10, 0, 2, 4}, false, false},
	{"np.flipud(u)", Uint8, shape.Of(3), []float64{0, 5, 250}, false, false},
	{"a.ravel()", Float64, shape.Of(6), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"np.ravel(a.T)", Float64, shape.Of(6), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"a[:, ::2].ravel()", Float64, shape.Of(4), []float64{0, 2, 3, 5}, false, false},
	{"(a + 1).ravel()", Float64, shape.Of(6), []float64{1, 2, 3, 4, 5, 6}, false, false},
	{"(a + 1).T.ravel()", Float64, shape.Of(6), []float64{1, 4, 2, 5, 3, 6}, false, false},
	{"a.T.flatten()", Float64, shape.Of(6), []float64{0, 3, 1, 4, 2, 5}, false, false},
	{"(i * 2).flatten()", Int32, shape.Of(6), []float64{0, 2, 4, 6, 8, 10}, false, false},
	{"np.ravel(3)", Int64, shape.Of(1), []float64{3}, false, false},
	{"np.flip((a + 1).T, 0).ravel()", Float64, shape.Of(6), []float64{3, 6, 2, 5, 1, 4}, false, false},
	{"np.diagonal(a)", Float64, shape.Of(2), []float64{0, 4}, false, false},
	{"a.diagonal(1)", Float64, shape.Of(2), []float64{1, 5}, false, false},
	{"np.diagonal(a, -1)", Float64, shape.Of(1), []float64{3}, false, false},
	{"np.diagonal(a, 3)", Float64, shape.Of(0), []float64{}, false, false},
	{"np.diagonal(a * 2, 1)", Float64, shape.Of(2), []float64{2, 10}, false, false},
	{"np.diagonal(a, offset=1, axis1=1, axis2=0)", Float64, shape.Of(1), []float64{3}, false, false},
	{"a.diagonal(-1, axis1=-1, axis2=0)", Float64, shape.Of(2), []float64{1, 5}, false, false},
	{"np.diagonal(a.reshape(2, 1, 3), 1, 0, 2)", Float64, shape.Of(1, 2), []float64{1, 5}, false, false},
	{"(i + 1).diagonal()", Int32, shape.Of(2), []float64{1, 5}, false, false},
	{"np.diagonal(np.broadcast_to(f[:, None], (3, 3)))", Float32, shape.Of(3), []float64{0.5, -1.5, 2.5}, false, false},
	{"np.diagonal(np.broadcast_to((f * 2)[:, None], (2, 3, 3)), 0, 1, 2)", Float32, shape.Of(2, 3), []float64{1, -3, 5, 1, -3, 5}, false, false},
	{"diagonal(flip(a, 1)) + ravel(squeeze(expand_dims(h, 0)))[:2]", Float64, shape.Of(2), []float64{3, 6}, false, false},
	{"2 ** -1", Float64, shape.Of(), []float64{0.5}, false, false},
	{"7 // -2 + 7 % -2", Int64, shape.Of(), []float64{-5}, false, false},
	{"-2 ** 2", Int64, shape.Of(), []float64{-4}, false, false},
	{"1 < 2", Bool, shape.Of(), []float64{1}, false, false},
	{"True + True", Int64, shape.Of(), []float64{2}, false, false},
	{"pi * 0 + 1", Float64, shape.Of(), []float64{1}, false, false},
	{"np.pi * 0 + np.e - np.e", Float64, shape.Of(), []float64{0}, false, false},
	{"np.isnan(np.nan) + np.isinf(-np.inf)", Bool, shape.Of(), []float64{1}, false, false}, // bool + bool is or
	{"a[:, np.newaxis][1, 0]", Float64, shape.Of(3), []float64{3, 4, 5}, false, false},
	// issue 31's functions: NumPy's values and dtypes (float functions of
	// integers compute in float64; a Python number keeps float32).
	{"hypot(3, 4)", Float64, shape.Of(), []float64{5}, false, false},
	{"log2(8) + log10(1000) + cbrt(-8)", Float64, shape.Of(), []float64{4}, false, false},
	{"radians(180) / np.pi + degrees(0)", Float64, shape.Of(), []float64{1}, false, false},
	{"copysign(2, -0.0)", Float64, shape.Of(), []float64{-2}, false, false},
	{"fmod(i, 3) + fmax(i, nan * 0) * 0", Float64, shape.Of(2, 3), []float64{0, 1, 2, 0, 1, 2}, false, false},
	{"fmod(u, 7)", Uint8, shape.Of(3), []float64{5, 5, 0}, false, false},
	{"fmin(a, 2.5) + heaviside(a - 2, 0.5)", Float64, shape.Of(2, 3), []float64{0, 1, 2.5, 3.5, 3.5, 3.5}, false, false},
	{"logaddexp(a, -inf) - a", Float64, shape.Of(2, 3), []float64{0, 0, 0, 0, 0, 0}, false, false},
	{"arctan2(i, i) * 0", Float64, shape.Of(2, 3), []float64{0, 0, 0, 0, 0, 0}, false, false},
	{"arctan2(f, 1) * 0", Float32, shape.Of(3), []float64{0, 0, 0}, false, false},
	{"np.arcsinh(0) + np.expm1(0) + np.log1p(0) + sinh(0) + tan(0)", Float64, shape.Of(), []float64{0}, false, false},
	// the bitwise operators and functions, the shifts at and past the width,
	// gcd and lcm at the most negative value, and the float helpers.
	{"i & 3", Int32, shape.Of(2, 3), []float64{0, 1, 2, 3, 0, 1}, false, false},
	{"s | h", Int16, shape.Of(3), []float64{-127, 127, 3}, false, false},
	{"u ^ 255", Uint8, shape.Of(3), []float64{5, 250, 255}, false, false},
	{"~s", Int8, shape.Of(3), []float64{127, -128, -4}, false, false},
	{"~b", Bool, shape.Of(3), []float64{0, 1, 0}, false, false},
	{"b & (u > 4)", Bool, shape.Of(3), []float64{1, 0, 0}, false, false},
	{"b ^ True", Bool, shape.Of(3), []float64{0, 1, 0}, false, false},
	{"s << 1", Int8, shape.Of(3), []float64{0, -2, 6}, false, false},
	{"s >> 7", Int8, shape.Of(3), []float64{-1, 0, 0}, false, false},
	{"s >> h", Int16, shape.Of(3), []float64{-64, 31, 0}, false, false},
	{"u << 8", Uint8, shape.Of(3), []float64{0, 0, 0}, false, false},
	{"left_shift(w, 63)", Uint64, shape.Of(3), []float64{1 << 63, 0, 1 << 63}, false, false},
	{"right_shift(s, 8) + invert(u) * 0", Int16, shape.Of(3), []float64{-1, 0, 0}, false, false},
	{"1 + 2 << 3 | 5 & 6 ^ 1", Int64, shape.Of(), []float64{29}, false, false},
	{"gcd(i, 4)", Int32, shape.Of(2, 3), []float64{4, 1, 2, 1, 4, 1}, false, false},
	{"lcm(h, 4) + gcd(s, 0)", Int16, shape.Of(3), []float64{-124, 131, 15}, false, false},
	{"bitwise_and(i, 6) + bitwise_or(i, 1) + bitwise_xor(i, 5)", Int32, shape.Of(2, 3), []float64{6, 5, 12, 11, 10, 9}, false, false},
	{"invert(u) + np.bitwise_not(u)", Uint8, shape.Of(3), []float64{10, 244, 254}, false, false},
	{"signbit(a - 2)", Bool, shape.Of(2, 3), []float64{1, 1, 0, 0, 0, 0}, false, false},
	{"signbit(s)", Bool, shape.Of(3), []float64{1, 0, 0}, false, false},
	{"fabs(f - 1)", Float32, shape.Of(3), []float64{0.5, 2.5, 1.5}, false, false},
	{"fabs(i - 3)", Float64, shape.Of(2, 3), []float64{3, 2, 1, 0, 1, 2}, false, false},
	{"positive(s) + conj(h) + np.conjugate(h)", Int16, shape.Of(3), []float64{-126, 131, 9}, false, false},
	{"spacing(a) / spacing(1.0)", Float64, shape.Of(2, 3), []float64{2.2250738585072014e-308, 1, 2, 2, 4, 4}, false, false},
	{"spacing(f)", Float32, shape.Of(3), []float64{5.9604645e-08, -1.1920929e-07, 2.3841858e-07}, false, false},
	{"ldexp(a, i)", Float64, shape.Of(2, 3), []float64{0, 2, 8, 24, 64, 160}, false, false},
	{"ldexp(f, 3)", Float32, shape.Of(3), []float64{4, -12, 20}, false, false},
	{"float_power(f, 2)", Float64, shape.Of(3), []float64{0.25, 2.25, 6.25}, false, false},
	{"float_power(i + 1, -1)", Float64, shape.Of(2, 3), []float64{1, 0.5, 1. / 3, 0.25, 0.2, 1. / 6}, false, false},
	{"np.modf(a / 4 - 0.5)[0]", Float64, shape.Of(2, 3), []float64{-0.5, -0.25, 0, 0.25, 0.5, 0.75}, false, false},
	{"modf(f)[1]", Float32, shape.Of(3), []float64{0, -1, 2}, false, false},
	{"frexp(a)[0]", Float64, shape.Of(2, 3), []float64{0, 0.5, 0.5, 0.75, 0.5, 0.625}, false, false},
	{"frexp(f)[-1]", Int32, shape.Of(3), []float64{0, 1, 2}, false, false},
	{"divmod(i, 4)[0] * 10 + divmod(i, 4)[1]", Int32, shape.Of(2, 3), []float64{0, 1, 2, 3, 10, 11}, false, false},
	{"divmod(a, -4.0)[1]", Float64, shape.Of(2, 3), []float64{0, -3, -2, -1, 0, -3}, false, false},
	// all, any, the nan reductions, ptp, count_nonzero, average, linalg.norm
	{"all(a > 0)", Bool, shape.Of(), []float64{0.0}, false, false},
	{"any(a > 4, axis=1)", Bool, shape.Of(2), []float64{0.0, 1.0}, false, false},
	{"a.all(axis=0, keepdims=True)", Bool, shape.Of(1, 3), []float64{0.0, 1.0, 1.0}, false, false},
	{"all(i, axis=(0, 1))", Bool, shape.Of(), []float64{0.0}, false, false},
	{"any(b)", Bool, shape.Of(), []float64{1.0}, false, false},
	{"nansum(where(a > 3, nan, a), axis=1)", Float64, shape.Of(2), []float64{3.0, 3.0}, false, false},
	{"nansum(s)", Int64, shape.Of(), []float64{2.0}, false, false},
	{"nanprod(where(a > 3, nan, a + 1))", Float64, shape.Of(), []float64{24.0}, false, false},
	{"nanmean(where(a > 3, nan, a), axis=0)", Float64, shape.Of(3), []float64{1.5, 1.0, 2.0}, false, false},
	{"nanmean(i)", Float64, shape.Of(), []float64{2.5}, false, false},
	{"nanvar(where(a > 3, nan, a), axis=1, ddof=1)", Float64, shape.Of(2), []float64{1.0, nan}, false, false},
	{"nanstd(where(a < 1, nan, a))", Float64, shape.Of(), []float64{1.4142135623730951}, false, false},
	{"nanstd(f)", Float32, shape.Of(), []float64{1.632993221282959}, false, false},
	{"nanmax(where(a > 3, nan, a), axis=1)", Float64, shape.Of(2), []float64{2.0, 3.0}, false, false},
	{"nanmin(where(a < 5, nan, a), axis=0)", Float64, shape.Of(3), []float64{nan, nan, 5.0}, false, false},
	{"nanmax(s)", Int8, shape.Of(), []float64{127.0}, false, false},
	{"nanargmax(where(a > 3, nan, a), axis=1)", Int64, shape.Of(2), []float64{2.0, 0.0}, false, false},
	{"nanargmin(where(a < 2, nan, a))", Int64, shape.Of(), []float64{2.0}, false, false},
	{"nancumsum(where(a > 3, nan, a), axis=1)", Float64, shape.Of(2, 3), []float64{0.0, 1.0, 3.0, 3.0, 3.0, 3.0}, false, false},
	{"nancumprod(where(a == 2, nan, a + 1))", Float64, shape.Of(6), []float64{1.0, 2.0, 2.0, 8.0, 40.0, 240.0}, false, false},
	{"nancumsum(s)", Int64, shape.Of(3), []float64{-128.0, -1.0, 2.0}, false, false},
	{"ptp(a, axis=1)", Float64, shape.Of(2), []float64{2.0, 2.0}, false, false},
	{"ptp(s)", Int8, shape.Of(), []float64{-1.0}, false, false},
	{"ptp(u)", Uint8, shape.Of(), []float64{250.0}, false, false},
	{"count_nonzero(i)", Int64, shape.Of(), []float64{5.0}, false, false},
	{"count_nonzero(a - 2, axis=0)", Int64, shape.Of(3), []float64{2.0, 2.0, 1.0}, false, false},
	{"count_nonzero(b, axis=0, keepdims=True)", Int64, shape.Of(1), []float64{2.0}, false, false},
	{"average(a)", Float64, shape.Of(), []float64{2.5}, false, false},
	{"average(a, axis=1, weights=f)", Float64, shape.Of(2), []float64{2.3333333333333335, 5.333333333333333}, false, false},
	{"average(i, axis=0, weights=a + 1)", Float64, shape.Of(3), []float64{2.4, 3.142857142857143, 4.0}, false, false},
	{"average(a, weights=a + 1)", Float64, shape.Of(), []float64{3.3333333333333335}, false, false},
	{"average(f, weights=h)", Float32, shape.Of(), []float64{0.8333333134651184}, false, false},
	{"np.linalg.norm(a)", Float64, shape.Of(), []float64{7.416198487095663}, false, false},
	{"np.linalg.norm(f)", Float32, shape.Of(), []float64{2.9580399990081787}, false, false},
	{"np.linalg.norm(a, axis=1)", Float64, shape.Of(2), []float64{2.23606797749979, 7.0710678118654755}, false, false},
	{"np.linalg.norm(a, ord=1, axis=1)", Float64, shape.Of(2), []float64{3.0, 12.0}, false, false},
	{"np.linalg.norm(a, ord=np.inf)", Float64, shape.Of(), []float64{12.0}, false, false},
	{"np.linalg.norm(a, ord=-np.inf)", Float64, shape.Of(), []float64{3.0}, false, false},
	{"np.linalg.norm(a, ord=1)", Float64, shape.Of(), []float64{7.0}, false, false},
	{"np.linalg.norm(a, ord=-1)", Float64, shape.Of(), []float64{3.0}, false, false},
	{"np.linalg.norm(a, axis=(1, 0))", Float64, shape.Of(), []float64{7.416198487095663}, false, false},
	{"np.linalg.norm(i, ord=3, axis=0)", Float64, shape.Of(3), []float64{3.0, 4.020725758589058, 5.104468722001463}, false, false},
	{"np.linalg.norm(a, ord=0, axis=1)", Float64, shape.Of(2), []float64{2.0, 3.0}, false, false},
	{"np.linalg.norm(a[:, :, np.newaxis] * a[0], axis=(0, 2), keepdims=True)", Float64, shape.Of(1, 3, 1), []float64{6.708203932499369, 9.219544457292887, 12.041594578792296}, false, false},
	{"np.linalg.norm(s)", Float64, shape.Of(), []float64{180.3385704723202}, false, false},
	// ufunc methods and astype
	{"np.subtract.reduce(i, axis=1)", Int32, shape.Of(2), []float64{-3.0, -6.0}, false, false},
	{"np.add.reduce(i)", Int64, shape.Of(3), []float64{3.0, 5.0, 7.0}, false, false},
	{"np.multiply.reduce(h)", Int64, shape.Of(), []float64{6.0}, false, false},
	{"np.maximum.reduce(a, axis=(0, 1))", Float64, shape.Of(), []float64{5.0}, false, false},
	{"np.logical_or.reduce(b)", Bool, shape.Of(), []float64{1.0}, false, false},
	{"np.fmax.reduce(a, axis=1, keepdims=True)", Float64, shape.Of(2, 1), []float64{2.0, 5.0}, false, false},
	{"np.power.reduce(h)", Int16, shape.Of(), []float64{1.0}, false, false},
	{"np.bitwise_xor.reduce(i, axis=0, keepdims=True)", Int32, shape.Of(1, 3), []float64{3.0, 5.0, 7.0}, false, false},
	{"np.subtract.accumulate(a, axis=1)", Float64, shape.Of(2, 3), []float64{0.0, -1.0, -3.0, 3.0, -1.0, -6.0}, false, false},
	{"np.add.accumulate(s)", Int64, shape.Of(3), []float64{-128.0, -1.0, 2.0}, false, false},
	{"np.multiply.accumulate(h)", Int64, shape.Of(3), []float64{1.0, 2.0, 6.0}, false, false},
	{"np.maximum.accumulate(f)", Float32, shape.Of(3), []float64{0.5, 0.5, 2.5}, false, false},
	{"np.less.outer(f, h)", Bool, shape.Of(3, 3), []float64{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0}, false, false},
	{"np.add.outer(h, a)", Float64, shape.Of(3, 2, 3), []float64{1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0}, false, false},
	{"np.subtract.outer(s, s)", Int8, shape.Of(3, 3), []float64{0.0, 1.0, 125.0, -1.0, 0.0, 124.0, -125.0, -124.0, 0.0}, false, false},
	{"a.astype(np.int32)", Int32, shape.Of(2, 3), []float64{0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, false, false},
	{"f.astype(np.float64) + a", Float64, shape.Of(2, 3), []float64{0.5, -0.5, 4.5, 3.5, 2.5, 7.5}, false, false},
	{"s.astype(np.uint8)", Uint8, shape.Of(3), []float64{128.0, 127.0, 3.0}, false, false},
	{"b.astype(int) * 2", Int64, shape.Of(3), []float64{2.0, 0.0, 2.0}, false, false},
	{"(a - 2.5).astype(np.int8)", Int8, shape.Of(2, 3), []float64{-2, -1, 0, 0, 1, 2}, false, false},
	{"np.float32(a) + np.int8(s)", Float32, shape.Of(2, 3), []float64{-128.0, 128.0, 5.0, -125.0, 131.0, 8.0}, false, false},
	{"mean(a[:, :0], axis=1)", Float64, shape.Of(2), []float64{nan, nan}, false, false},
	{"sum(a[:, :0])", Float64, shape.Of(), []float64{0}, false, false},
	// rounding: halves to even for rint and round; floor, ceil and trunc keep
	// integer dtypes (NumPy 2.1 on), round keeps them too, rint gives floats.
	{"floor(f)", Float32, shape.Of(3), []float64{0, -2, 2}, false, false},
	{"ceil(f)", Float32, shape.Of(3), []float64{1, -1, 3}, false, false},
	{"trunc(f)", Float32, shape.Of(3), []float64{0, -1, 2}, false, false},
	{"rint(f)", Float32, shape.Of(3), []float64{0, -2, 2}, false, false},
	{"round(f)", Float32, shape.Of(3), []float64{0, -2, 2}, false, false},
	{"floor(s)", Int8, shape.Of(3), []float64{-128, 127, 3}, true, false},
	{"round(i)", Int32, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	{"rint(i)", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
	// square wraps int8 (-128² = 16384 = 64·256, 127² = 16129 = 63·256 + 1);
	// bools, which square, sign and reciprocal have no loop for, compute in int8.
	{"square(s)", Int8, shape.Of(3), []float64{0, 1, 9}, false, false},
	{"square(b)", Int8, shape.Of(3), []float64{1, 0, 1}, false, false},
	{"abs(b)", Bool, shape.Of(3), []float64{1, 0, 1}, false, false}, // NumPy's absolute has a bool loop (the op table's CLIKeepsDType)
	{"sign(a - 2)", Float64, shape.Of(2, 3), []float64{-1, -1, 0, 1, 1, 1}, false, false},
	{"sign(s)", Int8, shape.Of(3), []float64{-1, 1, 1}, false, false},
	{"sign(u)", Uint8, shape.Of(3), []float64{1, 1, 0}, false, false},
	{"reciprocal(f)", Float32, shape.Of(3), []float64{2, float64(float32(-2.0 / 3)), float64(float32(0.4))}, false, false},
	{"reciprocal(i + 1)", Int32, shape.Of(2, 3), []float64{1, 0, 0, 0, 0, 0}, false, false},
	{"reciprocal(s)", Int8, shape.Of(3), []float64{0, 0, 0}, false, false},
	// a / 0 is [nan, inf, inf, …]; NaN is true for the logical functions.
	{"isnan(a / 0)", Bool, shape.Of(2, 3), []float64{1, 0, 0, 0, 0, 0}, false, false},
	{"isinf(a / 0)", Bool, shape.Of(2, 3), []float64{0, 1, 1, 1, 1, 1}, false, false},
	{"isfinite(a / 0)", Bool, shape.Of(2, 3), []float64{0, 0, 0, 0, 0, 0}, false, false},
	{"isfinite(i)", Bool, shape.Of(2, 3), []float64{1, 1, 1, 1, 1, 1}, false, false},
	{"isnan(nan)", Bool, shape.Of(), []float64{1}, false, false},
	{"logical_and(a, i - 2)", Bool, shape.Of(2, 3), []float64{0, 1, 0, 1, 1, 1}, false, false},
	{"logical_or(b, 0)", Bool, shape.Of(3), []float64{1, 0, 1}, false, false},
	{"logical_xor(b, f)", Bool, shape.Of(3), []float64{0, 1, 0}, false, false},
	{"logical_not(u)", Bool, shape.Of(3), []float64{0, 0, 1}, false, false},
	{"logical_not(a / 0)", Bool, shape.Of(2, 3), []float64{0, 0, 0, 0, 0, 0}, false, false},
	// stop_gradient (jax.lax.stop_gradient; the script's stand-in is the
	// identity) keeps the value and the dtype, bools included.
	{"stop_gradient(a - 2)", Float64, shape.Of(2, 3), []float64{-2, -1, 0, 1, 2, 3}, false, false},
	{"stop_gradient(s)", Int8, shape.Of(3), []float64{-128, 127, 3}, false, false},
	{"stop_gradient(b)", Bool, shape.Of(3), []float64{1, 0, 1}, false, false},
	// the operators' functions follow the operators' dtype rules.
	{"negative(f)", Float32, shape.Of(3), []float64{-0.5, 1.5, -2.5}, false, false},
	{"absolute(s)", Int8, shape.Of(3), []float64{-128, 127, 3}, false, false},
	{"add(i, 1)", Int32, shape.Of(2, 3), []float64{1, 2, 3, 4, 5, 6}, false, false},
	{"divide(i, 2)", Float64, shape.Of(2, 3), []float64{0, .5, 1, 1.5, 2, 2.5}, false, false},
	{"less(f, 0)", Bool, shape.Of(3), []float64{0, 1, 0}, false, false},
	{"remainder(-i, 4)", Int32, shape.Of(2, 3), []float64{0, 3, 2, 1, 0, 3}, false, false},
	{"power(2, 3)", Int64, shape.Of(), []float64{8}, false, false},
}

// valuesOfResult returns a result's elements as float64, row-major.
func valuesOfResult(t testing.TB, r *Result) []float64 {
	var out []float64
	add := func(v float64) { out = append(out, v) }
	switch x := r.Tensor.(type) {
	case *tensor.Tensor[float64]:
		for v := range x.Values() {
			add(v)
		}
	case *tensor.Tensor[float32]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[int64]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[int32]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[int16]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[int8]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[uint8]:
		for v := range x.Values() {
			add(float64(v))
		}
	case *tensor.Tensor[uint64]:
		for v := range x.Values() {
			add(float64(v))
		}
	default:
		t.Fatalf("unexpected result %T", r.Tensor)
	}
	return out
}

var closeFloats = cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateApprox(1e-12, 1e-12), cmpopts.EquateEmpty()}

func TestNumPyTable(t *testing.T) {
	in := testInputs(t)
	for _, tt := range numpyTable {
		t.Run(tt.src, func(t *testing.T) {
			r, err := Run(tt.src, in, false)
			if err != nil {
				t.Fatal(err)
			}
			if r.DType != tt.dtype || !r.Shape.Equal(tt.shape) {
				t.Errorf("%s %v, want %s %v", r.DType, r.Shape, tt.dtype, tt.shape)
			}
			if diff := cmp.Diff(tt.values, valuesOfResult(t, r), closeFloats); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// numpyScript evaluates each expression with NumPy and prints dtype, shape
// and values as JSON lines (NaN as null).
const numpyScript = `
import json, sys, warnings
import numpy as np
warnings.simplefilter('ignore')
ns = {k: np.load(k + '.npy') for k in 'a i u b f s w h'.split()}
for name in ['sum', 'mean', 'prod', 'max', 'min', 'argmax', 'argmin', 'abs', 'exp', 'log', 'sqrt', 'sin', 'cos',
             'tanh', 'maximum', 'minimum', 'where', 'clip', 'transpose', 'reshape', 'floor', 'ceil', 'trunc', 'rint',
             'round', 'square', 'sign', 'reciprocal', 'isnan', 'isfinite', 'isinf', 'logical_and', 'logical_or',
             'logical_xor', 'logical_not', 'negative', 'absolute', 'add', 'divide', 'less', 'remainder', 'power',
             'var', 'std', 'cumsum', 'cumprod', 'concatenate', 'stack', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh',
             'cosh', 'arcsinh', 'arccosh', 'arctanh', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'cbrt', 'deg2rad',
             'rad2deg', 'degrees', 'radians', 'arctan2', 'hypot', 'copysign', 'nextafter', 'fmax', 'fmin', 'fmod',
             'logaddexp', 'logaddexp2', 'heaviside', 'fabs', 'positive', 'conj', 'conjugate', 'invert', 'signbit',
             'spacing', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'gcd', 'lcm',
             'ldexp', 'float_power', 'modf', 'frexp', 'divmod', 'all', 'any', 'nansum', 'nanprod', 'nanmean', 'nanvar',
             'nanstd', 'nanmax', 'nanmin', 'nanargmax', 'nanargmin', 'nancumsum', 'nancumprod', 'ptp', 'count_nonzero',
             'average', 'squeeze', 'expand_dims', 'broadcast_to', 'swapaxes', 'moveaxis', 'flip', 'fliplr', 'flipud',
             'ravel', 'diagonal']:
    ns[name] = getattr(np, name)
for name in ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']:
    ns[name] = getattr(np, name)
ns['bool'] = lambda x: np.asarray(x).astype(bool)
for name in ["searchsorted", "nonzero", "unique"]:
    ns[name] = getattr(np, name)
ns['stop_gradient'] = lambda x: np.asarray(x)  # jax.lax.stop_gradient's value
ns['relu'] = lambda x: np.maximum(x, np.asarray(x).dtype.type(0))
ns['sigmoid'] = lambda x: (1 / (1 + np.exp(-x))).astype(np.result_type(np.exp(x)))
def softmax(x, axis=None):  # scipy.special's
    e = np.exp(x - np.amax(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
def logsumexp(x, axis=None, keepdims=False):
    m = np.amax(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    s = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=keepdims))
    return s + (m if keepdims else np.squeeze(m, axis=axis))
def log_softmax(x, axis=None):
    m = np.amax(x, axis=axis, keepdims=True)
    t = x - np.where(np.isfinite(m), m, 0)
    return t - np.log(np.sum(np.exp(t), axis=axis, keepdims=True))
ns.update(softmax=softmax, logsumexp=logsumexp, log_softmax=log_softmax)
ns.update(pi=np.pi, e=np.e, inf=np.inf, nan=np.nan, np=np)
with np.errstate(all='ignore'):
    for src in sys.stdin.read().splitlines():
        r = np.asarray(eval(src, ns))
        vals = [None if v != v else float(v) for v in r.ravel().tolist()]
        print(json.dumps({'dtype': r.dtype.name, 'shape': list(r.shape), 'values': vals}))
print(json.dumps({'version': np.__version__}))
`

// TestAgainstNumPy runs the table through NumPy itself, where python3 with
// NumPy is installed (Debian's python3-numpy), and skips otherwise.
func TestAgainstNumPy(t *testing.T) {
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("no python3 with NumPy here (apt-get install python3-numpy to compare with NumPy directly)")
	}
	dir := t.TempDir()
	for name, in := range testInputs(t) {
		if err := saveInput(filepath.Join(dir, name+".npy"), in); err != nil {
			t.Fatal(err)
		}
	}
	var srcs []string
	for _, tt := range numpyTable {
		srcs = append(srcs, tt.src)
	}
	cmd := exec.Command(python, "-c", numpyScript)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(srcs, "\n"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var version struct{ Version string }
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &version)
	legacy := strings.HasPrefix(version.Version, "1.")
	t.Logf("NumPy %s", version.Version)
	for k, tt := range numpyTable {
		if tt.differs || tt.legacy && legacy {
			continue
		}
		var got struct {
			DType  string
			Shape  []int
			Values []*float64
		}
		if err := json.Unmarshal([]byte(lines[k]), &got); err != nil {
			t.Fatal(err)
		}
		vals := make([]float64, len(got.Values))
		for i, v := range got.Values {
			vals[i] = nan
			if v != nil {
				vals[i] = *v
			}
		}
		if got.DType != tt.dtype.String() || !shape.Shape(got.Shape).Equal(tt.shape) {
			t.Errorf("%s: NumPy gives %s %v, the table says %s %v", tt.src, got.DType, got.Shape, tt.dtype, tt.shape)
		}
		if diff := cmp.Diff(tt.values, vals, cmpopts.EquateNaNs(), cmpopts.EquateApprox(1e-6, 1e-12), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: NumPy's values differ from the table (-table +numpy):\n%s", tt.src, diff)
		}
	}
}

// saveInput writes an input as NumPy reads it.
func saveInput(path string, in Input) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := kitFor(in.DType).write(f, in.Tensor, in.DType == Bool); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
