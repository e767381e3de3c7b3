package kernels

import (
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"strings"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// The CUDA code generator turns a lowered program (the one the CPU
// evaluator runs) into the source of one CUDA kernel. The source depends
// only on the program's structure, which kernelSpec holds and key encodes:
// the ops, the element types, the rank, which operands walk which
// dimensions, the index width. Scalars, shapes, strides and addresses are
// kernel parameters, so that a*2 and a*3 on tensors of any size share one
// compiled kernel. See docs/design.md, "The CUDA backend".

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = 256

// wideIndexFrom is the element count or offset from which a kernel indexes
// with 64-bit integers; below it, 32-bit arithmetic cannot overflow even
// with a grid-stride step added.
const wideIndexFrom = 1 << 30

// cTypes names each element type in CUDA C.
var cTypes = map[string]string{
	"float32": "float", "float64": "double",
	"int8": "signed char", "int16": "short", "int32": "int", "int64": "long long", "int": "long long",
	"uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int", "uint64": "unsigned long long",
	"uint": "unsigned long long", "uintptr": "unsigned long long",
}

// kernelKind says which of the generator's kernels a spec describes.
type kernelKind uint8

const (
	kindMap    kernelKind = iota // an elementwise program
	kindReduce                   // a reduction program (into partials, for the split strategy)
	kindFinish                   // the second kernel of a split reduction: folds each result's partials
	kindGemm                     // a tiled matrix product, for the element types cuBLAS does not take
	kindScan                     // a cumulative sum or product, one thread per line (scan.go)
)

// kernelSpec is the structure of one kernel: everything its source depends
// on and nothing else.
type kernelSpec struct {
	kind      kernelKind
	dtype     string          // the element type T of the tree
	red       *ops.ReducerDef // the reduction, or nil for an elementwise kernel
	rank      int             // coalesced rank
	flat      bool            // elementwise and contiguous: one flat index, no dimensions
	wide      bool            // 64-bit index arithmetic
	vec       int             // elements per 16-byte vector when the elementwise kernel is vectorised, else 0
	strategy  uint8           // a reduction's strategy (redBlock…)
	operands  []operandSpec   // 0 is the destination (a reduction's accumulators), 1+i is leaf i, then a reduction's index operand
	posOp     int             // the index operand of an arg reduction, or -1
	code      []instr         // the program's instructions, fused pairs included
	leafSlot  []int           // slot of leaf i
	consts    []int           // constant slots, in parameter order
	result    int             // slot of the tree's value
	leafConv  []bool          // leaf i is read from another element type
	reduced   []bool          // per dimension, for a reduction: folded (the destination does not walk it)
	ctype     string          // cTypes[dtype]
	identity  string          // a reduction's starting value, as CUDA C
	paramList []param         // params(), computed once by newKernel
}

// operandSpec is an operand's part of the structure.
type operandSpec struct {
	dtype string // element type in memory
	walks uint64 // bit d is set when the operand's stride along dimension d is not 0
}

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
	vectorBytes     = 16 // the width of a vectorised load or store
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

// The reduction strategies. Each kernel loops grid-stride over its units of
// work, so the backend may launch fewer blocks than Kernel.Blocks.
const (
	redBlock  = iota // one block per result: its threads fold a share each, then combine through warp shuffles and shared memory
	redWarp          // one warp per result (row reductions of short rows)
	redColumn        // one thread per result (the innermost dimension is kept: neighbouring threads read neighbouring columns)
	redSplit         // several blocks per result (or threads, for columns) fold slices into partials, which a second kernel (kindFinish) folds
)

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
	return v
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
				return redSplit, parts
			}
		}
		if folded <= t.warpRowMax && total > 1 {
			return redWarp, 1
		}
		return redBlock, 1
	}
	if keptContiguous(p) {
		parts = min(ceilDiv(t.splitColThreads, total), ceilDiv(folded, t.splitColElements), t.maxParts)
		if parts >= 2 {
			return redSplit, parts
		}
	}
	return redColumn, 1
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
func specOf[T tensor.Number](p *program[T]) *kernelSpec {
	s := &kernelSpec{kind: kindMap, dtype: tensor.DType[T](), rank: len(p.shape), posOp: -1,
		code: p.code, leafSlot: p.leafSlot, result: p.result}
	s.ctype = cTypes[s.dtype]
	if p.red != nil {
		s.kind = kindReduce
		def := p.red.def
		s.red = &def
		s.identity = identityLiteral(ops.Start[T](def.Identity))
		if def.Arg {
			s.posOp = p.red.pos
		}
	}
	for _, c := range p.consts {
		s.consts = append(s.consts, c.slot)
	}
	for _, c := range p.convert {
		s.leafConv = append(s.leafConv, c != nil)
	}
	s.flat = s.red == nil && s.rank == 1
	for k, st := range p.strides {
		o := operandSpec{dtype: p.mems[k].dtype}
		if o.dtype == "" {
			o.dtype = s.dtype
		}
		for d, x := range st {
			if x != 0 {
				o.walks |= 1 << d
			}
			if x != 0 && x != 1 {
				s.flat = false
			}
		}
		s.operands = append(s.operands, o)
	}
	v := variantOf(p)
	s.wide = v&variantWide != 0
	if v&variantVec != 0 {
		s.vec = vectorBytes / tensor.ItemSize[T]()
	}
	s.strategy = (v & variantRedMask) >> variantRedShift
	if s.red != nil {
		s.reduced = make([]bool, s.rank)
		for d := range s.rank {
			s.reduced[d] = p.strides[0][d] == 0
		}
	}
	return s
}

