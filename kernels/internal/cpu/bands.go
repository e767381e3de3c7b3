package cpu

import (
	"runtime"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/par"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Running steps in bands of rows. A call whose steps each walk the same
// iteration shape and keep to their own rows (softmax: the row maxima, the
// row sums of exp(x - max) stored into the destination, the division;
// layer norm: the means, the variances, the normalising pass) would, run
// step after step, stream every operand from memory once per step: three
// passes over softmax's 16 MB of logits. Run instead band by band, a few
// rows through every step before the next rows, the band's operands stay in
// the core's cache between the steps and memory is read once. Each
// goroutine takes its share of the rows through all the steps, so the
// steps also need no synchronisation between them.
//
// A group is consecutive CPU steps whose programs share one iteration shape
// of rank 2 or more, walk it row by row (no tiling), read no operand through
// a conversion, compute no product first and are not arg reductions; a
// reduction folds along the last axis only. The group may only touch memory
// that one of its steps writes the way that step writes it: every operand of
// the group whose addresses overlap a written operand's visits the same
// addresses at every point of the walk (same address at the origin, same
// strides), and a written operand's rows are disjoint. Then row g of every
// step reads only values that row g of an earlier step wrote, and each
// row's steps run in order: the results are the step-by-step ones, bit for
// bit (the folds' order within a row does not change).

// BandOff turns banding off, for the tests that compare both ways.
var BandOff atomic.Bool

// BandGroupsRun counts the groups run in bands, for the tests.
var BandGroupsRun atomic.Int64

// BandBytes is the memory one full-width operand of a band spans: a band
// has as many rows as fit in it (at least one). BenchmarkBandBytes chose
// it: on the AVX2 EPYC (1 MiB of L2 per core) softmax over 4096×1000
// float32 takes 4.23 ms with 256 KiB, 4.67 ms with 32 KiB and 4.40 ms
// step by step on one thread; 2.19, 2.52 and 2.55 ms on two.
var BandBytes = 256 << 10

// Bander is a pass as banding sees it (Band returns one; pass[T] implements it
// for every T).
type Bander interface {
	// bandShape returns the program's iteration shape and whether it can
	// take part in a group at all.
	bandShape() (shape.Shape, bool)
	// accesses appends the program's operands in memory.
	accesses(to []bandAccess) []bandAccess
	// rowBytes is the memory of one row of the widest operand.
	rowBytes() int
	// work is the program's amount of work, as run weighs it.
	work() int
	// startRows prepares the program to run on one goroutine and returns
	// run, which runs it over rows [g0, g1) of its shape's outer dimensions
	// (flattened), folding a reduction into its main accumulators and
	// finishing them, and stop, which gives back what it took.
	startRows() (run func(g0, g1 int), stop func())
}

// bandAccess is one operand of a program in memory, in bytes: the address
// of its element at the origin of the iteration, its element size, its
// strides along every dimension of the iteration shape, and the span of
// addresses the whole walk touches. Two tensors over one Go slice (Wrap
// twice) are two storages: addresses, not storages, say what overlaps.
type bandAccess struct {
	start   uintptr
	size    uintptr
	strides []int // bytes
	lo, hi  uintptr
	written bool
}

// newBandAccess describes an operand whose origin element is at start,
// walked with strides (in elements) over dims.
func newBandAccess(start, size uintptr, strides []int, dims shape.Shape, written bool) bandAccess {
	a := bandAccess{start: start, size: size, strides: make([]int, len(strides)), lo: start, hi: start + size, written: written}
	for d, s := range strides {
		a.strides[d] = s * int(size)
		if dims[d] > 1 {
			reach := a.strides[d] * (dims[d] - 1)
			if reach < 0 {
				a.lo -= uintptr(-reach)
			} else {
				a.hi += uintptr(reach)
			}
		}
	}
	return a
}

// overlaps reports whether a and b touch a common byte.
func (a bandAccess) overlaps(b bandAccess) bool { return a.lo < b.hi && b.lo < a.hi }

// sameWalk reports whether a and b visit the same elements at every point
// of the iteration over dims.
func (a bandAccess) sameWalk(b bandAccess, dims shape.Shape) bool {
	if a.start != b.start || a.size != b.size {
		return false
	}
	for d, n := range dims {
		if n > 1 && a.strides[d] != b.strides[d] {
			return false
		}
	}
	return true
}

// rowsDisjoint reports whether the rows of a written operand (the
// iteration's outer indices) touch disjoint memory: sorted by their
// strides, each outer dimension steps past everything the dimensions
// inside it reach.
func (a bandAccess) rowsDisjoint(dims shape.Shape) bool {
	last := len(dims) - 1
	extent := int(a.size)
	if dims[last] > 1 {
		extent += abs(a.strides[last]) * (dims[last] - 1)
	}
	var outer []int
	for d := range last {
		if dims[d] > 1 {
			outer = append(outer, d)
		}
	}
	slices.SortFunc(outer, func(x, y int) int { return abs(a.strides[x]) - abs(a.strides[y]) })
	for _, d := range outer {
		if abs(a.strides[d]) < extent {
			return false
		}
		extent += abs(a.strides[d]) * (dims[d] - 1)
	}
	return true
}

// rowsKeepApart reports whether the accesses of a group over iteration
// shape dims read written memory only where the same point of the walk
// writes it (so only at the rows that wrote it), and write disjoint rows.
func rowsKeepApart(dims shape.Shape, acc []bandAccess) bool {
	for _, w := range acc {
		if !w.written {
			continue
		}
		if !w.rowsDisjoint(dims) {
			return false
		}
		for _, a := range acc {
			if a.overlaps(w) && !a.sameWalk(w, dims) {
				return false
			}
		}
	}
	return true
}

// Group is the passes of a group of steps, in order.
type Group []Bander

// rows is the number of rows of the group's iteration shape (its outer
// dimensions flattened).
func (g Group) rows() int {
	dims, _ := g[0].bandShape()
	rows := 1
	for _, n := range dims[:len(dims)-1] {
		rows *= n
	}
	return rows
}

// BandRows is how many rows a band has: as many as fit in BandBytes of the
// widest operand's rows, at least one.
func (g Group) BandRows() int {
	widest := 1
	for _, b := range g {
		widest = max(widest, b.rowBytes())
	}
	return max(1, BandBytes/widest)
}

// workers is the number of goroutines the group's rows are shared among:
// one below the parallel threshold of work (all steps together).
func (g Group) workers() int {
	work := 0
	for _, b := range g {
		work += b.work()
	}
	if work < ParallelThreshold {
		return 1
	}
	band := g.BandRows()
	return min(runtime.GOMAXPROCS(0), (g.rows()+band-1)/band)
}

// Mode says, for Explain, how the group's rows are shared.
func (g Group) Mode() string {
	if g.workers() == 1 {
		return "one goroutine"
	}
	return "the rows split among up to GOMAXPROCS goroutines"
}

// Run runs the group band by band, the rows shared among its goroutines.
func (g Group) Run() {
	BandGroupsRun.Add(1)
	rows, band, workers := g.rows(), g.BandRows(), g.workers()
	par.Do(workers, func(k int) {
		runs := make([]func(g0, g1 int), len(g))
		for i, b := range g {
			run, stop := b.startRows()
			defer stop()
			runs[i] = run
		}
		lo, hi := rows*k/workers, rows*(k+1)/workers
		for r := lo; r < hi; r += band {
			for _, run := range runs {
				run(r, min(r+band, hi))
			}
		}
	})
}

func (p *pass[T]) bandShape() (shape.Shape, bool) {
	last := len(p.Shape) - 1
	if last < 1 || p.Shape[last] == 0 || p.First != nil {
		return nil, false
	}
	for _, c := range p.Convert {
		if c != nil {
			return nil, false
		}
	}
	if p.walkShape().groupRows != 1 {
		return nil, false
	}
	if p.Red != nil {
		if p.Red.Def.Arg || p.Strides[0][last] != 0 {
			return nil, false
		}
		for _, s := range p.Strides[0][:last] {
			if s == 0 {
				return nil, false // folds across rows
			}
		}
	}
	return p.Shape, true
}

func (p *pass[T]) accesses(to []bandAccess) []bandAccess {
	size := unsafe.Sizeof(*new(T))
	for k, data := range p.Data {
		if data == nil {
			continue // the arg reductions' positions: not memory
		}
		written := k == 0
		for _, o := range p.Outs {
			written = written || o.Operand == k
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(data))) + uintptr(p.Offsets[k])*size
		to = append(to, newBandAccess(start, size, p.Strides[k], p.Shape, written))
	}
	return to
}

