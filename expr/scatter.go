package expr

import (
	"slices"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// ScatterAdd is the adjoint of a Gather: Base with Values added at the
// positions the gather of Base by Indices on the axes from Axis reads, as
// numpy.add.at(base, (…, indices…), values) — unbuffered, so a position
// indexed several times receives every value, added in the order of the
// gather's result (row-major). Values broadcast to the gather's shape.
// Indices follow Gather's rules (negative ones count from the end; one out
// of range is a *shape.IndexError before anything is written). The result
// has Base's shape.
//
// It is the gradient of a gather (grad), and NumPy's add.at and PyTorch's
// index_add/scatter_add for users. Evaluators compute it once, into a
// temporary, from Base copied and the rest materialised.
type ScatterAdd[T tensor.Number] struct {
	Base    Exp[T]
	Indices []Exp[int64]
	Axis    int
	Values  Exp[T]
}

// AddAt returns base with values added at the positions that indices
// select on the axes from axis, as numpy.add.at(base, (slice(None),)*axis
// + tuple(indices), values): the elements a repeated index selects
// receive every value.
func AddAt[T tensor.Number](base Exp[T], axis int, values Exp[T], indices ...Exp[int64]) Exp[T] {
	ix := make([]Exp[int64], len(indices))
	for i, x := range indices {
		ix[i] = bare(x)
	}
	return &ScatterAdd[T]{Base: bare(base), Indices: ix, Axis: axis, Values: bare(values)}
}

// Gather returns the gather whose adjoint the scatter is: Base gathered by
// the same indices.
func (s *ScatterAdd[T]) Gather() *Gather[T] {
	return &Gather[T]{X: s.Base, Indices: s.Indices, Axis: s.Axis, Kind: GatherIndex}
}

// Shape returns Base's shape. It panics with the error Check returns when
// the scatter is not valid.
func (s *ScatterAdd[T]) Shape() shape.Shape { return mustShape(s) }

// Operands returns Base, Values, then the index arrays.
func (s *ScatterAdd[T]) Operands() []Node {
	ns := []Node{s.Base, s.Values}
	for _, ix := range s.Indices {
		ns = append(ns, ix)
	}
	return ns
}

// String prints the call: "np.add.at(a, [:, i], v)".
func (s *ScatterAdd[T]) String() string { return render(s) }

func (s *ScatterAdd[T]) render(b *strings.Builder) {
	b.WriteString("np.add.at(")
	renderTo(b, s.Base)
	b.WriteString(", [")
	for range s.Axis {
		b.WriteString(":, ")
	}
	for i, ix := range s.Indices {
		if i > 0 {
			b.WriteString(", ")
		}
		renderTo(b, ix)
	}
	b.WriteString("], ")
	renderTo(b, s.Values)
	b.WriteByte(')')
}

func (s *ScatterAdd[T]) checkNode(cc *checking) (info, error) {
	g := s.Gather()
	gi, err := g.checkNode(cc)
	if err != nil {
		return info{}, err
	}
	v, err := checkOperand(s, cc, "add.at", 1, s.Values)
	if err != nil {
		return info{}, err
	}
	out, _ := cc.check(s.Base) // checked by the gather
	if err := out.join(v, "add.at"); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: err}
	}
	if _, err := shape.BroadcastStrides(v.shape, make([]int, len(v.shape)), gi.shape); err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: render(s), Err: err}
	}
	return out, nil
}

// At computes the element at index: Base's element plus every value the
// gather's positions that read it receive, in row-major order. It is the
// reference definition, linear in the gather's size per element.
func (s *ScatterAdd[T]) At(index ...int) T {
	checkRank(s, index)
	g := s.Gather()
	sum := s.Base.At(index...)
	vs := s.Values.Shape()
	for o := shape.NewOdometer(g.Shape()); !o.Done(); o.Next() {
		if pos := o.Index(); slices.Equal(g.source(pos), index) {
			sum += s.Values.At(broadcastIndex(pos, vs)...)
		}
	}
	return sum
}

// IndexOperands returns the index arrays (IndexReader).
func (s *ScatterAdd[T]) IndexOperands() []Exp[int64] { return s.Indices }
