package loops

import (
	"unsafe"

	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// The lane loops run a float32 or float64 block of an op, a fused pair or
// a fused triple with AVX2 instructions, in every amd64 build, where the
// selected ISA level has them (AVX2 and above; LAZE_CPU=generic turns them
// off). They are compiled from the op table's SIMD column (zlanes_amd64.s,
// written by kernels/internal/vmath/asmgen) and give the scalar loops' results bit
// for bit; the scalar loops compute the tail after the last whole vector.

// laneKind says what a lane loop's number k names.
type laneKind uint8

const (
	laneOp     laneKind = iota // an op: k is the ops.Op
	lanePair                   // a fused pair: k is its number (fusedPair)
	laneTriple                 // a fused triple: k is its number (fusedTriple)
)

// laneBytes is the width of a lane loop's vector.
const laneBytes = 32

// lanesOn reports whether the selected ISA level runs the lane loops.
func lanesOn() bool {
	l := isa.Selected()
	return l == isa.AVX2 || l == isa.AVX512
}

// patternOf maps a pattern code to its arity and scalar mask (bit i:
// operand i is one value for the whole block), the inverse of
// patternCodes.
var patternOf = func() (m [16]struct{ arity, scalars uint8 }) {
	for arity, masks := range patternCodes {
		for mask, code := range masks {
			if code != 0 {
				m[code].arity, m[code].scalars = uint8(arity), uint8(mask)
			}
		}
	}
	return m
}()

// computeLanes computes a block of op (kind laneOp), a fused pair or a
// fused triple (numbered k) with its lane loop, the operands args given by
// pattern code pat (a triple: four vectors, args' three and fourth, pat 0);
// it reports whether it did. The elements after the last whole vector are
// left to the caller: it returns how many it computed. The operands are
// read through args, not copied: a block's dispatch is part of every
// instruction's cost.
func computeLanes[T tensor.Number](kind laneKind, k int, pat uint8, d []T, args *[3]Value[T], fourth []T) int {
	if !lanesOn() {
		return 0
	}
	switch d := any(d).(type) {
	case []float64:
		return runLanes(kind, k, pat, d, any(args).(*[3]Value[float64]), any(fourth).([]float64))
	case []float32:
		return runLanes(kind, k, pat, d, any(args).(*[3]Value[float32]), any(fourth).([]float32))
	}
	return 0
}

// runLanes points a lane loop at the whole vectors of d and its operands,
// a scalar operand broadcast into a vector of its own, and returns how many
// elements it computed (0 where there is no loop).
func runLanes[T float32 | float64](kind laneKind, k int, pat uint8, d []T, args *[3]Value[T], fourth []T) int {
	lanes := laneBytes / int(unsafe.Sizeof(T(0)))
	n := len(d) &^ (lanes - 1)
	if n == 0 {
		return 0
	}
	var p [4]*T
	var inc [4]int
	if kind == laneTriple {
		for i := range 3 {
			p[i], inc[i] = &args[i].Vec[:n][0], laneBytes
		}
		p[3], inc[3] = &fourth[:n][0], laneBytes
	} else {
		arity, scalars := int(patternOf[pat].arity), patternOf[pat].scalars
		var broadcast [3][laneBytes / 4]T
		for i := range arity {
			a := &args[i]
			if scalars>>i&1 != 0 {
				b := &broadcast[i]
				for j := range b {
					b[j] = a.S
				}
				p[i] = &b[0]
				continue
			}
			p[i], inc[i] = &a.Vec[:n][0], laneBytes
		}
	}
	var ran bool
	switch any(T(0)).(type) {
	case float64:
		ran = lanes64(kind, k, (*float64)(unsafe.Pointer(&d[0])), (*[4]*float64)(unsafe.Pointer(&p)), &inc, n)
	case float32:
		ran = lanes32(kind, k, (*float32)(unsafe.Pointer(&d[0])), (*[4]*float32)(unsafe.Pointer(&p)), &inc, n)
	}
	if !ran {
		return 0
	}
	return n
}

// laneTail returns args advanced past the first n elements of its vector
// operands.
func laneTail[T tensor.Number](pat uint8, args *[3]Value[T], n int) [3]Value[T] {
	tail := *args
	for i := range patternOf[pat].arity {
		if patternOf[pat].scalars>>i&1 == 0 {
			tail[i].Vec = tail[i].Vec[n:]
		}
	}
	return tail
}

// laneFold folds v with a reduction's combining op, add (a sum), maximum or
// minimum, in the lane loops: whole vectors in vector accumulators (eight
// for a sum, four for max and min), then the tail in order. ok is false, leaving the block to the scalar
// fold, where the level has no lane loops, v is shorter than a vector, the
// op is another, or, for maximum and minimum, a NaN or a zero result makes
// the order of the fold matter (the first NaN, the sign of the last zero).
// A sum is a different order of the same additions: the pairwise sum's
// base case with 32 (float64) or 64 (float32) partial sums instead of four.
func laneFold[T tensor.Number](op ops.Op, v []T) (r T, ok bool) {
	if !lanesOn() {
		return r, false
	}
	switch v := any(v).(type) {
	case []float64:
		r, ok := foldLanes(op, v, laneSum64, laneMax64, laneMin64)
		return T(r), ok
	case []float32:
		r, ok := foldLanes(op, v, laneSum32, laneMax32, laneMin32)
		return T(r), ok
	}
	return r, false
}

// reverseLanes copies the whole vectors of d's elements from src read
// downward from off (d[i] = src[off-i]) with the lane loops' reversal, for
// any element of 4 or 8 bytes (the copy moves bits: integers as floats),
// and returns how many it copied: 0 where the lanes are off or T has
// another size. The caller has checked that src[off-len(d)+1] exists.
func reverseLanes[T tensor.Number](d, src []T, off int) int {
	n := bitLanes[T](len(d))
	if n > 0 {
		moveBits(laneReverse64, laneReverse32, &d[0], &src[off], n)
	}
	return n
}

// twiceLanes writes each of the whole vectors' elements of src twice side
// by side into d (d[2i] = d[2i+1] = src[i]) with the lane loops'
// interleave, for any element of 4 or 8 bytes, and returns how many
// elements of src it took: 0 where the lanes are off or T has another
// size. d holds at least 2·len(src) elements.
func twiceLanes[T tensor.Number](d, src []T) int {
	n := bitLanes[T](len(src))
	if n > 0 {
		_ = d[2*n-1]
		moveBits(laneTwice64, laneTwice32, &d[0], &src[0], n)
	}
	return n
}

// bitLanes is how many of n elements of T the lane loops that move bits
// (reverse, twice) take: the whole vectors, for elements of 4 or 8 bytes
// where the lanes run; else 0.
func bitLanes[T tensor.Number](n int) int {
	size := int(unsafe.Sizeof(T(0)))
	if !lanesOn() || size != 4 && size != 8 {
		return 0
	}
	return n &^ (laneBytes/size - 1)
}

// moveBits runs a lane loop that moves bits, the 8-byte one (loop64) or
// the 4-byte one (loop32) by T's size, over n elements from s into d.
func moveBits[T tensor.Number](loop64 func(d, s *float64, n int), loop32 func(d, s *float32, n int), d, s *T, n int) {
	if unsafe.Sizeof(*d) == 8 {
		loop64((*float64)(unsafe.Pointer(d)), (*float64)(unsafe.Pointer(s)), n)
	} else {
		loop32((*float32)(unsafe.Pointer(d)), (*float32)(unsafe.Pointer(s)), n)
	}
}

// lanePartialSums is the number of partial sums the lane loop's sum keeps
// for T (laneSumVectors vectors of lanes) at the level selected, or 0 where the lane
// loops do not add T.
func lanePartialSums[T tensor.Number]() int {
	if !lanesOn() {
		return 0
	}
	switch any(T(0)).(type) {
	case float64, float32:
		return laneSumVectors * laneBytes / int(unsafe.Sizeof(T(0)))
	}
	return 0
}

func foldLanes[T float32 | float64](op ops.Op, v []T, sum func(*T, int) T, maxOf, minOf func(*T, int) (T, int)) (T, bool) {
	lanes := laneBytes / int(unsafe.Sizeof(T(0)))
	n := len(v) &^ (lanes - 1)
	if n == 0 {
		return 0, false
	}
	var r T
	nan := 0
	switch op {
	case ops.Add:
		r = sum(&v[0], n)
		for _, x := range v[n:] {
			r += x
		}
		return r, true
	case ops.Maximum:
		r, nan = maxOf(&v[0], n)
	case ops.Minimum:
		r, nan = minOf(&v[0], n)
	default:
		return 0, false
	}
	if nan != 0 || r == 0 {
		return 0, false
	}
	for _, x := range v[n:] {
		r = Combine(op, r, x)
	}
	return r, true
}
