package expr

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Gather is NumPy's integer-array ("advanced") indexing on consecutive
// axes: X indexed on axes Axis, Axis+1, …, Axis+len(Indices)-1 by the
// int64 arrays Indices, which broadcast together to a shape B. The result
// has X's dimensions before Axis, then B, then X's dimensions after the
// indexed ones:
//
//	out[p..., b..., s...] = X[p..., Indices[0][b...], Indices[1][b...], ..., s...]
//
// A negative index counts from the end of its axis, as in NumPy; an index
// outside [-n, n) is a *shape.IndexError naming the index, the axis and its
// size, returned by the evaluation before anything is written (Check
// cannot see index values). Evaluators compute a gather once, into a
// temporary (or straight into the destination), from X and the indices
// materialised, and fuse the rest of the tree around it.
//
// Take, TakeAlongAxis and IndexArrays build it.
type Gather[T tensor.Number] struct {
	X       Exp[T]
	Indices []Exp[int64]
	Axis    int
	// Kind is the NumPy call the node stands for, for printing.
	Kind GatherKind
	// Along is, for TakeAlongAxis, the axis the user's index array is on;
	// Indices[Along] is that array (the others are aranges).
	Along int
}

// GatherKind names the NumPy spelling a Gather stands for.
type GatherKind uint8

// The spellings of a gather.
const (
	GatherIndex GatherKind = iota // x[..., i, j, ...]
	GatherTake                    // np.take(x, i, axis)
	GatherAlong                   // np.take_along_axis(x, i, axis)
)

// Take returns the elements of x at indices along axis, as numpy.take(x,
// indices, axis) with mode "raise": the axis is replaced by indices'
// dimensions. NumPy's take without an axis is Take(Ravel(x), indices, 0).
// A negative axis counts from the end.
func Take[T tensor.Number](x Exp[T], indices Exp[int64], axis int) Exp[T] {
	return &Gather[T]{X: bare(x), Indices: []Exp[int64]{bare(indices)}, Axis: axis, Kind: GatherTake}
}

// IndexArrays returns x indexed by integer arrays, as NumPy's x[i0, i1,
// ...] where each entry of indices is an array or nil for a whole axis
// (":"); axes past the last entry are whole too. The arrays broadcast
// together to a shape B. As in NumPy, B takes the place of the indexed axes
// when they are consecutive, and comes first when a whole axis separates
// them: x[i, :, j] has shape B + (x.shape[1],).
func IndexArrays[T tensor.Number](x Exp[T], indices ...Exp[int64]) Exp[T] {
	var axes []int
	var arrays []Exp[int64]
	for d, ix := range indices {
		if ix != nil {
			axes = append(axes, d)
			arrays = append(arrays, bare(ix))
		}
	}
	text := "index arrays"
	if len(arrays) == 0 {
		return failedNode[T](text, &shape.ArgumentError{Op: "index", Name: "indices", Value: len(indices),
			Reason: "at least one index array is needed (a nil entry stands for a whole axis)"})
	}
	first := axes[0]
	if axes[len(axes)-1]-first != len(axes)-1 { // separated: NumPy puts B first
		dst := make([]int, len(axes))
		for i := range dst {
			dst[i] = i
		}
		x, first = MoveAxis(x, axes, dst), 0
	}
	return &Gather[T]{X: bare(x), Indices: arrays, Axis: first, Kind: GatherIndex}
}

// TakeAlongAxis returns the elements of x at indices along axis, as
// numpy.take_along_axis(x, indices, axis): indices has x's rank, and
// out[..., j, ...] = x[..., indices[..., j, ...], ...], the other
// dimensions broadcasting between x and indices. It is the gather of x
// on every axis, the others indexed by aranges, which hold no memory.
func TakeAlongAxis[T tensor.Number](x Exp[T], indices Exp[int64], axis int) Exp[T] {
	text := fmt.Sprintf("np.take_along_axis(%v, %v, axis=%d)", x, indices, axis)
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x // the tree reports x's own error
	}
	is, err := new(Shapes).Of(indices)
	if err != nil {
		return &Gather[T]{X: bare(x), Indices: []Exp[int64]{bare(indices)}, Kind: GatherAlong}
	}
	if len(is) != len(xs) {
		return failedNode[T](text, &shape.ShapeError{Op: "take_along_axis", Shapes: []shape.Shape{xs, is},
			Reason: "the indices must have the array's number of dimensions"})
	}
	d, err := shape.Axis("take_along_axis", axis, len(xs))
	if err != nil {
		return failedNode[T](text, err)
	}
	arrays := make([]Exp[int64], len(xs))
	for k, n := range xs {
		if k == d {
			arrays[k] = bare(indices)
			continue
		}
		dims := make([]int, len(xs))
		for i := range dims {
			dims[i] = 1
		}
		dims[k] = n
		arrays[k] = Reshape[int64](Arange[int64](0, int64(n), 1), dims...)
	}
	return &Gather[T]{X: bare(x), Indices: arrays, Kind: GatherAlong, Along: d}
}

// Shape returns the gather's shape. It panics with the error Check returns
// when the gather is not valid.
func (g *Gather[T]) Shape() shape.Shape { return mustShape(g) }

// Operands returns X, then the index arrays.
func (g *Gather[T]) Operands() []Node {
	ns := []Node{g.X}
	for _, ix := range g.Indices {
		ns = append(ns, ix)
	}
	return ns
}

// Name returns NumPy's name of the call: "take", "take_along_axis" or
// "index".
func (g *Gather[T]) Name() string {
	switch g.Kind {
	case GatherTake:
		return "take"
	case GatherAlong:
		return "take_along_axis"
	}
	return "index"
}

