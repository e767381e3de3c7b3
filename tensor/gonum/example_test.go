package gonum_test

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor/gonum"
	"gonum.org/v1/gonum/mat"
)

// Evaluate a laze expression straight into a gonum matrix's memory.
func Example() {
	m := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	x := gonum.FromDense(m)
	if err := kernels.Assign(x, expr.Of(x).MulScalar(10).AddScalar(1)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(m))

	back, err := gonum.ToDense(x.T().Contiguous())
	fmt.Println(mat.Formatted(back), err)
	// Output:
	// ⎡11  21  31⎤
	// ⎣41  51  61⎦
	// ⎡11  41⎤
	// ⎢21  51⎥
	// ⎣31  61⎦ <nil>
}
