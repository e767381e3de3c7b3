package cpu

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/tensor"
)

// worker is one goroutine's state while it runs a program: its registers,
// its value slots and its place in the walk.
type worker[T tensor.Number] struct {
	regs         [][]T
	vals         []loops.Value[T]
	planeOffsets []int              // per operand, at the start of the current plane
	blockOffsets []int              // per operand, at the start of the current block
	acc          *ir.Accumulator[T] // what a reduction folds into; nil for an assignment
	mem          *scratch
	block        int        // BlockSize when the registers were carved
	splats       [][]T      // per constant a fused triple reads, a register holding its value in every element
	splatOf      []int      // the place in p.Consts of each of splats' constants (splatConsts)
	pool         *sync.Pool // the cached plan's pool the worker goes back to, or nil (its scratch goes back to scratchPool)
}

// scratch is the memory of a worker, kept in a pool between Assigns: a
// word-aligned buffer that the registers are carved from, whatever T is.
type scratch struct {
	words []uint64
	ints  []int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getWorker prepares a worker for p: from the program's own pool when it
// is a cached plan's, else from pooled scratch memory.
func getWorker[T tensor.Number](p *pass[T]) *worker[T] {
	if p.Workers != nil {
		w := p.Workers.Get().(*worker[T])
		if w.block != BlockSize { // a test changed BlockSize since the worker was built
			w = newWorker(p, new(scratch))
		}
		w.setConsts(p)
		return w
	}
	return newWorker(p, scratchPool.Get().(*scratch))
}

// keepWorkers gives p a pool of workers of its own, as the plan cache's
// programs have, so that a compiled Program's runs reuse them.
func (p *pass[T]) keepWorkers() {
	if p == nil || p.Workers != nil {
		return
	}
	pool := new(sync.Pool)
	pool.New = func() any { return newWorker(p, new(scratch)) }
	p.Workers = pool
}

// newWorker builds a worker for p's structure over mem.
func newWorker[T tensor.Number](p *pass[T], mem *scratch) *worker[T] {
	size := int(unsafe.Sizeof(*new(T)))
	regWords := (BlockSize*size + 7) / 8
	splatted := p.splatConsts()
	regs := p.Regs + len(splatted)
	if need := regs * regWords; cap(mem.words) < need {
		mem.words = make([]uint64, need)
	}
	operands := len(p.Offsets)
	if need := 2 * operands; cap(mem.ints) < need {
		mem.ints = make([]int, need)
	}
	w := &worker[T]{mem: mem, vals: make([]loops.Value[T], p.Slots), pool: p.Workers, block: BlockSize}
	all := make([][]T, regs)
	for r := range all {
		base := unsafe.Pointer(&mem.words[r*regWords])
		all[r] = unsafe.Slice((*T)(base), BlockSize)
	}
	w.regs, w.splats, w.splatOf = all[:p.Regs], all[p.Regs:], splatted
	ints := mem.ints[:2*operands]
	w.planeOffsets, w.blockOffsets = ints[:operands], ints[operands:]
	w.setConsts(p)
	return w
}

// setConsts loads p's constants into their value slots, and each constant
// a fused triple reads into its register too, as the triple's vector
// operand (the instructions that read the constant as a scalar read S).
func (w *worker[T]) setConsts(p *pass[T]) {
	for _, c := range p.Consts {
		w.vals[c.Slot].S = c.Value
	}
	for k, i := range w.splatOf {
		c := p.Consts[i]
		loops.Fill(w.splats[k], c.Value)
		w.vals[c.Slot].Vec = w.splats[k]
	}
}

// splatConsts lists, by their place in p.Consts, the constants that a fused
// triple reads: its four operands are vectors, so each such constant is
// spread over a register of its own (the lowering fuses a triple over
// vectors and constants only: kernels' vectorsOrConsts).
func (p *pass[T]) splatConsts() []int {
	var out []int
	for i, c := range p.Consts {
		for _, in := range p.Code {
			if in.Triple != 0 && slices.Contains(in.Args[:4], c.Slot) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// putWorker returns a worker's scratch memory to the pool.
func putWorker[T tensor.Number](w *worker[T]) {
	w.acc = nil
	if w.pool != nil {
		w.pool.Put(w)
		return
	}
	scratchPool.Put(w.mem)
}

// seekPlane sets each operand's offset at the start of plane (row-major
// over the dimensions outside the last two).
func (w *worker[T]) seekPlane(p *pass[T], plane int) {
	for k := range w.planeOffsets {
		w.planeOffsets[k] = p.planeOffset(k, plane)
	}
}

// planeOffset is operand k's offset at the start of plane.
func (p *pass[T]) planeOffset(k, plane int) int {
	off := p.Offsets[k]
	for d := len(p.Shape) - 3; d >= 0; d-- {
		off += (plane % p.Shape[d]) * p.Strides[k][d]
		plane /= p.Shape[d]
	}
	return off
}
