package kernels

import (
	"sync"
	"unsafe"

	"github.com/laze-go/laze/tensor"
)

// worker is one goroutine's state while it runs a program: its registers,
// its value slots and its place in the walk.
type worker[T tensor.Number] struct {
	regs         [][]T
	vals         []value[T]
	index        []int // odometer over the outer dimensions
	rowOffsets   []int // per operand, at the start of the current row
	blockOffsets []int // per operand, at the start of the current block
	mem          *scratch
}

// scratch is the memory of a worker, kept in a pool between Assigns: a
// word-aligned buffer that the registers are carved from, whatever T is.
type scratch struct {
	words []uint64
	ints  []int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getWorker prepares a worker for p from pooled scratch memory.
func getWorker[T tensor.Number](p *program[T]) *worker[T] {
	mem := scratchPool.Get().(*scratch)
	size := int(unsafe.Sizeof(*new(T)))
	regWords := (blockSize*size + 7) / 8
	if need := p.nregs * regWords; cap(mem.words) < need {
		mem.words = make([]uint64, need)
	}
	operands := len(p.data)
	outer := len(p.shape) - 1
	if need := 2*operands + outer; cap(mem.ints) < need {
		mem.ints = make([]int, need)
	}
	w := &worker[T]{mem: mem, vals: make([]value[T], p.nslots), regs: make([][]T, p.nregs)}
	for r := range w.regs {
		base := unsafe.Pointer(&mem.words[r*regWords])
		w.regs[r] = unsafe.Slice((*T)(base), blockSize)
	}
	ints := mem.ints[:2*operands+outer]
	w.rowOffsets, w.blockOffsets, w.index = ints[:operands], ints[operands:2*operands], ints[2*operands:]
	for _, c := range p.consts {
		w.vals[c.slot].s = c.value
	}
	return w
}

// putWorker returns a worker's scratch memory to the pool.
func putWorker[T tensor.Number](w *worker[T]) {
	scratchPool.Put(w.mem)
}

// seekRow places the odometer at row (row-major over the outer dimensions)
// and sets each operand's offset there.
func (w *worker[T]) seekRow(p *program[T], row int) {
	copy(w.rowOffsets, p.offsets)
	for d := len(w.index) - 1; d >= 0; d-- {
		w.index[d] = row % p.shape[d]
		row /= p.shape[d]
		for k := range w.rowOffsets {
			w.rowOffsets[k] += w.index[d] * p.strides[k][d]
		}
	}
}

// nextRow advances the odometer by one row.
func (w *worker[T]) nextRow(p *program[T]) {
	for d := len(w.index) - 1; d >= 0; d-- {
		w.index[d]++
		for k := range w.rowOffsets {
			w.rowOffsets[k] += p.strides[k][d]
		}
		if w.index[d] < p.shape[d] {
			return
		}
		for k := range w.rowOffsets {
			w.rowOffsets[k] -= p.shape[d] * p.strides[k][d]
		}
		w.index[d] = 0
	}
}
