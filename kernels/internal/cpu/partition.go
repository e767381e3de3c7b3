package cpu

import (
	"math"
	"math/bits"
	"slices"

	"github.com/laze-go/laze/tensor"
)

// Partial sorts for selection (numpy.partition, which numpy.median and
// numpy.quantile are built on): Partition writes each line of src into
// dst with the element a stable sort (see Sort) would put at each position
// in kth there, bit for bit; the others are in no particular order. The
// NaNs are set apart at the line's end first (a position among them
// holds the NaN the stable sort puts there), then each kth position, in
// ascending order, is found by a quickselect over the numbers after the
// last one found: median-of-three pivots, a Hoare partition (which splits
// runs of equal elements evenly), an insertion sort under insertionMax
// elements, slices.Sort once the rounds pass twice the range's bit length
// (so the worst case is O(n log n)), and for the last (or first) position
// of a range a single pass for the maximum (minimum). The selected element
// equals the sorted line's there; when it is a float zero, which a stable
// sort takes in the line's order from the zeros of both signs, a zero of
// the sign src's order gives is swapped in. The work is O(length) per line
// and per kth position on average, against the sort's O(length·log) or
// radix passes.

// Partition writes into dst each line of src partitioned at kth
// (positions in [0, length), ascending, without repeats; see above).
func Partition[T tensor.Number](dst, src []T, outer, length, inner int, kth []int) {
	sortLines(outer, length, inner, func(lo, hi int) {
		var sc sortScratch[T]
		for l := lo; l < hi; l++ {
			base := l/inner*length*inner + l%inner
			var line []T
			if inner == 1 {
				line = dst[base : base+length]
				copy(line, src[base:base+length])
			} else {
				line = sc.line(length)
				for k := range line {
					line[k] = src[base+k*inner]
				}
			}
			partitionLine(&sc, line, kth, func(k int) T { return src[base+k*inner] })
			if inner == 1 {
				continue
			}
			for k, v := range line {
				dst[base+k*inner] = v
			}
		}
	})
}

// partitionLine partitions line at kth (see above); original gives the
// line's elements as they were, for the sign of a zero.
func partitionLine[T tensor.Number](sc *sortScratch[T], line []T, kth []int, original func(k int) T) {
	m := sc.setNaNsApart(line)
	from := 0
	for _, k := range kth {
		if k >= m {
			break
		}
		selectKth(line[from:m], k-from)
		from = k + 1
	}
	if !tensor.IsFloat[T]() {
		return
	}
	for i, k := range kth {
		if k < m && line[k] == 0 {
			swapInZero(line[:m], k, kth[:i], stableZero(line[:m], k, len(line), original))
		}
	}
}

// swapInZero puts at numbers[k] (a zero) the zero want, swapped from a
// position holding it that is not one of done (the kth positions already
// set); zeros compare equal, so the partition holds.
func swapInZero[T tensor.Number](numbers []T, k int, done []int, want T) {
	if sameSign(numbers[k], want) {
		return
	}
	for p, x := range numbers {
		if x == 0 && sameSign(x, want) && !slices.Contains(done, p) {
			numbers[k], numbers[p] = numbers[p], numbers[k]
			return
		}
	}
}

func sameSign[T tensor.Number](a, b T) bool {
	return math.Signbit(float64(a)) == math.Signbit(float64(b))
}

// selectKth reorders v (no NaNs) so that v[k] is the element sorted order
// puts there, those before it no greater and those after no smaller.
func selectKth[T tensor.Number](v []T, k int) {
	rounds := 2 * bits.Len(uint(len(v)))
	for len(v) > insertionMax {
		switch {
		case k == len(v)-1:
			moveExtreme(v, k, func(a, b T) bool { return a > b })
			return
		case k == 0:
			moveExtreme(v, k, func(a, b T) bool { return a < b })
			return
		case rounds == 0:
			slices.Sort(v)
			return
		}
		rounds--
		pivot := medianOfThree(v[0], v[len(v)/2], v[len(v)-1])
		i, j := 0, len(v)-1
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for pivot < v[j] {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			v = v[:j+1]
		case k >= i:
			v, k = v[i:], k-i
		default:
			return // v[j+1:i] all equal the pivot, k among them
		}
	}
	insertionSort(v)
}

// moveExtreme swaps into v[k] (the first or last position) the element
// that beats every other by better.
func moveExtreme[T tensor.Number](v []T, k int, better func(a, b T) bool) {
	best := 0
	for i := 1; i < len(v); i++ {
		if better(v[i], v[best]) {
			best = i
		}
	}
	v[k], v[best] = v[best], v[k]
}

func medianOfThree[T tensor.Number](a, b, c T) T {
	if b < a {
		a, b = b, a
	}
	if c < b {
		b = c
		if b < a {
			b = a
		}
	}
	return b
}

// stableZero returns the zero a stable sort of the line (numbers, its
// first m of n elements after the NaNs are set apart) puts at position k,
// which holds a zero: the zeros follow the line's negative numbers, in
// their order in the original line.
func stableZero[T tensor.Number](numbers []T, k, n int, original func(k int) T) T {
	negative := 0
	for _, x := range numbers {
		if x < 0 {
			negative++
		}
	}
	want := k - negative
	for p := range n {
		if x := original(p); x == 0 {
			if want == 0 {
				return x
			}
			want--
		}
	}
	return T(math.Copysign(0, 1)) // unreachable: position k holds a zero
}
