package expr_test

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// A covariance matrix with no Eval: the centred data d is a lazy tree, d.T
// is a view of it, and the product computes d once and reads it twice,
// once as stored and once transposed.
func ExampleT() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3, 6, 5, 10}, []int{3, 2}) // 3 samples, 2 variables; d = [[-2 -4] [0 0] [2 4]]
	n := float64(x.Shape()[0])
	d := expr.Of[float64](x).Sub(expr.Mean[float64](x, expr.Axis(0))) // x - mean(x, 0)
	cov := expr.Of[float64](expr.MatMul[float64](d.T(), d)).DivScalar(n - 1)
	out, _ := kernels.Eval(cov)
	fmt.Println(out)
	// Output:
	// [[ 4.  8.]
	//  [ 8. 16.]]
}

// Views of an expression are pushed down to its tensors: (a + b).T[::-1]
// reads a and b through views, in one pass, with no temporary.
func ExamplePushViews() {
	a, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, []int{3})
	e := expr.Of(expr.Name("a", a)).Add(expr.Name("b", b)).T().Slice(0, tensor.None, tensor.None, -1)
	pushed, _ := expr.PushViews(e)
	fmt.Println(e, "is read as", pushed)
	out, _ := kernels.Eval(e)
	fmt.Println(out)
	// Output:
	// (a + b).T[::-1] is read as (a.T[::-1] + b.expand(2, 3).T[::-1])
	// [[32. 35.]
	//  [21. 24.]
	//  [10. 13.]]
}

// NumPy's view functions work on any expression and cost nothing: the
// diagonal of a flipped product-free tree is read straight from the
// tensor's storage, with a stride of columns+1 (and a negative one here).
func ExampleDiagonal() {
	m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
	anti := expr.Diagonal(expr.Flip(expr.Of[float64](expr.Name("m", m)).MulScalar(10), 1), 0, 0, 1) // np.fliplr(m * 10).diagonal()
	pushed, _ := expr.PushViews(anti)
	fmt.Println(pushed)
	out, _ := kernels.Eval(anti)
	fmt.Println(out)
	moved, _ := kernels.Eval(expr.MoveAxis(expr.ExpandDims[float64](m, 0), []int{0}, []int{-1})) // np.moveaxis(m[None], 0, -1)
	fmt.Println(moved.Shape())
	// Output:
	// (m[:, ::-1].diagonal(0, 0, 1) * 10)
	// [20. 40. 60.]
	// (3,3,1)
}

// Generators are leaves that hold no memory: exp(-t·dt)·x over t =
// arange(n) computes each t from its index inside the fused loop, and
// views of a generator (a reshape, a flip) are views of its positions.
func ExampleArange() {
	x := tensor.Ones[float64](4)
	decay := expr.Of[float64](expr.Arange[float64](0, 4, 1)).MulScalar(-0.5).Exp().Mul(x) // np.exp(-np.arange(4) * 0.5) * x
	out, _ := kernels.Eval(decay)
	fmt.Printf("%.4f\n", out.Data())
	grid, _ := kernels.Eval(expr.Of[float64](expr.Linspace[float64](0, 1, 6, true)).Reshape(2, 3).Flip(0)) // np.linspace(0, 1, 6).reshape(2, 3)[::-1]
	fmt.Println(grid)
	m, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{3, 3})
	lower, _ := kernels.Eval(expr.Mul[float64](m, expr.Tri[float64](3, 3, 0))) // np.tril(m)
	fmt.Println(lower)
	// Output:
	// [1.0000 0.6065 0.3679 0.2231]
	// [[0.6 0.8 1. ]
	//  [0.  0.2 0.4]]
	// [[1. 0. 0.]
	//  [4. 5. 0.]
	//  [7. 8. 9.]]
}

// NumPy's structured functions are compositions of views, generators and
// joins: trace and diff read strided views, tril masks with a generator,
// roll joins two slices, tile copies its operand once.
func ExampleTrace() {
	m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
	for _, e := range []expr.Exp[float64]{
		expr.Trace[float64](m, 0, 0, 1),      // np.trace(m)
		expr.Diff[float64](m, 1, 1),          // np.diff(m, axis=1)
		expr.Tril[float64](m, -1),            // np.tril(m, -1)
		expr.Roll[float64](m, 1, 0),          // np.roll(m, 1, 0)
		expr.Tile[float64](m.Index(0, 0), 2), // np.tile(m[0], 2)
	} {
		out, _ := kernels.Eval(e)
		fmt.Println(out)
	}
	// Output:
	// 12.0
	// [[1. 1.]
	//  [1. 1.]
	//  [1. 1.]]
	// [[0. 0. 0.]
	//  [3. 0. 0.]
	//  [6. 7. 0.]]
	// [[6. 7. 8.]
	//  [0. 1. 2.]
	//  [3. 4. 5.]]
	// [0. 1. 2. 0. 1. 2.]
}
