package expr_test

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Sort and ArgSort as NumPy's stable sort: NaNs last, ties in their order.
// The sort is a step of its own; the tree around it fuses into one pass.
func ExampleSort() {
	x, _ := tensor.FromSlice([]float64{3, math.NaN(), -1, 2, -1, math.Inf(-1)}, []int{2, 3})
	s, _ := kernels.Eval(expr.Sort[float64](x, -1)) // np.sort(x, axis=-1)
	fmt.Println(s)
	a, _ := kernels.Eval(expr.ArgSort[float64](x, 0)) // np.argsort(x, axis=0, kind="stable")
	fmt.Println(a)
	y, _ := kernels.Eval(expr.Of(expr.Sort[float64](x, 1)).MulScalar(2).E) // sorted, then doubled in the same pass
	fmt.Println(y)
	// Output:
	// [[ -1.   3.  nan]
	//  [-inf  -1.   2.]]
	// [[1 1 1]
	//  [0 0 0]]
	// [[ -2.   6.  nan]
	//  [-inf  -2.   4.]]
}

// Median, Quantile, Percentile and TopK are views of a Sort combined
// elementwise; a line holding a NaN gives NaN, as NumPy.
func ExampleQuantile() {
	x, _ := tensor.FromSlice([]float64{7, 1, 3, 5, 4, 2, 8, 6}, []int{2, 4})
	med, _ := kernels.Eval(expr.Median[float64](x, 1, false)) // np.median(x, axis=1)
	fmt.Println(med)
	q, _ := kernels.Eval(expr.Quantile[float64](x, 0.25, 1, true)) // np.quantile(x, 0.25, axis=1, keepdims=True)
	fmt.Println(q)
	p, _ := kernels.Eval(expr.Percentile[float64](x, 90, 0, false)) // np.percentile(x, 90, axis=0)
	fmt.Println(p)
	top, _ := kernels.Eval(expr.TopK[float64](x, 2, 1)) // torch.topk(x, 2, dim=1).values
	fmt.Println(top)
	// Output:
	// [4. 5.]
	// [[2.5]
	//  [3.5]]
	// [6.7 1.9 7.5 5.9]
	// [[7. 5.]
	//  [8. 6.]]
}
