package cpu

import (
	"math"
	"runtime"
	"slices"

	"github.com/laze-go/laze/kernels/internal/par"
	"github.com/laze-go/laze/tensor"
)

// Sorting along an axis (numpy.sort and numpy.argsort with kind="stable").
// Both tensors are contiguous, outer × length × inner; a line is one
// (outer, inner) pair, length elements apart by inner. Every line is
// sorted on its own, so lines are shared among goroutines above
// ParallelThreshold (a contiguous range of lines each, every goroutine
// with its own buffers); a line of inner == 1 is sorted where it lies in
// dst, any other is gathered into a buffer, sorted and scattered back.
//
// The order is expr.SortLess: NaNs last, each line's result that of a
// stable sort. A line is sorted in three parts: its NaNs are moved to its
// end in their order (one pass); the numbers are sorted, by an insertion
// sort up to insertionMax elements, a pattern-defeating quicksort
// (slices.Sort) up to radixFrom, and above it by an LSD radix sort on
// keys that order the numbers as unsigned integers (a float's bits with
// the sign flipped, or all of them flipped for a negative; a signed
// integer's with the sign bit flipped), 11 bits a pass, the passes whose
// digit is the same for every key skipped; then, since an unstable sort
// or the keys (where -0 < +0) may have reordered the zeros, which compare
// equal, the run of zeros is written back in its order in the line when
// the line has zeros of both signs. Integers that compare equal are
// equal, so no sort of them can be told from a stable one. Argsort sorts
// (key, position) pairs, -0's key made +0's and ties broken by position,
// which is the stable order.

// insertionMax is the longest line (after its NaNs are set apart) sorted
// by insertion; radixFrom the shortest sorted by the radix sort.
const (
	insertionMax = 16
	radixFrom    = 1024
)

// Sort writes into dst each line of src sorted (see above).
func Sort[T tensor.Number](dst, src []T, outer, length, inner int) {
	sortLines(outer, length, inner, func(lo, hi int) {
		var sc sortScratch[T]
		for l := lo; l < hi; l++ {
			base := l/inner*length*inner + l%inner
			if inner == 1 {
				line := dst[base : base+length]
				copy(line, src[base:base+length])
				sc.sortValues(line)
				continue
			}
			line := sc.line(length)
			for k := range line {
				line[k] = src[base+k*inner]
			}
			sc.sortValues(line)
			for k, v := range line {
				dst[base+k*inner] = v
			}
		}
	})
}

// ArgSort writes into idx, for each line of src, the positions in the
// line of its elements in sorted order (see above).
func ArgSort[T tensor.Number](idx []int64, src []T, outer, length, inner int) {
	sortLines(outer, length, inner, func(lo, hi int) {
		var sc sortScratch[T]
		for l := lo; l < hi; l++ {
			base := l/inner*length*inner + l%inner
			var line []T
			if inner == 1 {
				line = src[base : base+length]
			} else {
				line = sc.line(length)
				for k := range line {
					line[k] = src[base+k*inner]
				}
			}
			perm := sc.perm(length)
			sc.argsort(line, perm)
			if inner == 1 {
				copy(idx[base:base+length], perm)
				continue
			}
			for k, p := range perm {
				idx[base+k*inner] = p
			}
		}
	})
}

// sortLines calls f with ranges of the outer × inner lines, on several
// goroutines when there is more than one line and the work reaches
// ParallelThreshold.
func sortLines(outer, length, inner int, f func(lo, hi int)) {
	lines := outer * inner
	if lines == 0 || length == 0 {
		return
	}
	workers := 1
	if lines > 1 && lines*length >= ParallelThreshold {
		workers = min(runtime.GOMAXPROCS(0), lines)
	}
	if workers == 1 {
		f(0, lines)
		return
	}
	par.Do(workers, func(k int) { f(lines*k/workers, lines*(k+1)/workers) })
}

// sortScratch holds one goroutine's buffers, grown as lines need.
type sortScratch[T tensor.Number] struct {
	buf, nans, zeros []T
	keys, keys2      []uint64
	pos, nanAt, pos2 []int64
	pairs            []sortPair[T]
}