// finishSpec is the structure of the kernel that folds a split reduction's
// partials (parts per result, result o's at o·parts) into its destination.
func finishSpec(dtype string, def ops.ReducerDef, identity string) *kernelSpec {
	s := &kernelSpec{kind: kindFinish, dtype: dtype, ctype: cTypes[dtype], red: &def, identity: identity, posOp: -1}
	s.paramList = s.params()
	return s
}

// gemmSpec is the structure of the tiled matrix-product kernel for dtype.
func gemmSpec(dtype string) *kernelSpec {
	s := &kernelSpec{kind: kindGemm, dtype: dtype, ctype: cTypes[dtype], posOp: -1}
	s.paramList = s.params()
	return s
}

// key encodes the structure; equal keys give equal sources.
func (s *kernelSpec) key() string {
	var b strings.Builder
	switch s.kind {
	case kindFinish:
		fmt.Fprintf(&b, "finish %s %s", s.red.Name, s.dtype)
		return b.String()
	case kindGemm:
		fmt.Fprintf(&b, "gemm %s tile%d", s.dtype, gemmTile)
		return b.String()
	case kindScan:
		fmt.Fprintf(&b, "scan %s %s wide=%t", s.red.Name, s.dtype, s.wide)
		return b.String()
	}
	kind := "map"
	if s.red != nil {
		kind = fmt.Sprintf("%s/%s", s.red.Name, strategyNames[s.strategy])
	}
	fmt.Fprintf(&b, "%s %s r%d flat=%t wide=%t", kind, s.dtype, s.rank, s.flat, s.wide)
	if s.vec > 0 {
		fmt.Fprintf(&b, " vec=%d", s.vec)
	}
	for _, o := range s.operands {
		fmt.Fprintf(&b, " %s/%x", o.dtype, o.walks)
	}
	b.WriteString(" |")
	for _, in := range s.code {
		fmt.Fprintf(&b, " %d=%v", in.out, in.op)
		for _, op := range in.chain()[1:] {
			fmt.Fprintf(&b, "+%v", op)
		}
		fmt.Fprintf(&b, "%v", in.args[:in.arity()])
	}
	fmt.Fprintf(&b, " | leaves%v consts%v conv%v result %d", s.leafSlot, s.consts, s.leafConv, s.result)
	return b.String()
}

// strategyNames name the reduction strategies in keys.
var strategyNames = [...]string{redBlock: "block", redWarp: "warp", redColumn: "column", redSplit: "split"}

// kernelName is "laze_" and the 64-bit FNV-1a hash of the key in hex.
func kernelName(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("laze_%016x", h.Sum64())
}

// paramKind says what a kernel parameter carries.
type paramKind uint8

const (
	paramPointer  paramKind = iota // operand a's address at its offset
	paramIndexOut                  // an arg reduction's index output
	paramConst                     // constant a
	paramCount                     // the element count (elementwise) or the result count (reduction)
	paramReduced                   // the number of elements folded into each result
	paramDim                       // the size of dimension a
	paramStride                    // operand a's stride along dimension b
	paramParts                     // a split reduction's number of partials per result
	paramIndexIn                   // a finishing kernel's partial indices
	paramCols                      // a product's N; a scan's inner size
	paramInner                     // a product's K
)

