package cpu

import (
	"runtime"

	"github.com/laze-go/laze/kernels/internal/par"
	"github.com/laze-go/laze/tensor"
)

// SearchSorted writes into idx, for each element x of v, the position at
// which x would be inserted into a (sorted in expr.SortLess's order: NaNs
// last) to keep it sorted, as numpy.searchsorted: with right false the
// first i such that !(a[i] < x), with right set the first i such that
// x < a[i], len(a) when there is none. The elements of v are shared among
// goroutines above ParallelThreshold (each search is log(len(a)) steps).
func SearchSorted[T tensor.Number](idx []int64, a, v []T, right bool) {
	n := len(v)
	if n == 0 {
		return
	}
	search := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			idx[k] = int64(searchOne(a, v[k], right))
		}
	}
	workers := 1
	if n >= ParallelThreshold/16 {
		workers = min(runtime.GOMAXPROCS(0), n)
	}
	if workers == 1 {
		search(0, n)
		return
	}
	par.Do(workers, func(k int) { search(n*k/workers, n*(k+1)/workers) })
}

// searchOne is the binary search of sort.Search, with the NaN-last order.
func searchOne[T tensor.Number](a []T, x T, right bool) int {
	lo, hi := 0, len(a)
	xnan := x != x
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := a[m]
		var after bool // x goes before a[m]: the predicate holds at m
		if right {
			after = x < e || (!xnan && e != e) // SortLess(x, e)
		} else {
			after = !(e < x || (xnan && e == e)) // !SortLess(e, x)
		}
		if after {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}
