package expr_test

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Rows picked by an index array, a negative index counting from the end,
// as NumPy's x[[2, 0, -1]]; the gather fuses into the tree around it.
func ExampleTake() {
	x, _ := tensor.FromSlice([]float64{0, 1, 2, 3, 4, 5}, []int{3, 2})
	idx, _ := tensor.FromSlice([]int64{2, 0, -1}, []int{3})
	y, _ := kernels.Eval(expr.Of(expr.Take[float64](x, idx, 0)).MulScalar(10))
	fmt.Println(y)

	bad, _ := tensor.FromSlice([]int64{3}, []int{1})
	_, err := kernels.Eval(expr.Take[float64](x, bad, 0))
	var ie *shape.IndexError
	fmt.Println(errors.As(err, &ie), ie.Index, ie.Dim, ie.Size)
	// Output:
	// [[40. 50.]
	//  [ 0. 10.]
	//  [40. 50.]]
	// true 3 0 3
}

// The value of each row's largest element, through its argmax, as
// numpy.take_along_axis(x, np.argmax(x, 1)[:, None], 1).
func ExampleTakeAlongAxis() {
	x, _ := tensor.FromSlice([]float64{3, 9, 1, 7, 2, 8}, []int{2, 3})
	best := expr.Unsqueeze(expr.ArgMax[float64](x, expr.Axis(1)), 1)
	y, _ := kernels.Eval(expr.TakeAlongAxis[float64](x, best, 1))
	fmt.Println(y)
	// Output:
	// [[9.]
	//  [8.]]
}

// A histogram by numpy.add.at: a bin counted twice receives both ones.
func ExampleAddAt() {
	bins, _ := tensor.FromSlice([]int64{1, 3, 1, 0}, []int{4})
	h, _ := kernels.Eval(expr.AddAt(expr.Full[float64](0, 4), 0, expr.Scalar(1.0), bins))
	fmt.Println(h)
	// Output:
	// [1. 2. 0. 1.]
}
