package expr_test

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// SearchSorted is numpy.searchsorted: where each value would go in a sorted
// 1-D array, on the left of equal elements or (right) on their right; NaNs
// sort last. It is lazy: here the sort, the search and the *2 are one
// evaluation.
func ExampleSearchSorted() {
	x, _ := tensor.FromSlice([]float64{5, 1, math.NaN(), 3, 3}, []int{5})
	v, _ := tensor.FromSlice([]float64{3, 0, 9, math.NaN()}, []int{2, 2})
	a := expr.Sort[float64](x, 0)                                    // [1 3 3 5 nan]
	left, _ := kernels.Eval(expr.SearchSorted[float64](a, v, false)) // np.searchsorted(a, v)
	fmt.Println(left)
	right, _ := kernels.Eval(expr.SearchSorted[float64](a, v, true)) // side="right"
	fmt.Println(right)
	twice, _ := kernels.Eval(expr.Of(expr.SearchSorted[float64](a, v, false)).MulScalar(2).E)
	fmt.Println(twice)
	// Output:
	// [[1 0]
	//  [4 4]]
	// [[3 0]
	//  [4 5]]
	// [[2 0]
	//  [8 8]]
}
