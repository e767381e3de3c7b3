package interp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for searching.go, printed by NumPy 1.24
// (/usr/bin/python3) for these expressions on testInputs; TestAgainstNumPy
// runs them through NumPy again. A tuple's items are taken by subscripts
// (np.asarray of the item is the array compared); ties, both sides, NaN,
// mixed dtypes and bools are among them.
func init() {
	numpyTable = append(numpyTable, []numpyRow{
		{"np.searchsorted(a[0], a)", Int64, shape.Of(2, 3), []float64{0, 1, 2, 3, 3, 3}, false, false},
		{"np.searchsorted(a[1], a, side='right')", Int64, shape.Of(2, 3), []float64{0, 0, 0, 1, 2, 3}, false, false},
		{"a[0].searchsorted(1.5)", Int64, shape.Of(), []float64{2}, false, false},
		{"np.searchsorted(np.sort(u), u)", Int64, shape.Of(3), []float64{2, 1, 0}, false, false},
		{"np.searchsorted(np.sort(f), a[1] - 4)", Int64, shape.Of(3), []float64{1, 1, 2}, false, false},
		{"np.searchsorted(np.sort(s), i, 'right')", Int64, shape.Of(2, 3), []float64{1, 1, 1, 2, 2, 2}, false, false},
		{"np.searchsorted(a[0], np.nan)", Int64, shape.Of(), []float64{3}, false, false},
		{"np.searchsorted(np.unique(a // 2), a // 2)", Int64, shape.Of(2, 3), []float64{0, 0, 1, 1, 2, 2}, false, false},
		{"np.nonzero(a % 2)[1]", Int64, shape.Of(3), []float64{1, 0, 2}, false, false},
		{"np.nonzero(a - 1)[0]", Int64, shape.Of(5), []float64{0, 0, 1, 1, 1}, false, false},
		{"a.nonzero()[-1]", Int64, shape.Of(5), []float64{1, 2, 0, 1, 2}, false, false},
		{"np.where(b)[0]", Int64, shape.Of(2), []float64{0, 2}, false, false},
		{"np.where(a > 2)[1]", Int64, shape.Of(3), []float64{0, 1, 2}, false, false},
		{"np.unique(a // 2)", Float64, shape.Of(3), []float64{0, 1, 2}, false, false},
		{"np.unique(-u)", Uint8, shape.Of(3), []float64{0, 6, 251}, false, false},
		{"np.unique(a % 2, return_counts=True)[1]", Int64, shape.Of(2), []float64{3, 3}, false, false},
		{"np.unique(b, return_counts=True)[0]", Bool, shape.Of(2), []float64{0, 1}, false, false},
		{"np.unique(i // 4)", Int32, shape.Of(2), []float64{0, 1}, false, false},
	}...)
}

// TestSearchingErrors checks the errors of searchsorted, nonzero, where
// and unique: each names the call and the value at fault, reaching laze's
// typed error where there is one.
func TestSearchingErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"np.searchsorted(a, a)", "a must be 1-D", shape.ErrShape},
		{"np.searchsorted(a[0], a, side='middle')", "side must be 'left' or 'right'", nil},
		{"np.searchsorted(a[0])", "takes 2 to 3 arguments", nil},
		{"np.nonzero(a[0, 0])", "nonzero of a 0-d array is not allowed", shape.ErrShape},
		{"np.nonzero(a) + 1", "returns a tuple of 2 arrays; take one with np.nonzero(a)[0]", nil},
		{"np.nonzero(a)[2]", "tuple index 2 out of range", nil},
		{"np.nonzero(a)[0:1]", "a tuple takes one integer index", nil},
		{"np.where(b, a)", "where takes 1 or 3 arguments, not 2", nil},
		{"np.unique(a, return_counts=True) * 2", "returns a tuple of 2 arrays", nil},
		{"sum(np.where(b))", "returns a tuple of 1 arrays", nil},
	})
}

// TestTupleResults checks that a tuple as the whole expression is a Result
// holding its arrays.
func TestTupleResults(t *testing.T) {
	in := testInputs(t)
	for _, tt := range []struct {
		src    string
		dtypes []DType
		values [][]float64
	}{
		{"np.nonzero(a % 2)", []DType{Int64, Int64}, [][]float64{{0, 1, 1}, {1, 0, 2}}},
		{"np.where(b)", []DType{Int64}, [][]float64{{0, 2}}},
		{"np.unique(u // 100, return_counts=True)", []DType{Uint8, Int64}, [][]float64{{0, 2}, {2, 1}}},
		{"np.nonzero(a > 9)", []DType{Int64, Int64}, [][]float64{{}, {}}},
	} {
		r, err := Run(tt.src, in, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if len(r.Tuple) != len(tt.dtypes) {
			t.Fatalf("%s: %d arrays, want %d", tt.src, len(r.Tuple), len(tt.dtypes))
		}
		for k, item := range r.Tuple {
			if item.DType != tt.dtypes[k] || !item.Shape.Equal(shape.Of(len(tt.values[k]))) {
				t.Errorf("%s[%d]: %s %v, want %s (%d,)", tt.src, k, item.DType, item.Shape, tt.dtypes[k], len(tt.values[k]))
			}
			if diff := cmp.Diff(tt.values[k], valuesOfResult(t, item), closeFloats); diff != "" {
				t.Errorf("%s[%d] (-numpy +laze):\n%s", tt.src, k, diff)
			}
		}
		if err := r.WriteNPY(nil); err == nil {
			t.Errorf("%s: WriteNPY of a tuple gives no error", tt.src)
		}
	}
}
