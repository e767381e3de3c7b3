package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The random scenes' nodes that do not fuse: reductions, matrix products and
// casts, each over random subtrees (so reductions of products of casts
// appear too), with operands that are views of the destination's storage.

// maxOperand bounds the elements of a reduction's or a product's operand, so
// that its views fit the pool.
const maxOperand = 512

// maxNesting bounds how deep reductions and products nest (Sum(relu(a@b + c))
// nests two), which bounds the oracle's work: expr's At computes a nested
// node's elements again for each element of the node around it.
const maxNesting = 2

// continuousOps are the elementwise ops whose result moves little when an
// operand moves little: the ops of rounding scenes, which compare within a
// tolerance.
var continuousOps = []ops.Op{ops.Neg, ops.Abs, ops.ReLU, ops.Tanh, ops.Sigmoid,
	ops.Add, ops.Sub, ops.Mul, ops.Maximum, ops.Minimum, ops.Clamp}

// reducers returns the reductions a scene may use: every one for integers;
// for floats, those whose result does not depend on the order of the
// elements, unless the scene is a rounding one, which has sums and
// maxima/minima but no arg reductions (an index jumps when values move a
// little) and no products (they grow past any tolerance); TestReduce covers
// float products and means.
func (sc *scene[T]) reducers() []ops.Reducer {
	switch {
	case !tensor.IsFloat[T]():
		return []ops.Reducer{ops.Sum, ops.Prod, ops.Max, ops.Min, ops.ArgMax, ops.ArgMin}
	case sc.rounding:
		return []ops.Reducer{ops.Sum, ops.Max, ops.Min}
	}
	return []ops.Reducer{ops.Max, ops.Min, ops.ArgMax, ops.ArgMin}
}

// reduction makes a reduction whose result broadcasts to dims (is dims when
// full), over a random subtree whose shape has the reduced axes added; nil
// when that operand would be too large.
func (sc *scene[T]) reduction(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	out := dims
	if !full {
		out = ownShape(src, dims)
	}
	rs := sc.reducers()
	op := rs[src.next(len(rs))]
	def := op.Def()
	keep := src.next(2) == 0
	minSize := 0
	if def.NeedsData {
		minSize = 1
	}
	var in shape.Shape
	var axes []int
	if len(out) == 0 && src.next(2) == 0 {
		in = make(shape.Shape, src.next(4)) // every axis reduced: Axes nil
		for d := range in {
			in[d] = minSize + src.next(4-minSize)
		}
		keep = false
	} else {
		in, axes, keep = reducedOperand(src, out, keep, def.Arg, minSize)
	}
	if n, _ := in.Size(); n > maxOperand {
		return nil
	}
	sc.nested++
	x := sc.node(src, in, depth-1, true)
	sc.nested--
	if def.Arg {
		arg := expr.Cast[T](&expr.ArgReduction[T]{Op: op, X: x, Axes: axes, KeepDims: keep})
		if src.next(2) == 0 { // the positions of the indices among x's values sorted (a searchsorted)
			return expr.Cast[T](expr.SearchSorted(expr.Sort(expr.Ravel(x), 0), arg, src.next(2) == 0))
		}
		return arg
	}
	return &expr.Reduction[T]{Op: op, X: x, Axes: axes, KeepDims: keep}
}

// reducedOperand returns an operand shape and the axes whose reduction gives
// out: axes inserted (without keepdims) or size-1 axes widened (with it),
// some of them counted from the end. arg reductions get exactly one axis.
func reducedOperand(src *byteSource, out shape.Shape, keep, arg bool, minSize int) (shape.Shape, []int, bool) {
	var in shape.Shape
	axes := []int{}
	add := func() bool {
		if arg && len(axes) == 1 {
			return false // arg reductions take one axis
		}
		axes = append(axes, len(in))
		in = append(in, minSize+src.next(4-minSize))
		return true
	}
	for _, n := range out {
		if keep && n == 1 && src.next(2) == 0 && add() {
			continue
		}
		if !keep && src.next(3) == 0 {
			add()
		}
		in = append(in, n)
	}
	if len(axes) == 0 {
		keep = false // nothing widened: insert a reduced axis instead
		add()
	}
	for i := range axes {
		if src.next(2) == 0 {
			axes[i] -= len(in)
		}
	}
	return in, axes, keep
}

