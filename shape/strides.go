package shape

import (
	"fmt"
	"math/bits"
	"slices"
)

// Order is the order in which a contiguous tensor's elements lie in memory.
type Order int

const (
	// RowMajor (C order): the last dimension varies fastest.
	RowMajor Order = iota
	// ColMajor (Fortran order): the first dimension varies fastest.
	ColMajor
)

// String returns "C" or "F", as NumPy names the orders.
func (o Order) String() string {
	switch o {
	case RowMajor:
		return "C"
	case ColMajor:
		return "F"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ContiguousStrides returns the element strides of a tensor of shape s laid
// out contiguously in the given order: (2,3,4) gives (12,4,1) in RowMajor and
// (1,2,6) in ColMajor. It panics with an OverflowError if a stride overflows.
func ContiguousStrides(s Shape, order Order) []int {
	strides := make([]int, len(s))
	step := 1
	fill := func(i int) {
		strides[i] = step
		var ok bool
		if step, ok = mulInt(step, max(s[i], 1)); !ok {
			panic(&OverflowError{Op: "ContiguousStrides", Shape: s.Clone(), What: "element count"})
		}
	}
	if order == ColMajor {
		for i := range s {
			fill(i)
		}
	} else {
		for i := len(s) - 1; i >= 0; i-- {
			fill(i)
		}
	}
	return strides
}

// ByteStrides converts element strides to byte strides, as NumPy and
// MegEngine report them: each stride times itemsize.
func ByteStrides(strides []int, itemsize int) []int {
	out := make([]int, len(strides))
	for i, st := range strides {
		out[i] = st * itemsize
	}
	return out
}

// Offset returns Σ index[i]·strides[i], the element offset of index relative
// to the tensor's own offset. A negative index counts from the end of its
// dimension, as in NumPy. It returns an IndexError naming the dimension when
// an index is out of range and a DimensionError when the number of indices
// differs from the rank.
func Offset(s Shape, strides []int, index []int) (int, error) {
	if len(index) != len(s) {
		return 0, &DimensionError{Op: "Offset", Dim: len(index), NDim: len(s),
			Reason: fmt.Sprintf("%d indices given for a tensor of rank %d", len(index), len(s))}
	}
	off := 0
	for d, i := range index {
		j, ok := normIndex(i, s[d])
		if !ok {
			return 0, &IndexError{Op: "Offset", Dim: d, Index: i, Size: s[d]}
		}
		off += j * strides[d]
	}
	return off, nil
}

// Index normalises index i of dimension dim, of size n: a negative i counts
// from the end. It returns an IndexError naming op, the dimension, the index
// and the size when i is outside [-n, n).
func Index(op string, dim, i, n int) (int, error) {
	j, ok := normIndex(i, n)
	if !ok {
		return 0, &IndexError{Op: op, Dim: dim, Index: i, Size: n}
	}
	return j, nil
}

// normIndex is the one definition of index normalisation, small enough to
// inline into element access.
func normIndex(i, n int) (int, bool) {
	if i < 0 {
		i += n
	}
	return i, uint(i) < uint(n) // the unsigned compare also rejects i < 0
}

// IsContiguous reports whether a tensor of shape s and the given strides
// covers a dense block of memory in the given order with no gaps. As in
// PyTorch, the stride of a dimension of size 1 does not matter, and a tensor
// with no elements is contiguous.
func IsContiguous(s Shape, strides []int, order Order) bool {
	expected := 1
	check := func(i int) bool {
		if s[i] == 1 {
			return true
		}
		if strides[i] != expected {
			return false
		}
		var ok bool
		expected, ok = mulInt(expected, s[i]) // fails only for a shape Size refuses
		return ok
	}
	for _, n := range s {
		if n == 0 {
			return true
		}
	}
	if order == ColMajor {
		for i := range s {
			if !check(i) {
				return false
			}
		}
		return true
	}
	for i := len(s) - 1; i >= 0; i-- {
		if !check(i) {
			return false
		}
	}
	return true
}

// Extent returns the range of element offsets a strided tensor touches,
// relative to its own offset: every element lies in [lo, hi] with lo ≤ 0 ≤ hi
// for non-empty tensors. For a tensor with no elements it returns ok=false.
// The number of elements the tensor spans in storage (mshadow's MSize) is
// hi-lo+1. The geometry must be a tensor's, whose extent fits in an int by
// construction; CheckedExtent checks geometry from elsewhere.
func Extent(s Shape, strides []int) (lo, hi int, ok bool) {
	for i, n := range s {
		if n == 0 {
			return 0, 0, false
		}
		reach := (n - 1) * strides[i]
		if reach < 0 {
			lo += reach
		} else {
			hi += reach
		}
	}
	return lo, hi, true
}

// CheckedExtent is Extent for a geometry that is not yet a tensor's (strides
// and an offset from a user, a file): it returns the range of storage offsets
// [offset+lo, offset+hi] that the elements occupy, ok=false when there are
// none, and an OverflowError naming op when a dimension's reach, their sum or
// the offset added to it does not fit in an int. It does not check s; see
// Shape.Size.
func CheckedExtent(op string, s Shape, strides []int, offset int) (first, last int, ok bool, err error) {
	overflow := func() (int, int, bool, error) {
		return 0, 0, false, &OverflowError{Op: op, Shape: s.Clone(),
			What: fmt.Sprintf("extent of strides %s from offset %d", FormatInts(strides), offset)}
	}
	if slices.Contains(s, 0) {
		return 0, 0, false, nil
	}
	first, last = offset, offset
	for i, n := range s {
		reach, fits := CheckedMul(n-1, strides[i])
		if !fits {
			return overflow()
		}
		if reach < 0 {
			first, fits = CheckedAdd(first, reach)
		} else {
			last, fits = CheckedAdd(last, reach)
		}
		if !fits {
			return overflow()
		}
	}
	return first, last, true, nil
}

// CheckedMul returns a*b and whether it fits in an int (ok=false, never a
// wrapped product, when it does not).
func CheckedMul(a, b int) (int, bool) {
	hi, lo := bits.Mul64(magnitude(a), magnitude(b))
	if (a < 0) != (b < 0) {
		if hi != 0 || lo > uint64(maxInt)+1 {
			return 0, false
		}
		return int(-lo), true // MinInt (-2^63, or -2^31 on 32-bit machines) included
	}
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

// magnitude returns |a| as a uint64 (2^63 for minInt).
func magnitude(a int) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// CheckedAdd returns a+b and whether it fits in an int.
func CheckedAdd(a, b int) (int, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}
