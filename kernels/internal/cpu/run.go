package cpu

import (
	"runtime"
	"unsafe"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/kernels/internal/par"
)

// BlockSize is the number of elements of the innermost dimension an
// instruction handles at once; docs/performance.md has the measurement that
// chose it (BenchmarkBlockSize).
var BlockSize = 1024

// ParallelThreshold is the amount of work from which Assign shares it among
// GOMAXPROCS goroutines (kernels/internal/par's pool). Work is elements times the program's cost per
// element (the ops' Cost from the op table, plus one per gathered leaf and
// one for the store), so a tree of eight adds goes parallel from 58K
// elements and a single tanh from about 30K. docs/performance.md has the
// measurement (BenchmarkThreshold).
var ParallelThreshold = 1 << 19

// TileRows is how many rows a tile spans when some operand is read across
// its rows (a transpose): the rows of a tile are walked block by block, so
// each cache line of the transposed operand serves all of them before it is
// evicted. TileBlock is the block length of such a walk: a tile of 64 rows
// by 512 elements reads 512-byte runs of the transposed operand's rows
// from memory, each line serving 8 rows of the tile from L1 or L2 (against
// 16 × 1024 before: 30% faster at 3162²). docs/performance.md has the
// measurement (BenchmarkTileRows).
var (
	TileRows  = 64
	TileBlock = 512
)

// StreamBlock is the block length of a program that streams from memory:
// one of more than one pass per block (an instruction writes a register)
// whose operands do not fit in the last-level cache. Short blocks keep every
// operand's stream moving nearly together, as a hand-written loop does, which
// the hardware prefetchers follow; long ones leave each stream idle for most
// of a block. docs/performance.md has the measurement (BenchmarkBlockSize):
// a three-pass tree at 1e7 on the AMD EPYC host runs 1.26× slower with
// 1024; from L2 or L3 the long blocks' lower overhead wins. That was
// measured with the scalar loops: the lane loops (lanes_amd64.go) compute a
// block four to eight times faster, so the per-block costs weigh more and
// they stream in blocks of LaneStreamBlock: 512, where layer norm + GELU
// over 4096×1024 float32 runs 1.75× faster than with 128 and a three-pass
// comparison at 1e7 1.4× (bench/, AMD EPYC, AVX2).
var (
	StreamBlock     = 128
	LaneStreamBlock = 512
)

// StreamBlockFor returns the stream block length of the loops the selected
// ISA level runs.
func StreamBlockFor() *int {
	if loops.LanesOn() {
		return &LaneStreamBlock
	}
	return &StreamBlock
}

// PassBlock is the block length of a program that writes no register: one
// pass per block, reading its operands in place and writing the
// destination, so a block needs no scratch memory and a longer one only
// saves the per-block costs: poly4, fused into one pass, runs 1.25× slower
// at 1e6 with 1024 than with 4096, and no longer block is faster beyond
// noise (docs/performance.md, BenchmarkBlockSize). 4096 also leaves many
// blocks per goroutine for the parallel split.
var PassBlock = 4096

// execute writes the program's result: the product computed straight into
// the destination first, if any, then the pass; or the two at once, the pass
// run tile by tile from the product's epilogue, where runFused can.
func (p *pass[T]) execute() {
	if p.runFused() {
		return
	}
	if f := p.First; f != nil {
		multiply(f.C, f.A, f.B)
	}
	if !p.Noop {
		p.run()
	}
}

// run executes the program over the whole destination. The walk is cut into
// work items: a block of the innermost dimension across a group of rows (one
// row, or TileRows when tiling), items numbered plane by plane (a plane is
// one index of the dimensions outside the last two), group by group, block
// by block. The goroutines of a reduction fold into accumulators of their
// own, merged at the end.
func (p *pass[T]) run() {
	last := len(p.Shape) - 1
	inner := p.Shape[last]
	if inner == 0 {
		return
	}
	w := p.walkShape()
	total := w.planes * w.perPlane()
	workers := p.goroutines(w, total)
	if workers < 2 {
		p.runRange(w, 0, total, p.red().mainAccumulator())
		return
	}
	accs := p.red().accumulators(workers)
	par.Do(workers, func(k int) { p.runRange(w, total*k/workers, total*(k+1)/workers, accs[k]) })
	p.red().merge(accs)
}

