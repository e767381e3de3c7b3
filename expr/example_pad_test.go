package expr_test

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Pad in NumPy's modes: each axis is one concatenation of views of x and,
// for constant, a generator; nothing is copied before the join.
func ExamplePad() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	for _, mode := range []string{"constant", "edge", "reflect", "symmetric", "wrap"} {
		m, _ := expr.ParsePadMode(mode)
		out, _ := kernels.Eval(expr.Pad[float64](x, [][2]int{{2, 3}}, m, 0)) // np.pad(x, (2, 3), mode)
		fmt.Printf("%-9s %v\n", m, out)
	}
	m, _ := tensor.Arange[float64](0, 4, 1).View(2, 2)
	out, _ := kernels.Eval(expr.Pad[float64](m, [][2]int{{1, 0}, {0, 1}}, expr.PadConstant, -1)) // np.pad(m, ((1, 0), (0, 1)), constant_values=-1)
	fmt.Println(out)
	// Output:
	// constant  [0. 0. 1. 2. 3. 0. 0. 0.]
	// edge      [1. 1. 1. 2. 3. 3. 3. 3.]
	// reflect   [3. 2. 1. 2. 3. 2. 1. 2.]
	// symmetric [2. 1. 1. 2. 3. 3. 2. 1.]
	// wrap      [2. 3. 1. 2. 3. 1. 2. 3.]
	// [[-1. -1. -1.]
	//  [ 0.  1. -1.]
	//  [ 2.  3. -1.]]
}

// Diag of a vector is a matrix with it on a diagonal (an Eye generator
// selecting from the vector broadcast), of a matrix its diagonal (a view).
func ExampleDiag() {
	v, _ := tensor.FromSlice([]float64{1, 2}, []int{2})
	out, _ := kernels.Eval(expr.Diag[float64](v, 1)) // np.diag(v, 1)
	fmt.Println(out)
	m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
	out, _ = kernels.Eval(expr.Diag[float64](m, -1)) // np.diag(m, -1)
	fmt.Println(out)
	// Output:
	// [[0. 1. 0.]
	//  [0. 0. 2.]
	//  [0. 0. 0.]]
	// [3. 7.]
}