// product makes a matrix product whose result broadcasts to dims (is dims
// when full), over random subtrees; nil for floats outside rounding scenes
// or when an operand would be too large.
func (sc *scene[T]) product(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	if tensor.IsFloat[T]() && !sc.rounding {
		return nil
	}
	out := dims
	if !full {
		out = ownShape(src, dims)
	}
	k := src.next(4)
	var as, bs shape.Shape
	switch len(out) {
	case 0:
		as, bs = shape.Shape{k}, shape.Shape{k}
	case 1:
		if src.next(2) == 0 {
			as, bs = shape.Shape{k}, shape.Shape{k, out[0]}
		} else {
			as, bs = shape.Shape{out[0], k}, shape.Shape{k}
		}
	default:
		batch := out[:len(out)-2]
		m, n := out[len(out)-2], out[len(out)-1]
		as = append(slices.Clone(batch), m, k)
		bs = append(ownShape(src, batch), k, n)
		if src.next(2) == 0 {
			as = append(ownShape(src, batch), m, k)
			bs = append(slices.Clone(batch), k, n)
		}
	}
	for _, s := range []shape.Shape{as, bs} {
		if n, _ := s.Size(); n > maxOperand {
			return nil
		}
	}
	sc.nested++
	defer func() { sc.nested-- }()
	return expr.MatMul(sc.node(src, as, depth-1, true), sc.node(src, bs, depth-1, true))
}

// cast makes a round trip through another element type around a random
// subtree: float64 for integers (exact), int32 for floats, after clipping
// and replacing NaN (Go leaves out-of-range conversions undefined).
//
// A quarter of the casts read a tensor directly instead: a view of the pool
// as another element type (foreign), or a view of T itself (Cast[T] of an
// Exp[T]), which the evaluator reads in place as a converted leaf, so the
// destination overlaps an operand under a cast.
func (sc *scene[T]) cast(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	own := dims
	if !full {
		own = ownShape(src, dims)
	}
	switch src.next(8) {
	case 0:
		if f := sc.foreign(src, own); f != nil {
			return f
		}
	case 1:
		return expr.Cast[T](sc.view(src, own, "cast leaf"))
	}
	x := sc.node(src, dims, depth-1, full)
	if !tensor.IsFloat[T]() {
		return expr.Cast[T](expr.Cast[float64](x))
	}
	limit := 1e6
	safe := expr.Where(expr.Ne(x, x), expr.Scalar[T](0), expr.Clamp(x, expr.Scalar(T(-limit)), expr.Scalar(T(limit))))
	return expr.Cast[T](expr.Cast[int32](safe))
}

// closeEnough compares the results of rounding scenes: NaNs equal, infinities
// equal, else within a relative tolerance that suits the type.
func closeEnough[T tensor.Number](a, b T) bool {
	if sameNumber(a, b) {
		return true
	}
	tol := 1e-9
	if tensor.ItemSize[T]() == 4 {
		tol = 1e-3
	}
	x, y := float64(a), float64(b)
	return math.Abs(x-y) <= tol*(1+math.Max(math.Abs(x), math.Abs(y)))
}

// TestScenesCoverNodes checks that the random scenes hold every kind of
// node that does not fuse, so the differential tests cannot lose them
// silently.
func TestScenesCoverNodes(t *testing.T) {
	for _, rounding := range []bool{false, true} {
		counts := map[string]int{}
		r := rand.New(rand.NewPCG(42, 8))
		for range 400 {
			data := make([]byte, 64)
			for i := range data {
				data[i] = byte(r.IntN(256))
			}
			var sc *scene[float64]
			if rounding {
				sc = newSceneWith[float64](&byteSource{data: data}, r.Uint64(), true)
			} else {
				sc = newScene[float64](&byteSource{data: data}, r.Uint64())
			}
			countNodes(sc.tree, counts)
			countTwins(sc, counts)
			countShared(sc.tree, counts)
			sci := newScene[int32](&byteSource{data: data}, r.Uint64())
			countNodes(sci.tree, counts)
			countTwins(sci, counts)
			countShared(sci.tree, counts)
		}
		want := []string{"reduction", "argreduction", "product", "scan", "gather", "add.at", "sort", "partition", "searchsorted", "concatenation", "cast", "cast of a tensor", "cast of another type's memory", "destination with a twin", "view", "view of a node", "shared op node", "shared node of another kind"}
		for _, kind := range want {
			// Casts share an operand of their own (x in where(x != x, 0,
			// clamp(x))): about 10 trees; the scenes' reuse of nodes brings
			// more than 30.
			least := 10
			if strings.HasPrefix(kind, "shared") {
				least = 25
			}
			if counts[kind] < least {
				t.Errorf("rounding=%v: %d trees hold a %s, want at least %d (all counts: %v)", rounding, counts[kind], kind, least, counts)
			}
		}
	}
}