// goroutines is the number of goroutines that run p, walked as w, split into
// at most pieces: 1 under ParallelThreshold, else up to GOMAXPROCS.
func (p *pass[T]) goroutines(w walk, pieces int) int {
	if w.planes*w.rows*p.Shape[len(p.Shape)-1]*p.cost() < ParallelThreshold {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), pieces)
}

// rowsApart reports whether p, walked as w, is a reduction whose rows fold
// into accumulators of their own: along the last axis only (the
// accumulators' stride is 0 there and nowhere else), not tiled, over a
// non-empty last axis.
func (p *pass[T]) rowsApart(w walk) bool {
	last := len(p.Shape) - 1
	if p.Red == nil || last < 0 || p.Shape[last] == 0 || w.groupRows != 1 || p.Strides[0][last] != 0 {
		return false
	}
	for d, s := range p.Strides[0][:last] {
		if s == 0 && p.Shape[d] > 1 {
			return false // folds across rows
		}
	}
	return true
}

// minRowsApart is the fewest rows per goroutine for which runRowsApart
// splits rows: with fewer, rows of unequal cost (or a single row, a full
// reduction coalesced to rank 1) would leave goroutines idle, and the
// work items are split instead.
const minRowsApart = 2

// runRowsApart runs and finishes a reduction whose rows fold apart
// (rowsApart) over at least minRowsApart rows per goroutine, and reports
// false, running nothing, for another program. Its goroutines split the
// rows, not the blocks: each folds its rows into the main accumulators and
// finishes them, so none needs accumulators of its own, nothing is
// merged, and the result has the bits one goroutine gives.
func (p *pass[T]) runRowsApart() bool {
	w := p.walkShape()
	if !p.rowsApart(w) {
		return false
	}
	rows := w.planes * w.groups()
	workers := p.goroutines(w, w.planes*w.perPlane())
	if workers > 1 && rows < minRowsApart*workers {
		return false // too few rows to share: the work items are (Sum of a vector: one row)
	}
	acc := p.red().mainAccumulator()
	fold := func(g0, g1 int) { p.foldFinishRows(w, g0, g1, acc) }
	if workers < 2 {
		fold(0, rows)
		return true
	}
	par.Do(workers, func(k int) { fold(rows*k/workers, rows*(k+1)/workers) })
	return true
}

// walk is the division of the iteration space into work items.
type walk struct {
	planes    int  // product of the dimensions outside the last two
	rows      int  // size of the second-to-last dimension (1 for rank 1)
	groupRows int  // rows per group: 1, or TileRows when tiling
	perRow    int  // blocks per row
	block     int  // elements per block: BlockSize; min(TileBlock, BlockSize) when tiling; PassBlock or StreamBlock (see walkShape)
	shared    bool // every row has the same values (rowsShare): a group's block is computed for its first row and stored into the others
}

func (w walk) groups() int   { return (w.rows + w.groupRows - 1) / w.groupRows }
func (w walk) perPlane() int { return w.groups() * w.perRow }

// walkShape divides p's iteration space, tiling when an operand is read
// across rows: its innermost stride is neither 0 nor 1 and its stride along
// the rows is smaller.
func (p *pass[T]) walkShape() walk {
	last := len(p.Shape) - 1
	w := walk{planes: 1, rows: 1, groupRows: 1, block: BlockSize}
	if last > 0 {
		w.rows = p.Shape[last-1]
		for _, n := range p.Shape[:last-1] {
			w.planes *= n
		}
		for _, st := range p.Strides {
			if inner, across := abs(st[last]), abs(st[last-1]); inner > 1 && across < inner {
				w.groupRows, w.block = TileRows, min(TileBlock, BlockSize)
			}
		}
	}
	if w.shared = p.rowsShare(); w.shared && w.groupRows == 1 {
		w.groupRows = TileRows
	}
	switch {
	case w.groupRows > 1 && !w.shared:
	case p.Regs == 0 && p.Red == nil:
		w.block = PassBlock
	case p.streamsFromMemory(w) || p.Red == nil && p.gathers():
		w.block = min(*StreamBlockFor(), BlockSize)
	}
	w.perRow = (p.Shape[last] + w.block - 1) / w.block
	return w
}

