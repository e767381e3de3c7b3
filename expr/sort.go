package expr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Sorting is X sorted along Axis in ascending order, as numpy.sort(x,
// axis, kind="stable"): each line along the axis is sorted on its own; the
// result has X's shape. The order is NumPy's: -Inf first, +Inf, then the
// NaNs last; equal elements keep their order in X (the sort is stable), so
// -0 and +0, which compare equal, keep theirs, and so do NaNs of
// different signs or payloads. Integers sort as integers.
//
// Sorting is not fused: evaluators compute it once, into a temporary, from
// X materialised, and fuse the elementwise rest of the tree around it.
type Sorting[T tensor.Number] struct {
	X    Exp[T]
	Axis int

	// kth, when set, makes the node a partial sort (numpy.partition),
	// which only selections build (Median, Quantile: see kth's doc).
	kth []int
}

// ArgSorting is the int64 permutation that sorts X along Axis, as
// numpy.argsort(x, axis, kind="stable"): element k of a line is the
// position in X's line of the line's k-th smallest element, in Sorting's
// order (NaNs last; ties, -0 and +0 among them, in their order in X).
// It is an Exp[int64] over an operand of element type T: a Foreign node.
type ArgSorting[T tensor.Number] struct {
	X    Exp[T]
	Axis int
}

// Sort returns x sorted along axis (negative counts from the end), as
// numpy.sort(x, axis) with a stable sort: NaNs last, ties in their order
// in x. An axis out of range is a DimensionError at Check naming the axis
// and the rank. NumPy's sort without an axis, over x flattened, is Sort of
// Ravel(x) along 0.
func Sort[T tensor.Number](x Exp[T], axis int) Exp[T] {
	return &Sorting[T]{X: bare(x), Axis: axis}
}

// ArgSort returns the indices that sort x along axis (negative counts from
// the end), as numpy.argsort(x, axis, kind="stable"). An axis out of range
// is a DimensionError at Check naming the axis and the rank.
func ArgSort[T tensor.Number](x Exp[T], axis int) Exp[int64] {
	return &ArgSorting[T]{X: bare(x), Axis: axis}
}

// SortLess is the order Sort and ArgSort sort by: a < b, with every NaN
// after every number (NumPy's order). It is false for two NaNs and for -0
// and +0 either way round.
func SortLess[T tensor.Number](a, b T) bool {
	return a < b || (b != b && a == a)
}

// partialSort returns Sort(x, axis) of which the tree reads only the
// positions kth (normalised, ascending, without repeats): evaluators may
// leave every other position in any order. Only the selections in this
// package build one, each reading its kth positions alone, so no tree
// can see the difference (and the gradient, the sort's, is exact).
func partialSort[T tensor.Number](x Exp[T], axis int, kth []int) Exp[T] {
	return &Sorting[T]{X: bare(x), Axis: axis, kth: kth}
}

// Kth returns nil for a sort, and for the partial sort a selection (Median,
// Quantile, Percentile) builds, the positions along the axis its tree
// reads, ascending: an evaluator need put there only the elements the
// sort would (numpy.partition's kth), every other position in any order.
// At gives the full sort's elements everywhere.
func (s *Sorting[T]) Kth() []int { return s.kth }

// OperandDType returns T's dtype: the element type X is sorted in (the
// result is int64; ArgSorting is a Foreign node).
func (s *ArgSorting[T]) OperandDType() tensor.DType { return tensor.DTypeOf[T]() }

// Shape returns X's shape. It panics with the error Check returns when the
// axis is not valid for X.
func (s *Sorting[T]) Shape() shape.Shape { return mustShape(s) }

// Shape returns X's shape. It panics with the error Check returns when the
// axis is not valid for X.
func (s *ArgSorting[T]) Shape() shape.Shape { return mustShape(s) }

// Operands returns X.
func (s *Sorting[T]) Operands() []Node { return []Node{s.X} }

// Operands returns X.
func (s *ArgSorting[T]) Operands() []Node { return []Node{s.X} }

// String prints the tree: "sort(a, axis=1)".
func (s *Sorting[T]) String() string { return render(s) }

// String prints the tree: "argsort(a, axis=1)".
func (s *ArgSorting[T]) String() string { return render(s) }

func (s *Sorting[T]) render(b *strings.Builder) {
	if s.kth != nil {
		b.WriteString("partition(")
		renderTo(b, s.X)
		fmt.Fprintf(b, ", kth=%v, axis=%d)", s.kth, s.Axis)
		return
	}
	renderSort(b, "sort", s.X, s.Axis)
}

func (s *ArgSorting[T]) render(b *strings.Builder) { renderSort(b, "argsort", s.X, s.Axis) }

func renderSort(b *strings.Builder, name string, x Node, axis int) {
	b.WriteString(name + "(")
	renderTo(b, x)
	fmt.Fprintf(b, ", axis=%d)", axis)
}

func (s *Sorting[T]) checkNode(cc *checking) (info, error) {
	return checkSort(s, cc, "sort", s.X, s.Axis)
}

func (s *ArgSorting[T]) checkNode(cc *checking) (info, error) {
	return checkSort(s, cc, "argsort", s.X, s.Axis)
}

// checkSort checks the operand of a sort and its axis; the result has the
// operand's shape.
func checkSort(node Node, cc *checking, name string, x Node, axis int) (info, error) {
	in, err := checkOperand(node, cc, name, 0, x)
	if err != nil {
		return info{}, err
	}
	if _, err := shape.Axis(name, axis, len(in.shape)); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: err}
	}
	return in, nil
}

// sortedLine returns the positions of X's line through index along axis,
// in the sorted order, with the line's values: the reference definition,
// sort.SliceStable with SortLess.
func sortedLine[T tensor.Number](x Exp[T], axis int, index []int) ([]int, []T) {
	d, _ := shape.Axis("sort", axis, len(index))
	src := append([]int{}, index...)
	n := x.Shape()[d]
	vals := make([]T, n)
	perm := make([]int, n)
	for k := range n {
		src[d] = k
		vals[k] = x.At(src...)
		perm[k] = k
	}
	sort.SliceStable(perm, func(i, j int) bool { return SortLess(vals[perm[i]], vals[perm[j]]) })
	return perm, vals
}

// At computes the element at index: the line of X through index along the
// axis, sorted stably with SortLess, at index's position.
func (s *Sorting[T]) At(index ...int) T {
	checkRank(s, index)
	d, _ := shape.Axis("sort", s.Axis, len(index))
	perm, vals := sortedLine(s.X, s.Axis, index)
	return vals[perm[index[d]]]
}

// At computes the index at index: the position in X's line of the
// element the sorted line has at index's position.
func (s *ArgSorting[T]) At(index ...int) int64 {
	checkRank(s, index)
	d, _ := shape.Axis("argsort", s.Axis, len(index))
	perm, _ := sortedLine(s.X, s.Axis, index)
	return int64(perm[index[d]])
}
