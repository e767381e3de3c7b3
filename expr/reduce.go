package expr

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// ReduceOp names a reduction (sum, mean, prod, max, min, argmax, argmin).
// Its String method gives NumPy's name.
type ReduceOp = ops.Reducer

// Reduction folds X over some of its axes (sum, mean, prod, max, min). Axes
// lists them, negative axes counting from the end; nil reduces every axis
// (NumPy's axis=None) and an empty non-nil list none (axis=()). With KeepDims
// the reduced axes stay, with size 1, so the result broadcasts against X.
//
// Evaluators never materialise X: its elementwise tree is computed block by
// block and folded as it goes. Inside a larger tree a reduction is computed
// once, into a temporary, and read from there.
type Reduction[T tensor.Number] struct {
	Op       ReduceOp
	X        Exp[T]
	Axes     []int
	KeepDims bool
}

// ArgReduction is the int64 index of the largest (argmax) or smallest
// (argmin) element of X along one axis, or in X flattened when Axes is nil;
// the first such element on ties, and the first NaN if there is one, as in
// NumPy. Axes holds at most one axis.
type ArgReduction[T tensor.Number] struct {
	Op       ReduceOp
	X        Exp[T]
	Axes     []int
	KeepDims bool
}

// ReduceOption sets the axes or keepdims of a reduction.
type ReduceOption func(*reduceOptions)

type reduceOptions struct {
	axes     []int
	keepDims bool
	ddof     int     // Var and Std only (composite.go)
	shapes   *Shapes // Var and Std only: where x's shape is asked (WithShapes)
}

// Axis reduces over the given axes (negative ones count from the end)
// instead of over all of them; Axis() with no axis reduces none, as NumPy's
// axis=().
func Axis(axes ...int) ReduceOption {
	return func(o *reduceOptions) { o.axes = append([]int{}, axes...) }
}

// KeepDims keeps the reduced axes in the result, with size 1.
func KeepDims() ReduceOption { return func(o *reduceOptions) { o.keepDims = true } }

func options(opts []ReduceOption) reduceOptions {
	var o reduceOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func reduction[T tensor.Number](op ReduceOp, x Exp[T], opts []ReduceOption) *Reduction[T] {
	o := options(opts)
	return &Reduction[T]{Op: op, X: bare(x), Axes: o.axes, KeepDims: o.keepDims}
}

func argReduction[T tensor.Number](op ReduceOp, x Exp[T], opts []ReduceOption) *ArgReduction[T] {
	o := options(opts)
	return &ArgReduction[T]{Op: op, X: bare(x), Axes: o.axes, KeepDims: o.keepDims}
}

// The reductions' functions (Sum, Mean, Prod, Max, Min, ArgMax, ArgMin)
// and Chain methods are generated from the reduction table
// (internal/ops/reduce.go) into reduce_gen.go.

// Shape returns the reduction's shape. It panics with the error Check
// returns when the axes are not valid for X.
func (r *Reduction[T]) Shape() shape.Shape { return mustShape(r) }

// OperandDType returns T's dtype: the element type X is reduced in (the
// result is int64; ArgReduction is a Foreign node).
func (r *ArgReduction[T]) OperandDType() tensor.DType { return tensor.DTypeOf[T]() }

// Shape returns the shape of the indices. It panics with the error Check
// returns when the axis is not valid for X.
func (r *ArgReduction[T]) Shape() shape.Shape { return mustShape(r) }

// Operands returns X.
func (r *Reduction[T]) Operands() []Node { return []Node{r.X} }

// Operands returns X.
func (r *ArgReduction[T]) Operands() []Node { return []Node{r.X} }

// String prints the tree: "sum((a * b), axis=1)".
func (r *Reduction[T]) String() string { return render(r) }

// String prints the tree: "argmax(a, axis=0)".
func (r *ArgReduction[T]) String() string { return render(r) }

func (r *Reduction[T]) render(b *strings.Builder) { renderReduce(b, r.Op, r.X, r.Axes, r.KeepDims) }

func (r *ArgReduction[T]) render(b *strings.Builder) { renderReduce(b, r.Op, r.X, r.Axes, r.KeepDims) }

// renderReduce prints a reduction as NumPy's call: "sum(x, axis=(0, 1),
// keepdims=True)".
func renderReduce(b *strings.Builder, op ReduceOp, x Node, axes []int, keep bool) {
	b.WriteString(op.String() + "(")
	renderTo(b, x)
	switch {
	case axes == nil:
	case len(axes) == 1:
		fmt.Fprintf(b, ", axis=%d", axes[0])
	default:
		parts := make([]string, len(axes))
		for i, a := range axes {
			parts[i] = fmt.Sprint(a)
		}
		fmt.Fprintf(b, ", axis=(%s)", strings.Join(parts, ", "))
	}
	if keep {
		b.WriteString(", keepdims=True")
	}
	b.WriteByte(')')
}

func (r *Reduction[T]) checkNode(cc *checking) (info, error) {
	return checkReduce[T](r, cc, r.Op, false, r.X, r.Axes, r.KeepDims)
}

func (r *ArgReduction[T]) checkNode(cc *checking) (info, error) {
	return checkReduce[T](r, cc, r.Op, true, r.X, r.Axes, r.KeepDims)
}

// checkReduce checks a reduction node: the reducer against the node type and
// T, the operand, the axes, and that a reduction without identity has
// elements to reduce.
func checkReduce[T tensor.Number](node Node, cc *checking, op ReduceOp, arg bool, x Node, axes []int, keep bool) (info, error) {
	fail := func(err error) (info, error) {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(node), Err: err}
	}
	if !op.Valid() || op.Def().Arg != arg {
		return fail(&shape.ArgumentError{Op: "expr", Name: "reducer", Value: op,
			Reason: "Reduction takes sum, mean, prod, max or min; ArgReduction takes argmax or argmin"})
	}
	def := op.Def()
	if def.Domain == ops.FloatOnly && !tensor.IsFloat[T]() {
		return fail(&shape.DTypeError{Op: def.Name, DType: tensor.DTypeOf[T]().String(),
			Reason: "the reduction is defined for floating-point types only (convert the operand with Cast)"})
	}
	in, err := checkOperand(node, cc, def.Name, 0, x)
	if err != nil {
		return info{}, err
	}
	if arg && len(axes) > 1 {
		return fail(&shape.ArgumentError{Op: def.Name, Name: "axis", Value: shape.FormatInts(axes),
			Reason: "takes one axis, or none to index the flattened operand"})
	}
	g, err := ReduceShape(def.Name, in.shape, axes, keep)
	if err != nil {
		return fail(err)
	}
	if def.NeedsData && g.Count == 0 && g.OutputSize() > 0 {
		return fail(&shape.ShapeError{Op: def.Name, Shapes: []shape.Shape{in.shape.Clone()},
			Reason: fmt.Sprintf("zero-size reduction over axes %s: %s has no identity", shape.FormatInts(g.Axes), def.Name)})
	}
	in.shape = g.Result
	return in, nil
}