// streamsFromMemory reports whether p, walked as w, makes more than one
// pass per block over operands larger than the last-level cache. A
// reduction keeps its block length, so that its folding order does not
// depend on the machine.
func (p *pass[T]) streamsFromMemory(w walk) bool {
	if p.Red != nil || p.Regs == 0 || len(p.Code) < 2 {
		return false
	}
	elems := w.planes * w.rows * p.Shape[len(p.Shape)-1]
	bytes := elems * len(p.Data) * int(unsafe.Sizeof(*new(T)))
	return bytes > LastLevelCache()
}

// rowsShare reports whether every row of p's walk has the same values: an
// assignment writing one destination whose every input has stride 0
// along the rows (a broadcast along them: a row vector's, Repeat's along
// the last axis, walked with the copies as rows). The walk then groups
// rows (TileRows) and computes each block once per group.
func (p *pass[T]) rowsShare() bool {
	last := len(p.Shape) - 1
	if last < 1 || p.Red != nil || len(p.Outs) > 0 || p.Noop || p.Shape[last-1] < 2 {
		return false
	}
	for _, st := range p.Strides[1:] {
		if st[last-1] != 0 {
			return false
		}
	}
	return true
}

// gathers reports whether some operand of p is read with an innermost
// stride other than 0 and 1 (a flip, a diagonal, a step): each block
// gathers it into a register first, one more pass over the block, and the
// register, the operands and the destination of a BlockSize block no longer
// fit in L1 together. Flip + add at 1e6 float64 took 2.0× the time of the
// plain add in blocks of 1024 and 1.17× in blocks of 512 (AMD EPYC,
// docs/performance.md). A reduction keeps its block length (see
// streamsFromMemory).
func (p *pass[T]) gathers() bool {
	last := len(p.Shape) - 1
	for _, st := range p.Strides[1:] {
		if s := st[last]; s != 0 && s != 1 {
			return true
		}
	}
	return false
}

// runRange executes work items [start, end), folding into acc for a
// reduction. The item's place (plane, group of rows, block) is found by
// division once, then advanced by counting (itemCursor): a division per
// item costs as much as folding a short row.
func (p *pass[T]) runRange(wk walk, start, end int, acc *ir.Accumulator[T]) {
	if start >= end {
		return
	}
	if p.foldsRows(wk) {
		p.foldRows(wk, start, end, acc)
		return
	}
	w := getWorker[T](p)
	w.acc = acc
	defer putWorker(w)
	p.runItems(w, wk, start, end)
}

// runItems is runRange on worker w.
func (p *pass[T]) runItems(w *worker[T], wk walk, start, end int) {
	last := len(p.Shape) - 1
	inner := p.Shape[last]
	c := newItemCursor(wk, start)
	w.seekPlane(p, c.plane)
	for item := start; item < end; item++ {
		j := c.blk * wk.block
		n := min(wk.block, inner-j)
		first, stop := c.group*wk.groupRows, min((c.group+1)*wk.groupRows, wk.rows)
		for r := first; r < stop; r++ {
			for k, off := range w.planeOffsets {
				w.blockOffsets[k] = off + j*p.Strides[k][last]
				if last > 0 {
					w.blockOffsets[k] += r * p.Strides[k][last-1]
				}
			}
			switch {
			case wk.shared && r > first: // the group's first row computed the block
				p.storeResult(w, n)
			case wk.shared && p.interleaves(stop-first):
				p.compute(w, n)
				loops.StoreInterleaved(p.Data[0], w.blockOffsets[0], n, stop-first, w.vals[p.Result])
				r = stop
			default:
				p.block(w, n)
			}
		}
		if c.next() && item+1 < end {
			w.seekPlane(p, c.plane)
		}
	}
}

// itemCursor is a work item's place in a walk: its plane, its group of
// rows and its block within the row (and the walk's counts of those).
type itemCursor struct{ plane, group, blk, groups, perRow int }

