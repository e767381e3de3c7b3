package cudasrc

import (
	"fmt"
	"hash/fnv"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// The launch policy: which variant of a kernel a pass runs (index width,
// vectors, tiles, a reduction's strategy) and with how many blocks. It is
// a function of the pass's geometry alone (sizes, strides, alignment), so
// a result is the same on every GPU. Package kernels describes each pass
// by its Geometry; see docs/design.md, "The CUDA backend".

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = 256

// blockThreads is the block size of every generated kernel but the warp
// reductions' (which take any multiple of 32 and run 256 too).
const blockThreads = 256

// wideIndexFrom is the element count or offset from which a kernel indexes
// with 64-bit integers; below it, 32-bit arithmetic cannot overflow even
// with a grid-stride step added.
const wideIndexFrom = 1 << 30

// VectorBytes is the width of a vectorised load or store.
const VectorBytes = 16

// maxTiled is the most operands a tiled kernel stages through shared
// memory (each a 32×33 tile: 8.4 kB of 8-byte elements); the others are
// read where they lie, correct but not coalesced.
const maxTiled = 4

// The variant of a pass is the part of its kernel's structure that depends
// on the call's sizes and addresses rather than on the tree: whether
// indices need 64 bits, whether the elementwise kernel can use 16-byte
// vectors, and a reduction's strategy. Variant computes it without
// allocating; the kernel's key includes it.
const (
	variantWide     = 1 << 0 // 64-bit index arithmetic
	variantVec      = 1 << 1 // elementwise, contiguous, every walking operand 16-byte aligned and of T's size
	variantRedShift = 2      // bits 2-3: the reduction strategy
	variantRedMask  = 3 << variantRedShift
	variantTile     = 1 << 4 // elementwise, some operand transposed against the destination: tiled through shared memory (tiledOperands)
)

// Tuning holds the sizes at which reductions change strategy. The
// emulator tests lower them, so that every strategy runs at sizes the
// emulator runs quickly; nothing else changes them.
var Tuning = struct {
	MaxParts          int64 // partials per result, at most
	SplitRowElements  int64 // a block-split reduction gives each block at least this many elements
	SplitRowBlocks    int64 // and aims at this many blocks in all
	SplitColThreads   int64 // a column-split reduction aims at this many threads in all
	SplitColElements  int64 // each folding at least this many rows
	WarpRowMax        int64 // rows this long or shorter are folded by one warp each
	ManyResultsBlocks int64 // from this many results, one block (or warp) per result fills the GPU
}{MaxParts: 1024, SplitRowElements: 8192, SplitRowBlocks: 2048, SplitColThreads: 1 << 18, SplitColElements: 32, WarpRowMax: 512, ManyResultsBlocks: 1024}

// Geometry is a lowered pass's shape as the launch policy reads it: the
// coalesced iteration shape, each operand's strides over it (the
// destination's first: for a reduction, 0 along the folded dimensions),
// which operands may be read in 16-byte vectors, which are computed
// rather than read, and the element size. It refers to the pass's own
// slices and is built without allocating.
type Geometry struct {
	Shape    []int
	Strides  [][]int
	Aligned  bool // every operand in memory that walks the (one) dimension with stride 1 has ItemSize-byte elements and starts 16-byte aligned
	ItemSize int
	Reduce   bool
	Computed uint64 // bit k when operand k is a generator (Operand.Gen): computed from its positions, never tiled nor loaded in vectors
}

// Sizes returns the pass's work: the number of results (elements, for an
// elementwise pass) and the number of elements folded into each.
func (g Geometry) Sizes() (total, folded int64) {
	total, folded = 1, 1
	for d, n := range g.Shape {
		if g.Reduce && g.Strides[0][d] == 0 {
			folded *= int64(n)
		} else {
			total *= int64(n)
		}
	}
	return total, folded
}

// Variant returns the pass's variant bits: a cheap function of its sizes,
// strides and alignment, which together with the tree's structure
// determines the kernel.
func Variant(g Geometry) uint8 {
	var v uint8
	limit := int64(1)
	for _, n := range g.Shape {
		limit *= int64(n)
	}
	total, folded := g.Sizes()
	vec := !g.Reduce && len(g.Shape) == 1
	for _, st := range g.Strides {
		span := int64(0)
		for d, x := range st {
			span += int64(abs(x)) * int64(max(g.Shape[d]-1, 0))
			if x != 0 && x != 1 {
				vec = false
			}
		}
		limit = max(limit, span)
	}
	if !g.Aligned {
		vec = false
	}
	if limit >= wideIndexFrom {
		v |= variantWide
	}
	if vec && g.ItemSize <= VectorBytes/2 {
		v |= variantVec
	}
	if g.Reduce {
		strategy, _ := reduceStrategy(g, total, folded)
		v |= strategy << variantRedShift
	}
	if tiledOperands(g) != 0 {
		v |= variantTile
	}
	return v
}

// SetVariant sets the variant's part of s (index width, vector width,
// strategy, tiled operands) from the pass's variant bits v.
func (s *Spec) SetVariant(v uint8, g Geometry) {
	s.Wide = v&variantWide != 0
	if v&variantVec != 0 {
		s.Vec = VectorBytes / g.ItemSize
	}
	s.Strategy = (v & variantRedMask) >> variantRedShift
	if v&variantTile != 0 {
		s.Tiled = tiledOperands(g)
	}
}

// tiledOperands returns the operands (bit k for operand k) an elementwise
// kernel should read through shared-memory tiles: those that walk the
// next-to-last dimension with stride ±1 and the last with another, where
// the destination walks the last with stride 1: a transposed operand,
// whose direct reads would be a separate memory transaction per thread.
// The tiled kernel is correct for any strides; this only decides when it
// is faster. It needs both dimensions at least TileSide/2 long. A
// generator operand (Geometry.Computed) reads no memory: it is never
// tiled.
func tiledOperands(g Geometry) uint64 {
	r := len(g.Shape)
	if g.Reduce || r < 2 || g.Strides[0][r-1] != 1 || g.Shape[r-1] < TileSide/2 || g.Shape[r-2] < TileSide/2 {
		return 0
	}
	var mask uint64
	n := 0
	for k := 1; k < min(len(g.Strides), 64) && n < maxTiled; k++ { // Spec.Tiled has a bit per operand
		st := g.Strides[k]
		if g.Computed&(1<<k) != 0 {
			continue
		}
		if abs(st[r-2]) == 1 && st[r-1] != 0 && abs(st[r-1]) != 1 {
			mask |= 1 << k
			n++
		}
	}
	return mask
}

// reduceStrategy chooses how a reduction of total results, folded elements
// each, runs, and into how many partials per result a split one folds.
// The choice depends on the sizes only (not on the device), so a result
// is the same on every GPU.
func reduceStrategy(g Geometry, total, folded int64) (strategy uint8, parts int64) {
	t := &Tuning
	last := len(g.Shape) - 1
	row := last < 0 || g.Strides[0][last] == 0
	if row {
		if total < t.ManyResultsBlocks && keptContiguous(g) {
			parts = min(ceilDiv(folded, t.SplitRowElements), ceilDiv(t.SplitRowBlocks, total), t.MaxParts)
			if parts >= 2 {
				return RedSplit, parts
			}
		}
		if folded <= t.WarpRowMax && total > 1 {
			return RedWarp, 1
		}
		return RedBlock, 1
	}
	if keptContiguous(g) {
		parts = min(ceilDiv(t.SplitColThreads, total), ceilDiv(folded, t.SplitColElements), t.MaxParts)
		if parts >= 2 {
			return RedSplit, parts
		}
	}
	return RedColumn, 1
}

// keptContiguous reports whether a reduction's destination (and so its
// index output, laid out alike) is row-major contiguous over the kept
// dimensions: result o is at offset o, as the finishing kernel of a split
// reduction writes it.
func keptContiguous(g Geometry) bool {
	want := 1
	for d := len(g.Shape) - 1; d >= 0; d-- {
		x := g.Strides[0][d]
		if x == 0 || g.Shape[d] == 1 {
			continue
		}
		if x != want {
			return false
		}
		want *= g.Shape[d]
	}
	return true
}

// LaunchShape returns the launch of the kernel of structure s for a pass
// of geometry g: the block size the source assumes, the number of blocks
// that give every unit of work its own block (the kernels loop
// grid-stride, so the backend may launch fewer), and a split reduction's
// partials per result (1 otherwise).
func LaunchShape(s *Spec, g Geometry) (threads int, blocks, parts int64) {
	total, folded := g.Sizes()
	threads, parts = blockThreads, 1
	switch {
	case s.Red == nil:
		units := total
		if s.Vec > 0 {
			units = ceilDiv(total, int64(s.Vec))
		}
		if s.Tiled != 0 { // one block per tile
			rows, cols := int64(g.Shape[s.Rank-2]), int64(g.Shape[s.Rank-1])
			return threads, max(total/max(rows*cols, 1)*ceilDiv(rows, TileSide)*ceilDiv(cols, TileSide), 1), 1
		}
		return threads, max(ceilDiv(units, blockThreads), 1), 1
	case s.Strategy == RedSplit:
		_, parts = reduceStrategy(g, total, folded)
		if s.Reduced[s.Rank-1] {
			return threads, total * parts, parts
		}
		return threads, max(ceilDiv(total*parts, blockThreads), 1), parts
	case s.Strategy == RedWarp:
		return threads, max(ceilDiv(total, blockThreads/32), 1), 1
	case s.Strategy == RedColumn:
		return threads, max(ceilDiv(total, blockThreads), 1), 1
	}
	return ReduceThreads, total, 1
}

// KernelName is "laze_" and the 64-bit FNV-1a hash of key in hex: the
// name of the kernel whose structure key encodes.
func KernelName(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("laze_%016x", h.Sum64())
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ScanLaunch returns the structure of the scan kernel for lines lines of
// length elements each (one thread per line) and its launch: the block
// size and the number of blocks.
func ScanLaunch(dtype tensor.DType, def ops.ReducerDef, lines, length int64) (s *Spec, threads int, blocks int64) {
	s = ScanSpec(dtype, def, lines*length >= wideIndexFrom)
	return s, blockThreads, max(ceilDiv(lines, blockThreads), 1)
}

// GatherLaunch returns the gather kernel for dtype and the launch shape of
// count result elements: one thread per element.
func GatherLaunch(dtype tensor.DType, count int64) (s *Spec, threads int, blocks int64) {
	return GatherSpec(dtype), blockThreads, max(ceilDiv(count, blockThreads), 1)
}

// GemmLaunch returns the number of blocks of the tiled product of an m×n
// result (one block of GemmTile² threads per GemmTile×GemmTile tile), 0
// when it has no elements.
func GemmLaunch(m, n int) int64 {
	return ceilDiv(int64(m), GemmTile) * ceilDiv(int64(n), GemmTile)
}
