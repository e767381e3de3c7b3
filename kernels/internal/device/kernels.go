package device

import (
	"math"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
)

// A lowered pass as the CUDA code generation reads it: its geometry
// (geometryOf: shape, strides, alignment), from which
// kernels/internal/cudasrc picks the kernel's variant and launch shape,
// and its structure (specOf: ops, element types, which operands walk which
// dimensions), from which cudasrc writes the source; then the launches
// built from them (a pass's, a split reduction's two, a scan's, the
// generated product's) with their parameters packed, and queued on a
// Backend. Every CUDA decision is cudasrc's. See docs/design.md, "The CUDA
// backend".

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = cudasrc.ReduceThreads

// geometryOf describes p's shape, strides and alignment for the launch
// policy, without allocating. Generator leaves have no memory to align:
// they are marked Computed.
func geometryOf[T tensor.Number](p *ir.Pass[T]) cudasrc.Geometry {
	g := cudasrc.Geometry{Shape: p.Shape, Strides: p.Strides, ItemSize: tensor.ItemSize[T](), Reduce: p.Red != nil, Aligned: true}
	for k, m := range p.Mems {
		if generatorAt(p, k) != nil {
			if k < 64 {
				g.Computed |= 1 << k
			}
			continue
		}
		st := p.Strides[k]
		if len(st) == 1 && st[0] == 1 && (m.ItemSize != g.ItemSize || !vectorAligned(m, p.Offsets[k])) {
			g.Aligned = false
		}
	}
	return g
}

// generatorAt returns the generator that operand k of p computes, or nil
// when the operand is not a generator leaf (ir.Generated).
func generatorAt[T tensor.Number](p *ir.Pass[T], k int) *expr.Generator[T] {
	if i := k - 1; i >= 0 && i < len(p.Convert) {
		if c, ok := p.Convert[i].(ir.Generated[T]); ok {
			return c.Generator()
		}
	}
	return nil
}

// genKinds converts expr's generator kinds to the code generation's.
var genKinds = map[expr.GenKind]cudasrc.GenKind{
	expr.GenArange: cudasrc.GenArange, expr.GenLinspace: cudasrc.GenLinspace, expr.GenFull: cudasrc.GenFull,
	expr.GenEye: cudasrc.GenEye, expr.GenTri: cudasrc.GenTri,
}

// genArgBits is argument a of generator gen as the 8 bytes of its
// parameter type (cudasrc.GenArgs: values in T travel as constants do,
// linspace's as doubles, sizes and positions as long long).
func genArgBits[T tensor.Number](gen *expr.Generator[T], a cudasrc.GenArg) uint64 {
	q := gen.Params()
	switch a {
	case cudasrc.GenFirst:
		return scalarBits(q.First)
	case cudasrc.GenSecond:
		return scalarBits(q.Second)
	case cudasrc.GenDelta:
		return scalarBits(q.Delta)
	case cudasrc.GenValue:
		return scalarBits(q.Value)
	case cudasrc.GenStart:
		return math.Float64bits(q.Start)
	case cudasrc.GenStep:
		return math.Float64bits(q.Step)
	case cudasrc.GenStop:
		return math.Float64bits(q.Stop)
	case cudasrc.GenLast:
		return uint64(int64(q.Last))
	case cudasrc.GenCols:
		return uint64(max(q.Cols, 1)) // a matrix with no columns has no elements; the kernel never divides by it
	case cudasrc.GenDiag:
		return uint64(int64(q.K))
	}
	return 0
}

// Variant returns p's variant (cudasrc.Variant): a cheap function of p's
// sizes, strides and addresses, which together with the tree's structure
// determines the kernel.
func Variant[T tensor.Number](p *ir.Pass[T]) uint8 { return cudasrc.Variant(geometryOf(p)) }

// vectorAligned reports whether the operand's element at offset is 16-byte
// aligned. Host memory (CUDASource on CPU tensors) is taken to start as a
// device block does, aligned, so that the listing shows what the tensors
// would run once moved to a GPU, whatever the host addresses.
func vectorAligned(m ir.Memory, offset int) bool {
	if m.Block == nil || m.Block.Device().Kind() == alloc.KindCPU {
		return offset*m.ItemSize%cudasrc.VectorBytes == 0
	}
	return m.Address(offset)%cudasrc.VectorBytes == 0
}

