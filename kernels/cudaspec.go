package kernels

import (
	"math"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
)

// A lowered program as the CUDA backend's code generation reads it: its
// geometry (geometryOf: shape, strides, alignment), from which
// kernels/internal/cudasrc picks the kernel's variant and launch shape,
// and its structure (specOf: ops, element types, which operands walk which
// dimensions), from which cudasrc writes the source. This file only
// describes the program; every CUDA decision is cudasrc's. See
// docs/design.md, "The CUDA backend".

// ReduceThreads is the number of threads in each block of a reduction
// kernel, which the generated source assumes (its shared-memory tree has
// this many leaves): the backend must launch reductions with it.
const ReduceThreads = cudasrc.ReduceThreads

// geometryOf describes p's shape, strides and alignment for the launch
// policy, without allocating.
func geometryOf[T tensor.Number](p *program[T]) cudasrc.Geometry {
	g := cudasrc.Geometry{Shape: p.Shape, Strides: p.Strides, ItemSize: tensor.ItemSize[T](), Reduce: p.red != nil, Aligned: true}
	for k, m := range p.mems {
		st := p.Strides[k]
		if len(st) == 1 && st[0] == 1 && (m.itemSize != g.ItemSize || !vectorAligned(m, p.Offsets[k])) {
			g.Aligned = false
		}
	}
	return g
}

// variantOf returns p's variant (cudasrc.Variant): a cheap function of p's
// sizes, strides and addresses, which together with the tree's structure
// determines the kernel.
func variantOf[T tensor.Number](p *program[T]) uint8 { return cudasrc.Variant(geometryOf(p)) }

// vectorAligned reports whether the operand's element at offset is 16-byte
// aligned. Host memory (CUDASource on CPU tensors) is taken to start as a
// device block does, aligned, so that the listing shows what the tensors
// would run once moved to a GPU, whatever the host addresses.
func vectorAligned(m operandMem, offset int) bool {
	if m.block == nil || m.block.Device().Kind() == alloc.KindCPU {
		return offset*m.itemSize%cudasrc.VectorBytes == 0
	}
	return m.address(offset)%cudasrc.VectorBytes == 0
}

// specOf describes p's structure. p must not be a no-op.
func specOf[T tensor.Number](p *program[T]) *cudasrc.Spec {
	s := &cudasrc.Spec{Kind: cudasrc.KindMap, DType: tensor.DTypeOf[T](), Rank: len(p.Shape), PosOp: -1,
		Code: cudaInstrs(p.Code), LeafSlot: p.LeafSlot, Result: p.Result}
	s.CType = cudasrc.CTypes[s.DType]
	if p.red != nil {
		s.Kind = cudasrc.KindReduce
		def := p.red.Def
		s.Red = &def
		s.Identity = cudasrc.IdentityLiteral(ops.Start[T](def.Identity))
		if def.Arg {
			s.PosOp = p.red.Pos
		}
	}
	for _, c := range p.Consts {
		s.Consts = append(s.Consts, c.Slot)
	}
	for _, c := range p.Convert {
		s.LeafConv = append(s.LeafConv, c != nil)
	}
	s.Flat = s.Red == nil && s.Rank == 1
	for k, st := range p.Strides {
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
