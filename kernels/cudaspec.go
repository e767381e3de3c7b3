package kernels

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/tensor"
)

// The kernel of a lowered program (the one the CPU evaluator runs): specOf
// reads the program into the structure the CUDA source is generated from
// (cudasrc.Spec, which holds the ops, the element types, the rank, which
// operands walk which dimensions, the index width), and the launch logic
// here picks the variant, the reduction strategy and the launch shape from
// the call's sizes. Package internal/cudasrc writes the source. See
// docs/design.md, "The CUDA backend".

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = 256

// wideIndexFrom is the element count or offset from which a kernel indexes
// with 64-bit integers; below it, 32-bit arithmetic cannot overflow even
// with a grid-stride step added.
const wideIndexFrom = 1 << 30

// The variant of a program is the part of its kernel's structure that
// depends on the call's sizes and addresses rather than on the tree:
// whether indices need 64 bits, whether the elementwise kernel can use
// 16-byte vectors, and a reduction's strategy. variantOf computes it without
// allocating; the kernel's key includes it.
const (
	variantWide     = 1 << 0 // 64-bit index arithmetic
	variantVec      = 1 << 1 // elementwise, contiguous, every walking operand 16-byte aligned and of T's size
	variantRedShift = 2      // bits 2-3: the reduction strategy
	variantRedMask  = 3 << variantRedShift
	variantTile     = 1 << 4 // elementwise, some operand transposed against the destination: tiled through shared memory (tiledOperands)
	vectorBytes     = 16     // the width of a vectorised load or store
)

// reduceTuning holds the sizes at which reductions change strategy. The
// emulator tests lower them, so that every strategy runs at sizes the
// emulator runs quickly; nothing else changes them.
var reduceTuning = struct {
	maxParts          int64 // partials per result, at most
	splitRowElements  int64 // a block-split reduction gives each block at least this many elements
	splitRowBlocks    int64 // and aims at this many blocks in all
	splitColThreads   int64 // a column-split reduction aims at this many threads in all
	splitColElements  int64 // each folding at least this many rows
	warpRowMax        int64 // rows this long or shorter are folded by one warp each
	manyResultsBlocks int64 // from this many results, one block (or warp) per result fills the GPU
}{maxParts: 1024, splitRowElements: 8192, splitRowBlocks: 2048, splitColThreads: 1 << 18, splitColElements: 32, warpRowMax: 512, manyResultsBlocks: 1024}

// variantOf returns p's variant (variantWide, variantVec and the reduction
// strategy): a cheap function of p's sizes, strides and addresses, which
// together with the tree's structure determines the kernel.
func variantOf[T tensor.Number](p *program[T]) uint8 {
	var v uint8
	limit, total, folded := int64(1), int64(1), int64(1)
	for d, n := range p.shape {
		limit *= int64(n)
		if p.red != nil && p.strides[0][d] == 0 {
			folded *= int64(n)
		} else {
			total *= int64(n)
		}
	}
	vec := p.red == nil && len(p.shape) == 1
	size := int64(tensor.ItemSize[T]())
	for k, st := range p.strides {
		span := int64(0)
		for d, x := range st {
			span += int64(abs(x)) * int64(max(p.shape[d]-1, 0))
			if x != 0 && x != 1 {
				vec = false
			}
		}
		limit = max(limit, span)
		if vec && len(st) == 1 && st[0] == 1 {
			m := p.mems[k]
			if int64(m.itemSize) != size || !vectorAligned(m, p.offsets[k]) {
				vec = false
			}
		}
	}
	if limit >= wideIndexFrom {
		v |= variantWide
	}
	if vec && size <= vectorBytes/2 {
		v |= variantVec
	}
	if p.red != nil {
		strategy, _ := reduceStrategy(p, total, folded)
		v |= strategy << variantRedShift
	}
	if tiledOperands(p) != 0 {
		v |= variantTile
	}
	return v
}

// maxTiled is the most operands a tiled kernel stages through shared
// memory (each a 32×33 tile: 8.4 kB of 8-byte elements); the others are
// read where they lie, correct but not coalesced.
const maxTiled = 4