// specOf describes p's structure. p must not be a no-op.
func specOf[T tensor.Number](p *ir.Pass[T]) *cudasrc.Spec {
	s := &cudasrc.Spec{Kind: cudasrc.KindMap, DType: tensor.DTypeOf[T](), Rank: len(p.Shape), PosOp: -1,
		Code: cudaInstrs(p.Code), LeafSlot: p.LeafSlot, Result: p.Result}
	s.CType = cudasrc.CTypes[s.DType]
	if p.Red != nil {
		s.Kind = cudasrc.KindReduce
		def := p.Red.Def
		s.Red = &def
		s.Identity = cudasrc.IdentityLiteral(ops.Start[T](def.Identity))
		if def.Arg {
			s.PosOp = p.Red.Pos
		}
	}
	for _, c := range p.Consts {
		s.Consts = append(s.Consts, c.Slot)
	}
	for _, c := range p.Convert {
		_, gen := c.(ir.Generated[T])
		s.LeafConv = append(s.LeafConv, c != nil && !gen)
	}
	s.Flat = s.Red == nil && s.Rank == 1
	for k, st := range p.Strides {
		o := cudasrc.Operand{DType: p.Mems[k].DType}
		if o.DType == tensor.Invalid {
			o.DType = s.DType
		}
		if gen := generatorAt(p, k); gen != nil {
			o.Gen = genKinds[gen.Kind()]
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
	g := geometryOf(p)
	s.SetVariant(cudasrc.Variant(g), g)
	if s.Red != nil {
		s.Reduced = make([]bool, s.Rank)
		for d := range s.Rank {
			s.Reduced[d] = p.Strides[0][d] == 0
		}
	}
	return s
}

// cudaInstrs converts a program's instructions to the code generator's.
func cudaInstrs(code []ir.Instr) []cudasrc.Instr {
	out := make([]cudasrc.Instr, len(code))
	for i := range code {
		in := &code[i]
		out[i] = cudasrc.Instr{Op: in.Op, Op2: in.Op2, Op3: in.Op3, Steps: len(in.Chain()), NArgs: in.Arity(), Out: in.Out, Args: in.Args}
	}
	return out
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

// ProgramKernel returns the launch of p's kernel, or nil when p launches
// none (a pass that is a no-op, or over no elements).
func ProgramKernel[T tensor.Number](p *ir.Pass[T]) *Kernel {
	if p == nil || p.Noop {
		return nil
	}
	if k := KernelFor(p); k.Work > 0 {
		return k
	}
	return nil
}

// KernelFor builds the launch of p's kernel: its structure (the source is
// generated only when the backend asks for it) and its parameters.
func KernelFor[T tensor.Number](p *ir.Pass[T]) *Kernel {
	k := NewKernel(p)
	PackParams(k, p)
	return k
}

// NewKernel describes p's kernel: its structure, name and parameter list,
// the part of a launch that depends only on the program's structure.
func NewKernel[T tensor.Number](p *ir.Pass[T]) *Kernel {
	spec := specOf(p)
	key := spec.Key()
	spec.ParamList = spec.Params()
	return &Kernel{Name: cudasrc.KernelName(key), Key: key, Reduction: p.Red != nil, spec: spec}
}

// PackParams sets k's Work and Params for p, which has k's structure:
// the part of a launch that changes from one call to the next. It reuses
// k.Params' memory.
func PackParams[T tensor.Number](k *Kernel, p *ir.Pass[T]) {
	spec := k.spec
	g := geometryOf(p)
	total, folded := g.Sizes() // elements (results, for a reduction); elements folded into each
	k.Work = total
	var parts int64
	k.Threads, k.Blocks, parts = cudasrc.LaunchShape(spec, g)
	k.Params = k.Params[:0]
	for _, pa := range spec.ParamList {
		var v uint64
		switch pa.Kind {
		case cudasrc.ParamPointer:
			v = p.Mems[pa.A].Address(p.Offsets[pa.A])
		case cudasrc.ParamIndexOut:
			v = p.Red.Index.Address(p.Red.IndexOffset)
		case cudasrc.ParamConst:
			v = scalarBits(p.Consts[pa.A].Value) // spec.consts follows p.consts' order
		case cudasrc.ParamCount:
			v = uint64(total)
		case cudasrc.ParamReduced:
			v = uint64(folded)
		case cudasrc.ParamDim:
			v = uint64(p.Shape[pa.A])
		case cudasrc.ParamStride:
			v = uint64(int64(p.Strides[pa.A][pa.B]))
		case cudasrc.ParamParts:
			v = uint64(parts)
		case cudasrc.ParamGenOffset:
			v = uint64(int64(p.Offsets[pa.A]))
		case cudasrc.ParamGen:
			v = genArgBits(generatorAt(p, pa.A), cudasrc.GenArg(pa.B))
		}
		k.Params = append(k.Params, v)
	}
}

// LaunchProgram queues one pass of a program that is not a reduction (a
// reduction's kernel is reduceStep's, which prepare builds).
func LaunchProgram[T tensor.Number](b Backend, q Queue, p *ir.Pass[T]) error {
	if k := ProgramKernel(p); k != nil {
		return b.Launch(q, k)
	}
	return nil
}

// Split is the scratch of a split reduction (strategy cudasrc.RedSplit):
// its kernel folds slices of each result's elements into partials (at
// Vals, and Idx for an arg reduction: device addresses of Work × Parts
// elements), then a second kernel folds each result's partials, in a fixed
// order, into the destination (Dst, DstIdx: the addresses the kernel was
// packed with). Neither uses atomics, so a result does not vary from run
// to run.
type Split struct {
	Parts, Folded int64
	Dst, DstIdx   uint64
	Vals, Idx     uint64
}

// IsSplit reports whether k is a split reduction's first kernel.
func IsSplit(k *Kernel) bool { return k.spec.Strategy == cudasrc.RedSplit }

// SplitOf reads the split reduction k's geometry and destination from its
// packed parameters; the caller allocates the partials and sets Vals and
// Idx.
func SplitOf(k *Kernel) Split {
	var sp Split
	for i, pa := range k.spec.ParamList {
		switch {
		case pa.Kind == cudasrc.ParamParts:
			sp.Parts = int64(k.Params[i])
		case pa.Kind == cudasrc.ParamReduced:
			sp.Folded = int64(k.Params[i])
		case pa.Kind == cudasrc.ParamPointer && pa.A == 0:
			sp.Dst = k.Params[i]
		case pa.Kind == cudasrc.ParamIndexOut:
			sp.DstIdx = k.Params[i]
		}
	}
	return sp
}

// LaunchSplit queues a split reduction: k, pointed at the partials, then
// the kernel that folds them into the destination.
func LaunchSplit(b Backend, q Queue, k *Kernel, sp Split) error {
	for i, pa := range k.spec.ParamList {
		switch {
		case pa.Kind == cudasrc.ParamPointer && pa.A == 0:
			k.Params[i] = sp.Vals
		case pa.Kind == cudasrc.ParamIndexOut:
			k.Params[i] = sp.Idx
		}
	}
	if err := b.Launch(q, k); err != nil {
		return err
	}
	f := FinishKernel(k)
	f.Work, f.Blocks = k.Work, k.Work
	for _, pa := range f.spec.ParamList {
		var v uint64
		switch pa.Kind {
		case cudasrc.ParamPointer:
			v = sp.Dst
			if pa.A == 1 {
				v = sp.Vals
			}
		case cudasrc.ParamIndexOut:
			v = sp.DstIdx
		case cudasrc.ParamIndexIn:
			v = sp.Idx
		case cudasrc.ParamCount:
			v = uint64(k.Work)
		case cudasrc.ParamParts:
			v = uint64(sp.Parts)
		case cudasrc.ParamReduced:
			v = uint64(sp.Folded)
		}
		f.Params = append(f.Params, v)
	}
	return b.Launch(q, f)
}

// FinishKernel returns the launch of the kernel that folds the partials of
// the split reduction k, without parameters.
func FinishKernel(k *Kernel) *Kernel {
	f := k.spec.Finish()
	key := f.Key()
	return &Kernel{Name: cudasrc.KernelName(key), Key: key, Reduction: true, spec: f, Threads: ReduceThreads}
}

// QueueGemms queues one Gemm per matrix of the (broadcast) batch of a
// product of contiguous operands.
func QueueGemms[T tensor.Number](bk Backend, q Queue, dtype tensor.DType, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := ir.MemoryOf(c), ir.MemoryOf(a), ir.MemoryOf(b)
	var err error
	ir.ForEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err == nil {
			err = bk.Gemm(q, Gemm{DType: dtype, M: g.M, N: g.N, K: g.K,
				A: ma.Address(off[1]), B: mb.Address(off[2]), C: mc.Address(off[0])})
		}
	})
	return err
}

// The generated matrix product runs the products cuBLAS does not: every
// element type but float32 and float64. It is a classic tiled kernel: each
// block of GemmTile² threads computes a GemmTile×GemmTile tile of C,
// walking K a tile at a time through shared memory. Integers multiply and
// accumulate in the element type with wrap-around, as NumPy's integer
// matmul does (int32 @ int32 accumulates in int32); the arithmetic is done
// in the unsigned type of the same width (or unsigned int for narrower
// types), whose wrap-around C++ defines, and converted back.

// GemmKernel returns the launch of the tiled product for dtype, without
// parameters.
func GemmKernel(dtype tensor.DType) *Kernel {
	s := cudasrc.GemmSpec(dtype)
	key := s.Key()
	return &Kernel{Name: cudasrc.KernelName(key), Key: key, spec: s, Threads: cudasrc.GemmTile * cudasrc.GemmTile}
}

// GemmLaunch returns the launch of the tiled product of geometry g for
// dtype, without parameters, or nil when the product has no elements.
func GemmLaunch(dtype tensor.DType, g expr.ProductGeometry) *Kernel {
	tiles := cudasrc.GemmLaunch(g.M, g.N)
	if tiles == 0 {
		return nil
	}
	k := GemmKernel(dtype)
	k.Work, k.Blocks = int64(g.M)*int64(g.N), tiles
	return k
}

// QueueGemmKernels queues the generated product kernel once per matrix of
// the (broadcast) batch of a product of contiguous operands.
func QueueGemmKernels[T tensor.Number](bk Backend, q Queue, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := ir.MemoryOf(c), ir.MemoryOf(a), ir.MemoryOf(b)
	if GemmLaunch(tensor.DTypeOf[T](), g) == nil {
		return nil
	}
	var err error
	ir.ForEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err != nil {
			return
		}
		k := GemmLaunch(tensor.DTypeOf[T](), g)
		k.Params = []uint64{mc.Address(off[0]), ma.Address(off[1]), mb.Address(off[2]), uint64(g.M), uint64(g.N), uint64(g.K)}
		err = bk.Launch(q, k)
	})
	return err
}