// String prints the call: "np.take(x, i, axis=1)", "x[:, i, j]".
func (g *Gather[T]) String() string { return render(g) }

func (g *Gather[T]) render(b *strings.Builder) {
	switch g.Kind {
	case GatherTake, GatherAlong:
		ix, axis := g.Indices[0], g.Axis
		if g.Kind == GatherAlong && g.Along < len(g.Indices) {
			ix, axis = g.Indices[g.Along], g.Along
		}
		b.WriteString("np." + g.Name() + "(")
		renderTo(b, g.X)
		b.WriteString(", ")
		renderTo(b, ix)
		fmt.Fprintf(b, ", axis=%d)", axis)
	default:
		renderTo(b, g.X)
		b.WriteByte('[')
		for range g.Axis {
			b.WriteString(":, ")
		}
		for i, ix := range g.Indices {
			if i > 0 {
				b.WriteString(", ")
			}
			renderTo(b, ix)
		}
		b.WriteByte(']')
	}
}

// GatherGeometry is how a gather lays its result out: X's dimensions
// before the indexed ones (Prefix), the indices' broadcast shape (Batch),
// X's dimensions after them (Suffix), and the indexed axes' sizes
// (Indexed).
type GatherGeometry struct {
	Prefix, Batch, Suffix, Indexed shape.Shape
	Axis                           int // the first indexed axis, from 0
}

// Result returns Prefix + Batch + Suffix.
func (g GatherGeometry) Result() shape.Shape {
	out := append(shape.Shape{}, g.Prefix...)
	out = append(out, g.Batch...)
	return append(out, g.Suffix...)
}

// Geometry works out the gather's layout from X's shape and the indices'.
func (g *Gather[T]) Geometry(xs shape.Shape, is []shape.Shape) (GatherGeometry, error) {
	if len(g.Indices) == 0 {
		return GatherGeometry{}, &shape.ArgumentError{Op: g.Name(), Name: "indices", Value: 0, Reason: "a gather needs an index array"}
	}
	axis, err := shape.Axis(g.Name(), g.Axis, len(xs))
	if err != nil {
		return GatherGeometry{}, err
	}
	if axis+len(is) > len(xs) {
		return GatherGeometry{}, &shape.DimensionError{Op: g.Name(), Dim: axis + len(is) - 1, NDim: len(xs),
			Reason: fmt.Sprintf("too many index arrays (%d) for the axes from %d", len(is), axis)}
	}
	batch, err := shape.Broadcast(is...)
	if err != nil {
		return GatherGeometry{}, err
	}
	return GatherGeometry{Prefix: xs[:axis], Batch: batch, Suffix: xs[axis+len(is):], Indexed: xs[axis : axis+len(is)], Axis: axis}, nil
}

func (g *Gather[T]) checkNode(cc *checking) (info, error) {
	out, err := checkOperand(g, cc, g.Name(), 0, g.X)
	if err != nil {
		return info{}, err
	}
	is := make([]shape.Shape, len(g.Indices))
	for i, ix := range g.Indices {
		in, err := checkOperand(g, cc, g.Name(), i+1, ix)
		if err != nil {
			return info{}, err
		}
		if err := out.join(in, g.Name()); err != nil {
			return info{}, &shape.NodeError{Op: cc.call, Node: render(g), Err: err}
		}
		is[i] = in.shape
	}
	geo, err := g.Geometry(out.shape, is)
	if err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(g), Err: err}
	}
	out.shape = geo.Result()
	return out, nil
}

// At computes the element at index: X's element at the position the index
// arrays give. It panics with a *shape.IndexError for an index out of
// range.
func (g *Gather[T]) At(index ...int) T {
	checkRank(g, index)
	return g.X.At(g.source(index)...)
}

// source returns the position in X of the element at index of the
// gather.
func (g *Gather[T]) source(index []int) []int {
	is := make([]shape.Shape, len(g.Indices))
	for i, ix := range g.Indices {
		is[i] = ix.Shape()
	}
	geo, err := g.Geometry(g.X.Shape(), is)
	if err != nil {
		panic(err)
	}
	p, nb := len(geo.Prefix), len(geo.Batch)
	batch := index[p : p+nb]
	src := append([]int{}, index[:p]...)
	for k, ix := range g.Indices {
		v, err := WrapIndex(g.Name(), ix.At(broadcastIndex(batch, is[k])...), geo.Axis+k, geo.Indexed[k])
		if err != nil {
			panic(err)
		}
		src = append(src, v)
	}
	return append(src, index[p+nb:]...)
}

// WrapIndex returns index i of an axis of size n, a negative one counted
// from the end as in NumPy, or a *shape.IndexError naming op, the axis, i
// and n when i is outside [-n, n).
func WrapIndex(op string, i int64, axis, n int) (int, error) {
	w, ok := Wrap(i, n)
	if !ok {
		return 0, &shape.IndexError{Op: op, Dim: axis, Index: int(i), Size: n}
	}
	return w, nil
}

// Wrap returns index i of an axis of size n, a negative one counted from
// the end, and whether i is in [-n, n): the rule of WrapIndex with no
// error, small enough to inline in an evaluator's loop.
func Wrap(i int64, n int) (int, bool) {
	if i < 0 {
		i += int64(n)
	}
	return int(i), uint64(i) < uint64(n)
}

// IndexReader is a node whose value depends on the values of int64 index
// arrays, which only the evaluation can check (Gather, ScatterAdd): an
// evaluator reads them before it writes any destination, so an index out
// of range leaves every tensor as it was.
type IndexReader interface {
	Node
	// IndexOperands returns the index arrays.
	IndexOperands() []Exp[int64]
}

// IndexOperands returns the index arrays (IndexReader).
func (g *Gather[T]) IndexOperands() []Exp[int64] { return g.Indices }
