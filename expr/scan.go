package expr

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Scan is the running (cumulative) sum or product of X along Axis: element
// k along the axis combines X's elements 0…k of that line (NumPy's cumsum
// and cumprod). Op is Sum (cumsum) or Prod (cumprod); the result has X's
// shape.
//
// Each line is folded sequentially, first element first, so a float result
// is that of adding (or multiplying) in that order in T (no pairwise
// summation, unlike Sum); integers wrap as Go's and NumPy's fixed-width
// types do. Evaluators compute a scan once, into a temporary, from X
// materialised, and fuse the elementwise rest of the tree around it.
type Scan[T tensor.Number] struct {
	Op   ReduceOp
	X    Exp[T]
	Axis int
}

// CumSum returns the cumulative sum of x along axis (negative counts from
// the end), as numpy.cumsum(x, axis). The axis is required: NumPy's
// cumsum without an axis, over x flattened, is CumSum of a 1-D view of x.
func CumSum[T tensor.Number](x Exp[T], axis int) Exp[T] {
	return &Scan[T]{Op: ops.Sum, X: bare(x), Axis: axis}
}

// CumProd returns the cumulative product of x along axis (negative counts
// from the end), as numpy.cumprod(x, axis).
func CumProd[T tensor.Number](x Exp[T], axis int) Exp[T] {
	return &Scan[T]{Op: ops.Prod, X: bare(x), Axis: axis}
}

// Name returns NumPy's name of the scan: "cumsum" or "cumprod".
func (s *Scan[T]) Name() string {
	if s.Op == ops.Prod {
		return "cumprod"
	}
	return "cumsum"
}

// Shape returns X's shape. It panics with the error Check returns when the
// axis is not valid for X.
func (s *Scan[T]) Shape() shape.Shape { return mustShape(s) }

// Operands returns X.
func (s *Scan[T]) Operands() []Node { return []Node{s.X} }

// String prints the tree: "cumsum(a, axis=1)".
func (s *Scan[T]) String() string { return render(s) }

func (s *Scan[T]) render(b *strings.Builder) {
	b.WriteString(s.Name() + "(")
	renderTo(b, s.X)
	fmt.Fprintf(b, ", axis=%d)", s.Axis)
}

func (s *Scan[T]) checkNode(cc *checking) (info, error) {
	if s.Op != ops.Sum && s.Op != ops.Prod {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: &shape.ArgumentError{Op: "expr", Name: "scan op",
			Value: s.Op, Reason: "a scan is a cumulative sum or product: Op must be Sum or Prod"}}
	}
	in, err := checkOperand(s, cc, s.Name(), 0, s.X)
	if err != nil {
		return info{}, err
	}
	if _, err := shape.Axis(s.Name(), s.Axis, len(in.shape)); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: err}
	}
	return in, nil
}

// At computes the element at index: X's elements along the axis up to
// index's, combined first to last.
func (s *Scan[T]) At(index ...int) T {
	checkRank(s, index)
	d, _ := shape.Axis(s.Name(), s.Axis, len(index))
	src := append([]int{}, index...)
	combine := s.Op.Def().Combine
	src[d] = 0
	acc := s.X.At(src...)
	for k := 1; k <= index[d]; k++ {
		src[d] = k
		acc = ops.Apply(combine, acc, s.X.At(src...), 0)
	}
	return acc
}