// tiledOperands returns the operands (bit k for operand k) an elementwise
// kernel should read through shared-memory tiles: those that walk the
// next-to-last dimension with stride ±1 and the last with another, where
// the destination walks the last with stride 1: a transposed operand,
// whose direct reads would be a separate memory transaction per thread.
// The tiled kernel is correct for any strides; this only decides when it
// is faster. It needs both dimensions at least tileSide/2 long.
func tiledOperands[T tensor.Number](p *program[T]) uint64 {
	r := len(p.shape)
	if p.red != nil || r < 2 || p.strides[0][r-1] != 1 || p.shape[r-1] < cudasrc.TileSide/2 || p.shape[r-2] < cudasrc.TileSide/2 {
		return 0
	}
	var mask uint64
	n := 0
	for k := 1; k < len(p.strides) && n < maxTiled; k++ {
		st := p.strides[k]
		if abs(st[r-2]) == 1 && st[r-1] != 0 && abs(st[r-1]) != 1 {
			mask |= 1 << k
			n++
		}
	}
	return mask
}

// vectorAligned reports whether the operand's element at offset is 16-byte
// aligned. Host memory (CUDASource on CPU tensors) is taken to start as a
// device block does, aligned, so that the listing shows what the tensors
// would run once moved to a GPU, whatever the host addresses.
func vectorAligned(m operandMem, offset int) bool {
	if m.block == nil || m.block.Device().Kind() == alloc.KindCPU {
		return offset*m.itemSize%vectorBytes == 0
	}
	return m.address(offset)%vectorBytes == 0
}

// reduceStrategy chooses how a reduction of total results, folded elements
// each, runs, and into how many partials per result a split one folds.
// The choice depends on the sizes only (not on the device), so a result
// is the same on every GPU.
func reduceStrategy[T tensor.Number](p *program[T], total, folded int64) (strategy uint8, parts int64) {
	t := &reduceTuning
	last := len(p.shape) - 1
	row := last < 0 || p.strides[0][last] == 0
	if row {
		if total < t.manyResultsBlocks && keptContiguous(p) {
			parts = min(ceilDiv(folded, t.splitRowElements), ceilDiv(t.splitRowBlocks, total), t.maxParts)
			if parts >= 2 {
				return cudasrc.RedSplit, parts
			}
		}
		if folded <= t.warpRowMax && total > 1 {
			return cudasrc.RedWarp, 1
		}
		return cudasrc.RedBlock, 1
	}
	if keptContiguous(p) {
		parts = min(ceilDiv(t.splitColThreads, total), ceilDiv(folded, t.splitColElements), t.maxParts)
		if parts >= 2 {
			return cudasrc.RedSplit, parts
		}
	}
	return cudasrc.RedColumn, 1
}