func (p *pass[T]) rowBytes() int {
	return p.Shape[len(p.Shape)-1] * int(unsafe.Sizeof(*new(T)))
}

func (p *pass[T]) work() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n * p.cost()
}

func (p *pass[T]) startRows() (run func(g0, g1 int), stop func()) {
	wk := p.walkShape()
	acc := p.red().mainAccumulator()
	if p.foldsRows(wk) {
		return func(g0, g1 int) {
			p.foldRows(wk, g0*wk.perRow, g1*wk.perRow, acc)
			p.red().finishRows(p, g0, g1)
		}, func() {}
	}
	w := getWorker[T](p)
	w.acc = acc
	return func(g0, g1 int) {
		p.runItems(w, wk, g0*wk.perRow, g1*wk.perRow)
		if p.Red != nil {
			p.red().finishRows(p, g0, g1)
		}
	}, func() { putWorker(w) }
}

// finishRows is finish for the accumulators of rows [g0, g1) of p's outer
// dimensions, a reduction along the last axis only (one accumulator per
// row).
func (r *reduction[T]) finishRows(p *pass[T], g0, g1 int) {
	outer := p.Shape[:len(p.Shape)-1]
	for g := g0; g < g1; g++ {
		r.finishAt(p.Offsets[0] + shape.FlatOffset(g, outer, p.Strides[0]))
	}
}

// Band returns p as banding sees it.
func Band[T tensor.Number](p *ir.Pass[T]) Bander { return (*pass[T])(p) }

// GroupEnd returns the end of the group of steps starting at step i of n,
// or i+1 when step i starts none; member(k) is step k's pass, nil when the
// step cannot be in a group.
func GroupEnd(n, i int, member func(k int) Bander) int {
	if BandOff.Load() || i+1 == n {
		return i + 1 // a last step groups with nothing: no accesses to describe
	}
	first := bandable(member(i))
	if first == nil {
		return i + 1
	}
	dims, _ := first.bandShape()
	acc := first.accesses(nil)
	j := i + 1
	for ; j < n; j++ {
		b := bandable(member(j))
		if b == nil {
			break
		}
		if d, _ := b.bandShape(); !d.Equal(dims) {
			break
		}
		next := b.accesses(acc)
		if !rowsKeepApart(dims, next) {
			break
		}
		acc = next
	}
	return j
}

// bandable returns b when it can take part in a group, else nil.
func bandable(b Bander) Bander {
	if b == nil {
		return nil
	}
	if _, ok := b.bandShape(); !ok {
		return nil
	}
	return b
}

// NewGroup returns the group of steps [i, j) that GroupEnd found;
// member(k) is step k's pass.
func NewGroup(i, j int, member func(k int) Bander) Group {
	g := make(Group, 0, j-i)
	for k := i; k < j; k++ {
		g = append(g, member(k))
	}
	return g
}
