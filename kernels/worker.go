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
	planeOffsets []int           // per operand, at the start of the current plane
	blockOffsets []int           // per operand, at the start of the current block
	acc          *accumulator[T] // what a reduction folds into; nil for an assignment
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
	if need := 2 * operands; cap(mem.ints) < need {
		mem.ints = make([]int, need)
	}
	w := &worker[T]{mem: mem, vals: make([]value[T], p.nslots), regs: make([][]T, p.nregs)}
	for r := range w.regs {
		base := unsafe.Pointer(&mem.words[r*regWords])
		w.regs[r] = unsafe.Slice((*T)(base), blockSize)
	}
	ints := mem.ints[:2*operands]
	w.planeOffsets, w.blockOffsets = ints[:operands], ints[operands:]
	for _, c := range p.consts {
		w.vals[c.slot].s = c.value
	}
	return w
}

// putWorker returns a worker's scratch memory to the pool.
func putWorker[T tensor.Number](w *worker[T]) {
	scratchPool.Put(w.mem)
}

// seekPlane sets each operand's offset at the start of plane (row-major
// over the dimensions outside the last two).
func (w *worker[T]) seekPlane(p *program[T], plane int) {
	copy(w.planeOffsets, p.offsets)
	for d := len(p.shape) - 3; d >= 0; d-- {
		i := plane % p.shape[d]
		plane /= p.shape[d]
		for k := range w.planeOffsets {
			w.planeOffsets[k] += i * p.strides[k][d]
		}
	}
}
