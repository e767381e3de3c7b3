package loops

import (
	"unsafe"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/scalar"
	"github.com/laze-go/laze/tensor"
)

// The folds and memory moves over one block that kernels' reductions and
// walks call: a reduction's fold of a block (Fold, ArgFold), its combining
// op (Combine, CombineInto), and a block's gather from and store to strided
// memory.

// Fold folds v (at least one element) with a reduction's combining op:
// pairwise with the lane loops' adds for a sum, else the lane fold where it
// runs, else in order.
func Fold[T tensor.Number](combine ops.Op, v []T) T {
	if combine == ops.Add {
		return pairwiseSum(v)
	}
	if acc, ok := laneFold(combine, v); ok {
		return acc
	}
	acc := v[0]
	for _, x := range v[1:] {
		acc = Combine(combine, acc, x)
	}
	return acc
}

// argFold is the ordered fold of an arg reduction over v, element k at
// index at + k·step: ops.ArgBetter decides at each element.
func argFold[T tensor.Number](combine ops.Op, v []T, at, step int64) (T, int64) {
	best, bi := v[0], at
	for k, x := range v[1:] {
		if i := at + int64(k+1)*step; ops.ArgBetter(combine, x, i, best, bi) {
			best, bi = x, i
		}
	}
	return best, bi
}

// ArgFold is the fold of an arg reduction over v (combine Maximum or
// Minimum), element k at index at + k·step: the best value and its index,
// the first on ties, a NaN before any number (ops.ArgBetter). It finds
// argFold's answer faster where it can: the
// extreme value by the vector fold (laneFold), then its lowest index by a
// scan for equal elements (tieIndex). Blocks the vector fold refuses (no
// vector kernels at this level, an integer type, a NaN, a zero result,
// fewer elements than a vector) and a NaN in the tail go to argFold.
func ArgFold[T tensor.Number](combine ops.Op, v []T, at, step int64) (T, int64) {
	if best, ok := laneFold(combine, v); ok && best == best {
		return best, at + int64(tieIndex(v, best, step))*step
	}
	return argFold(combine, v, at, step)
}

// tieIndex is the position in v of the element equal to best (a value of
// v, not NaN) whose index is the lowest, indices moving by step from one
// element to the next: the first such element, or the last where the
// indices fall (step < 0).
// With the extreme value from the vector fold (laneFold: no NaN, not zero)
// that is argFold's answer: ArgBetter prefers the better value, and of equal
// ones the lower index.
func tieIndex[T tensor.Number](v []T, best T, step int64) int {
	if step < 0 {
		for k := len(v) - 1; k >= 0; k-- {
			if v[k] == best {
				return k
			}
		}
	}
	for k, x := range v {
		if x == best {
			return k
		}
	}
	panic("kernels: tieIndex: best is not in v")
}

// Combine applies a reduction's combining op (add, multiply, maximum,
// minimum) to two values.
func Combine[T tensor.Number](op ops.Op, a, b T) T {
	switch op {
	case ops.Add:
		return a + b
	case ops.Mul:
		return a * b
	case ops.Maximum:
		return scalar.Maximum(a, b)
	}
	return scalar.Minimum(a, b)
}

// CombineInto folds v elementwise into acc (acc[k] = op(acc[k], v[k])), with
// the op's own loop, which the compiler keeps free of the switch.
func CombineInto[T tensor.Number](op ops.Op, acc, v []T) {
	acc = acc[:len(v)]
	if computeSIMD(op, patVV, acc, &[3]Value[T]{{Vec: acc}, {Vec: v}}) {
		return
	}
	switch op {
	case ops.Add:
		for k, x := range v {
			acc[k] += x
		}
	case ops.Mul:
		for k, x := range v {
			acc[k] *= x
		}
	default:
		for k, x := range v {
			acc[k] = Combine(op, acc[k], x)
		}
	}
}

// pairwiseBase is the length under which pairwiseSum adds in one scalar
// loop, with four accumulators (the lane loops' base case is longer: see
// pairwiseSum); longer runs are halved recursively, so the rounding error
// grows with the logarithm of the length instead of the length.
const pairwiseBase = 128

