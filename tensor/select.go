package tensor

import (
	"fmt"

	"github.com/laze-go/laze/shape"
)

// An Ix is one entry of a multi-dimensional index for Select, NumPy's
// y[0, :, 1:5:2, None, ...]: an integer (At), a slice (Range, All), a new
// dimension of size 1 (NewAxis) or the dimensions not named otherwise
// (Ellipsis). The package's functions and constants are its only values.
type Ix interface {
	fmt.Stringer
	spec() ixSpec
}

// ixSpec is what an Ix stands for.
type ixSpec struct {
	kind             ixKind
	i                int // At's index
	start, end, step int // Range's bounds
}

type ixKind uint8

const (
	ixInvalid ixKind = iota
	ixAll
	ixAt
	ixRange
	ixNewAxis
	ixEllipsis
)

func (x ixSpec) spec() ixSpec { return x }

// At selects index i of a dimension and removes the dimension (y[i]);
// negative i counts from the end.
func At(i int) Ix { return ixSpec{kind: ixAt, i: i} }

// Range selects start:end:step of a dimension with Python's slice rules, as
// Slice does (None for an omitted bound; step must not be 0).
func Range(start, end, step int) Ix { return ixSpec{kind: ixRange, start: start, end: end, step: step} }

// A Mark is an Ix that takes no argument: All, NewAxis or Ellipsis. They are
// constants, so no caller can change what they mean.
type Mark uint8

// The Ix values that take no argument.
const (
	// All keeps a whole dimension (y[:]).
	All Mark = iota + 1
	// NewAxis inserts a dimension of size 1 (NumPy's None, np.newaxis).
	NewAxis
	// Ellipsis stands for as many All as the dimensions not named by the
	// other entries (NumPy's ...); at most one per Select.
	Ellipsis
)

func (m Mark) spec() ixSpec {
	switch m {
	case All:
		return ixSpec{kind: ixAll}
	case NewAxis:
		return ixSpec{kind: ixNewAxis}
	case Ellipsis:
		return ixSpec{kind: ixEllipsis}
	}
	return ixSpec{}
}

// String writes the entry as NumPy spells it: :, None or ...
func (m Mark) String() string { return m.spec().String() }

// String writes the entry as NumPy spells it: 0, :, 1:5:2, None, ...
func (x ixSpec) String() string {
	switch x.kind {
	case ixAt:
		return fmt.Sprint(x.i)
	case ixRange:
		return bound(x.start) + ":" + bound(x.end) + ":" + bound(x.step)
	case ixNewAxis:
		return "None"
	case ixEllipsis:
		return "..."
	case ixAll:
		return ":"
	}
	return "invalid"
}

func bound(b int) string {
	if b == None {
		return ""
	}
	return fmt.Sprint(b)
}

// consumes reports whether the entry stands for one of the tensor's
// dimensions (At, Range, All).
func (x ixSpec) consumes() bool { return x.kind == ixAt || x.kind == ixRange || x.kind == ixAll }

// specs returns what each entry stands for; a nil entry or a Mark that is
// none of the constants panics with an ArgumentError.
func specs(ix []Ix) []ixSpec {
	out := make([]ixSpec, len(ix))
	for k, x := range ix {
		if x != nil {
			out[k] = x.spec()
		}
		if out[k].kind == ixInvalid {
			panic(&shape.ArgumentError{Op: "Select", Name: fmt.Sprintf("ix[%d]", k), Value: x,
				Reason: "not an index entry (use At, Range, All, NewAxis or Ellipsis)"})
		}
	}
	return out
}

// Select returns the view that NumPy's basic indexing y[ix0, ix1, …] gives,
// in one call: Select(At(0), All, At(0), At(0)) is y[0, :, 0, 0], and
// Select(Ellipsis, Range(None, None, -1)) is y[..., ::-1]. Dimensions not
// named keep their whole extent, as in NumPy. It copies nothing and costs
// O(rank). It panics, as Index and Slice do, with an IndexError naming the
// dimension (of y) and the index when an At is out of range, a
// DimensionError when more dimensions are named than y has, and an
// ArgumentError for a zero step, a second Ellipsis or a nil entry.
func (t *Tensor[T]) Select(ix ...Ix) *Tensor[T] {
	dims := t.geometry("Select")
	xs := specs(ix)
	named, ellipses := 0, 0
	for _, x := range xs {
		if x.consumes() {
			named++
		}
		if x.kind == ixEllipsis {
			ellipses++
		}
	}
	if ellipses > 1 {
		panic(&shape.ArgumentError{Op: "Select", Name: "ix", Value: ix, Reason: "an index can only have a single Ellipsis"})
	}
	if named > len(dims) {
		panic(&shape.DimensionError{Op: "Select", Dim: named - 1, NDim: len(dims),
			Reason: fmt.Sprintf("too many indices: %d dimensions named", named)})
	}
	var outShape shape.Shape
	var outStrides []int
	offset, d := t.offset, 0
	keep := func(n int) { // keeps the next n dimensions whole
		outShape = append(outShape, dims[d:d+n]...)
		outStrides = append(outStrides, t.strides[d:d+n]...)
		d += n
	}
	for _, x := range xs {
		switch x.kind {
		case ixAt:
			j, err := shape.Index("Select", d, x.i, dims[d])
			if err != nil {
				panic(err)
			}
			offset = moveOffset(offset, j, t.strides[d])
			d++
		case ixRange:
			if x.step == 0 {
				panic(&shape.ArgumentError{Op: "Select", Name: fmt.Sprintf("ix for dimension %d", d), Value: x, Reason: "the step must not be zero"})
			}
			first, count := SliceIndices(dims[d], x.start, x.end, x.step)
			if count > 0 {
				offset = moveOffset(offset, first, t.strides[d])
			}
			outShape = append(outShape, count)
			outStrides = append(outStrides, scaledStride[T](t.strides[d], x.step))
			d++
		case ixAll:
			keep(1)
		case ixNewAxis:
			outShape = append(outShape, 1)
			outStrides = append(outStrides, 1)
		case ixEllipsis:
			keep(len(dims) - named)
		}
	}
	keep(len(dims) - d)
	v := header(t.st, offset, len(outShape))
	copy(v.shape, outShape)
	copy(v.strides, outStrides)
	return v
}

// moveOffset returns offset moved by i·stride (see moved).
func moveOffset(offset, i, stride int) int {
	step, ok := shape.CheckedMul(i, stride)
	if !ok {
		return offset
	}
	if off, ok := shape.CheckedAdd(offset, step); ok {
		return off
	}
	return offset
}
