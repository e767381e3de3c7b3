package interp

import (
	"errors"
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"strings"
	"testing"

	"github.com/laze-go/laze/shape"
)

// The rows of numpyTable for numpy_funcs.go, worked by hand from NumPy's
// (and, for softmax, log_softmax and logsumexp, scipy.special's) documented
// rules on the inputs of testInputs: var divides the squared deviations'
// sum by N - ddof (inf when that is 0 and the sum is not, NaN over no
// elements); cumsum without axis scans the flattened array, in sumFor's
// dtype; concatenate and stack promote the parts' dtypes; a boolean index
// selects in row-major order.
func init() {
	f := 8.0 / 3
	numpyTable = append(numpyTable, []numpyRow{
		{"var(a)", Float64, shape.Of(), []float64{17.5 / 6}, false, false}, // mean 2.5: 6.25 2.25 .25 .25 2.25 6.25
		{"var(a, axis=1)", Float64, shape.Of(2), []float64{2.0 / 3, 2.0 / 3}, false, false},
		{"var(i, axis=0, ddof=1)", Float64, shape.Of(3), []float64{4.5, 4.5, 4.5}, false, false},
		{"std(a, axis=1, keepdims=True)", Float64, shape.Of(2, 1), []float64{0.816496580927726, 0.816496580927726}, false, false},
		{"a.std(ddof=1)", Float64, shape.Of(), []float64{1.8708286933869707}, false, false}, // sqrt(17.5/5)
		{"var(f)", Float32, shape.Of(), []float64{float64(float32(f))}, false, false},       // mean 0.5, deviations 0 -2 2
		{"var(b)", Float64, shape.Of(), []float64{2.0 / 9}, false, false},                   // 1 0 1: mean 2/3
		{"var(a[:, :0], axis=1)", Float64, shape.Of(2), []float64{nan, nan}, false, false},
		{"var(a[0, :1], ddof=1)", Float64, shape.Of(), []float64{nan}, false, false}, // 0 / max(1 - 1, 0)
		{"cumsum(i)", Int64, shape.Of(6), []float64{0, 1, 3, 6, 10, 15}, false, false},
		{"cumsum(i, axis=1)", Int64, shape.Of(2, 3), []float64{0, 1, 3, 3, 7, 12}, false, false},
		{"cumsum(u)", Uint64, shape.Of(3), []float64{250, 255, 255}, false, false},
		{"cumsum(s)", Int64, shape.Of(3), []float64{-128, -1, 2}, false, false},
		{"cumsum(b)", Int64, shape.Of(3), []float64{1, 1, 2}, false, false},
		{"cumsum(f)", Float32, shape.Of(3), []float64{0.5, -1, 1.5}, false, false},
		{"a.cumsum(axis=-1)", Float64, shape.Of(2, 3), []float64{0, 1, 3, 3, 7, 12}, false, false},
		{"cumprod(a + 1, axis=0)", Float64, shape.Of(2, 3), []float64{1, 2, 3, 4, 10, 18}, false, false},
		{"concatenate((a, i))", Float64, shape.Of(4, 3), []float64{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, false, false},
		{"concatenate((a, a), axis=1)", Float64, shape.Of(2, 6), []float64{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, false, false},
		{"concatenate((u, s))", Int16, shape.Of(6), []float64{250, 5, 0, -128, 127, 3}, false, false},
		{"stack((f, f * 2))", Float32, shape.Of(2, 3), []float64{0.5, -1.5, 2.5, 1, -3, 5}, false, false},
		{"stack((h, u), axis=1)", Int16, shape.Of(3, 2), []float64{1, 250, 2, 5, 3, 0}, false, false},
		{"stack((a[0], a[1]), axis=-1)", Float64, shape.Of(3, 2), []float64{0, 3, 1, 4, 2, 5}, false, false},
		{"a[a > 2]", Float64, shape.Of(3), []float64{3, 4, 5}, false, false},
		{"i[i % 2 == 0]", Int32, shape.Of(3), []float64{0, 2, 4}, false, false},
		{"f[b]", Float32, shape.Of(2), []float64{0.5, 2.5}, false, false},
		{"sum(a[a > 10])", Float64, shape.Of(), []float64{0}, false, false},
		{"cumsum(a[a > 1])", Float64, shape.Of(4), []float64{2, 5, 9, 14}, false, false},
		// log(1 + e + e²) = 2.40760596444438; the second row is 3 more.
		{"logsumexp(a, axis=1)", Float64, shape.Of(2), []float64{2.40760596444438, 5.407605964444381}, false, false},
		{"logsumexp(i)", Float64, shape.Of(), []float64{5.456193316018123}, false, false}, // log(Σ e^k, k < 6)
		// exp(-2), exp(-1), 1 over their sum, in each row.
		{"softmax(a, axis=1)", Float64, shape.Of(2, 3), []float64{0.09003057317038046, 0.24472847105479764, 0.6652409557748219,
			0.09003057317038046, 0.24472847105479764, 0.6652409557748219}, false, false},
		{"log_softmax(a, axis=-1)", Float64, shape.Of(2, 3), []float64{-2.40760596444438, -1.40760596444438, -0.40760596444437977,
			-2.40760596444438, -1.40760596444438, -0.40760596444437977}, false, false},
	}...)
}

// TestNumPyFuncErrors checks the errors of the functions and of array
// indexing: each names the call, and laze's typed errors come through.
func TestNumPyFuncErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{"concatenate((a, u))", "(2,3), (3,)", shape.ErrShape},
		{"concatenate((a, a[:, :2]), axis=0)", "along dimension 1", shape.ErrShape},
		{"stack((a, a[0]))", "same rank", shape.ErrShape},
		{"concatenate((a, a), axis=2)", "concatenate", shape.ErrDimension},
		{"concatenate(a)", "takes a tuple of arrays", nil},
		{"cumsum(a, axis=2)", "cumsum", shape.ErrDimension},
		{"softmax(a)", "needs axis=", nil},
		{"var(a, ddof=0.5)", "ddof must be an integer", nil},
		{"a[i]", "index 2 is out of range for dimension 0 of size 2", shape.ErrIndex},
		{"a[b]", "(2,3), (3,)", shape.ErrShape},
	})
}

// errorCase is an expression Run must refuse: its error says says and,
// when is is set, wraps it (errors.Is).
type errorCase struct {
	src  string
	says string
	is   error
}

// checkErrors runs every case on testInputs and checks that each fails
// with an error that names the fault and its position: an *Error, or a
// *lang.SyntaxError for source that does not parse.
func checkErrors(t *testing.T, cases []errorCase) {
	t.Helper()
	in := testInputs(t)
	for _, tt := range cases {
		_, err := Run(tt.src, in, false)
		if err == nil {
			t.Errorf("%s: no error", tt.src)
			continue
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %q does not say %q", tt.src, err, tt.says)
		}
		var e *Error
		var se *lang.SyntaxError
		if !errors.As(err, &e) && !errors.As(err, &se) {
			t.Errorf("%s: %v is neither an *Error nor a *lang.SyntaxError", tt.src, err)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: %v is not %v", tt.src, err, tt.is)
		}
	}
}
