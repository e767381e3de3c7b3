package interp

import (
	"testing"

	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for sorting.go: the dtypes, shapes and values
// were printed by NumPy 1.24 (/usr/bin/python3) for these expressions on
// testInputs, and TestAgainstNumPy runs them through NumPy again. Ties,
// -0 and +Inf are among the sorted values; every argsort row has a unique
// answer or NumPy's stable one.
func init() {
	numpyTable = append(numpyTable, []numpyRow{
		{"np.sort(-a)", Float64, shape.Of(2, 3), []float64{-2.0, -1.0, -0.0, -5.0, -4.0, -3.0}, false, false},
		{"np.sort(-a, axis=0)", Float64, shape.Of(2, 3), []float64{-3.0, -4.0, -5.0, -0.0, -1.0, -2.0}, false, false},
		{"np.sort(a % 2 - a, axis=None)", Float64, shape.Of(6), []float64{-4.0, -4.0, -2.0, -2.0, 0.0, 0.0}, false, false},
		{"np.sort(u)", Uint8, shape.Of(3), []float64{0.0, 5.0, 250.0}, false, false},
		{"np.sort(s)", Int8, shape.Of(3), []float64{-128.0, 3.0, 127.0}, false, false},
		{"np.sort(b)", Bool, shape.Of(3), []float64{0.0, 1.0, 1.0}, false, false},
		{"np.sort(f * -1)", Float32, shape.Of(3), []float64{-2.5, -0.5, 1.5}, false, false},
		{"np.argsort(-a)", Int64, shape.Of(2, 3), []float64{2.0, 1.0, 0.0, 2.0, 1.0, 0.0}, false, false},
		{`np.argsort(a % 2, axis=0, kind="stable")`, Int64, shape.Of(2, 3), []float64{0.0, 1.0, 0.0, 1.0, 0.0, 1.0}, false, false},
		{`(a % 2).argsort(kind="mergesort")`, Int64, shape.Of(2, 3), []float64{0.0, 2.0, 1.0, 1.0, 0.0, 2.0}, false, false},
		{"np.argsort(-i, axis=None)", Int64, shape.Of(6), []float64{5.0, 4.0, 3.0, 2.0, 1.0, 0.0}, false, false},
		{"np.argsort(u)", Int64, shape.Of(3), []float64{2.0, 1.0, 0.0}, false, false},
		{"np.sort((a - 2) * (3 - a), axis=0)", Float64, shape.Of(2, 3), []float64{-6.0, -2.0, -6.0, 0.0, -2.0, 0.0}, false, false},
		{"np.argsort((a - 2) * (3 - a), axis=None)", Int64, shape.Of(6), []float64{0.0, 5.0, 1.0, 4.0, 2.0, 3.0}, false, false},
		{"np.median(a)", Float64, shape.Of(), []float64{2.5}, false, false},
		{"np.median(a, axis=0)", Float64, shape.Of(3), []float64{1.5, 2.5, 3.5}, false, false},
		{"np.median(a, axis=1, keepdims=True)", Float64, shape.Of(2, 1), []float64{1.0, 4.0}, false, false},
		{"np.median(i, axis=-1)", Float64, shape.Of(2), []float64{1.0, 4.0}, false, false},
		{"np.median(f)", Float32, shape.Of(), []float64{0.5}, false, false},
		{"np.median((a - 2) * (3 - a), axis=1)", Float64, shape.Of(2), []float64{-2.0, -2.0}, false, false},
		{"np.median(a, keepdims=True)", Float64, shape.Of(1, 1), []float64{2.5}, false, false},
		{"np.quantile(a, 0.3)", Float64, shape.Of(), []float64{1.5}, false, false},
		{"np.quantile(a, 0.25, axis=1)", Float64, shape.Of(2), []float64{0.5, 3.5}, false, false},
		{"np.quantile(i, 0.5, axis=0, keepdims=True)", Float64, shape.Of(1, 3), []float64{1.5, 2.5, 3.5}, false, false},
		{"np.quantile(f, 0.37)", Float64, shape.Of(), []float64{-0.020000000000000018}, false, false},
		{"np.quantile(u, 0.9)", Float64, shape.Of(), []float64{201.0}, false, false},
		{"np.percentile(a, 50)", Float64, shape.Of(), []float64{2.5}, false, false},
		{"np.percentile(a, 12.5, axis=1)", Float64, shape.Of(2), []float64{0.25, 3.25}, false, false},
		{"np.percentile(i, 90, axis=0)", Float64, shape.Of(3), []float64{2.7, 3.7, 4.7}, false, false},
		{"np.percentile(a, 40, keepdims=True)", Float64, shape.Of(1, 1), []float64{2.0}, false, false},
	}...)
}

// TestSortingErrors checks the errors of sort, argsort, median, quantile
// and percentile: each names the call and the value at fault.
func TestSortingErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"np.sort(a, axis=2)", "axis 2 is out of bounds", nil},
		{"np.argsort(a, axis=-3)", "axis -3 is out of bounds", nil},
		{"np.sort(a, kind='bogo')", "kind must be", nil},
		{"np.median(a, axis=(0, 1))", "one axis or None, not a tuple", nil},
		{"np.quantile(a, 1.5)", "q = 1.5: must be in the range [0, 1]", shape.ErrInvalid},
		{"np.percentile(a, -1)", "p = -1: must be in the range [0, 100]", shape.ErrInvalid},
		{"np.quantile(a, (0.1, 0.2))", "q must be one number", nil},
		{"np.quantile(a)", "takes 2 to 4 arguments", nil},
	})
}