// sortPair is an element of a line with its position, for argsort.
type sortPair[T tensor.Number] struct {
	v T
	i int64
}

func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

func (sc *sortScratch[T]) line(n int) []T     { sc.buf = grow(sc.buf, n); return sc.buf }
func (sc *sortScratch[T]) perm(n int) []int64 { sc.pos = grow(sc.pos, n); return sc.pos }

// setNaNsApart moves v's NaNs to its end, in their order, and returns the
// number of other elements, which keep their order at the front.
func (sc *sortScratch[T]) setNaNsApart(v []T) int {
	if !tensor.IsFloat[T]() {
		return len(v)
	}
	first := slices.IndexFunc(v, func(x T) bool { return x != x })
	if first < 0 {
		return len(v) // no NaN: nothing moves (one read-only pass)
	}
	sc.nans = sc.nans[:0]
	m := first
	for _, x := range v[first:] {
		if x != x {
			sc.nans = append(sc.nans, x)
			continue
		}
		v[m] = x
		m++
	}
	copy(v[m:], sc.nans)
	return m
}

// sortValues sorts v (see above).
func (sc *sortScratch[T]) sortValues(v []T) {
	v = v[:sc.setNaNsApart(v)]
	if len(v) <= insertionMax {
		insertionSort(v)
		return
	}
	mixed := sc.noteZeros(v)
	if len(v) < radixFrom {
		slices.Sort(v)
	} else {
		sc.radixValues(v)
	}
	if mixed {
		start, _ := slices.BinarySearch(v, 0) // the first element >= 0: -0 is one
		copy(v[start:], sc.zeros)
	}
}

// noteZeros records, for a float line with zeros of both signs, its zeros
// in their order, and reports whether it did.
func (sc *sortScratch[T]) noteZeros(v []T) bool {
	if !tensor.IsFloat[T]() {
		return false
	}
	neg, pos := false, false
	for _, x := range v {
		if x == 0 {
			if math.Signbit(float64(x)) {
				neg = true
			} else {
				pos = true
			}
		}
	}
	if !neg || !pos {
		return false
	}
	sc.zeros = sc.zeros[:0]
	for _, x := range v {
		if x == 0 {
			sc.zeros = append(sc.zeros, x)
		}
	}
	return true
}

// insertionSort sorts v stably (v holds no NaN).
func insertionSort[T tensor.Number](v []T) {
	for i := 1; i < len(v); i++ {
		x := v[i]
		j := i
		for j > 0 && x < v[j-1] {
			v[j] = v[j-1]
			j--
		}
		v[j] = x
	}
}

// argsort writes into perm the positions of line's elements in sorted
// order, ties by position.
func (sc *sortScratch[T]) argsort(line []T, perm []int64) {
	n := len(line)
	m := 0
	var nanAt []int64
	if tensor.IsFloat[T]() {
		sc.nanAt = sc.nanAt[:0]
		for i, x := range line {
			if x != x {
				sc.nanAt = append(sc.nanAt, int64(i))
			}
		}
		nanAt = sc.nanAt
	}
	m = n - len(nanAt)
	switch {
	case m >= radixFrom:
		sc.radixPositions(line, perm[:m])
	default:
		sc.pairs = grow(sc.pairs, m)
		k := 0
		for i, x := range line {
			if x == x {
				sc.pairs[k] = sortPair[T]{x, int64(i)}
				k++
			}
		}
		p := sc.pairs
		if m <= insertionMax {
			for i := 1; i < m; i++ {
				x := p[i]
				j := i
				for j > 0 && x.v < p[j-1].v {
					p[j] = p[j-1]
					j--
				}
				p[j] = x
			}
		} else {
			slices.SortFunc(p, func(a, b sortPair[T]) int {
				switch {
				case a.v < b.v:
					return -1
				case b.v < a.v:
					return 1
				}
				return int(a.i - b.i) // positions: no overflow
			})
		}
		for i, q := range p {
			perm[i] = q.i
		}
	}
	copy(perm[m:], nanAt)
}