// ReduceGeometry is how a reduction maps its operand's shape to its result.
type ReduceGeometry struct {
	Axes    []int       // the reduced axes, normalised (0 ≤ axis < rank) and sorted
	Reduced []bool      // per operand axis, whether it is reduced
	Kept    shape.Shape // the result's shape with keepdims: reduced axes of size 1
	Result  shape.Shape // the result's shape (Kept, or Kept without the reduced axes)
	Count   int         // the number of elements each result element folds
}

// OutputSize returns the number of result elements.
func (g ReduceGeometry) OutputSize() int {
	n := 1
	for _, d := range g.Kept {
		n *= d
	}
	return n
}

// ReduceShape works out the geometry of reduction name over axes of an
// operand of shape s (nil axes: all of them). An axis out of range is a
// DimensionError, a repeated one an ArgumentError.
func ReduceShape(name string, s shape.Shape, axes []int, keep bool) (ReduceGeometry, error) {
	g := ReduceGeometry{Reduced: make([]bool, len(s)), Count: 1}
	if axes == nil {
		for d := range s {
			g.Reduced[d] = true
		}
	}
	for _, a := range axes {
		d, err := shape.Axis(name, a, len(s))
		if err != nil {
			return ReduceGeometry{}, err
		}
		if g.Reduced[d] {
			return ReduceGeometry{}, &shape.ArgumentError{Op: name, Name: "axis", Value: shape.FormatInts(axes),
				Reason: fmt.Sprintf("dimension %d is named twice", d)}
		}
		g.Reduced[d] = true
	}
	for d, n := range s {
		if g.Reduced[d] {
			g.Axes = append(g.Axes, d)
			g.Count *= n
			g.Kept = append(g.Kept, 1)
			if keep {
				g.Result = append(g.Result, 1)
			}
			continue
		}
		g.Kept = append(g.Kept, n)
		g.Result = append(g.Result, n)
	}
	if g.Kept == nil {
		g.Kept = shape.Shape{}
	}
	if g.Result == nil {
		g.Result = shape.Shape{}
	}
	return g, nil
}

// At computes the element at index of the reduction, folding X's elements
// one by one in row-major order (the evaluators' order may differ, which
// changes float sums by rounding only).
func (r *Reduction[T]) At(index ...int) T {
	checkRank(r, index)
	def := r.Op.Def()
	g, _ := ReduceShape(def.Name, r.X.Shape(), r.Axes, r.KeepDims)
	acc := ops.Start[T](def.Identity)
	forEachReduced(g, r.X.Shape(), index, r.KeepDims, func(src []int) {
		acc = ops.Apply(def.Combine, acc, r.X.At(src...), 0)
	})
	if def.Average {
		acc /= T(g.Count)
	}
	return acc
}

// At computes the index at index of the arg reduction.
func (r *ArgReduction[T]) At(index ...int) int64 {
	checkRank(r, index)
	def := r.Op.Def()
	s := r.X.Shape()
	g, _ := ReduceShape(def.Name, s, r.Axes, r.KeepDims)
	best, at := ops.Start[T](def.Identity), int64(math.MaxInt64)
	var k int64
	forEachReduced(g, s, index, r.KeepDims, func(src []int) {
		if v := r.X.At(src...); ops.ArgBetter(def.Combine, v, k, best, at) {
			best, at = v, k
		}
		k++
	})
	return at
}

// forEachReduced calls fn with the index into an operand of shape s of every
// element that the result element at index folds, in row-major order.
func forEachReduced(g ReduceGeometry, s shape.Shape, index []int, keep bool, fn func(src []int)) {
	src := make([]int, len(s))
	k := 0
	for d := range s {
		if !g.Reduced[d] {
			src[d] = index[k]
			k++
		} else if keep {
			k++
		}
	}
	folded := make(shape.Shape, len(g.Axes))
	for i, ax := range g.Axes {
		folded[i] = s[ax]
	}
	for o := shape.NewOdometer(folded); !o.Done(); o.Next() {
		for i, v := range o.Index() {
			src[g.Axes[i]] = v
		}
		fn(slices.Clone(src))
	}
}