// ScanKernel returns the launch of the kernel that scans src into dst
// (device addresses; both contiguous, outer × length × inner) with def's
// combining op: one thread per line.
func ScanKernel(dtype tensor.DType, def ops.ReducerDef, outer, length, inner int, dst, src uint64) *Kernel {
	lines := int64(outer) * int64(inner)
	if length == 0 {
		lines = 0
	}
	spec, threads, blocks := cudasrc.ScanLaunch(dtype, def, lines, int64(length))
	key := spec.Key()
	k := &Kernel{Name: cudasrc.KernelName(key), Key: key, spec: spec, Work: lines, Threads: threads, Blocks: blocks}
	for _, pa := range spec.ParamList {
		var v uint64
		switch pa.Kind {
		case cudasrc.ParamPointer:
			v = dst
			if pa.A == 1 {
				v = src
			}
		case cudasrc.ParamCount:
			v = uint64(lines)
		case cudasrc.ParamReduced:
			v = uint64(length)
		case cudasrc.ParamCols:
			v = uint64(inner)
		}
		k.Params = append(k.Params, v)
	}
	return k
}

// GatherKernel returns the launch of the kernel that gathers count
// elements into out from x (device addresses at their first elements): the
// result element at prefix position p, batch position b and suffix
// position s (batch positions, blocks of block elements) is x's element
// at prefix[p] + offsets[b] + suffix[s] (device arrays of int64 offsets
// in elements, which the caller computed and checked).
func GatherKernel(dtype tensor.DType, count, batch, block int64, out, x, prefix, offsets, suffix uint64) *Kernel {
	spec, threads, blocks := cudasrc.GatherLaunch(dtype, count)
	key := spec.Key()
	k := &Kernel{Name: cudasrc.KernelName(key), Key: key, spec: spec, Work: count, Threads: threads, Blocks: blocks}
	pointers := []uint64{out, x, prefix, offsets, suffix}
	for _, pa := range spec.ParamList {
		switch pa.Kind {
		case cudasrc.ParamPointer:
			k.Params = append(k.Params, pointers[pa.A])
		case cudasrc.ParamCount:
			k.Params = append(k.Params, uint64(count))
		case cudasrc.ParamReduced:
			k.Params = append(k.Params, uint64(batch))
		case cudasrc.ParamCols:
			k.Params = append(k.Params, uint64(block))
		}
	}
	return k
}

// IsGather reports whether k is a gather's kernel.
func IsGather(k *Kernel) bool { return k.spec != nil && k.spec.Kind == cudasrc.KindGather }

// IsScan reports whether k is a scan's kernel.
func IsScan(k *Kernel) bool { return k.spec != nil && k.spec.Kind == cudasrc.KindScan }

// ParamCTypes returns the C types of k's parameters, in order.
func ParamCTypes(k *Kernel) []string {
	out := make([]string, len(k.spec.ParamList))
	for i, p := range k.spec.ParamList {
		out[i] = p.CType
	}
	return out
}