// countNodes adds the kinds of e's nodes to counts.
func countNodes(e expr.Node, counts map[string]int) {
	expr.Walk(e, func(n expr.Node, _ int) bool {
		name := fmt.Sprintf("%T", n)
		switch {
		case strings.Contains(name, "ArgReduction"):
			counts["argreduction"]++
		case strings.Contains(name, "Reduction"):
			counts["reduction"]++
		case strings.Contains(name, "MatProduct"):
			counts["product"]++
		case strings.Contains(name, "expr.View"):
			counts["view"]++
			if _, ok := n.(expr.Parent).Operands()[0].(interface{ Operands() []expr.Node }); ok {
				counts["view of a node"]++
			}
		case isPartition(n):
			counts["partition"]++
		case strings.Contains(name, "Sorting"):
			counts["sort"]++
		case strings.Contains(name, "Searching"):
			counts["searchsorted"]++
		case strings.Contains(name, "Gather"):
			counts["gather"]++
		case strings.Contains(name, "ScatterAdd"):
			counts["add.at"]++
		case strings.Contains(name, "Scan"):
			counts["scan"]++
		case strings.Contains(name, "Concatenation"):
			counts["concatenation"]++
		case strings.Contains(name, "Conversion"):
			counts["cast"]++
			operand := fmt.Sprintf("%T", n.(expr.Parent).Operands()[0])
			if elem, ok := strings.CutPrefix(operand, "*tensor.Tensor["); ok {
				counts["cast of a tensor"]++
				_, args, _ := strings.Cut(name, "[") // the result type, then the operand's
				if !strings.HasPrefix(args, strings.TrimSuffix(elem, "]")+",") {
					counts["cast of another type's memory"]++
				}
			}
		}
		return true
	})
}

// countShared counts the trees in which a node that is not a leaf is the
// operand of more than one node (or twice of one), by kind: an op node, or
// another (a reduction, a product, a view…).
func countShared(e expr.Node, counts map[string]int) {
	seen := map[expr.Node]bool{}
	op, other := false, false
	expr.Walk(e, func(n expr.Node, _ int) bool {
		if _, ok := n.(expr.Parent); !ok || reflect.ValueOf(n).Kind() != reflect.Pointer {
			return true
		}
		if seen[n] {
			switch n.(type) {
			case *expr.Unary[float64], *expr.Binary[float64], *expr.Ternary[float64],
				*expr.Unary[int32], *expr.Binary[int32], *expr.Ternary[int32]:
				op = true
			default:
				other = true
			}
			return false
		}
		seen[n] = true
		return true
	})
	if op {
		counts["shared op node"]++
	}
	if other {
		counts["shared node of another kind"]++
	}
}

// countTwins counts the scenes whose destination lies in memory that two
// pool tensors wrap separately.
func countTwins[T tensor.Number](sc *scene[T], counts map[string]int) {
	wrappers := 0
	for _, base := range sc.pool {
		if tensor.MayShareMemory(base, sc.dst) && !base.SharesStorage(sc.dst) {
			wrappers++
		}
	}
	if wrappers > 0 {
		counts["destination with a twin"]++
	}
}

// isPartition reports whether n is a partial sort (a Sorting with Kth).
func isPartition(n expr.Node) bool {
	p, ok := n.(interface{ Kth() []int })
	return ok && p.Kth() != nil
}
