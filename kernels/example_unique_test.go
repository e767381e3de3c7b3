package kernels_test

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Nonzero is numpy.nonzero: one index array per axis, in row-major order.
// It evaluates x now (the result's length depends on the values).
func ExampleNonzero() {
	x, _ := tensor.FromSlice([]float64{0, 1.5, 0, 2, 0, math.NaN()}, []int{2, 3})
	idx, _ := kernels.Nonzero[float64](x)
	fmt.Println(idx[0], idx[1])
	// Output:
	// [0 1 1] [1 0 2]
}

// FlatNonzero is numpy.flatnonzero: the positions in x flattened.
func ExampleFlatNonzero() {
	x, _ := tensor.FromSlice([]int32{0, 4, 0, -1, 7, 0}, []int{2, 3})
	idx, _ := kernels.FlatNonzero(expr.Of[int32](x).SubScalar(4).E) // np.flatnonzero(x - 4)
	fmt.Println(idx)
	// Output:
	// [0 2 3 4 5]
}

// Unique is numpy.unique: x's distinct values, sorted, NaNs made one at
// the end.
func ExampleUnique() {
	x, _ := tensor.FromSlice([]float64{3, math.NaN(), 1, 3, math.NaN(), 2}, []int{2, 3})
	u, _ := kernels.Unique[float64](x)
	fmt.Println(u)
	// Output:
	// [ 1.  2.  3. nan]
}

// UniqueCounts is numpy.unique(x, return_counts=True).
func ExampleUniqueCounts() {
	x, _ := tensor.FromSlice([]int64{5, 1, 5, 5, 2, 1}, []int{6})
	values, counts, _ := kernels.UniqueCounts[int64](x)
	fmt.Println(values, counts)
	// Output:
	// [1 2 5] [2 1 3]
}
