package cpu

import (
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
	if need := p.Regs * regWords; cap(mem.words) < need {
		mem.words = make([]uint64, need)
	}
	operands := len(p.Offsets)
	if need := 2 * operands; cap(mem.ints) < need {
		mem.ints = make([]int, need)
	}
	w := &worker[T]{mem: mem, vals: make([]loops.Value[T], p.Slots), regs: make([][]T, p.Regs), pool: p.Workers, block: BlockSize}
	for r := range w.regs {
		base := unsafe.Pointer(&mem.words[r*regWords])
		w.regs[r] = unsafe.Slice((*T)(base), BlockSize)
	}
	ints := mem.ints[:2*operands]
	w.planeOffsets, w.blockOffsets = ints[:operands], ints[operands:]
	w.setConsts(p)
	return w
}

// setConsts loads p's constants into their value slots.
func (w *worker[T]) setConsts(p *pass[T]) {
	for _, c := range p.Consts {
		w.vals[c.Slot].S = c.Value
	}
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