// pairwiseSum returns the sum of v by pairwise (cascade) summation. Where
// the lane loops add the base case, it is sixteen additions long for each
// of their partial sums (1024 elements of float32, 512 of float64), as deep
// as each of NumPy's eight accumulators over its blocks of 128: fewer,
// longer calls of the lane loop, whose per-call cost dominated rows of a
// thousand elements at the scalar loop's base of 128.
func pairwiseSum[T tensor.Number](v []T) T {
	base := pairwiseBase
	if partial := lanePartialSums[T](); partial > 0 {
		base = 16 * partial
	}
	return pairwiseSumFrom(v, base)
}

// pairwiseSumFrom is pairwiseSum with the base case's length.
func pairwiseSumFrom[T tensor.Number](v []T, base int) T {
	if len(v) > base {
		h := len(v) / 2
		return pairwiseSumFrom(v[:h], base) + pairwiseSumFrom(v[h:], base)
	}
	if s, ok := laneFold(ops.Add, v); ok {
		return s
	}
	var s0, s1, s2, s3 T
	k := 0
	for ; k+4 <= len(v); k += 4 {
		s0 += v[k]
		s1 += v[k+1]
		s2 += v[k+2]
		s3 += v[k+3]
	}
	for ; k < len(v); k++ {
		s0 += v[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// Store writes a block's n values (or its one value, for a scalar) into
// dst, stride apart from off.
func Store[T tensor.Number](dst []T, off, stride, n int, scalar bool, v Value[T]) {
	switch {
	case scalar && stride == 1:
		Fill(dst[off:off+n], v.S)
	case scalar:
		fillStrided(dst, off, stride, n, v.S)
	case stride == 1:
		copy(dst[off:off+n], v.Vec)
	default:
		scatter(dst, off, stride, v.Vec)
	}
}

// Gather copies n = len(d) elements of src, stride apart from off, into d.
// It checks the first and the last index once, then walks src by pointer,
// four elements a trip, never pointing past the last element it reads: the
// per-element bounds checks and multiplications were a third of a
// transpose's time (BenchmarkElementwise/transpose). A reversed read
// (stride -1, a flipped operand) copies its whole vectors with the lane
// loops' reversal where they run (reverseLanes).
func Gather[T tensor.Number](d, src []T, off, stride int) {
	n := len(d)
	if n == 0 {
		return
	}
	_ = src[off]
	_ = src[off+(n-1)*stride]
	if stride == -1 {
		i := reverseLanes(d, src, off)
		if i == n {
			return
		}
		d, off, n = d[i:], off-i, n-i
	}
	step := stride * int(unsafe.Sizeof(*new(T)))
	p := unsafe.Pointer(&src[off])
	i := 0
	for ; i+4 < n; i += 4 { // leaves 1 to 4 elements, so p stays within src
		dd := (*[4]T)(d[i:])
		dd[0] = *(*T)(p)
		dd[1] = *(*T)(unsafe.Add(p, step))
		dd[2] = *(*T)(unsafe.Add(p, 2*step))
		dd[3] = *(*T)(unsafe.Add(p, 3*step))
		p = unsafe.Add(p, 4*step)
	}
	for {
		d[i] = *(*T)(p)
		if i++; i == n {
			return
		}
		p = unsafe.Add(p, step)
	}
}

// StoreInterleaved writes each of a block's n values rows times side by
// side into dst from off: dst[off + j·rows + k] = v.Vec[j] for k < rows,
// the rows of a group that shares its values (a repeat along the last
// axis) written in one pass instead of a strided store per row.
func StoreInterleaved[T tensor.Number](dst []T, off, n, rows int, v Value[T]) {
	d := dst[off : off+n*rows]
	src := v.Vec[:n]
	if rows == 2 {
		i := twiceLanes(d, src)
		d, src = d[2*i:], src[i:]
		for j, x := range src {
			p := (*[2]T)(d[2*j:])
			p[0], p[1] = x, x
		}
		return
	}
	for j, x := range src {
		Fill(d[j*rows:(j+1)*rows], x)
	}
}

// scatter copies v into dst, stride apart from off.
func scatter[T tensor.Number](dst []T, off, stride int, v []T) {
	for i, x := range v {
		dst[off+i*stride] = x
	}
}

// Fill sets every element of d to v.
func Fill[T tensor.Number](d []T, v T) {
	for i := range d {
		d[i] = v
	}
}

// fillStrided sets n elements of dst, stride apart from off, to v.
func fillStrided[T tensor.Number](dst []T, off, stride, n int, v T) {
	for i := range n {
		dst[off+i*stride] = v
	}
}