func newItemCursor(wk walk, item int) itemCursor {
	perPlane := wk.perPlane()
	rem := item % perPlane
	return itemCursor{plane: item / perPlane, group: rem / wk.perRow, blk: rem % wk.perRow, groups: wk.groups(), perRow: wk.perRow}
}

// next moves to the following item and reports whether it starts a new
// plane.
func (c *itemCursor) next() bool {
	if c.blk++; c.blk < c.perRow {
		return false
	}
	c.blk = 0
	if c.group++; c.group < c.groups {
		return false
	}
	c.group = 0
	c.plane++
	return true
}

// foldsRows reports whether p is a plain reduction of one tensor along its
// inner axis: no instruction, one leaf read in place at inner stride 1,
// one accumulator per row, no tiling. foldRows then runs it.
func (p *pass[T]) foldsRows(wk walk) bool {
	last := len(p.Shape) - 1
	return p.Red != nil && !p.Red.Def.Arg && len(p.Code) == 0 && len(p.LeafSlot) == 1 && len(p.Data) == 2 &&
		p.Convert[0] == nil && p.Result == p.LeafSlot[0] && !p.Scalar && wk.groupRows == 1 &&
		p.Strides[1][last] == 1 && p.Strides[0][last] == 0
}

// foldFinishRows folds rows [g0, g1) of p, a reduction whose rows fold
// apart (rowsApart), into acc and finishes them: runRange then finishRows.
// Where foldRows runs the program and a row is one block, each row's value
// is combined with its accumulator's start and finished at once, which
// are the bits of the two calls: the compensation of a sum of one value
// stays zero (or NaN, beside an infinite sum, which finishing ignores).
func (p *pass[T]) foldFinishRows(wk walk, g0, g1 int, acc *ir.Accumulator[T]) {
	if !p.foldsRows(wk) || wk.perRow != 1 {
		p.runRange(wk, g0*wk.perRow, g1*wk.perRow, acc)
		p.red().finishRows(p, g0, g1)
		return
	}
	last := len(p.Shape) - 1
	inner, data, def := p.Shape[last], p.Data[1], p.Red.Def
	start, count := ops.Start[T](def.Identity), T(p.Red.Count)
	c := newItemCursor(wk, g0)
	accBase, xBase := p.planeOffset(0, c.plane), p.planeOffset(1, c.plane)
	for g := g0; g < g1; g++ {
		accOff, xOff := accBase, xBase
		if last > 0 {
			accOff += c.group * p.Strides[0][last-1]
			xOff += c.group * p.Strides[1][last-1]
		}
		v, _ := p.red().foldBlock(data[xOff:xOff+inner], 0, 0)
		v = loops.Combine(def.Combine, start, v)
		if def.Average {
			v /= count
		}
		acc.Vals[accOff] = v
		if c.next() {
			accBase, xBase = p.planeOffset(0, c.plane), p.planeOffset(1, c.plane)
		}
	}
}

// foldRows is runRange for a program foldsRows accepts: each block is
// folded straight from the tensor's memory with the calls fold makes for
// it (foldBlock, combineAt), without a worker or the block's machinery, so
// the bits are fold's.
func (p *pass[T]) foldRows(wk walk, start, end int, acc *ir.Accumulator[T]) {
	last := len(p.Shape) - 1
	inner, data := p.Shape[last], p.Data[1]
	c := newItemCursor(wk, start)
	accBase, xBase := p.planeOffset(0, c.plane), p.planeOffset(1, c.plane)
	for item := start; item < end; item++ {
		j := c.blk * wk.block
		n := min(wk.block, inner-j)
		accOff, xOff := accBase, xBase+j
		if last > 0 {
			accOff += c.group * p.Strides[0][last-1]
			xOff += c.group * p.Strides[1][last-1]
		}
		best, i := p.red().foldBlock(data[xOff:xOff+n], 0, 0)
		p.red().combineAt(acc, accOff, best, i)
		if c.next() {
			accBase, xBase = p.planeOffset(0, c.plane), p.planeOffset(1, c.plane)
		}
	}
}