// param is one kernel parameter: 8 bytes, as gorgonia.org/cu's
// Function.Launch copies every parameter.
type param struct {
	kind  paramKind
	a, b  int
	name  string
	ctype string
}

// params lists the kernel's parameters in order; the source declares them
// and the launch fills them from the same list.
func (s *kernelSpec) params() []param {
	t := s.ctype
	switch s.kind {
	case kindFinish:
		ps := []param{
			{kind: paramPointer, a: 0, name: "o0", ctype: t + "*"},
			{kind: paramPointer, a: 1, name: "o1", ctype: "const " + t + "*"},
		}
		if s.red.Arg {
			ps = append(ps, param{kind: paramIndexOut, name: "oi", ctype: "long long*"},
				param{kind: paramIndexIn, name: "o1i", ctype: "const long long*"})
		}
		return append(ps, param{kind: paramCount, name: "n", ctype: "long long"},
			param{kind: paramParts, name: "q", ctype: "long long"},
			param{kind: paramReduced, name: "m", ctype: "long long"})
	case kindGemm:
		return []param{
			{kind: paramPointer, a: 0, name: "o0", ctype: t + "*"},
			{kind: paramPointer, a: 1, name: "o1", ctype: "const " + t + "*"},
			{kind: paramPointer, a: 2, name: "o2", ctype: "const " + t + "*"},
			{kind: paramCount, name: "rows", ctype: "long long"},
			{kind: paramCols, name: "cols", ctype: "long long"},
			{kind: paramInner, name: "inner", ctype: "long long"},
		}
	case kindScan:
		return []param{
			{kind: paramPointer, a: 0, name: "o0", ctype: t + "*"},
			{kind: paramPointer, a: 1, name: "o1", ctype: "const " + t + "*"},
			{kind: paramCount, name: "n", ctype: "long long"},
			{kind: paramReduced, name: "m", ctype: "long long"},
			{kind: paramCols, name: "inner_", ctype: "long long"},
		}
	}
	var ps []param
	for k, o := range s.operands {
		if k == s.posOp {
			continue
		}
		qual := "const "
		if k == 0 {
			qual = ""
		}
		ps = append(ps, param{kind: paramPointer, a: k, name: fmt.Sprintf("o%d", k), ctype: qual + cTypes[o.dtype] + "*"})
	}
	if s.posOp >= 0 {
		ps = append(ps, param{kind: paramIndexOut, name: "oi", ctype: "long long*"})
	}
	for j := range s.consts {
		ps = append(ps, param{kind: paramConst, a: j, name: fmt.Sprintf("k%d", j), ctype: scalarParamType(s.dtype)})
	}
	ps = append(ps, param{kind: paramCount, name: "n", ctype: "long long"})
	if s.red != nil {
		ps = append(ps, param{kind: paramReduced, name: "m", ctype: "long long"})
		if s.strategy == redSplit {
			ps = append(ps, param{kind: paramParts, name: "q", ctype: "long long"})
		}
	}
	if s.flat {
		return ps
	}
	for d := range s.rank {
		ps = append(ps, param{kind: paramDim, a: d, name: fmt.Sprintf("d%d", d), ctype: "long long"})
	}
	for k, o := range s.operands {
		for d := range s.rank {
			if o.walks&(1<<d) != 0 {
				ps = append(ps, param{kind: paramStride, a: k, b: d, name: fmt.Sprintf("s%d_%d", k, d), ctype: "long long"})
			}
		}
	}
	return ps
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
func launchShape[T tensor.Number](s *kernelSpec, p *program[T], total, folded int64) (threads int, blocks, parts int64) {
	threads, parts = blockThreads, 1
	switch {
	case s.red == nil:
		units := total
		if s.vec > 0 {
			units = ceilDiv(total, int64(s.vec))
		}
		return threads, max(ceilDiv(units, blockThreads), 1), 1
	case s.strategy == redSplit:
		_, parts = reduceStrategy(p, total, folded)
		if s.reduced[s.rank-1] {
			return threads, total * parts, parts
		}
		return threads, max(ceilDiv(total*parts, blockThreads), 1), parts
	case s.strategy == redWarp:
		return threads, max(ceilDiv(total, blockThreads/32), 1), 1
	case s.strategy == redColumn:
		return threads, max(ceilDiv(total, blockThreads), 1), 1
	}
	return ReduceThreads, total, 1
}

// scalarParamType is the 8-byte type a constant of dtype travels as.
func scalarParamType(dtype string) string {
	switch {
	case dtype == "float32" || dtype == "float64":
		return "double"
	case strings.HasPrefix(dtype, "u"):
		return "unsigned long long"
	}
	return "long long"
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

// kernelHelpers are the generator's own device helpers, after ops.Prelude:
// the 16-byte vector type of vectorised kernels and a warp shuffle for
// every element type (CUDA's own takes no 8- or 16-bit integers). A guard
// lets several kernels share a translation unit.
const kernelHelpers = `#ifndef LAZE_KERNEL_HELPERS
#define LAZE_KERNEL_HELPERS
template <typename S, int V> struct alignas(16) laze_vec { S v[V]; };
template <typename S> __device__ __forceinline__ S laze_shfl_down(S v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ signed char laze_shfl_down(signed char v, int d) { return (signed char)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ unsigned char laze_shfl_down(unsigned char v, int d) { return (unsigned char)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
__device__ __forceinline__ short laze_shfl_down(short v, int d) { return (short)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ unsigned short laze_shfl_down(unsigned short v, int d) { return (unsigned short)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
#endif
`

// source writes the kernel's CUDA C: the prelude of op helpers, then one
// extern "C" __global__ function named name.
func (s *kernelSpec) source(name string) string {
	g := &cudaWriter{spec: s}
	g.line(0, "// Generated by laze from the structure: %s", s.key())
	g.b.WriteString(ops.Prelude)
	g.b.WriteString(kernelHelpers)
	g.line(0, "")
	var decl []string
	for _, p := range s.params() {
		decl = append(decl, p.ctype+" "+p.name)
	}
	g.line(0, "extern \"C\" __global__ void %s(%s) {", name, strings.Join(decl, ", "))
	g.line(1, "typedef %s T;", s.ctype)
	if s.kind == kindFinish || s.kind == kindGemm {
		g.line(1, "typedef long long I;")
	} else {
		g.line(1, "typedef %s I;", map[bool]string{true: "long long", false: "int"}[s.wide])
	}
	for j, slot := range s.consts {
		g.line(1, "const T v%d = (T)k%d;", slot, j)
	}
	switch {
	case s.kind == kindFinish:
		g.finish()
	case s.kind == kindGemm:
		g.gemm()
	case s.kind == kindScan:
		g.scan()
	case s.red == nil && s.vec > 0:
		g.vectorised()
	case s.red == nil:
		g.elementwise()
	case s.strategy == redWarp:
		g.warpReduction()
	case s.strategy == redColumn:
		g.columnReduction(false)
	case s.strategy == redSplit && !s.reduced[s.rank-1]:
		g.columnReduction(true)
	default:
		g.blockReduction(s.strategy == redSplit)
	}
	g.line(0, "}")
	return g.b.String()
}

// finish is the structure of the kernel that folds the partials of s, a
// split reduction.
func (s *kernelSpec) finish() *kernelSpec {
	return finishSpec(s.dtype, *s.red, s.identity)
}

// cudaWriter accumulates a kernel's source.
type cudaWriter struct {
	spec *kernelSpec
	b    strings.Builder
}

func (g *cudaWriter) line(indent int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", indent))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// elementwise writes the grid-stride loop over every element.
func (g *cudaWriter) elementwise() {
	g.line(1, "const I count = (I)n;")
	g.line(1, "for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < count; i += (I)blockDim.x * (I)gridDim.x) {")
	g.elementAt(2)
	g.line(1, "}")
}

// elementAt computes and stores element i.
func (g *cudaWriter) elementAt(indent int) {
	s := g.spec
	if s.flat {
		for k, o := range s.operands {
			idx := "0"
			if o.walks != 0 {
				idx = "i"
			}
			g.line(indent, "const I p%d = %s;", k, idx)
		}
	} else {
		g.offsets(indent, "i", g.allDims(), g.operandsExcept(-1))
	}
	g.body(indent, nil)
	g.line(indent, "o0[p0] = v%d;", s.result)
}

// vectorised writes the elementwise loop of a contiguous kernel whose
// operands are 16-byte aligned: each step loads and stores one 16-byte
// vector of vec elements per walking operand (broadcast operands are read
// as scalars), then the elements past the last whole vector are done one
// by one.
func (g *cudaWriter) vectorised() {
	s := g.spec
	v := s.vec
	g.line(1, "const I count = (I)n, vectors = count / %d;", v)
	g.line(1, "const I first = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x, step = (I)blockDim.x * (I)gridDim.x;")
	g.line(1, "for (I w = first; w < vectors; w += step) {")
	reads := make([]string, len(s.operands))
	for k, o := range s.operands {
		if k == 0 || o.walks == 0 {
			continue
		}
		vt := fmt.Sprintf("laze_vec<%s, %d>", cTypes[o.dtype], v)
		g.line(2, "const %s x%d = ((const %s*)o%d)[w];", vt, k, vt, k)
		reads[k] = fmt.Sprintf("x%d.v[e]", k)
	}
	g.line(2, "laze_vec<T, %d> y;", v)
	g.line(2, "#pragma unroll")
	g.line(2, "for (int e = 0; e < %d; ++e) {", v)
	g.body(3, reads)
	g.line(3, "y.v[e] = v%d;", s.result)
	g.line(2, "}")
	g.line(2, "((laze_vec<T, %d>*)o0)[w] = y;", v)
	g.line(1, "}")
	g.line(1, "for (I i = vectors * %d + first; i < count; i += step) {", v)
	g.elementAt(2)
	g.line(1, "}")
}

// reductionDims splits the dimensions into kept and reduced ones.
func (g *cudaWriter) reductionDims() (kept, reduced []int) {
	for d := range g.spec.rank {
		if g.spec.reduced[d] {
			reduced = append(reduced, d)
		} else {
			kept = append(kept, d)
		}
	}
	return kept, reduced
}

// resultBases sets b<k>, each operand's offset at result o (the
// destination's, and the others' start of the elements folded into o).
func (g *cudaWriter) resultBases(indent int, o string) {
	kept, _ := g.reductionDims()
	outer := g.baseOperands()
	g.line(indent, "{")
	g.offsets(indent+1, o, kept, outer)
	for _, k := range outer {
		g.line(indent+1, "b%d = p%d;", k, k)
	}
	g.line(indent, "}")
}

// baseOperands lists the operands that have a base offset per result: all
// but the index operand, and but the destination in a split reduction,
// whose partials are laid out by result and slice.
func (g *cudaWriter) baseOperands() []int {
	var ks []int
	for _, k := range g.operandsExcept(g.spec.posOp) {
		if k != 0 || g.spec.strategy != redSplit {
			ks = append(ks, k)
		}
	}
	return ks
}

// declareBases declares b<k> for baseOperands.
func (g *cudaWriter) declareBases(indent int) {
	var names []string
	for _, k := range g.baseOperands() {
		names = append(names, fmt.Sprintf("b%d", k))
	}
	if len(names) == 0 {
		return
	}
	g.line(indent, "I %s;", strings.Join(names, ", "))
}

// startAcc declares the accumulator (and its index) at the identity.
func (g *cudaWriter) startAcc(indent int) {
	g.line(indent, "T acc = %s;", g.spec.identity)
	if g.spec.red.Arg {
		g.line(indent, "long long acc_i = 0x7fffffffffffffffLL;")
	}
}

// foldLoop writes the loop folding the elements j of header (a for
// statement's parenthesised part) into acc: each element's offsets from
// the bases b<k>, the tree, and the combination.
func (g *cudaWriter) foldLoop(indent int, header string, unroll bool) {
	s := g.spec
	_, reduced := g.reductionDims()
	if unroll {
		g.line(indent, "#pragma unroll 4")
	}
	g.line(indent, "for (%s) {", header)
	inner := g.operandsExcept(0) // the destination does not walk the folded dimensions
	bases := make([]string, len(s.operands))
	for _, k := range inner {
		bases[k] = fmt.Sprintf("b%d", k)
	}
	if s.posOp >= 0 {
		bases[s.posOp] = "0"
	}
	g.offsetsFrom(indent+1, "j", reduced, inner, bases)
	g.body(indent+1, nil)
	if s.red.Arg {
		g.line(indent+1, "if (%sv%d, (long long)p%d, acc, acc_i)) { acc = v%d; acc_i = (long long)p%d; }", g.better(), s.result, s.posOp, s.result, s.posOp)
	} else {
		g.line(indent+1, "acc = %s;", g.combine("acc", fmt.Sprintf("v%d", s.result)))
	}
	g.line(indent, "}")
}

// combine is the reduction's combining op over two CUDA expressions.
func (g *cudaWriter) combine(x, y string) string {
	return "(T)(" + cudaExpr(g.spec.red.Combine, x, y, "") + ")"
}

// better is the start of a call of laze_better for the reduction.
func (g *cudaWriter) better() string {
	return fmt.Sprintf("laze_better(%t, ", g.spec.red.Combine == ops.Maximum)
}

// warpFold folds acc (and acc_i) across the warp with shuffles, in a fixed
// tree: lane 0 ends with the warp's result.
func (g *cudaWriter) warpFold(indent int) {
	g.line(indent, "for (int d = 16; d > 0; d /= 2) {")
	g.line(indent+1, "const T x = laze_shfl_down(acc, d);")
	if g.spec.red.Arg {
		g.line(indent+1, "const long long xi = laze_shfl_down(acc_i, d);")
		g.line(indent+1, "if (%sx, xi, acc, acc_i)) { acc = x; acc_i = xi; }", g.better())
	} else {
		g.line(indent+1, "acc = %s;", g.combine("acc", "x"))
	}
	g.line(indent, "}")
}

// blockFold folds acc (and acc_i) across the block: each warp with
// shuffles, then the warps' results by the first warp; thread 0 ends with
// the block's result. Every thread of the block must reach it.
func (g *cudaWriter) blockFold(indent int) {
	arg := g.spec.red.Arg
	g.warpFold(indent)
	g.line(indent, "if (lane == 0) { part[warp] = acc;%s }", map[bool]string{true: " part_i[warp] = acc_i;"}[arg])
	g.line(indent, "__syncthreads();")
	g.line(indent, "if (warp == 0) {")
	g.line(indent+1, "acc = lane < (int)(blockDim.x / 32) ? part[lane] : %s;", g.spec.identity)
	if arg {
		g.line(indent+1, "acc_i = lane < (int)(blockDim.x / 32) ? part_i[lane] : 0x7fffffffffffffffLL;")
	}
	g.warpFold(indent + 1)
	g.line(indent, "}")
	g.line(indent, "__syncthreads(); // part is free again")
}

// sharedParts declares the per-warp shared memory of blockFold and the
// thread's lane and warp.
func (g *cudaWriter) sharedParts(indent int) {
	g.line(indent, "__shared__ T part[32];")
	if g.spec.red.Arg {
		g.line(indent, "__shared__ long long part_i[32];")
	}
	g.line(indent, "const int lane = (int)(threadIdx.x %% 32), warp = (int)(threadIdx.x / 32);")
}

// store writes result o's value (and index) at offset at: the mean divided
// by folded unless raw (a partial).
func (g *cudaWriter) store(indent int, at string, raw bool) {
	switch {
	case g.spec.red.Arg:
		g.line(indent, "o0[%s] = acc;", at)
		g.line(indent, "oi[%s] = acc_i;", at)
	case g.spec.red.Average && !raw:
		g.line(indent, "o0[%s] = (T)(acc / (T)folded);", at)
	default:
		g.line(indent, "o0[%s] = acc;", at)
	}
}

// blockReduction writes one block of threads per unit of work, grid-stride:
// per result (split false), or per slice of a result's elements (split:
// result o has q slices, and slice r's partial goes to o0[o·q + r]). The
// block's threads fold every blockDim-th element each, neighbours reading
// neighbours, then combine in a fixed tree (blockFold).
func (g *cudaWriter) blockReduction(split bool) {
	g.sharedParts(1)
	g.line(1, "const I count = (I)n, folded = (I)m;")
	g.declareBases(1)
	if split {
		g.line(1, "const I parts = (I)q, chunk = (folded + parts - 1) / parts;")
		g.line(1, "for (I u = (I)blockIdx.x; u < count * parts; u += (I)gridDim.x) {")
		g.line(2, "const I o = u / parts, start = (u %% parts) * chunk, end = min(start + chunk, folded);")
		g.line(2, "(void)o; // unused when every dimension is reduced")
	} else {
		g.line(1, "for (I o = (I)blockIdx.x; o < count; o += (I)gridDim.x) {")
		g.line(2, "const I start = 0, end = folded;")
	}
	g.resultBases(2, "o")
	g.startAcc(2)
	g.foldLoop(2, "I j = start + (I)threadIdx.x; j < end; j += (I)blockDim.x", true)
	g.blockFold(2)
	g.line(2, "if (threadIdx.x == 0) {")
	if split {
		g.store(3, "u", true)
	} else {
		g.store(3, "b0", false)
	}
	g.line(2, "}")
	g.line(1, "}")
}

// warpReduction writes one warp per result, grid-stride: the lanes fold
// every 32nd element each, then combine with shuffles.
func (g *cudaWriter) warpReduction() {
	g.line(1, "const int lane = (int)(threadIdx.x %% 32);")
	g.line(1, "const I count = (I)n, folded = (I)m, warps = (I)(blockDim.x / 32) * (I)gridDim.x;")
	g.declareBases(1)
	g.line(1, "for (I o = (I)blockIdx.x * (I)(blockDim.x / 32) + (I)(threadIdx.x / 32); o < count; o += warps) {")
	g.resultBases(2, "o")
	g.startAcc(2)
	g.foldLoop(2, "I j = (I)lane; j < folded; j += 32", false)
	g.warpFold(2)
	g.line(2, "if (lane == 0) {")
	g.store(3, "b0", false)
	g.line(2, "}")
	g.line(1, "}")
}

// columnReduction writes one thread per result, grid-stride, folding its
// elements in order: neighbouring threads read neighbouring columns. Split,
// each thread folds one of q slices of a result's elements (unit u: result
// u mod count, slice u / count) into the partial o0[o·q + slice].
func (g *cudaWriter) columnReduction(split bool) {
	g.line(1, "const I count = (I)n, folded = (I)m;")
	g.declareBases(1)
	g.line(1, "const I first = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x, step = (I)blockDim.x * (I)gridDim.x;")
	if split {
		g.line(1, "const I parts = (I)q, chunk = (folded + parts - 1) / parts;")
		g.line(1, "for (I u = first; u < count * parts; u += step) {")
		g.line(2, "const I o = u %% count, slice = u / count, start = slice * chunk, end = min(start + chunk, folded);")
	} else {
		g.line(1, "for (I o = first; o < count; o += step) {")
		g.line(2, "const I start = 0, end = folded;")
	}
	g.resultBases(2, "o")
	g.startAcc(2)
	g.foldLoop(2, "I j = start; j < end; ++j", true)
	if split {
		g.store(2, "o * parts + slice", true)
	} else {
		g.store(2, "b0", false)
	}
	g.line(1, "}")
}

// finish writes the second kernel of a split reduction: one block per
// result, grid-stride, folding the result's q partials (o1[o·q …], with
// their indices o1i for an arg reduction) in a fixed tree into o0[o]; a
// mean is divided by m, the number of elements the partials folded.
func (g *cudaWriter) finish() {
	arg := g.spec.red.Arg
	g.sharedParts(1)
	g.line(1, "const I count = (I)n, parts = (I)q;")
	if g.spec.red.Average {
		g.line(1, "const I folded = (I)m;")
	}
	g.line(1, "for (I o = (I)blockIdx.x; o < count; o += (I)gridDim.x) {")
	g.startAcc(2)
	g.line(2, "for (I j = (I)threadIdx.x; j < parts; j += (I)blockDim.x) {")
	g.line(3, "const T x = o1[o * parts + j];")
	if arg {
		g.line(3, "const long long xi = o1i[o * parts + j];")
		g.line(3, "if (%sx, xi, acc, acc_i)) { acc = x; acc_i = xi; }", g.better())
	} else {
		g.line(3, "acc = %s;", g.combine("acc", "x"))
	}
	g.line(2, "}")
	g.blockFold(2)
	g.line(2, "if (threadIdx.x == 0) {")
	g.store(3, "o", false)
	g.line(2, "}")
	g.line(1, "}")
}

// allDims lists every dimension, outermost first.
func (g *cudaWriter) allDims() []int {
	dims := make([]int, g.spec.rank)
	for d := range dims {
		dims[d] = d
	}
	return dims
}

// operandsExcept lists the operands but one (-1: none left out).
func (g *cudaWriter) operandsExcept(skip int) []int {
	var ks []int
	for k := range g.spec.operands {
		if k != skip {
			ks = append(ks, k)
		}
	}
	return ks
}

// offsets declares p<k> for the operands ks: each one's offset at linear
// index idx over dims (row-major, the last varying fastest).
func (g *cudaWriter) offsets(indent int, idx string, dims, ks []int) {
	bases := make([]string, len(g.spec.operands))
	for k := range bases {
		bases[k] = "0"
	}
	g.offsetsFrom(indent, idx, dims, ks, bases)
}

// offsetsFrom declares p<k> = bases[k] plus operand k's offset at linear
// index idx over dims, for the operands ks. Dimensions no operand of ks
// walks cost a division only when an outer one needs the quotient.
func (g *cudaWriter) offsetsFrom(indent int, idx string, dims, ks []int, bases []string) {
	s := g.spec
	for _, k := range ks {
		g.line(indent, "I p%d = %s;", k, bases[k])
	}
	terms := make([][]string, len(dims))
	outer := -1 // the outermost dimension some operand walks
	for i, d := range dims {
		for _, k := range ks {
			if s.operands[k].walks&(1<<d) != 0 {
				terms[i] = append(terms[i], fmt.Sprintf("p%d += c * (I)s%d_%d;", k, k, d))
			}
		}
		if len(terms[i]) > 0 && outer < 0 {
			outer = i
		}
	}
	if outer < 0 {
		return
	}
	g.line(indent, "I rest = %s;", idx)
	for i := len(dims) - 1; i >= outer; i-- {
		d := dims[i]
		switch {
		case i == outer && i == 0:
			g.line(indent, "{ const I c = rest; %s }", strings.Join(terms[i], " "))
		case i == outer:
			g.line(indent, "{ const I c = rest %% (I)d%d; %s }", d, strings.Join(terms[i], " "))
		case len(terms[i]) == 0:
			g.line(indent, "rest /= (I)d%d;", d)
		default:
			g.line(indent, "{ const I c = rest %% (I)d%d; rest /= (I)d%d; %s }", d, d, strings.Join(terms[i], " "))
		}
	}
}

// body declares each leaf's value (v<slot>) and each instruction's. reads,
// when not nil, gives the expression of leaf i's value (operand 1+i) where
// it is not empty; other leaves are read at their offsets p<k>.
func (g *cudaWriter) body(indent int, reads []string) {
	s := g.spec
	for i, slot := range s.leafSlot {
		read := fmt.Sprintf("o%d[p%d]", 1+i, 1+i)
		if reads != nil && reads[1+i] != "" {
			read = reads[1+i]
		} else if reads != nil {
			read = fmt.Sprintf("o%d[0]", 1+i)
		}
		g.line(indent, "const T v%d = (T)%s;", slot, read)
	}
	for _, in := range s.code {
		args := make([]string, 4)
		for j, a := range in.args[:in.arity()] {
			args[j] = fmt.Sprintf("v%d", a)
		}
		if chain := in.chain(); len(chain) > 1 {
			// a fused chain: each step rounded to T, named v<out> with one
			// underscore per step still to come.
			name := func(step int) string { return fmt.Sprintf("v%d%s", in.out, strings.Repeat("_", len(chain)-1-step)) }
			left, right := args[0], args[1]
			for step, op := range chain {
				g.line(indent, "const T %s = (T)(%s);", name(step), cudaExpr(op, left, right, ""))
				left, right = name(step), args[min(step+2, len(args)-1)]
			}
			continue
		}
		g.line(indent, "const T v%d = (T)(%s);", in.out, cudaExpr(in.op, args[0], args[1], args[2]))
	}
}

// operandName matches the operand names and the type in the op table's
// CUDA column.
var operandName = regexp.MustCompile(`\b[abcT]\b`)

// cudaExpr is op's CUDA definition from the op table over the given
// operand expressions.
func cudaExpr(op ops.Op, a, b, c string) string {
	return operandName.ReplaceAllStringFunc(op.Def().CUDA, func(id string) string {
		switch id {
		case "a":
			return a
		case "b":
			return b
		case "c":
			return c
		}
		return "T"
	})
}

// identityLiteral writes v (a reduction's identity from ops.Start) as a
// CUDA expression of type T; infinities, which C has no literal for, by
// their bits.
func identityLiteral[T tensor.Number](v T) string {
	f := float64(v)
	switch {
	case math.IsInf(f, 1):
		return "(T)__longlong_as_double(0x7ff0000000000000LL)"
	case math.IsInf(f, -1):
		return "(T)__longlong_as_double(0xfff0000000000000LL)"
	case v < 0:
		return fmt.Sprintf("(T)(%dLL - 1)", int64(v)+1) // the most negative int64 has no literal
	}
	return fmt.Sprintf("(T)%dULL", uint64(v))
}
