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
// last one found: pivots the median of three elements at random positions, a branch-free partition (the
// elements equal to the pivot gathered apart when it is the least), an insertion sort under insertionMax
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
//
// Each round splits v by the median of three elements drawn at random
// (fixed positions, as the first, middle and last, let structured lines
// such as an organ pipe choose a poor pivot round after round: the branch-free
// pass keeps their structure) with a branch-free pass
// (below): on random data a comparison's branch is mispredicted half the
// time, which made the round's cost. The elements equal to the pivot go
// right; when none is below it (the pivot is the least element, as with
// many repeats) a second pass gathers those equal to it at the front, so
// every round removes at least the pivot.
func selectKth[T tensor.Number](v []T, k int) {
	rounds := 2 * bits.Len(uint(len(v)))
	rnd := pivotSource(uint64(len(v))*0x9e3779b97f4a7c15 | 1)
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
		pivot := medianOfThree(v[rnd.below(len(v))], v[rnd.below(len(v))], v[rnd.below(len(v))])
		below := partitionBelow(v, func(x T) bool { return x < pivot })
		if k < below {
			v = v[:below]
			continue
		}
		if below == 0 {
			equal := partitionBelow(v, func(x T) bool { return x <= pivot })
			if k < equal {
				return // v[:equal] all equal the pivot, k among them
			}
			below = equal
		}
		v, k = v[below:], k-below
	}
	insertionSort(v)
}

// pivotSource draws the positions of pivot candidates: xorshift64,
// seeded by the line's length, so a partition is the same from run to run.
type pivotSource uint64

// below returns a position in [0, n).
func (s *pivotSource) below(n int) int {
	x := uint64(*s)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*s = pivotSource(x)
	hi, _ := bits.Mul64(x, uint64(n))
	return int(hi)
}

// partitionBelow moves the elements of v for which in holds to its front,
// in one pass with no branch on the outcome (each element is swapped with
// the front's next place, which advances by the outcome: the Lomuto scheme
// without its branch), and returns how many there are.
func partitionBelow[T tensor.Number](v []T, in func(T) bool) int {
	front := 0
	for i, x := range v {
		v[i] = v[front]
		v[front] = x
		front += oneIf(in(x))
	}
	return front
}

// oneIf is 1 for true and 0 for false, as a conditional move.
func oneIf(b bool) int {
	n := 0
	if b {
		n = 1
	}
	return n
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
