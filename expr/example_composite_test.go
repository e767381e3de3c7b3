package expr_test

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Var and Std follow NumPy: DDof(1) divides by N - 1.
func ExampleVar() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8}, []int{2, 4})
	v, _ := kernels.Eval(expr.Var[float64](a, expr.Axis(1)))
	s, _ := kernels.Eval(expr.Std[float64](a, expr.Axis(1), expr.DDof(1), expr.KeepDims()))
	fmt.Println(v)
	fmt.Println(s)
	// Output:
	// [1.25 1.25]
	// [[1.29099445]
	//  [1.29099445]]
}

// Std is the square root of Var.
func ExampleStd() {
	a, _ := tensor.FromSlice([]float32{2, 4, 4, 4, 5, 5, 7, 9}, []int{8})
	s, _ := kernels.Eval(expr.Std[float32](a))
	fmt.Println(s)
	// Output: 2.0
}

// Softmax subtracts each line's maximum first, so large inputs do not
// overflow.
func ExampleSoftmax() {
	a, _ := tensor.FromSlice([]float64{0, 0, 1000, 1000}, []int{2, 2})
	out, _ := kernels.Eval(expr.Softmax[float64](a, -1))
	fmt.Println(out)
	// Output:
	// [[0.5 0.5]
	//  [0.5 0.5]]
}

// LogSoftmax keeps the small entries that softmax rounds to 0.
func ExampleLogSoftmax() {
	a, _ := tensor.FromSlice([]float64{0, -1000}, []int{2})
	out, _ := kernels.Eval(expr.LogSoftmax[float64](a, 0))
	fmt.Println(out)
	// Output: [    0. -1000.]
}

// LogSumExp is log(sum(exp(x))) without overflow; only -Inf gives -Inf.
func ExampleLogSumExp() {
	a, _ := tensor.FromSlice([]float64{1000, 1000}, []int{2})
	b := tensor.Full(math.Inf(-1), 3)
	s, _ := kernels.Eval(expr.LogSumExp[float64](a))
	t, _ := kernels.Eval(expr.LogSumExp[float64](b))
	fmt.Println(s, t)
	// Output: 1000.6931471805599 -inf
}

// CumSum and CumProd are NumPy's cumsum and cumprod along one axis.
func ExampleCumSum() {
	a, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, []int{2, 3})
	rows, _ := kernels.Eval(expr.CumSum[int32](a, 1))
	cols, _ := kernels.Eval(expr.CumSum[int32](a, 0))
	fmt.Println(rows)
	fmt.Println(cols)
	// Output:
	// [[ 1  3  6]
	//  [ 4  9 15]]
	// [[1 2 3]
	//  [5 7 9]]
}

// CumProd multiplies along the axis; integers wrap as NumPy's do.
func ExampleCumProd() {
	a, _ := tensor.FromSlice([]int8{2, 4, 8, 16}, []int{4})
	out, _ := kernels.Eval(expr.CumProd[int8](a, 0))
	fmt.Println(out)
	// Output: [ 2  8 64  0]
}

// Concatenate joins along an existing axis; Assign writes each part
// straight into its slice of the destination.
func ExampleConcatenate() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, []int{2, 2})
	b, _ := tensor.FromSlice([]float64{5, 6}, []int{1, 2})
	e := expr.Concatenate[float64](0, expr.Name("a", a), expr.Name("b", b))
	out, _ := kernels.Eval(e)
	fmt.Println(e, e.Shape())
	fmt.Println(out)
	// Output:
	// concatenate((a, b), axis=0) (3,2)
	// [[1. 2.]
	//  [3. 4.]
	//  [5. 6.]]
}

// Stack joins along a new axis.
func ExampleStack() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	y, _ := tensor.FromSlice([]float64{4, 5, 6}, []int{3})
	out, _ := kernels.Eval(expr.Stack[float64](1, x, y))
	fmt.Println(out)
	// Output:
	// [[1. 4.]
	//  [2. 5.]
	//  [3. 6.]]
}

// The nan reductions ignore NaN, as NumPy's; a line of only NaN has no
// maximum (NaN) and no index of it (-1).
func ExampleNanMax() {
	nan := math.NaN()
	a, _ := tensor.FromSlice([]float64{1, nan, 3, nan, nan, nan}, []int{2, 3})
	m, _ := kernels.Eval(expr.NanMax[float64](a, expr.Axis(1)))
	i, _ := kernels.Eval(expr.NanArgMax[float64](a, expr.Axis(1)))
	s, _ := kernels.Eval(expr.NanSum[float64](a, expr.Axis(1)))
	fmt.Println(m, i, s)
	// Output: [ 3. nan] [ 2 -1] [4. 0.]
}

// VectorNorm and MatrixNorm are NumPy's linalg.norm for vectors and
// matrices.
func ExampleVectorNorm() {
	a, _ := tensor.FromSlice([]float64{3, -4, 1, 2}, []int{2, 2})
	rows, _ := kernels.Eval(expr.VectorNorm[float64](a, 2, expr.Axis(1)))
	one, _ := kernels.Eval(expr.MatrixNorm[float64](a, 1))
	fro, _ := kernels.Eval(expr.FrobeniusNorm[float64](a))
	fmt.Println(rows, one, fro)
	// Output: [5.         2.23606798] 6.0 5.477225575051661
}

// All and Any reduce truth values; CountNonzero counts.
func ExampleAll() {
	a, _ := tensor.FromSlice([]int32{1, 0, 2, 3}, []int{2, 2})
	all, _ := kernels.Eval(expr.All[int32](a, expr.Axis(1)))
	any, _ := kernels.Eval(expr.Any[int32](a, expr.Axis(0)))
	n, _ := kernels.Eval(expr.CountNonzero[int32](a))
	fmt.Println(all, any, n)
	// Output: [0 1] [1 1] 3
}

// Average weighs each element; nil weights give the mean.
func ExampleAverage() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, []int{2, 2})
	w, _ := tensor.FromSlice([]float64{1, 3}, []int{1, 2})
	avg, _ := kernels.Eval(expr.Average[float64](a, w, expr.Axis(1)))
	fmt.Println(avg)
	// Output: [1.75 3.75]
}