// keptContiguous reports whether a reduction's destination (and so its
// index output, laid out alike) is row-major contiguous over the kept
// dimensions: result o is at offset o, as the finishing kernel of a split
// reduction writes it.
func keptContiguous[T tensor.Number](p *program[T]) bool {
	want := 1
	for d := len(p.shape) - 1; d >= 0; d-- {
		x := p.strides[0][d]
		if x == 0 || p.shape[d] == 1 {
			continue
		}
		if x != want {
			return false
		}
		want *= p.shape[d]
	}
	return true
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// specOf describes p's structure. p must not be a no-op.
func specOf[T tensor.Number](p *program[T]) *cudasrc.Spec {
	s := &cudasrc.Spec{Kind: cudasrc.KindMap, DType: tensor.DTypeOf[T](), Rank: len(p.shape), PosOp: -1,
		Code: cudaInstrs(p.code), LeafSlot: p.leafSlot, Result: p.result}
	s.CType = cudasrc.CTypes[s.DType]
	if p.red != nil {
		s.Kind = cudasrc.KindReduce
		def := p.red.def
		s.Red = &def
		s.Identity = cudasrc.IdentityLiteral(ops.Start[T](def.Identity))
		if def.Arg {
			s.PosOp = p.red.pos
		}
	}
	for _, c := range p.consts {
		s.Consts = append(s.Consts, c.slot)
	}
	for _, c := range p.convert {
		s.LeafConv = append(s.LeafConv, c != nil)
	}
	s.Flat = s.Red == nil && s.Rank == 1
	for k, st := range p.strides {
		o := cudasrc.Operand{DType: p.mems[k].dtype}
		if o.DType == tensor.Invalid {
			o.DType = s.DType
		}
		for d, x := range st {
			if x != 0 {
				o.Walks |= 1 << d
			}
			if x != 0 && x != 1 {
				s.Flat = false
			}
		}
		s.Operands = append(s.Operands, o)
	}
	v := variantOf(p)
	s.Wide = v&variantWide != 0
	if v&variantVec != 0 {
		s.Vec = vectorBytes / tensor.ItemSize[T]()
	}
	s.Strategy = (v & variantRedMask) >> variantRedShift
	if v&variantTile != 0 {
		s.Tiled = tiledOperands(p)
	}
	if s.Red != nil {
		s.Reduced = make([]bool, s.Rank)
		for d := range s.Rank {
			s.Reduced[d] = p.strides[0][d] == 0
		}
	}
	return s
}

// cudaInstrs converts a program's instructions to the code generator's.
func cudaInstrs(code []instr) []cudasrc.Instr {
	out := make([]cudasrc.Instr, len(code))
	for i := range code {
		in := &code[i]
		out[i] = cudasrc.Instr{Op: in.op, Op2: in.op2, Op3: in.op3, Steps: len(in.chain()), NArgs: in.arity(), Out: in.out, Args: in.args}
	}
	return out
}

// kernelName is "laze_" and the 64-bit FNV-1a hash of the key in hex.
func kernelName(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("laze_%016x", h.Sum64())
}

// blockThreads is the block size of every generated kernel but the warp
// reductions' (which take any multiple of 32 and run 256 too).
const blockThreads = 256

// launchShape returns the launch of p's kernel, which has structure s, for
// total results (elements, for an elementwise kernel) of folded elements
// each: the block size the source assumes, the number of blocks that give
// every unit of work its own block (the kernels loop grid-stride, so the
// backend may launch fewer), and a split reduction's partials per result
// (1 otherwise).
func launchShape[T tensor.Number](s *cudasrc.Spec, p *program[T], total, folded int64) (threads int, blocks, parts int64) {
	threads, parts = blockThreads, 1
	switch {
	case s.Red == nil:
		units := total
		if s.Vec > 0 {
			units = ceilDiv(total, int64(s.Vec))
		}
		if s.Tiled != 0 { // one block per tile
			rows, cols := int64(p.shape[s.Rank-2]), int64(p.shape[s.Rank-1])
			return threads, max(total/max(rows*cols, 1)*ceilDiv(rows, cudasrc.TileSide)*ceilDiv(cols, cudasrc.TileSide), 1), 1
		}
		return threads, max(ceilDiv(units, blockThreads), 1), 1
	case s.Strategy == cudasrc.RedSplit:
		_, parts = reduceStrategy(p, total, folded)
		if s.Reduced[s.Rank-1] {
			return threads, total * parts, parts
		}
		return threads, max(ceilDiv(total*parts, blockThreads), 1), parts
	case s.Strategy == cudasrc.RedWarp:
		return threads, max(ceilDiv(total, blockThreads/32), 1), 1
	case s.Strategy == cudasrc.RedColumn:
		return threads, max(ceilDiv(total, blockThreads), 1), 1
	}
	return ReduceThreads, total, 1
}

// scalarBits is v as the 8 bytes of its parameter type.
func scalarBits[T tensor.Number](v T) uint64 {
	switch {
	case tensor.IsFloat[T]():
		return math.Float64bits(float64(v))
	case v < 0:
		return uint64(int64(v))
	}
	return uint64(v)
}
