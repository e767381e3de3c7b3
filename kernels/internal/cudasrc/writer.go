package cudasrc

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// gemmWide is the type a product of element type ctype accumulates in: the
// type itself for floats, else an unsigned type at least as wide as int.
func gemmWide(ctype string) string {
	switch {
	case ctype == "float" || ctype == "double":
		return ctype
	case strings.Contains(ctype, "long long"):
		return "unsigned long long"
	}
	return "unsigned int"
}

// gemm writes the tiled product: C (rows×cols, o0) = A (rows×inner, o1) ·
// B (inner×cols, o2), row-major and contiguous; the blocks loop
// grid-stride over C's tiles.
func (g *cudaWriter) gemm() {
	g.line(1, "typedef %s W;", gemmWide(g.spec.CType))
	g.line(1, "__shared__ T ta[%d][%d];", GemmTile, GemmTile)
	g.line(1, "__shared__ T tb[%d][%d];", GemmTile, GemmTile)
	g.line(1, "const int tx = (int)(threadIdx.x %% %d), ty = (int)(threadIdx.x / %d);", GemmTile, GemmTile)
	g.line(1, "const I tilesAcross = (cols + %d) / %d, tiles = (rows + %d) / %d * tilesAcross;", GemmTile-1, GemmTile, GemmTile-1, GemmTile)
	g.line(1, "for (I t = (I)blockIdx.x; t < tiles; t += (I)gridDim.x) {")
	g.line(2, "const I r = t / tilesAcross * %d + ty, c = t %% tilesAcross * %d + tx;", GemmTile, GemmTile)
	g.line(2, "W acc = (W)0;")
	g.line(2, "for (I k0 = 0; k0 < inner; k0 += %d) {", GemmTile)
	g.line(3, "ta[ty][tx] = (r < rows && k0 + tx < inner) ? o1[r * inner + k0 + tx] : (T)0;")
	g.line(3, "tb[ty][tx] = (k0 + ty < inner && c < cols) ? o2[(k0 + ty) * cols + c] : (T)0;")
	g.line(3, "__syncthreads();")
	g.line(3, "#pragma unroll")
	g.line(3, "for (int kk = 0; kk < %d; ++kk) {", GemmTile)
	g.line(4, "acc = (W)(acc + (W)ta[ty][kk] * (W)tb[kk][tx]);")
	g.line(3, "}")
	g.line(3, "__syncthreads();")
	g.line(2, "}")
	g.line(2, "if (r < rows && c < cols) {")
	g.line(3, "o0[r * cols + c] = (T)acc;")
	g.line(2, "}")
	g.line(1, "}")
}

// KernelHelpers are the generator's own device helpers, after ops.Prelude:
// the 16-byte vector type of vectorised kernels and a warp shuffle for
// every element type (CUDA's own takes no 8- or 16-bit integers). A guard
// lets several kernels share a translation unit.
const KernelHelpers = `#ifndef LAZE_KERNEL_HELPERS
#define LAZE_KERNEL_HELPERS
template <typename S, int V> struct alignas(16) laze_vec { S v[V]; };
template <typename S> __device__ __forceinline__ S laze_shfl_down(S v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ signed char laze_shfl_down(signed char v, int d) { return (signed char)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ unsigned char laze_shfl_down(unsigned char v, int d) { return (unsigned char)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
__device__ __forceinline__ short laze_shfl_down(short v, int d) { return (short)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ unsigned short laze_shfl_down(unsigned short v, int d) { return (unsigned short)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
#endif
`

// GeneratorHelpers are the formulas of generator leaves (Operand.Gen),
// after KernelHelpers in the kernels that have one: expr.Generator.Value's
// formulas bit for bit, each operation rounded as the Go code rounds it
// (--fmad=false keeps products and sums apart). A guard lets several
// kernels share a translation unit.
const GeneratorHelpers = `#ifndef LAZE_GENERATOR_HELPERS
#define LAZE_GENERATOR_HELPERS
// laze_arange is numpy.arange's element q for a float T: first, second,
// then first + (T)q * delta, the product and the sum each rounded to T.
template <typename T, typename P> __device__ __forceinline__ T laze_arange(long long q, P first, P second, P delta) {
  if (q == 0) return (T)first;
  if (q == 1) return (T)second;
  return (T)((T)first + (T)((T)q * (T)delta));
}
// laze_arange_int is laze_arange for an integer T (second is first +
// delta), wrapping as Go does: in unsigned long long arithmetic, whose
// wrap-around C++ defines, then truncated to T.
template <typename T, typename P> __device__ __forceinline__ T laze_arange_int(long long q, P first, P, P delta) {
  return (T)((unsigned long long)first + (unsigned long long)q * (unsigned long long)delta);
}
// laze_linspace is numpy.linspace's element q in double: q * step + start,
// or stop exactly at position last.
__device__ __forceinline__ double laze_linspace(long long q, double start, double step, double stop, long long last) {
  return q == last ? stop : (double)q * step + start;
}
// laze_diagonal reports whether position q of a row-major matrix of cols
// columns is on its k-th diagonal (below: or below it), where numpy.eye
// (numpy.tri) has its ones.
__device__ __forceinline__ bool laze_diagonal(long long q, long long cols, long long k, bool below) {
  const long long r = q / cols, c = q - r * cols;
  return below ? c - r <= k : c - r == k;
}
#endif
`

