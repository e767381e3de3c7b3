package expr

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Diag returns numpy.diag(x, k): of a vector of n elements, the square
// matrix of n+|k| rows with x on its k-th diagonal (k > 0 above the main
// one, k < 0 below) and zeros elsewhere; of a matrix, its k-th diagonal
// (a Diagonal view, no copy).
//
// The matrix is Where(Eye(m, m, k), x', 0), x' being x padded with |k|
// zeros (a concatenation of n+|k| elements) and broadcast along the rows
// (k ≥ 0: row i holds x[i]) or the columns (k < 0: column j holds x[j]):
// no memory the size of the matrix beyond the destination, and a NaN of x
// stays on the diagonal. An x of another rank is an ArgumentError naming
// its shape at Check.
func Diag[T tensor.Number](x Exp[T], k int) Exp[T] {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x // the tree reports x's own error
	}
	switch len(xs) {
	case 2:
		return Diagonal(x, k, 0, 1)
	case 1:
	default:
		return failedNode[T](fmt.Sprintf("np.diag(x, %d)", k),
			&shape.ArgumentError{Op: "diag", Name: "x", Value: xs, Reason: "needs 1 or 2 dimensions"})
	}
	a := max(k, -k)
	if a < 0 || xs[0] > math.MaxInt-a {
		return failedNode[T](fmt.Sprintf("np.diag(x, %d)", k),
			&shape.OverflowError{Op: "diag", What: fmt.Sprintf("size of the matrix (%d + |%d|)", xs[0], k)})
	}
	m := xs[0] + a
	line := Pad(x, [][2]int{{0, a}}, PadConstant, 0)
	if k >= 0 {
		line = Unsqueeze(line, 1) // row i holds x[i]
	} else {
		line = Unsqueeze(line, 0) // column j holds x[j]
	}
	return Where[T](Eye[T](m, m, k), line, Scalar(T(0)))
}
