package expr

import (
	"math"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Tril returns x with the elements above the k-th diagonal of its last two
// dimensions set to zero, as numpy.tril(x, k): Where(Tri(n, m, k), x, 0)
// over a Tri generator broadcast to x's stack of n×m matrices, so that
// nothing is allocated and x's NaNs above the diagonal become zeros too.
// x must have at least two dimensions; otherwise the tree reports an
// ArgumentError naming x's shape at Check.
func Tril[T tensor.Number](x Exp[T], k int) Exp[T] { return triangle(x, k, false) }

// Triu returns x with the elements below the k-th diagonal of its last two
// dimensions set to zero, as numpy.triu(x, k) (see Tril).
func Triu[T tensor.Number](x Exp[T], k int) Exp[T] { return triangle(x, k, true) }

// triangle is Tril, or Triu when upper is set: x kept where Tri(n, m, k)
// is 1 (for Triu, where Tri(n, m, k-1) is 0).
func triangle[T tensor.Number](x Exp[T], k int, upper bool) Exp[T] {
	op := "tril"
	if upper {
		op = "triu"
	}
	var mask *Generator[T]
	xs, err := new(Shapes).Of(x)
	switch {
	case err != nil:
		return x // the tree reports x's own error
	case len(xs) < 2:
		return failedNode[T]("np."+op+"(x)",
			&shape.ArgumentError{Op: op, Name: "x", Value: xs, Reason: "needs at least 2 dimensions"})
	case upper:
		mask = Tri[T](xs[len(xs)-2], xs[len(xs)-1], max(k, math.MinInt+1)-1)
	default:
		mask = Tri[T](xs[len(xs)-2], xs[len(xs)-1], k)
	}
	zero := Scalar(T(0))
	if upper {
		return Where[T](mask, zero, x)
	}
	return Where[T](mask, x, zero)
}
