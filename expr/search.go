package expr

import (
	"sort"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Searching is the int64 positions at which V's elements would be
// inserted into A, a sorted 1-D array, to keep it sorted, as
// numpy.searchsorted(a, v, side): for each element v of V, with Right
// false (side="left") the first i such that !(A[i] < v), and with Right
// set (side="right") the first i such that v < A[i]; len(A) when there is
// none. The order is SortLess (NaNs after every number, as NumPy sorts
// them), so a NaN of V goes after A's numbers (side="left") or after A's
// NaNs too (side="right"). -0 and +0 compare equal. The result has V's
// shape. A must be sorted in SortLess's order (Sort's result is); as in
// NumPy, an A that is not gives positions that mean nothing, not an error.
// It is an Exp[int64] over operands of element type T: a Foreign node.
//
// Searching is not fused: evaluators compute it once, into a temporary,
// reading A contiguous and V materialised.
type Searching[T tensor.Number] struct {
	A, V  Exp[T]
	Right bool
}

// SearchSorted returns the positions at which v's elements would be
// inserted into a to keep it sorted, as numpy.searchsorted(a, v,
// side="right" if right else "left"): an int64 array of v's shape. a must
// be 1-D and sorted (as Sort(x, 0) returns it: NaNs last); an a of any
// other rank is a ShapeError at Check naming its shape. right chooses
// NumPy's side: false is side="left" (the first position i where
// !(a[i] < x)), true side="right" (the first where x < a[i]).
func SearchSorted[T tensor.Number](a, v Exp[T], right bool) Exp[int64] {
	return &Searching[T]{A: bare(a), V: bare(v), Right: right}
}

// OperandDType returns T's dtype: the element type A and V are compared
// in (the result is int64; Searching is a Foreign node).
func (s *Searching[T]) OperandDType() tensor.DType { return tensor.DTypeOf[T]() }

// Shape returns V's shape. It panics with the error Check returns when A
// is not 1-D.
func (s *Searching[T]) Shape() shape.Shape { return mustShape(s) }

// Operands returns A and V.
func (s *Searching[T]) Operands() []Node { return []Node{s.A, s.V} }

// Side returns NumPy's name of the side: "left" or "right".
func (s *Searching[T]) Side() string {
	if s.Right {
		return "right"
	}
	return "left"
}

// String prints the tree: "searchsorted(a, v, side='left')".
func (s *Searching[T]) String() string { return render(s) }

func (s *Searching[T]) render(b *strings.Builder) {
	b.WriteString("searchsorted(")
	renderTo(b, s.A)
	b.WriteString(", ")
	renderTo(b, s.V)
	b.WriteString(", side='" + s.Side() + "')")
}

func (s *Searching[T]) checkNode(cc *checking) (info, error) {
	const name = "searchsorted"
	a, err := checkOperand(s, cc, name, 0, s.A)
	if err != nil {
		return info{}, err
	}
	v, err := checkOperand(s, cc, name, 1, s.V)
	if err != nil {
		return info{}, err
	}
	if len(a.shape) != 1 {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: &shape.ShapeError{Op: name,
			Shapes: []shape.Shape{a.shape}, Reason: "a must be 1-D (the sorted array searched)"}}
	}
	out := v
	if err := out.join(a, name); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: err}
	}
	out.shape = v.shape
	return out, nil
}

// At computes the position at index: a binary search of A for V's element
// at index (sort.Search with SortLess, the reference definition).
func (s *Searching[T]) At(index ...int) int64 {
	checkRank(s, index)
	x := s.V.At(index...)
	n := s.A.Shape()[0]
	return int64(sort.Search(n, func(i int) bool {
		if s.Right {
			return SortLess(x, s.A.At(i))
		}
		return !SortLess(s.A.At(i), x)
	}))
}