// Source writes the kernel's CUDA C: the prelude of op helpers, then one
// extern "C" __global__ function named name.
func (s *Spec) Source(name string) string {
	g := &cudaWriter{spec: s}
	g.line(0, "// Generated by laze from the structure: %s", s.Key())
	g.b.WriteString(ops.Prelude)
	g.b.WriteString(KernelHelpers)
	if s.hasGenerator() {
		g.b.WriteString(GeneratorHelpers)
	}
	g.line(0, "")
	var decl []string
	for _, p := range s.Params() {
		decl = append(decl, p.CType+" "+p.Name)
	}
	g.line(0, "extern \"C\" __global__ void %s(%s) {", name, strings.Join(decl, ", "))
	g.line(1, "typedef %s T;", s.CType)
	if s.Kind == KindFinish || s.Kind == KindGemm || s.Kind == KindGather {
		g.line(1, "typedef long long I;")
	} else {
		g.line(1, "typedef %s I;", map[bool]string{true: "long long", false: "int"}[s.Wide])
	}
	for j, slot := range s.Consts {
		g.line(1, "const T v%d = (T)k%d;", slot, j)
	}
	switch {
	case s.Kind == KindFinish:
		g.finish()
	case s.Kind == KindGemm:
		g.gemm()
	case s.Kind == KindScan:
		g.scan()
	case s.Kind == KindGather:
		g.gather()
	case s.Red == nil && s.Vec > 0:
		g.vectorised()
	case s.Red == nil && s.Tiled != 0:
		g.tiled()
	case s.Red == nil:
		g.elementwise()
	case s.Strategy == RedWarp:
		g.warpReduction()
	case s.Strategy == RedColumn:
		g.columnReduction(false)
	case s.Strategy == RedSplit && !s.Reduced[s.Rank-1]:
		g.columnReduction(true)
	default:
		g.blockReduction(s.Strategy == RedSplit)
	}
	g.line(0, "}")
	return g.b.String()
}

// hasGenerator reports whether some operand of s is a generator.
func (s *Spec) hasGenerator() bool {
	for _, o := range s.Operands {
		if o.Gen != GenNone {
			return true
		}
	}
	return false
}

// cudaWriter accumulates a kernel's source.
type cudaWriter struct {
	spec *Spec
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
	if s.Flat {
		for k, o := range s.Operands {
			idx := "0"
			if o.Walks != 0 {
				idx = "i"
			}
			g.line(indent, "const I p%d = %s;", k, idx)
		}
	} else {
		g.offsets(indent, "i", g.allDims(), g.operandsExcept(-1))
	}
	g.body(indent, nil)
	g.line(indent, "o0[p0] = v%d;", s.Result)
}

