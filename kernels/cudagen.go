package kernels

import (
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"strings"

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

// kernelSpec is the structure of one kernel: everything its source depends
// on and nothing else.
type kernelSpec struct {
	dtype     string          // the element type T of the tree
	red       *ops.ReducerDef // the reduction, or nil for an elementwise kernel
	rank      int             // coalesced rank
	flat      bool            // elementwise and contiguous: one flat index, no dimensions
	wide      bool            // 64-bit index arithmetic
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

// specOf describes p's structure. p must not be a no-op.
func specOf[T tensor.Number](p *program[T]) *kernelSpec {
	s := &kernelSpec{dtype: tensor.DType[T](), rank: len(p.shape), posOp: -1,
		code: p.code, leafSlot: p.leafSlot, result: p.result}
	s.ctype = cTypes[s.dtype]
	if p.red != nil {
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
	limit := 1
	for _, n := range p.shape {
		limit *= n
	}
	for k, st := range p.strides {
		o := operandSpec{dtype: p.mems[k].dtype}
		if o.dtype == "" {
			o.dtype = s.dtype
		}
		span := 0
		for d, x := range st {
			if x != 0 {
				o.walks |= 1 << d
			}
			if x != 0 && x != 1 {
				s.flat = false
			}
			span += abs(x) * max(p.shape[d]-1, 0)
		}
		limit = max(limit, span) // offsets are counted from the operand's own address
		s.operands = append(s.operands, o)
	}
	s.wide = limit >= wideIndexFrom
	if s.red != nil {
		s.reduced = make([]bool, s.rank)
		for d := range s.rank {
			s.reduced[d] = p.strides[0][d] == 0
		}
	}
	return s
}

// key encodes the structure; equal keys give equal sources.
func (s *kernelSpec) key() string {
	var b strings.Builder
	kind := "map"
	if s.red != nil {
		kind = s.red.Name
	}
	fmt.Fprintf(&b, "%s %s r%d flat=%t wide=%t", kind, s.dtype, s.rank, s.flat, s.wide)
	for _, o := range s.operands {
		fmt.Fprintf(&b, " %s/%x", o.dtype, o.walks)
	}
	b.WriteString(" |")
	for _, in := range s.code {
		fmt.Fprintf(&b, " %d=%v", in.out, in.op)
		if in.pair != 0 {
			fmt.Fprintf(&b, "+%v", in.op2)
		}
		fmt.Fprintf(&b, "%v", in.args[:in.arity()])
	}
	fmt.Fprintf(&b, " | leaves%v consts%v conv%v result %d", s.leafSlot, s.consts, s.leafConv, s.result)
	return b.String()
}

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

// source writes the kernel's CUDA C: the prelude of op helpers, then one
// extern "C" __global__ function named name.
func (s *kernelSpec) source(name string) string {
	g := &cudaWriter{spec: s}
	g.line(0, "// Generated by laze from the structure: %s", s.key())
	g.b.WriteString(ops.Prelude)
	g.line(0, "")
	var decl []string
	for _, p := range s.params() {
		decl = append(decl, p.ctype+" "+p.name)
	}
	g.line(0, "extern \"C\" __global__ void %s(%s) {", name, strings.Join(decl, ", "))
	g.line(1, "typedef %s T;", s.ctype)
	g.line(1, "typedef %s I;", map[bool]string{true: "long long", false: "int"}[s.wide])
	for j, slot := range s.consts {
		g.line(1, "const T v%d = (T)k%d;", slot, j)
	}
	if s.red != nil {
		g.reduction()
	} else {
		g.elementwise()
	}
	g.line(0, "}")
	return g.b.String()
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
	s := g.spec
	g.line(1, "const I count = (I)n;")
	g.line(1, "for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < count; i += (I)blockDim.x * (I)gridDim.x) {")
	all := g.allDims()
	if s.flat {
		for k, o := range s.operands {
			idx := "0"
			if o.walks != 0 {
				idx = "i"
			}
			g.line(2, "const I p%d = %s;", k, idx)
		}
	} else {
		g.offsets(2, "i", all, g.operandsExcept(-1))
	}
	g.body(2)
	g.line(2, "o0[p0] = v%d;", s.result)
	g.line(1, "}")
}

// reduction writes one thread block per result element: the block's
// threads fold a share of the reduced elements each, computing the tree
// for each element on the way, then combine their partial results in
// shared memory.
func (g *cudaWriter) reduction() {
	s := g.spec
	arg := s.red.Arg
	var kept, reduced []int
	for d := range s.rank {
		if s.reduced[d] {
			reduced = append(reduced, d)
		} else {
			kept = append(kept, d)
		}
	}
	combine := func(x, y string) string { return cudaExpr(s.red.Combine, x, y, "") }
	better := fmt.Sprintf("laze_better(%t, ", s.red.Combine == ops.Maximum)
	g.line(1, "__shared__ T part[%d];", ReduceThreads)
	if arg {
		g.line(1, "__shared__ long long part_i[%d];", ReduceThreads)
	}
	g.line(1, "const I count = (I)n, folded = (I)m;")
	g.line(1, "for (I o = (I)blockIdx.x; o < count; o += (I)gridDim.x) {")
	inner := g.operandsExcept(0) // the destination does not walk the folded dimensions
	outer := g.operandsExcept(s.posOp)
	g.offsets(2, "o", kept, outer)
	for _, k := range outer {
		g.line(2, "const I b%d = p%d;", k, k)
	}
	g.line(2, "T acc = %s;", s.identity)
	if arg {
		g.line(2, "long long acc_i = 0x7fffffffffffffffLL;")
	}
	g.line(2, "for (I j = (I)threadIdx.x; j < folded; j += (I)blockDim.x) {")
	bases := make([]string, len(s.operands))
	for _, k := range inner {
		bases[k] = fmt.Sprintf("b%d", k)
	}
	if s.posOp >= 0 {
		bases[s.posOp] = "0"
	}
	g.offsetsFrom(3, "j", reduced, inner, bases)
	g.body(3)
	if arg {
		g.line(3, "if (%sv%d, (long long)p%d, acc, acc_i)) { acc = v%d; acc_i = (long long)p%d; }", better, s.result, s.posOp, s.result, s.posOp)
	} else {
		g.line(3, "acc = %s;", combine("acc", fmt.Sprintf("v%d", s.result)))
	}
	g.line(2, "}")
	g.line(2, "part[threadIdx.x] = acc;")
	if arg {
		g.line(2, "part_i[threadIdx.x] = acc_i;")
	}
	g.line(2, "__syncthreads();")
	g.line(2, "for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {")
	g.line(3, "if (threadIdx.x < half) {")
	if arg {
		g.line(4, "const unsigned u = threadIdx.x + half;")
		g.line(4, "if (%spart[u], part_i[u], part[threadIdx.x], part_i[threadIdx.x])) { part[threadIdx.x] = part[u]; part_i[threadIdx.x] = part_i[u]; }", better)
	} else {
		g.line(4, "part[threadIdx.x] = %s;", combine("part[threadIdx.x]", "part[threadIdx.x + half]"))
	}
	g.line(3, "}")
	g.line(3, "__syncthreads();")
	g.line(2, "}")
	g.line(2, "if (threadIdx.x == 0) {")
	switch {
	case arg:
		g.line(3, "o0[b0] = part[0];")
		g.line(3, "oi[b0] = part_i[0];")
	case s.red.Average:
		g.line(3, "o0[b0] = (T)(part[0] / (T)folded);")
	default:
		g.line(3, "o0[b0] = part[0];")
	}
	g.line(2, "}")
	g.line(2, "__syncthreads();")
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
// index idx over dims, for the operands ks.
func (g *cudaWriter) offsetsFrom(indent int, idx string, dims, ks []int, bases []string) {
	s := g.spec
	for _, k := range ks {
		g.line(indent, "I p%d = %s;", k, bases[k])
	}
	if len(dims) == 0 {
		return
	}
	g.line(indent, "I rest = %s;", idx)
	for i := len(dims) - 1; i >= 0; i-- {
		d := dims[i]
		var terms []string
		for _, k := range ks {
			if s.operands[k].walks&(1<<d) != 0 {
				terms = append(terms, fmt.Sprintf("p%d += c * (I)s%d_%d;", k, k, d))
			}
		}
		if i == 0 {
			g.line(indent, "{ const I c = rest; %s }", strings.Join(terms, " "))
			continue
		}
		g.line(indent, "{ const I c = rest %% (I)d%d; rest /= (I)d%d; %s }", d, d, strings.Join(terms, " "))
	}
}

// body declares each leaf's value (v<slot>) and each instruction's.
func (g *cudaWriter) body(indent int) {
	s := g.spec
	for i, slot := range s.leafSlot {
		g.line(indent, "const T v%d = (T)o%d[p%d];", slot, 1+i, 1+i)
	}
	for _, in := range s.code {
		args := make([]string, 3)
		for j, a := range in.args[:in.arity()] {
			args[j] = fmt.Sprintf("v%d", a)
		}
		if in.pair != 0 {
			g.line(indent, "const T v%d_ = (T)(%s);", in.out, cudaExpr(in.op, args[0], args[1], ""))
			g.line(indent, "const T v%d = (T)(%s);", in.out, cudaExpr(in.op2, fmt.Sprintf("v%d_", in.out), args[2], ""))
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