// radixBits is the width of a radix digit; radixPasses digits cover a key.
const (
	radixBits   = 11
	radixSize   = 1 << radixBits
	radixPasses = (64 + radixBits - 1) / radixBits
)

// keyKind says how sortKey maps an element type's values to keys.
type keyKind uint8

const (
	keyUnsigned keyKind = iota
	keySigned
	keyFloat
)

func kindOf[T tensor.Number]() keyKind {
	switch {
	case tensor.IsFloat[T]():
		return keyFloat
	case T(0)-1 < 0:
		return keySigned
	}
	return keyUnsigned
}

// sortKey maps v to a key whose unsigned order is v's order (v not NaN;
// -0 before +0).
func sortKey[T tensor.Number](kind keyKind, v T) uint64 {
	switch kind {
	case keyFloat:
		b := math.Float64bits(float64(v))
		if b>>63 != 0 {
			return ^b
		}
		return b | 1<<63
	case keySigned:
		return uint64(int64(v)) ^ 1<<63
	}
	return uint64(v)
}

// fromKey is sortKey's inverse.
func fromKey[T tensor.Number](kind keyKind, k uint64) T {
	switch kind {
	case keyFloat:
		if k>>63 != 0 {
			return T(math.Float64frombits(k &^ (1 << 63)))
		}
		return T(math.Float64frombits(^k))
	case keySigned:
		return T(int64(k ^ 1<<63))
	}
	return T(k)
}

// radixValues sorts v (no NaN) by its keys.
func (sc *sortScratch[T]) radixValues(v []T) {
	kind := kindOf[T]()
	sc.keys, sc.keys2 = grow(sc.keys, len(v)), grow(sc.keys2, len(v))
	for i, x := range v {
		sc.keys[i] = sortKey(kind, x)
	}
	keys, _ := radixSort(sc.keys, sc.keys2, nil, nil)
	for i, k := range keys {
		v[i] = fromKey[T](kind, k)
	}
}

// radixPositions writes into perm the positions of line's numbers (its
// NaNs left out) in sorted order, -0 and +0 equal, ties by position.
func (sc *sortScratch[T]) radixPositions(line []T, perm []int64) {
	kind := kindOf[T]()
	m := len(perm)
	sc.keys, sc.keys2 = grow(sc.keys, m), grow(sc.keys2, m)
	sc.pos2 = grow(sc.pos2, m)
	k := 0
	for i, x := range line {
		if x != x {
			continue
		}
		if x == 0 {
			x = 0 // -0's key is +0's: they compare equal
		}
		sc.keys[k] = sortKey(kind, x)
		perm[k] = int64(i)
		k++
	}
	_, out := radixSort(sc.keys, sc.keys2, perm, sc.pos2)
	copy(perm, out)
}

// radixSort sorts keys (with the payload pos, if not nil, moved along),
// stably, using tmp and tmpPos as the other buffers; it returns the
// buffers holding the result.
func radixSort(keys, tmp []uint64, pos, tmpPos []int64) ([]uint64, []int64) {
	var counts [radixPasses][radixSize]int
	for _, k := range keys {
		for p := range radixPasses {
			counts[p][(k>>(p*radixBits))&(radixSize-1)]++
		}
	}
	n := len(keys)
	for p := range radixPasses {
		c := &counts[p]
		shift := uint(p * radixBits)
		if c[(keys[0]>>shift)&(radixSize-1)] == n {
			continue // one digit for every key: the pass would move nothing
		}
		sum := 0
		for d, x := range c {
			c[d] = sum
			sum += x
		}
		if pos == nil {
			for _, k := range keys {
				d := (k >> shift) & (radixSize - 1)
				tmp[c[d]] = k
				c[d]++
			}
		} else {
			for i, k := range keys {
				d := (k >> shift) & (radixSize - 1)
				tmp[c[d]] = k
				tmpPos[c[d]] = pos[i]
				c[d]++
			}
			pos, tmpPos = tmpPos, pos
		}
		keys, tmp = tmp, keys
	}
	return keys, pos
}
