package interp

import (
	"testing"

	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for gathers.go: the dtypes, shapes and values
// were printed by NumPy 1.24 (/usr/bin/python3) for these expressions on
// testInputs, and TestAgainstNumPy runs them through NumPy again.
func init() {
	numpyTable = append(numpyTable, []numpyRow{
		{"a[[1, 0]]", Float64, shape.Of(2, 3), []float64{3, 4, 5, 0, 1, 2}, false, false},
		{"a[:, [2, -3, 2]]", Float64, shape.Of(2, 3), []float64{2, 0, 2, 5, 3, 5}, false, false},
		{"a[[0, 1], [2, 0]]", Float64, shape.Of(2), []float64{2, 3}, false, false},
		{"a[[1], 1:]", Float64, shape.Of(1, 2), []float64{4, 5}, false, false},
		{"i[[[0], [1]], [0, 2]]", Int32, shape.Of(2, 2), []float64{0, 2, 3, 5}, false, false},
		{"a[..., [1]]", Float64, shape.Of(2, 1), []float64{1, 4}, false, false},
		{"u[[2, 2, 0]]", Uint8, shape.Of(3), []float64{0, 0, 250}, false, false},
		{"b[[0, 1]]", Bool, shape.Of(2), []float64{1, 0}, false, false},
		{"f[[-1]] * 2", Float32, shape.Of(1), []float64{5}, false, false},
		{"np.take(a, [4, -1])", Float64, shape.Of(2), []float64{4, 5}, false, false},
		{"np.take(i, [[0, 2]], axis=1)", Int32, shape.Of(2, 1, 2), []float64{0, 2, 3, 5}, false, false},
		{"a.take([1, 0], axis=0)", Float64, shape.Of(2, 3), []float64{3, 4, 5, 0, 1, 2}, false, false},
		{"np.take_along_axis(a, np.argmax(a, axis=1)[:, None], axis=1)", Float64, shape.Of(2, 1), []float64{2, 5}, false, false},
		{"np.take_along_axis(i, np.argmin(i, axis=0)[None, :], axis=0)", Int32, shape.Of(1, 3), []float64{0, 1, 2}, false, false},
		{"np.take_along_axis(u, np.argmax(u)[None], axis=None)", Uint8, shape.Of(1), []float64{250}, false, false},
		{"a[0, [2, 1]]", Float64, shape.Of(2), []float64{2, 1}, false, false},
		{"np.exp(a[[1, 1]]) - 1", Float64, shape.Of(2, 3), []float64{19.085536923187668, 53.598150033144236, 147.4131591025766, 19.085536923187668, 53.598150033144236, 147.4131591025766}, false, false},
	}...)
}

// TestGatherErrors checks the errors of integer-array indexing and take:
// each names the subscript or the call, and an index out of range is a
// *shape.IndexError naming the index, the dimension and its size.
func TestGatherErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"a[[0, 2]]", "index 2 is out of range for dimension 0 of size 2", shape.ErrIndex},
		{"a[:, [-4]]", "index -4 is out of range for dimension 1 of size 3", shape.ErrIndex},
		{"np.take(a, [6])", "index 6 is out of range for dimension 0 of size 6", shape.ErrIndex},
		{"a[5, [0]]", "index 5 is out of range for dimension 0 of size 2", shape.ErrIndex},
		{"a[[0.5]]", "an index must be an integer", nil},
		{"a[f]", "must be of integer (or boolean) type, not float32", nil},
		{"a[(0, 1)]", "a tuple as an index is not supported", nil},
		{"a[[[0], [1, 0]]]", "a ragged list", nil},
		{"a[[0, 1], [0, 1, 2]]", "(2,) and (3,) cannot be broadcast", shape.ErrBroadcast},
		{"a[b, [0]]", "a boolean array beside other indices", nil},
		{"a[None, [0]]", "None (np.newaxis) beside index arrays", nil},
		{"np.take_along_axis(a, [0], axis=1)", "the indices must have the array's number of dimensions", shape.ErrShape},
		{"np.take_along_axis(a, 0, axis=1)", "take_along_axis needs an array of indices", nil},
		{"np.take(a, [0], axis=2)", "dimension 2 is out of range for rank 2", shape.ErrDimension},
	})
}
