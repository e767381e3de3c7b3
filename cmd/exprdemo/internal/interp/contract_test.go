package interp

import (
	"testing"

	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for contract.go: the dtypes, shapes and values
// were printed by NumPy 1.24 (/usr/bin/python3) for these expressions on
// testInputs, and TestAgainstNumPy runs them through NumPy again.
func init() {
	numpyTable = append(numpyTable, []numpyRow{
		{"np.matmul(a, a.T)", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
		{"np.dot(a, a.T)", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
		{"a.dot(f)", Float64, shape.Of(2), []float64{3.5, 8}, false, false},
		{"np.dot(2, i)", Int64, shape.Of(2, 3), []float64{0, 2, 4, 6, 8, 10}, false, false},
		{"np.dot(b, b)", Bool, shape.Of(), []float64{1}, false, false},
		{"np.vdot(a, i)", Float64, shape.Of(), []float64{55}, false, false},
		{"np.inner(a, a)", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
		{"np.inner(i, h)", Int32, shape.Of(2), []float64{8, 26}, false, false},
		{"np.tensordot(a, i, axes=([0], [0]))", Float64, shape.Of(3, 3), []float64{9, 12, 15, 12, 17, 22, 15, 22, 29}, false, false},
		{"np.tensordot(a, a, axes=2)", Float64, shape.Of(), []float64{55}, false, false},
		{"np.tensordot(a, f, 1)", Float64, shape.Of(2), []float64{3.5, 8}, false, false},
		{"np.tensordot(a, h, axes=0)", Float64, shape.Of(2, 3, 3), []float64{0, 0, 0, 1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 8, 12, 5, 10, 15}, false, false},
		{"np.tensordot(a, i, axes=([1, 0], [1, 0]))", Float64, shape.Of(), []float64{55}, false, false},
		{"np.tensordot(a, i, (1, 1))", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
		{"np.einsum('ij,jk->ik', a, a.T)", Float64, shape.Of(2, 2), []float64{5, 14, 14, 50}, false, false},
		{"np.einsum('ii', a[:, :2])", Float64, shape.Of(), []float64{4}, false, false},
		{"np.einsum('ii->i', i[:, 1:])", Int32, shape.Of(2), []float64{1, 5}, false, false},
		{"np.einsum('ij->ji', i)", Int32, shape.Of(3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
		{"np.einsum('...j,j', a, f)", Float64, shape.Of(2), []float64{3.5, 8}, false, false},
		{"np.einsum('i,i', s, h)", Int16, shape.Of(), []float64{135}, false, false},
		{"np.einsum('ij,ij,ij->', a, a, i)", Float64, shape.Of(), []float64{225}, false, false},
		{"np.einsum(\"ij\", a)", Float64, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false, false},
		{"np.einsum('i,j', b, b)", Bool, shape.Of(3, 3), []float64{1, 0, 1, 0, 0, 0, 1, 0, 1}, false, false},
		{"np.einsum('ij,kj->ik', a * 2, i + 1)", Float64, shape.Of(2, 2), []float64{16, 34, 52, 124}, false, false},
		{"np.einsum('...ij->...ji', a)", Float64, shape.Of(3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
		{"np.einsum('i,i->', u, w)", Uint64, shape.Of(), []float64{260}, false, false},
	}...)
}

// TestContractErrors checks the errors of the contractions: each names
// the call, and laze's typed errors (a NodeError wrapping a ShapeError or
// an ArgumentError that names the shapes, the letter or the position)
// come through.
func TestContractErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"np.einsum('ij,jk', a, a)", `index "j" has size 3 in operand 0 (dimension 1) and 2 in operand 1`, shape.ErrShape},
		{"np.einsum('i.j', a)", "position 1", shape.ErrInvalid},
		{"np.einsum('ij,jk->ik', a)", "operands = 1", shape.ErrInvalid},
		{"np.einsum(a, a)", "first argument is the subscripts", nil},
		{"np.einsum('ij')", "at least one array", nil},
		{"np.einsum('ij, a)", "unterminated string", nil},
		{"np.tensordot(a, a, axes=([0, 1], [0]))", "the lists must have the same length", shape.ErrInvalid},
		{"np.tensordot(a, a, axes=([0], [1]))", "axis 0 of the first has size 2, axis 1 of the second size 3", shape.ErrShape},
		{"np.tensordot(a, a, axes=(1, 2, 3))", "a pair of axis lists", nil},
		{"np.tensordot(a, a, axes=3)", "axes = 3", shape.ErrInvalid},
		{"np.dot(a, a)", "(2,3), (2,3): shapes not aligned: 3 (dim 1) != 2 (dim 0)", shape.ErrShape},
		{"np.inner(a, u[:2])", "last dimensions differ (3 and 2)", shape.ErrShape},
		{"np.vdot(a, u)", "(6,), (3,)", shape.ErrShape},
		{"np.matmul(2, a)", "matmul needs arrays", nil},
		{"np.matmul(a, a)", "(2,3) @ (2,3)", shape.ErrShape},
	})
}
