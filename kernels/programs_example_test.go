package kernels_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Three small programs as a user writes them, each beside its NumPy form
// (in the comment) and its gonum form (the function after it, which
// TestProgramsAgreeWithGonum runs against laze's result). The printed
// outputs are NumPy's (np.corrcoef for the correlation), at four digits.
// docs/guide.md shows the three forms side by side.

// Softmax over the rows of a matrix of scores: one line.
//
//	NumPy: e = np.exp(x - x.max(axis=1, keepdims=True)); p = e / e.sum(axis=1, keepdims=True)
func Example_softmaxRows() {
	scores, _ := tensor.FromSlice([]float64{1, 2, 3, 1, 1, 1, 1000, 0, -1000}, []int{3, 3})
	p, _ := kernels.Eval(expr.Softmax(scores, 1))
	fmt.Printf("%.4v\n", p)
	// Output:
	// [[0.09   0.2447 0.6652]
	//  [0.3333 0.3333 0.3333]
	//  [1.     0.     0.    ]]
}

func softmaxRowsGonum(x *mat.Dense) *mat.Dense {
	r, c := x.Dims()
	p := mat.NewDense(r, c, nil)
	for i := range r {
		row := p.RawRowView(i)
		copy(row, x.RawRowView(i))
		floats.AddConst(-floats.Max(row), row)
		for j := range row {
			row[j] = math.Exp(row[j])
		}
		floats.Scale(1/floats.Sum(row), row)
	}
	return p
}

// The correlation matrix of samples in rows (a covariance normalised by
// the standard deviations): the deviations, their product with their own
// transpose and the outer product of the deviations are views and trees,
// so nothing is computed before the Eval.
//
//	NumPy: d = x - x.mean(0); cov = d.T @ d / (n - 1); s = x.std(0, ddof=1); corr = cov / np.outer(s, s)
func Example_correlation() {
	x, _ := tensor.FromSlice([]float64{1, 2, 0, 2, 4, 1, 3, 7, 1, 4, 8, 3}, []int{4, 3}) // 4 samples, 3 variables
	n := float64(x.Shape()[0])
	d := expr.Of(x).Sub(expr.Mean(x, expr.Axis(0)))
	cov := expr.Of(expr.MatMul(d.T(), d)).DivScalar(n - 1)
	s := expr.Std(x, expr.Axis(0), expr.DDof(1))
	corr, _ := kernels.Eval(cov.Div(expr.Of(s).Unsqueeze(1).Mul(s)))
	fmt.Printf("%.4v\n", corr)
	// Output:
	// [[1.     0.9845 0.9234]
	//  [0.9845 1.     0.8417]
	//  [0.9234 0.8417 1.    ]]
}

func correlationGonum(x *mat.Dense) *mat.SymDense {
	var corr mat.SymDense
	stat.CorrelationMatrix(&corr, x, nil)
	return &corr
}

// A two-layer perceptron's forward pass: each layer is one product whose
// bias and activation run fused on the product's result, then a softmax.
//
//	NumPy: h = np.maximum(x @ w1 + b1, 0); y = softmax(h @ w2 + b2, axis=1)
func Example_mlp() {
	x, _ := tensor.FromSlice([]float64{1, 0, 0, 1, 1, 1}, []int{3, 2}) // 3 inputs of 2 features
	w1, _ := tensor.FromSlice([]float64{1, -1, 0.5, 2, 1, -1}, []int{2, 3})
	b1, _ := tensor.FromSlice([]float64{0, 0.5, 0}, []int{3})
	w2, _ := tensor.FromSlice([]float64{1, 0, 0, 1, -1, 1}, []int{3, 2})
	b2, _ := tensor.FromSlice([]float64{0, 0}, []int{2})
	h := expr.ReLU(expr.Add(expr.MatMul(x, w1), b1))
	y, _ := kernels.Eval(expr.Softmax(expr.Add(expr.MatMul(h, w2), b2), 1))
	fmt.Printf("%.4v\n", y)
	// Output:
	// [[0.5    0.5   ]
	//  [0.6225 0.3775]
	//  [0.9241 0.0759]]
}

func mlpGonum(x, w1 *mat.Dense, b1 []float64, w2 *mat.Dense, b2 []float64) *mat.Dense {
	var h, z mat.Dense
	h.Mul(x, w1)
	h.Apply(func(_, j int, v float64) float64 { return max(v+b1[j], 0) }, &h)
	z.Mul(&h, w2)
	z.Apply(func(_, j int, v float64) float64 { return v + b2[j] }, &z)
	return softmaxRowsGonum(&z)
}

// TestProgramsAgreeWithGonum runs each program's gonum form on random
// inputs and compares it with laze's, so the side-by-side forms in the
// guide compute the same thing.
func TestProgramsAgreeWithGonum(t *testing.T) {
	dense := func(x *tensor.Tensor[float64]) *mat.Dense {
		s := x.Shape()
		return mat.NewDense(s[0], s[1], x.Contiguous().Data())
	}
	near := func(name string, got *tensor.Tensor[float64], want mat.Matrix) {
		r, c := want.Dims()
		for i := range r {
			for j := range c {
				if g, w := got.At(i, j), want.At(i, j); math.Abs(g-w) > 1e-12*max(1, math.Abs(w)) {
					t.Fatalf("%s: element (%d, %d) = %v, gonum %v", name, i, j, g, w)
				}
			}
		}
	}
	x := tensor.Randn[float64](7, 50, 4)
	p, err := kernels.Eval(expr.Softmax(x, 1))
	if err != nil {
		t.Fatal(err)
	}
	near("softmax", p, softmaxRowsGonum(dense(x)))

	n := float64(x.Shape()[0])
	d := expr.Of(x).Sub(expr.Mean(x, expr.Axis(0)))
	cov := expr.Of(expr.MatMul(d.T(), d)).DivScalar(n - 1)
	s := expr.Std(x, expr.Axis(0), expr.DDof(1))
	corr, err := kernels.Eval(cov.Div(expr.Of(s).Unsqueeze(1).Mul(s)))
	if err != nil {
		t.Fatal(err)
	}
	near("correlation", corr, correlationGonum(dense(x)))

	w1, b1 := tensor.Randn[float64](8, 4, 6), tensor.Randn[float64](9, 6)
	w2, b2 := tensor.Randn[float64](10, 6, 3), tensor.Randn[float64](11, 3)
	h := expr.ReLU(expr.Add(expr.MatMul(x, w1), b1))
	y, err := kernels.Eval(expr.Softmax(expr.Add(expr.MatMul(h, w2), b2), 1))
	if err != nil {
		t.Fatal(err)
	}
	near("mlp", y, mlpGonum(dense(x), dense(w1), b1.Data(), dense(w2), b2.Data()))
}