// tiled writes the elementwise kernel for operands transposed against the
// destination: each block loops grid-stride over TileSide² tiles of the
// last two dimensions (the others are a batch of planes). It first copies
// each tiled operand's tile into shared memory, neighbouring threads
// reading neighbouring rows (that operand's stride-1 direction), then
// computes the tile, neighbouring threads writing neighbouring columns and
// reading the tiled operands across the staged tile. The rest are read
// where they lie. Any strides give the right result.
func (g *cudaWriter) tiled() {
	s := g.spec
	r := s.Rank
	rowsPerPass := tileThreads / TileSide
	var tiled, direct []int
	for k, o := range s.Operands {
		if s.Tiled&(1<<k) != 0 {
			tiled = append(tiled, k)
			g.line(1, "__shared__ %s t%d[%d][%d];", CTypes[o.DType], k, TileSide, TileSide+1)
		} else {
			direct = append(direct, k)
		}
	}
	g.line(1, "const I rows = (I)d%d, cols = (I)d%d;", r-2, r-1)
	g.line(1, "if (rows == 0 || cols == 0) return;")
	g.line(1, "const I across = (cols + %d) / %d, tilesPerPlane = (rows + %d) / %d * across, tiles = (I)n / (rows * cols) * tilesPerPlane;",
		TileSide-1, TileSide, TileSide-1, TileSide)
	g.line(1, "const int tx = (int)(threadIdx.x %% %d), ty = (int)(threadIdx.x / %d);", TileSide, TileSide)
	g.line(1, "for (I t = (I)blockIdx.x; t < tiles; t += (I)gridDim.x) {")
	g.line(2, "const I r0 = t %% tilesPerPlane / across * %d, c0 = t %% across * %d;", TileSide, TileSide)
	g.offsets(2, "t / tilesPerPlane", g.allDims()[:r-2], g.operandsExcept(-1))
	// pos is operand k's offset at row rr, column cc of the plane.
	pos := func(k int, rr, cc string) string {
		at := fmt.Sprintf("p%d", k)
		if s.Operands[k].Walks&(1<<(r-2)) != 0 {
			at += fmt.Sprintf(" + %s * (I)s%d_%d", rr, k, r-2)
		}
		if s.Operands[k].Walks&(1<<(r-1)) != 0 {
			at += fmt.Sprintf(" + %s * (I)s%d_%d", cc, k, r-1)
		}
		return at
	}
	g.line(2, "for (int j = ty; j < %d; j += %d) {", TileSide, rowsPerPass)
	g.line(3, "const I rr = r0 + tx, cc = c0 + j;")
	g.line(3, "if (rr < rows && cc < cols) {")
	for _, k := range tiled {
		g.line(4, "t%d[j][tx] = o%d[%s];", k, k, pos(k, "rr", "cc"))
	}
	g.line(3, "}")
	g.line(2, "}")
	g.line(2, "__syncthreads();")
	g.line(2, "for (int j = ty; j < %d; j += %d) {", TileSide, rowsPerPass)
	g.line(3, "const I rr = r0 + j, cc = c0 + tx;")
	g.line(3, "if (rr < rows && cc < cols) {")
	reads := make([]string, len(s.Operands))
	for _, k := range tiled {
		reads[k] = fmt.Sprintf("t%d[tx][j]", k)
	}
	for _, k := range direct {
		if s.Operands[k].Gen != GenNone {
			reads[k] = g.genValue(k, pos(k, "rr", "cc"))
			continue
		}
		reads[k] = fmt.Sprintf("o%d[%s]", k, pos(k, "rr", "cc"))
	}
	g.body(4, reads)
	g.line(4, "o0[%s] = v%d;", pos(0, "rr", "cc"), s.Result)
	g.line(3, "}")
	g.line(2, "}")
	g.line(2, "__syncthreads();")
	g.line(1, "}")
}

// vectorised writes the elementwise loop of a contiguous kernel whose
// operands are 16-byte aligned: each step loads and stores one 16-byte
// vector of vec elements per walking operand (broadcast operands are read
// as scalars; generators, which have no memory, are computed at each
// element's position), then the elements past the last whole vector are
// done one by one.
func (g *cudaWriter) vectorised() {
	s := g.spec
	v := s.Vec
	g.line(1, "const I count = (I)n, vectors = count / %d;", v)
	g.line(1, "const I first = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x, step = (I)blockDim.x * (I)gridDim.x;")
	g.line(1, "for (I w = first; w < vectors; w += step) {")
	reads := make([]string, len(s.Operands))
	for k, o := range s.Operands {
		if k > 0 && o.Gen != GenNone {
			at := "0"
			if o.Walks != 0 {
				at = fmt.Sprintf("w * %d + e", v)
			}
			reads[k] = g.genValue(k, at)
			continue
		}
		if k == 0 || o.Walks == 0 {
			continue
		}
		vt := fmt.Sprintf("laze_vec<%s, %d>", CTypes[o.DType], v)
		g.line(2, "const %s x%d = ((const %s*)o%d)[w];", vt, k, vt, k)
		reads[k] = fmt.Sprintf("x%d.v[e]", k)
	}
	g.line(2, "laze_vec<T, %d> y;", v)
	g.line(2, "#pragma unroll")
	g.line(2, "for (int e = 0; e < %d; ++e) {", v)
	g.body(3, reads)
	g.line(3, "y.v[e] = v%d;", s.Result)
	g.line(2, "}")
	g.line(2, "((laze_vec<T, %d>*)o0)[w] = y;", v)
	g.line(1, "}")
	g.line(1, "for (I i = vectors * %d + first; i < count; i += step) {", v)
	g.elementAt(2)
	g.line(1, "}")
}

