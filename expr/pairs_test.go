package expr_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops/opcases"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// pairInputs and the results below are NumPy 1.24's (np.modf, np.frexp):
// signed zeros, infinities, NaN, subnormals and the largest float64.
var pairInputs = []float64{-3.5, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), -3, 0, 2.75,
	5e-324, 1e-310, math.MaxFloat64, 0.5, 1, -0.75}

var nz = math.Copysign(0, -1)

// TestModfFrexp checks Modf and Frexp bit for bit against NumPy, in float64
// and float32, both results of each evaluated together by AssignAll.
func TestModfFrexp(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name        string
		first       []float64
		second      []float64
		first32     []float64 // the float32 results, where they differ from float32(first)
		second32    []float64
		exponent    []int32
		exponent32  []int32
		frexpResult bool
	}{
		{name: "modf",
			first:    []float64{-0.5, 0, nz, nan, nz, nz, 0, 0.75, 5e-324, 1e-310, 0, 0.5, 0, -0.75},
			second:   []float64{-3, inf, -inf, nan, nz, -3, 0, 2, 0, 0, math.MaxFloat64, 0, 1, nz},
			first32:  []float64{-0.5, 0, nz, nan, nz, nz, 0, 0.75, 0, 0, 0, 0.5, 0, -0.75},
			second32: []float64{-3, inf, -inf, nan, nz, -3, 0, 2, 0, 0, inf, 0, 1, nz}},
		{name: "frexp", frexpResult: true,
			first:      []float64{-0.875, inf, -inf, nan, nz, -0.75, 0, 0.6875, 0.5, 0.5752618031559393, 0.9999999999999999, 0.5, 0.5, -0.75},
			exponent:   []int32{2, 0, 0, 0, 0, 2, 0, 2, -1073, -1029, 1024, 0, 1, 0},
			first32:    []float64{-0.875, inf, -inf, nan, nz, -0.75, 0, 0.6875, 0, 0, inf, 0.5, 0.5, -0.75},
			exponent32: []int32{2, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 1, 0}},
	}
	same := cmp.Comparer(opcases.Same[float64])
	for _, tt := range tests {
		t.Run(tt.name+"/float64", func(t *testing.T) {
			x, _ := tensor.FromSlice(pairInputs, []int{len(pairInputs)})
			first, second, exponent := evalPair(t, x, tt.frexpResult)
			if diff := cmp.Diff(tt.first, first, same); diff != "" {
				t.Errorf("first result (-NumPy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.second, second, same); tt.second != nil && diff != "" {
				t.Errorf("second result (-NumPy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.exponent, exponent); tt.exponent != nil && diff != "" {
				t.Errorf("exponent (-NumPy +laze):\n%s", diff)
			}
		})
		t.Run(tt.name+"/float32", func(t *testing.T) {
			in := make([]float32, len(pairInputs))
			for i, v := range pairInputs {
				in[i] = float32(v)
			}
			x, _ := tensor.FromSlice(in, []int{len(in)})
			first, second, exponent := evalPair(t, x, tt.frexpResult)
			if diff := cmp.Diff(tt.first32, first, same); diff != "" {
				t.Errorf("first result (-NumPy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.second32, second, same); tt.second32 != nil && diff != "" {
				t.Errorf("second result (-NumPy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.exponent32, exponent); tt.exponent32 != nil && diff != "" {
				t.Errorf("exponent (-NumPy +laze):\n%s", diff)
			}
		})
	}
}

// evalPair evaluates Modf(x), or Frexp(x), with AssignAll, and returns the
// results widened to float64 (the exponent apart).
func evalPair[T tensor.Float](t *testing.T, x *tensor.Tensor[T], frexp bool) (first, second []float64, exponent []int32) {
	t.Helper()
	n := x.Shape()[0]
	a, b := tensor.Zeros[T](n), tensor.Zeros[T](n)
	e := tensor.Zeros[int32](n)
	var err error
	if frexp {
		m, ex := expr.Frexp[T](x)
		if err = kernels.Assign(a, m); err == nil {
			err = kernels.Assign(e, ex)
		}
	} else {
		f, w := expr.Modf[T](x)
		err = kernels.AssignAll([]*tensor.Tensor[T]{a, b}, []expr.Exp[T]{f, w})
	}
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		first = append(first, float64(a.At(i)))
		second = append(second, float64(b.At(i)))
	}
	if !frexp {
		return first, second, nil
	}
	return first, nil, e.Data()[:n]
}

// TestDivMod checks DivMod against NumPy's divmod on integers and floats.
func TestDivMod(t *testing.T) {
	xi, _ := tensor.FromSlice([]int64{7, -7, 7, -7, 0}, []int{5})
	yi, _ := tensor.FromSlice([]int64{2, 2, -2, -2, 3}, []int{5})
	q, r := expr.DivMod[int64](xi, yi)
	gotQ, err := kernels.Eval(q)
	if err != nil {
		t.Fatal(err)
	}
	gotR, _ := kernels.Eval(r)
	if diff := cmp.Diff([]int64{3, -4, -4, 3, 0}, gotQ.Data()); diff != "" {
		t.Errorf("int64 quotient (-NumPy +laze):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{1, 1, -1, -1, 0}, gotR.Data()); diff != "" {
		t.Errorf("int64 remainder (-NumPy +laze):\n%s", diff)
	}
	xf, _ := tensor.FromSlice([]float64{7.5, -7.5, 1, 5}, []int{4})
	yf, _ := tensor.FromSlice([]float64{2, 2, 0.1, 0}, []int{4})
	qf, rf := expr.DivMod[float64](xf, yf)
	gotQf, _ := kernels.Eval(qf)
	gotRf, _ := kernels.Eval(rf)
	same := cmp.Comparer(opcases.Same[float64])
	if diff := cmp.Diff([]float64{3, -4, 9, math.Inf(1)}, gotQf.Data(), same); diff != "" {
		t.Errorf("float64 quotient (-NumPy +laze):\n%s", diff)
	}
	if diff := cmp.Diff([]float64{1.5, 0.5, 0.09999999999999995, math.NaN()}, gotRf.Data(), same); diff != "" {
		t.Errorf("float64 remainder (-NumPy +laze):\n%s", diff)
	}
}

// Modf splits x into its fractional and integral parts, both with x's sign;
// AssignAll computes the two in one pass.
func ExampleModf() {
	x, _ := tensor.FromSlice([]float64{-3.5, 2.25, math.Inf(1)}, []int{3})
	frac, whole := tensor.Zeros[float64](3), tensor.Zeros[float64](3)
	f, w := expr.Modf[float64](x)
	if err := kernels.AssignAll([]*tensor.Tensor[float64]{frac, whole}, []expr.Exp[float64]{f, w}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(frac, whole)
	// Output: [-0.5   0.25  0.  ] [-3.  2. inf]
}

// Frexp gives the mantissa in [0.5, 1) and the exponent as int32.
func ExampleFrexp() {
	x, _ := tensor.FromSlice([]float64{8, -3, 0.1}, []int{3})
	m, e := expr.Frexp[float64](x)
	mantissa, _ := kernels.Eval(m)
	exponent, _ := kernels.Eval(e)
	fmt.Println(mantissa, exponent)
	// Output: [ 0.5  -0.75  0.8 ] [ 4  2 -3]
}

// DivMod is NumPy's divmod: the floor quotient and the remainder with the
// divisor's sign.
func ExampleDivMod() {
	x, _ := tensor.FromSlice([]int64{7, -7}, []int{2})
	q, r := expr.DivMod[int64](x, expr.Scalar[int64](2))
	quotient, _ := kernels.Eval(q)
	remainder, _ := kernels.Eval(r)
	fmt.Println(quotient, remainder)
	// Output: [ 3 -4] [1 1]
}
