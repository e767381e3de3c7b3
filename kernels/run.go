package kernels

import (
	"runtime"
	"sync"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// blockSize is the number of elements of the innermost dimension an
// instruction handles at once; docs/performance.md has the measurement that
// chose it (BenchmarkBlockSize).
var blockSize = 1024

// parallelThreshold is the amount of work from which Assign shares it among
// GOMAXPROCS goroutines. Work is elements times the program's cost per
// element (the ops' Cost from the op table, plus one per gathered leaf and
// one for the store), so a tree of eight adds goes parallel from 64K
// elements and a single tanh from about 30K. docs/performance.md has the
// measurement (BenchmarkThreshold).
var parallelThreshold = 1 << 19

// run executes the program over the whole destination.
func (p *program[T]) run() {
	last := len(p.shape) - 1
	inner := p.shape[last]
	if inner == 0 {
		return
	}
	rows := 1
	for _, n := range p.shape[:last] {
		rows *= n
	}
	perRow := (inner + blockSize - 1) / blockSize
	total := rows * perRow
	workers := min(runtime.GOMAXPROCS(0), total)
	if rows*inner*p.cost() < parallelThreshold || workers < 2 {
		p.runRange(0, total, perRow)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { p.runRange(total*w/workers, total*(w+1)/workers, perRow) })
	}
	p.runRange(0, total/workers, perRow)
	wg.Wait()
}

// cost is the program's rough time per element, in adds.
func (p *program[T]) cost() int {
	c := 1 // the store
	for _, in := range p.code {
		c += in.op.Cost()
		if in.pair != 0 {
			c += in.op2.Cost()
		}
	}
	for _, r := range p.leafReg {
		if r >= 0 {
			c++ // a gather
		}
	}
	return c
}

// runRange executes blocks [start, end) of the walk, numbered row by row,
// perRow blocks to a row.
func (p *program[T]) runRange(start, end, perRow int) {
	if start >= end {
		return
	}
	w := getWorker[T](p)
	defer putWorker(w)
	last := len(p.shape) - 1
	inner := p.shape[last]
	row, blk := start/perRow, start%perRow
	w.seekRow(p, row)
	for item := start; item < end; item++ {
		j := blk * blockSize
		n := min(blockSize, inner-j)
		for k, off := range w.rowOffsets {
			w.blockOffsets[k] = off + j*p.strides[k][last]
		}
		p.block(w, n)
		if blk++; blk == perRow {
			blk = 0
			w.nextRow(p)
		}
	}
}

// block runs every instruction over one block of n elements whose operand
// offsets are in w.blockOffsets.
func (p *program[T]) block(w *worker[T], n int) {
	last := len(p.shape) - 1
	vals := w.vals
	for i, s := range p.leafSlot {
		data, off, stride := p.data[1+i], w.blockOffsets[1+i], p.strides[1+i][last]
		switch {
		case stride == 1:
			vals[s].vec = data[off : off+n]
		case stride == 0:
			vals[s].s = data[off]
		default:
			r := w.regs[p.leafReg[i]][:n]
			gather(r, data, off, stride)
			vals[s].vec = r
		}
	}
	dst, dstOff, dstStride := p.data[0], w.blockOffsets[0], p.strides[0][last]
	for k := range p.code {
		in := &p.code[k]
		args := [3]value[T]{vals[in.args[0]], vals[in.args[1]], vals[in.args[2]]}
		if in.pat == 0 {
			vals[in.out].s = ops.Apply(in.op, args[0].s, args[1].s, args[2].s)
			continue
		}
		var d []T
		if in.reg < 0 {
			d = dst[dstOff : dstOff+n]
		} else {
			d = w.regs[in.reg][:n]
		}
		if in.pair != 0 {
			computeFused(in.pair, in.pat, d, &args)
		} else {
			compute(in.op, in.pat, d, &args)
		}
		vals[in.out].vec = d
	}
	if p.inPlace {
		return
	}
	res := vals[p.result]
	switch {
	case p.scalar && dstStride == 1:
		fill(dst[dstOff:dstOff+n], res.s)
	case p.scalar:
		fillStrided(dst, dstOff, dstStride, n, res.s)
	case dstStride == 1:
		copy(dst[dstOff:dstOff+n], res.vec)
	default:
		scatter(dst, dstOff, dstStride, res.vec)
	}
}

// gather copies n = len(d) elements of src, stride apart from off, into d.
func gather[T tensor.Number](d, src []T, off, stride int) {
	for i := range d {
		d[i] = src[off+i*stride]
	}
}

// scatter copies v into dst, stride apart from off.
func scatter[T tensor.Number](dst []T, off, stride int, v []T) {
	for i, x := range v {
		dst[off+i*stride] = x
	}
}

func fill[T tensor.Number](d []T, v T) {
	for i := range d {
		d[i] = v
	}
}

func fillStrided[T tensor.Number](dst []T, off, stride, n int, v T) {
	for i := range n {
		dst[off+i*stride] = v
	}
}