// reductionDims splits the dimensions into kept and reduced ones.
func (g *cudaWriter) reductionDims() (kept, reduced []int) {
	for d := range g.spec.Rank {
		if g.spec.Reduced[d] {
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
	for _, k := range g.operandsExcept(g.spec.PosOp) {
		if k != 0 || g.spec.Strategy != RedSplit {
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
	g.line(indent, "T acc = %s;", g.spec.Identity)
	if g.spec.Red.Arg {
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
	bases := make([]string, len(s.Operands))
	for _, k := range inner {
		bases[k] = fmt.Sprintf("b%d", k)
	}
	if s.PosOp >= 0 {
		bases[s.PosOp] = "0"
	}
	g.offsetsFrom(indent+1, "j", reduced, inner, bases)
	g.body(indent+1, nil)
	if s.Red.Arg {
		g.line(indent+1, "if (%sv%d, (long long)p%d, acc, acc_i)) { acc = v%d; acc_i = (long long)p%d; }", g.better(), s.Result, s.PosOp, s.Result, s.PosOp)
	} else {
		g.line(indent+1, "acc = %s;", g.combine("acc", fmt.Sprintf("v%d", s.Result)))
	}
	g.line(indent, "}")
}

// combine is the reduction's combining op over two CUDA expressions.
func (g *cudaWriter) combine(x, y string) string {
	return "(T)(" + Expr(g.spec.Red.Combine, x, y, "") + ")"
}

// better is the start of a call of laze_better for the reduction.
func (g *cudaWriter) better() string {
	return fmt.Sprintf("laze_better(%t, ", g.spec.Red.Combine == ops.Maximum)
}

// warpFold folds acc (and acc_i) across the warp with shuffles, in a fixed
// tree: lane 0 ends with the warp's result.
func (g *cudaWriter) warpFold(indent int) {
	g.line(indent, "for (int d = 16; d > 0; d /= 2) {")
	g.line(indent+1, "const T x = laze_shfl_down(acc, d);")
	if g.spec.Red.Arg {
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
	arg := g.spec.Red.Arg
	g.warpFold(indent)
	g.line(indent, "if (lane == 0) { part[warp] = acc;%s }", map[bool]string{true: " part_i[warp] = acc_i;"}[arg])
	g.line(indent, "__syncthreads();")
	g.line(indent, "if (warp == 0) {")
	g.line(indent+1, "acc = lane < (int)(blockDim.x / 32) ? part[lane] : %s;", g.spec.Identity)
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
	if g.spec.Red.Arg {
		g.line(indent, "__shared__ long long part_i[32];")
	}
	g.line(indent, "const int lane = (int)(threadIdx.x %% 32), warp = (int)(threadIdx.x / 32);")
}

// store writes result o's value (and index) at offset at: the mean divided
// by folded unless raw (a partial).
func (g *cudaWriter) store(indent int, at string, raw bool) {
	switch {
	case g.spec.Red.Arg:
		g.line(indent, "o0[%s] = acc;", at)
		g.line(indent, "oi[%s] = acc_i;", at)
	case g.spec.Red.Average && !raw:
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
	arg := g.spec.Red.Arg
	g.sharedParts(1)
	g.line(1, "const I count = (I)n, parts = (I)q;")
	if g.spec.Red.Average {
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
	dims := make([]int, g.spec.Rank)
	for d := range dims {
		dims[d] = d
	}
	return dims
}

// operandsExcept lists the operands but one (-1: none left out).
func (g *cudaWriter) operandsExcept(skip int) []int {
	var ks []int
	for k := range g.spec.Operands {
		if k != skip {
			ks = append(ks, k)
		}
	}
	return ks
}

// offsets declares p<k> for the operands ks: each one's offset at linear
// index idx over dims (row-major, the last varying fastest).
func (g *cudaWriter) offsets(indent int, idx string, dims, ks []int) {
	bases := make([]string, len(g.spec.Operands))
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
			if s.Operands[k].Walks&(1<<d) != 0 {
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
// it is not empty; other leaves are read at their offsets p<k>, or, for a
// generator, computed from them.
func (g *cudaWriter) body(indent int, reads []string) {
	s := g.spec
	for i, slot := range s.LeafSlot {
		k := 1 + i
		read := fmt.Sprintf("o%d[p%d]", k, k)
		switch {
		case reads != nil && reads[k] != "":
			read = reads[k]
		case s.Operands[k].Gen != GenNone:
			read = g.genValue(k, fmt.Sprintf("p%d", k))
		case reads != nil:
			read = fmt.Sprintf("o%d[0]", k)
		}
		g.line(indent, "const T v%d = (T)%s;", slot, read)
	}
	for _, in := range s.Code {
		args := make([]string, 4)
		for j, a := range in.Args[:in.Arity()] {
			args[j] = fmt.Sprintf("v%d", a)
		}
		if chain := in.Chain(); len(chain) > 1 {
			// a fused chain: each step rounded to T, named v<out> with one
			// underscore per step still to come.
			name := func(step int) string { return fmt.Sprintf("v%d%s", in.Out, strings.Repeat("_", len(chain)-1-step)) }
			left, right := args[0], args[1]
			for step, op := range chain {
				g.line(indent, "const T %s = (T)(%s);", name(step), Expr(op, left, right, ""))
				left, right = name(step), args[min(step+2, len(args)-1)]
			}
			continue
		}
		g.line(indent, "const T v%d = (T)(%s);", in.Out, Expr(in.Op, args[0], args[1], args[2]))
	}
}

// genValue is the CUDA expression of generator operand k's element at
// walk offset at (an expression of the walk, as p<k> is for an operand in
// memory): its formula (KernelHelpers) at the position g<k>o + at, in 64
// bits whatever the index type, with its arguments g<k>_<name>.
func (g *cudaWriter) genValue(k int, at string) string {
	s := g.spec
	o := s.Operands[k]
	q := fmt.Sprintf("(long long)g%do + (long long)(%s)", k, at)
	args := []string{q}
	for _, a := range GenArgs(o.Gen) {
		args = append(args, genParamName(k, a))
	}
	call := func(f string) string { return f + "(" + strings.Join(args, ", ") + ")" }
	switch o.Gen {
	case GenArange:
		if s.DType.IsFloat() {
			return call("laze_arange<T>")
		}
		return call("laze_arange_int<T>")
	case GenLinspace:
		if s.DType.IsFloat() {
			return "(T)" + call("laze_linspace")
		}
		return "(T)floor(" + call("laze_linspace") + ")" // NumPy 2 rounds towards -inf for an integer dtype
	case GenFull:
		return "(T)" + args[1]
	case GenEye, GenTri:
		return fmt.Sprintf("(T)laze_diagonal(%s, %t)", strings.Join(args, ", "), o.Gen == GenTri)
	}
	panic(fmt.Sprintf("cudasrc: operand %d: no formula for generator %v", k, o.Gen))
}

// operandName matches the operand names and the type in the op table's
// CUDA column.
var operandName = regexp.MustCompile(`\b[abcT]\b`)

// Expr is op's CUDA definition from the op table over the given
// operand expressions.
func Expr(op ops.Op, a, b, c string) string {
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

// IdentityLiteral writes v (a reduction's identity from ops.Start) as a
// CUDA expression of type T; infinities, which C has no literal for, by
// their bits.
func IdentityLiteral[T tensor.Number](v T) string {
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

// gather writes the gather kernel's loop (GatherSpec): each thread copies
// result elements, grid-stride, from x at the sum of its prefix, batch and
// suffix positions' offsets.
func (g *cudaWriter) gather() {
	g.line(1, "const I count = (I)n, batch = (I)m, block = (I)inner_;")
	g.line(1, "for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < count; i += (I)blockDim.x * (I)gridDim.x) {")
	g.line(2, "const I s = i %% block, r = i / block;")
	g.line(2, "o0[i] = o1[o2[r / batch] + o3[r %% batch] + o4[s]];")
	g.line(1, "}")
}

// scan writes the scan kernel's body: thread i folds line i, whose
// elements lie at base + k·inner for k < length.
func (g *cudaWriter) scan() {
	g.line(1, "const I count = (I)n, length = (I)m, inner = (I)inner_;")
	g.line(1, "for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < count; i += (I)blockDim.x * (I)gridDim.x) {")
	g.line(2, "const I base = i / inner * length * inner + i %% inner;")
	g.line(2, "T acc = o1[base];")
	g.line(2, "o0[base] = acc;")
	g.line(2, "for (I k = 1; k < length; ++k) {")
	g.line(3, "acc = (T)(%s);", Expr(g.spec.Red.Combine, "acc", "o1[base + k * inner]", ""))
	g.line(3, "o0[base + k * inner] = acc;")
	g.line(2, "}")
	g.line(1, "}")
}
