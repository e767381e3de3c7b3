package shape

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Shape is the size of each dimension of a tensor, outermost first. The
// empty Shape is the shape of a scalar (rank 0, one element). A Shape is a
// plain slice: functions in this package never modify their arguments and
// return fresh slices.
type Shape []int

// Of returns a Shape with the given dimensions: shape.Of(2, 3, 4). It copies
// its arguments. Of panics with an ArgumentError when a size is negative:
// writing a negative size is a programming error.
func Of(dims ...int) Shape {
	for i, d := range dims {
		if d < 0 {
			panic(&ArgumentError{Op: "shape.Of", Name: "dims[" + strconv.Itoa(i) + "]", Value: d,
				Reason: "a dimension size must not be negative"})
		}
	}
	return Shape(slices.Clone(dims))
}

// NDim returns the rank: the number of dimensions.
func (s Shape) NDim() int { return len(s) }

// Size returns the number of elements, the product of the dimensions (1 for a
// scalar). It is also the one check of the rule every shape follows (NumPy's):
// the sizes are not negative, and the product of the non-zero sizes fits in
// an int, so that contiguous strides never overflow. A shape that breaks it
// has no tensor, even when a zero makes its element count 0: Size returns an
// ArgumentError for a negative dimension and an OverflowError for a product
// that does not fit ((0, 2^62, 2^62) included), never a wrapped value.
func (s Shape) Size() (int, error) {
	n, err := nonZeroProduct("Shape.Size", s)
	if err != nil || slices.Contains(s, 0) {
		return 0, err
	}
	return n, nil
}

// Bytes returns the bytes a contiguous tensor of shape s takes with elements
// of itemsize bytes: Size·itemsize. Besides Size's rule, the product of the
// non-zero sizes times itemsize must fit in an int (NumPy's "array is too
// big"); otherwise it returns an OverflowError for the byte count.
func (s Shape) Bytes(itemsize int) (int, error) {
	n, err := nonZeroProduct("Shape.Bytes", s)
	if err != nil {
		return 0, err
	}
	nb, ok := mulInt(n, max(itemsize, 0))
	if !ok {
		return 0, &OverflowError{Op: "Shape.Bytes", Shape: s.Clone(), What: "byte count"}
	}
	if slices.Contains(s, 0) {
		return 0, nil
	}
	return nb, nil
}

// nonZeroProduct returns the product of the non-zero sizes of s, or the
// error that Size documents.
func nonZeroProduct(op string, s Shape) (int, error) {
	n := 1
	for i, d := range s {
		if d < 0 {
			return 0, &ArgumentError{Op: op, Name: "dim " + strconv.Itoa(i), Value: d,
				Reason: "a dimension size must not be negative"}
		}
		if d == 0 {
			continue
		}
		var ok bool
		if n, ok = mulInt(n, d); !ok {
			return 0, &OverflowError{Op: op, Shape: s.Clone(), What: "element count"}
		}
	}
	return n, nil
}

// Dim returns the size of dimension i; a negative i counts from the end
// (Dim(-1) is the last). It panics with a DimensionError when i is outside
// [-NDim, NDim).
func (s Shape) Dim(i int) int {
	return s[MustAxis("Shape.Dim", i, len(s))]
}

// Equal reports whether s and t have the same rank and sizes.
func (s Shape) Equal(t Shape) bool { return slices.Equal(s, t) }

// Clone returns a copy of s that shares no memory with it.
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return slices.Clone(s)
}

// String formats s as a Python tuple: (2,3,4), (5,), ().
func (s Shape) String() string { return FormatInts(s) }

// FormatInts formats a list of ints as a Python tuple, as Shape.String does;
// it is used for strides and indices in messages and printouts.
func FormatInts(v []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(v) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// Axis normalises dimension number dim for a rank-ndim tensor: a negative dim
// counts from the end. It returns a DimensionError naming op when dim is
// outside [-ndim, ndim).
func Axis(op string, dim, ndim int) (int, error) {
	d := dim
	if d < 0 {
		d += ndim
	}
	if d < 0 || d >= ndim {
		return 0, &DimensionError{Op: op, Dim: dim, NDim: ndim}
	}
	return d, nil
}

// MustAxis is Axis for callers that treat a bad dimension number as a
// programming error: it panics with the DimensionError.
func MustAxis(op string, dim, ndim int) int {
	d, err := Axis(op, dim, ndim)
	if err != nil {
		panic(err)
	}
	return d
}

// FlatTo1D returns the shape folded into one dimension: (Size,). It panics on
// overflow, like every function here whose input is a shape already in use.
func (s Shape) FlatTo1D() Shape { return Shape{mustSize(s)} }

// FlatTo2D folds all leading dimensions into one and keeps the last, as
// mshadow's FlatTo2D: (2,3,4) becomes (6,4). A scalar becomes (1,1).
func (s Shape) FlatTo2D() Shape {
	if len(s) == 0 {
		return Shape{1, 1}
	}
	return Shape{mustSize(s[:len(s)-1]), s[len(s)-1]}
}

// ProdShape returns the product of dimensions [start, end), as mshadow's
// ProdShape. It panics with a DimensionError when the range is not within
// [0, NDim].
func (s Shape) ProdShape(start, end int) int {
	checkRange("Shape.ProdShape", start, end, len(s))
	return mustSize(s[start:end])
}

// SubShape drops the first dimension: (2,3,4) becomes (3,4). It panics with a
// DimensionError on a scalar.
func (s Shape) SubShape() Shape {
	if len(s) == 0 {
		panic(&DimensionError{Op: "Shape.SubShape", Dim: 0, NDim: 0})
	}
	return slices.Clone(s[1:])
}

// Slice returns dimensions [start, end) as a new Shape, as mshadow's
// Slice<start, end>.
func (s Shape) Slice(start, end int) Shape {
	checkRange("Shape.Slice", start, end, len(s))
	return slices.Clone(s[start:end])
}

func checkRange(op string, start, end, ndim int) {
	if start < 0 || start > ndim {
		panic(&DimensionError{Op: op, Dim: start, NDim: ndim})
	}
	if end < start || end > ndim {
		panic(&DimensionError{Op: op, Dim: end, NDim: ndim, Reason: "end must lie in [start, rank]"})
	}
}

func mustSize(s Shape) int {
	n, err := s.Size()
	if err != nil {
		panic(err)
	}
	return n
}

// mulInt returns a*b for non-negative a and b and whether it fits in an int.
func mulInt(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

const maxInt = int(^uint(0) >> 1)
