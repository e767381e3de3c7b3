package kernels

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/laze-go/laze/internal/par"
	"github.com/laze-go/laze/shape"
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
// reduction folds along the last axis only. The group may only read memory
// that one of its steps writes where that step writes it: every operand of
// the group on the storage of a written operand has the written operand's
// offset and row strides, and a written operand's rows are disjoint (no row
// stride 0 where there is more than one row). Then row g of every step reads
// only values that row g of an earlier step wrote, and each row's steps run
// in order: the results are the step-by-step ones, bit for bit (the folds'
// order within a row does not change).

// bandOff turns banding off, for the tests that compare both ways.
var bandOff atomic.Bool

// bandGroupsRun counts the groups run in bands, for the tests.
var bandGroupsRun atomic.Int64

// bandBytes is the memory one full-width operand of a band spans: a band
// has as many rows as fit in it (at least one).
var bandBytes = 32 << 10

// bander is a step's program as banding sees it (program[T] implements it
// for every T).
type bander interface {
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

// bandAccess is one operand of a program in memory: its storage, its
// offset and its strides along the outer dimensions.
type bandAccess struct {
	base    unsafe.Pointer
	offset  int
	outer   []int
	written bool
}

// banded is implemented by the steps that can run in bands.
type banded interface {
	bander() (bander, bool)
}

func (s *assignStep[T]) bander() (bander, bool) { return s.p, s.p.first == nil && !s.p.noop }

func (s *reduceStep[T]) bander() (bander, bool) {
	return s.p, !s.p.red.def.Arg && s.g.Count > 0
}

// bandGroup returns the end of the group of steps starting at steps[i], or
// i+1 when steps[i] starts none.
func bandGroup(steps []step, i int) int {
	if bandOff.Load() {
		return i + 1
	}
	first, ok := bandMember(steps[i])
	if !ok {
		return i + 1
	}
	dims, _ := first.bandShape()
	acc := first.accesses(nil)
	j := i + 1
	for ; j < len(steps); j++ {
		b, ok := bandMember(steps[j])
		if !ok {
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

// bandMember returns s's program when s can be in a group.
func bandMember(s step) (bander, bool) {
	b, ok := s.(banded)
	if !ok {
		return nil, false
	}
	p, ok := b.bander()
	if !ok {
		return nil, false
	}
	if _, ok := p.bandShape(); !ok {
		return nil, false
	}
	return p, true
}

// rowsKeepApart reports whether the accesses of a group over iteration
// shape dims read written memory only at the rows that wrote it, and write
// disjoint rows.
func rowsKeepApart(dims shape.Shape, acc []bandAccess) bool {
	outer := dims[:len(dims)-1]
	for _, w := range acc {
		if !w.written {
			continue
		}
		for d, n := range outer {
			if n > 1 && w.outer[d] == 0 {
				return false
			}
		}
		for _, a := range acc {
			if a.base != w.base {
				continue
			}
			if a.offset != w.offset {
				return false
			}
			for d, n := range outer {
				if n > 1 && a.outer[d] != w.outer[d] {
					return false
				}
			}
		}
	}
	return true
}

// bandGroupOf returns the programs of a group of steps.
func bandGroupOf(steps []step) bandedGroup {
	g := make(bandedGroup, 0, len(steps))
	for _, s := range steps {
		b, _ := bandMember(s)
		g = append(g, b)
	}
	return g
}

// bandedGroup is the programs of a group, in order.
type bandedGroup []bander

// rows is the number of rows of the group's iteration shape (its outer
// dimensions flattened).
func (g bandedGroup) rows() int {
	dims, _ := g[0].bandShape()
	rows := 1
	for _, n := range dims[:len(dims)-1] {
		rows *= n
	}
	return rows
}

// bandRows is how many rows a band has: as many as fit in bandBytes of the
// widest operand's rows, at least one.
func (g bandedGroup) bandRows() int {
	widest := 1
	for _, b := range g {
		widest = max(widest, b.rowBytes())
	}
	return max(1, bandBytes/widest)
}

// workers is the number of goroutines the group's rows are shared among:
// one below the parallel threshold of work (all steps together).
func (g bandedGroup) workers() int {
	work := 0
	for _, b := range g {
		work += b.work()
	}
	if work < parallelThreshold {
		return 1
	}
	band := g.bandRows()
	return min(runtime.GOMAXPROCS(0), (g.rows()+band-1)/band)
}

// mode says, for Explain, how the group's rows are shared.
func (g bandedGroup) mode() string {
	if g.workers() == 1 {
		return "one goroutine"
	}
	return "the rows split among up to GOMAXPROCS goroutines"
}

// run runs the group band by band, the rows shared among its goroutines.
func (g bandedGroup) run() {
	bandGroupsRun.Add(1)
	rows, band, workers := g.rows(), g.bandRows(), g.workers()
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

func (p *program[T]) bandShape() (shape.Shape, bool) {
	last := len(p.shape) - 1
	if last < 1 || p.shape[last] == 0 || p.first != nil {
		return nil, false
	}
	for _, c := range p.convert {
		if c != nil {
			return nil, false
		}
	}
	if p.walkShape().groupRows != 1 {
		return nil, false
	}
	if p.red != nil {
		if p.red.def.Arg || p.strides[0][last] != 0 {
			return nil, false
		}
		for _, s := range p.strides[0][:last] {
			if s == 0 {
				return nil, false // folds across rows
			}
		}
	}
	return p.shape, true
}

func (p *program[T]) accesses(to []bandAccess) []bandAccess {
	last := len(p.shape) - 1
	for k, data := range p.data {
		if data == nil {
			continue // the arg reductions' positions: not memory
		}
		written := k == 0
		for _, o := range p.outs {
			written = written || o.operand == k
		}
		to = append(to, bandAccess{base: unsafe.Pointer(unsafe.SliceData(data)), offset: p.offsets[k],
			outer: p.strides[k][:last], written: written})
	}
	return to
}

func (p *program[T]) rowBytes() int {
	return p.shape[len(p.shape)-1] * int(unsafe.Sizeof(*new(T)))
}

func (p *program[T]) work() int {
	n := 1
	for _, d := range p.shape {
		n *= d
	}
	return n * p.cost()
}

func (p *program[T]) startRows() (run func(g0, g1 int), stop func()) {
	wk := p.walkShape()
	acc := p.red.mainAccumulator()
	if p.foldsRows(wk) {
		return func(g0, g1 int) {
			p.foldRows(wk, g0*wk.perRow, g1*wk.perRow, acc)
			p.red.finishRows(p, g0, g1)
		}, func() {}
	}
	w := getWorker[T](p)
	w.acc = acc
	return func(g0, g1 int) {
		p.runItems(w, wk, g0*wk.perRow, g1*wk.perRow)
		if p.red != nil {
			p.red.finishRows(p, g0, g1)
		}
	}, func() { putWorker(w) }
}

// finishRows is finish for the accumulators of rows [g0, g1) of p's outer
// dimensions, a reduction along the last axis only (one accumulator per
// row).
func (r *reduceState[T]) finishRows(p *program[T], g0, g1 int) {
	outer := p.shape[:len(p.shape)-1]
	for g := g0; g < g1; g++ {
		o, rest := p.offsets[0], g
		for d := len(outer) - 1; d >= 0; d-- {
			o += (rest % outer[d]) * p.strides[0][d]
			rest /= outer[d]
		}
		r.finishAt(o)
	}
}