// compute runs every instruction over one block of n elements whose
// operand offsets are in w.blockOffsets, leaving the value in
// w.vals[p.Result] (and in the destination, for an InPlace pass).
func (p *pass[T]) compute(w *worker[T], n int) {
	last := len(p.Shape) - 1
	vals := w.vals
	for i, s := range p.LeafSlot {
		data, off, stride := p.Data[1+i], w.blockOffsets[1+i], p.Strides[1+i][last]
		conv := p.Convert[i]
		switch {
		case conv != nil && stride == 0:
			vals[s].S = conv.At(off)
		case conv != nil:
			r := w.regs[p.LeafReg[i]][:n]
			conv.Load(r, off, stride)
			vals[s].Vec = r
		case stride == 1:
			vals[s].Vec = data[off : off+n]
		case stride == 0:
			vals[s].S = data[off]
		default:
			r := w.regs[p.LeafReg[i]][:n]
			loops.Gather(r, data, off, stride)
			vals[s].Vec = r
		}
	}
	dst, dstOff := p.Data[0], w.blockOffsets[0]
	for k := range p.Code {
		in := &p.Code[k]
		args := [3]loops.Value[T]{vals[in.Args[0]], vals[in.Args[1]], vals[in.Args[2]]}
		if in.Pat == 0 {
			vals[in.Out].S = ops.Apply(in.Op, args[0].S, args[1].S, args[2].S)
			continue
		}
		var d []T
		switch in.Reg {
		case ir.ToDst:
			d = dst[dstOff : dstOff+n]
		case ir.ToTee:
			o := p.Outs[0].Operand
			d = p.Data[o][w.blockOffsets[o] : w.blockOffsets[o]+n]
		default:
			d = w.regs[in.Reg][:n]
		}
		switch {
		case in.Triple != 0:
			loops.ComputeTriple(in.Triple, d, args[0].Vec, args[1].Vec, args[2].Vec, vals[in.Args[3]].Vec)
		case in.Pair != 0:
			loops.ComputeFused(in.Pair, in.Pat, d, &args)
		default:
			loops.Compute(in.Op, in.Pat, d, &args)
		}
		vals[in.Out].Vec = d
	}
}

// block computes one block of n elements at the operand offsets in
// w.blockOffsets and writes it.
func (p *pass[T]) block(w *worker[T], n int) {
	p.compute(w, n)
	if p.InPlace {
		return
	}
	last := len(p.Shape) - 1
	if !p.TeeInPlace {
		for _, o := range p.Outs {
			loops.Store(p.Data[o.Operand], w.blockOffsets[o.Operand], p.Strides[o.Operand][last], n, o.Scalar, w.vals[o.Slot])
		}
	}
	if p.Red != nil {
		p.fold(w, w.vals[p.Result], n)
		return
	}
	p.storeResult(w, n)
}

// storeResult writes the block's value (computed last, for this row or
// for another row of a shared group) to the destination at
// w.blockOffsets[0].
func (p *pass[T]) storeResult(w *worker[T], n int) {
	last := len(p.Shape) - 1
	loops.Store(p.Data[0], w.blockOffsets[0], p.Strides[0][last], n, p.Scalar, w.vals[p.Result])
}

// interleaves reports whether the rows of a shared group of rows rows
// write one contiguous run of the destination, element j of every row
// side by side (its stride 1 along the rows and rows along the block, as
// Repeat's along the last axis makes): one interleaved store then writes
// them all, not a strided store per row.
func (p *pass[T]) interleaves(rows int) bool {
	last := len(p.Shape) - 1
	st := p.Strides[0]
	return !p.InPlace && !p.Scalar && st[last-1] == 1 && st[last] == rows
}

// cost is the program's rough time per element, in adds.
func (p *pass[T]) cost() int {
	c := 1 + len(p.Outs) // the stores
	for _, in := range p.Code {
		c += in.Op.Cost()
		if in.Pair != 0 {
			c += in.Op2.Cost()
		}
		if in.Triple != 0 {
			c += in.Op3.Cost()
		}
	}
	for _, r := range p.LeafReg {
		if r >= 0 {
			c++ // a gather or a conversion
		}
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
