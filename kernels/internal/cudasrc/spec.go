package cudasrc

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// GemmTile is the side of a product tile; a block has GemmTile² threads.
const GemmTile = 16

// TileSide is the side of a tiled elementwise kernel's square tile, one
// per block of tileThreads threads (TileSide/(tileThreads/TileSide) rows
// each).
const TileSide = 32

// tileThreads is the block size the tiled elementwise kernel assumes.
const tileThreads = 256

// CTypes names each element type in CUDA C.
var CTypes = map[tensor.DType]string{
	tensor.Float32: "float", tensor.Float64: "double",
	tensor.Int8: "signed char", tensor.Int16: "short", tensor.Int32: "int", tensor.Int64: "long long", tensor.Int: "long long",
	tensor.Uint8: "unsigned char", tensor.Uint16: "unsigned short", tensor.Uint32: "unsigned int", tensor.Uint64: "unsigned long long",
	tensor.Uint: "unsigned long long", tensor.Uintptr: "unsigned long long",
}

// Kind says which of the generator's kernels a spec describes.
type Kind uint8

const (
	KindMap    Kind = iota // an elementwise program
	KindReduce             // a reduction program (into partials, for the split strategy)
	KindFinish             // the second kernel of a split reduction: folds each result's partials
	KindGemm               // a tiled matrix product, for the element types cuBLAS does not take
	KindScan               // a cumulative sum or product, one thread per line
	KindGather             // a gather: one thread per result element, reading x at offsets the host computed
)

// Spec is the structure of one kernel: everything its source depends
// on and nothing else.
type Spec struct {
	Kind      Kind
	DType     tensor.DType    // the element type T of the tree
	Red       *ops.ReducerDef // the reduction, or nil for an elementwise kernel
	Rank      int             // coalesced rank
	Flat      bool            // elementwise and contiguous: one flat index, no dimensions
	Wide      bool            // 64-bit index arithmetic
	Vec       int             // elements per 16-byte vector when the elementwise kernel is vectorised, else 0
	Tiled     uint64          // elementwise: bit k when operand k is read through a shared-memory tile (transposed operands); 0 for none
	Strategy  uint8           // a reduction's strategy (RedBlock…)
	Operands  []Operand       // 0 is the destination (a reduction's accumulators), 1+i is leaf i, then a reduction's index operand
	PosOp     int             // the index operand of an arg reduction, or -1
	Code      []Instr         // the program's instructions, fused pairs included
	LeafSlot  []int           // slot of leaf i
	Consts    []int           // constant slots, in parameter order
	Result    int             // slot of the tree's value
	LeafConv  []bool          // leaf i is read from another element type
	Reduced   []bool          // per dimension, for a reduction: folded (the destination does not walk it)
	CType     string          // CTypes[DType]
	Identity  string          // a reduction's starting value, as CUDA C
	ParamList []Param         // Params(), computed once when the kernel is described
}

// Operand is an operand's part of the structure.
type Operand struct {
	DType tensor.DType // element type in memory (T for a generator)
	Walks uint64       // bit d is set when the operand's stride along dimension d is not 0
	Gen   GenKind      // a leaf that is a generator: its elements are computed from the positions it walks, not read; GenNone for memory
}

// GenKind is what a generator operand computes from each position it
// walks (the row-major position in the generator's own shape: its offset
// parameter plus the walk): expr.GenKind's kinds, which the device
// executor converts, with the formulas of expr.Generator.Value.
type GenKind uint8

// The generator kinds; GenNone is an operand read from memory.
const (
	GenNone     GenKind = iota
	GenArange           // numpy.arange: GenFirst, GenSecond, then GenFirst + q·GenDelta in T
	GenLinspace         // numpy.linspace: q·GenStep + GenStart in double (GenStop at GenLast), then T
	GenFull             // numpy.full: GenValue
	GenEye              // numpy.eye: 1 where column - row is GenDiag, else 0 (GenCols columns)
	GenTri              // numpy.tri: 1 where column - row is at most GenDiag, else 0
)

var genKindNames = [...]string{GenNone: "memory", GenArange: "arange", GenLinspace: "linspace", GenFull: "full", GenEye: "eye", GenTri: "tri"}

// String names the kind, as keys write it: "arange".
func (k GenKind) String() string {
	if int(k) < len(genKindNames) {
		return genKindNames[k]
	}
	return fmt.Sprintf("GenKind(%d)", uint8(k))
}

// GenArg is one of a generator operand's arguments, a kernel parameter
// of its own (ParamGen, with the GenArg in B).
type GenArg uint8

// The generators' arguments (expr.GenParams' fields).
const (
	GenFirst  GenArg = iota // arange: element 0, in T
	GenSecond               // arange: element 1, in T
	GenDelta                // arange: the difference of the first two, in T
	GenStart                // linspace: double
	GenStep                 // linspace: double
	GenStop                 // linspace: the value at GenLast, double
	GenLast                 // linspace: the position that is GenStop exactly, or -1
	GenValue                // full: the value, in T
	GenCols                 // eye, tri: the number of columns (at least 1)
	GenDiag                 // eye, tri: the diagonal
)

var genArgNames = [...]string{GenFirst: "first", GenSecond: "second", GenDelta: "delta", GenStart: "start", GenStep: "step",
	GenStop: "stop", GenLast: "last", GenValue: "value", GenCols: "cols", GenDiag: "diag"}

// GenArgs lists the arguments a generator of kind reads, in parameter
// order.
func GenArgs(kind GenKind) []GenArg {
	switch kind {
	case GenArange:
		return []GenArg{GenFirst, GenSecond, GenDelta}
	case GenLinspace:
		return []GenArg{GenStart, GenStep, GenStop, GenLast}
	case GenFull:
		return []GenArg{GenValue}
	case GenEye, GenTri:
		return []GenArg{GenCols, GenDiag}
	}
	return nil
}

// genArgType is the 8-byte C type argument a travels as in a kernel of
// element type dtype: the element type's parameter type for the values
// in T (as constants travel), double for linspace's, long long for
// positions and sizes.
func genArgType(a GenArg, dtype tensor.DType) string {
	switch a {
	case GenFirst, GenSecond, GenDelta, GenValue:
		return scalarParamType(dtype)
	case GenStart, GenStep, GenStop:
		return "double"
	}
	return "long long"
}

// Instr is one instruction of a kernel's program: Op over the values in the
// slots Args into slot Out, or, for a fused chain of Steps ops (2 or 3),
// Op, then Op2 and Op3 each applied to the previous result and the next
// argument.
type Instr struct {
	Op, Op2, Op3 ops.Op
	Steps        int // the number of ops the instruction applies: 1, or 2 or 3 for a fused chain
	NArgs        int // the number of argument slots it reads
	Out          int
	Args         [4]int
}

// Chain is the ops the instruction applies in turn.
func (in *Instr) Chain() []ops.Op {
	return []ops.Op{in.Op, in.Op2, in.Op3}[:max(in.Steps, 1)]
}

// Arity is the number of argument slots the instruction reads.
func (in *Instr) Arity() int { return in.NArgs }

// The reduction strategies. Each kernel loops grid-stride over its units of
// work, so the backend may launch fewer blocks than kernels.Kernel.Blocks.
const (
	RedBlock  = iota // one block per result: its threads fold a share each, then combine through warp shuffles and shared memory
	RedWarp          // one warp per result (row reductions of short rows)
	RedColumn        // one thread per result (the innermost dimension is kept: neighbouring threads read neighbouring columns)
	RedSplit         // several blocks per result (or threads, for columns) fold slices into partials, which a second kernel (KindFinish) folds
)

// FinishSpec is the structure of the kernel that folds a split reduction's
// partials (parts per result, result o's at o·parts) into its destination.
func FinishSpec(dtype tensor.DType, def ops.ReducerDef, identity string) *Spec {
	s := &Spec{Kind: KindFinish, DType: dtype, CType: CTypes[dtype], Red: &def, Identity: identity, PosOp: -1}
	s.ParamList = s.Params()
	return s
}

// GemmSpec is the structure of the tiled matrix-product kernel for dtype.
func GemmSpec(dtype tensor.DType) *Spec {
	s := &Spec{Kind: KindGemm, DType: dtype, CType: CTypes[dtype], PosOp: -1}
	s.ParamList = s.Params()
	return s
}

// Key encodes the structure; equal keys give equal sources.
func (s *Spec) Key() string {
	var b strings.Builder
	switch s.Kind {
	case KindFinish:
		fmt.Fprintf(&b, "finish %s %s", s.Red.Name, s.DType)
		return b.String()
	case KindGemm:
		fmt.Fprintf(&b, "gemm %s tile%d", s.DType, GemmTile)
		return b.String()
	case KindScan:
		fmt.Fprintf(&b, "scan %s %s wide=%t", s.Red.Name, s.DType, s.Wide)
		return b.String()
	case KindGather:
		fmt.Fprintf(&b, "gather %s", s.DType)
		return b.String()
	}
	kind := "map"
	if s.Red != nil {
		kind = fmt.Sprintf("%s/%s", s.Red.Name, strategyNames[s.Strategy])
	}
	fmt.Fprintf(&b, "%s %s r%d flat=%t wide=%t", kind, s.DType, s.Rank, s.Flat, s.Wide)
	if s.Vec > 0 {
		fmt.Fprintf(&b, " vec=%d", s.Vec)
	}
	if s.Tiled != 0 {
		fmt.Fprintf(&b, " tiled=%x", s.Tiled)
	}
	for _, o := range s.Operands {
		fmt.Fprintf(&b, " %s/%x", o.DType, o.Walks)
		if o.Gen != GenNone {
			fmt.Fprintf(&b, "/%s", o.Gen)
		}
	}
	b.WriteString(" |")
	for _, in := range s.Code {
		fmt.Fprintf(&b, " %d=%v", in.Out, in.Op)
		for _, op := range in.Chain()[1:] {
			fmt.Fprintf(&b, "+%v", op)
		}
		fmt.Fprintf(&b, "%v", in.Args[:in.Arity()])
	}
	fmt.Fprintf(&b, " | leaves%v consts%v conv%v result %d", s.LeafSlot, s.Consts, s.LeafConv, s.Result)
	return b.String()
}

// strategyNames name the reduction strategies in keys.
var strategyNames = [...]string{RedBlock: "block", RedWarp: "warp", RedColumn: "column", RedSplit: "split"}

// ParamKind says what a kernel parameter carries.
type ParamKind uint8

const (
	ParamPointer   ParamKind = iota // operand a's address at its offset
	ParamIndexOut                   // an arg reduction's index output
	ParamConst                      // constant a
	ParamCount                      // the element count (elementwise) or the result count (reduction)
	ParamReduced                    // the number of elements folded into each result
	ParamDim                        // the size of dimension a
	ParamStride                     // operand a's stride along dimension b
	ParamParts                      // a split reduction's number of partials per result
	ParamIndexIn                    // a finishing kernel's partial indices
	ParamCols                       // a product's N; a scan's inner size
	ParamInner                      // a product's K
	ParamGenOffset                  // generator operand a's position at its walk's start (its offset)
	ParamGen                        // generator operand a's argument GenArg(b)
)

// Param is one kernel parameter: 8 bytes, as gorgonia.org/cu's
// Function.Launch copies every parameter.
type Param struct {
	Kind  ParamKind
	A, B  int // the operand, constant, dimension or generator argument the parameter is of (see ParamKind)
	Name  string
	CType string
}

// Params lists the kernel's parameters in order; the source declares them
// and the launch fills them from the same list.
func (s *Spec) Params() []Param {
	t := s.CType
	switch s.Kind {
	case KindFinish:
		ps := []Param{
			{Kind: ParamPointer, A: 0, Name: "o0", CType: t + "*"},
			{Kind: ParamPointer, A: 1, Name: "o1", CType: "const " + t + "*"},
		}
		if s.Red.Arg {
			ps = append(ps, Param{Kind: ParamIndexOut, Name: "oi", CType: "long long*"},
				Param{Kind: ParamIndexIn, Name: "o1i", CType: "const long long*"})
		}
		return append(ps, Param{Kind: ParamCount, Name: "n", CType: "long long"},
			Param{Kind: ParamParts, Name: "q", CType: "long long"},
			Param{Kind: ParamReduced, Name: "m", CType: "long long"})
	case KindGemm:
		return []Param{
			{Kind: ParamPointer, A: 0, Name: "o0", CType: t + "*"},
			{Kind: ParamPointer, A: 1, Name: "o1", CType: "const " + t + "*"},
			{Kind: ParamPointer, A: 2, Name: "o2", CType: "const " + t + "*"},
			{Kind: ParamCount, Name: "rows", CType: "long long"},
			{Kind: ParamCols, Name: "cols", CType: "long long"},
			{Kind: ParamInner, Name: "inner", CType: "long long"},
		}
	case KindGather:
		return []Param{
			{Kind: ParamPointer, A: 0, Name: "o0", CType: t + "*"},
			{Kind: ParamPointer, A: 1, Name: "o1", CType: "const " + t + "*"},
			{Kind: ParamPointer, A: 2, Name: "o2", CType: "const long long*"},
			{Kind: ParamPointer, A: 3, Name: "o3", CType: "const long long*"},
			{Kind: ParamPointer, A: 4, Name: "o4", CType: "const long long*"},
			{Kind: ParamCount, Name: "n", CType: "long long"},
			{Kind: ParamReduced, Name: "m", CType: "long long"},
			{Kind: ParamCols, Name: "inner_", CType: "long long"},
		}
	case KindScan:
		return []Param{
			{Kind: ParamPointer, A: 0, Name: "o0", CType: t + "*"},
			{Kind: ParamPointer, A: 1, Name: "o1", CType: "const " + t + "*"},
			{Kind: ParamCount, Name: "n", CType: "long long"},
			{Kind: ParamReduced, Name: "m", CType: "long long"},
			{Kind: ParamCols, Name: "inner_", CType: "long long"},
		}
	}
	var ps []Param
	for k, o := range s.Operands {
		if k == s.PosOp {
			continue
		}
		if o.Gen != GenNone { // no memory: its position's offset and its arguments
			ps = append(ps, Param{Kind: ParamGenOffset, A: k, Name: fmt.Sprintf("g%do", k), CType: "long long"})
			for _, a := range GenArgs(o.Gen) {
				ps = append(ps, Param{Kind: ParamGen, A: k, B: int(a), Name: genParamName(k, a), CType: genArgType(a, s.DType)})
			}
			continue
		}
		qual := "const "
		if k == 0 {
			qual = ""
		}
		ps = append(ps, Param{Kind: ParamPointer, A: k, Name: fmt.Sprintf("o%d", k), CType: qual + CTypes[o.DType] + "*"})
	}
	if s.PosOp >= 0 {
		ps = append(ps, Param{Kind: ParamIndexOut, Name: "oi", CType: "long long*"})
	}
	for j := range s.Consts {
		ps = append(ps, Param{Kind: ParamConst, A: j, Name: fmt.Sprintf("k%d", j), CType: scalarParamType(s.DType)})
	}
	ps = append(ps, Param{Kind: ParamCount, Name: "n", CType: "long long"})
	if s.Red != nil {
		ps = append(ps, Param{Kind: ParamReduced, Name: "m", CType: "long long"})
		if s.Strategy == RedSplit {
			ps = append(ps, Param{Kind: ParamParts, Name: "q", CType: "long long"})
		}
	}
	if s.Flat {
		return ps
	}
	for d := range s.Rank {
		ps = append(ps, Param{Kind: ParamDim, A: d, Name: fmt.Sprintf("d%d", d), CType: "long long"})
	}
	for k, o := range s.Operands {
		for d := range s.Rank {
			if o.Walks&(1<<d) != 0 {
				ps = append(ps, Param{Kind: ParamStride, A: k, B: d, Name: fmt.Sprintf("s%d_%d", k, d), CType: "long long"})
			}
		}
	}
	return ps
}

// genParamName is the name of generator operand k's argument a.
func genParamName(k int, a GenArg) string { return fmt.Sprintf("g%d_%s", k, genArgNames[a]) }

// scalarParamType is the 8-byte type a constant of dtype travels as.
func scalarParamType(dtype tensor.DType) string {
	switch {
	case dtype.IsFloat():
		return "double"
	case dtype.IsUnsigned():
		return "unsigned long long"
	}
	return "long long"
}

// Finish is the structure of the kernel that folds the partials of s, a
// split reduction.
func (s *Spec) Finish() *Spec {
	return FinishSpec(s.DType, *s.Red, s.Identity)
}

// GatherSpec is the structure of the gather kernel for dtype: o0[i] =
// o1[o2[p] + o3[b] + o4[s]] for the result element i at prefix position
// p, batch position b and suffix position s (n elements, m batch
// positions, blocks of inner_ suffix elements), the offsets (in elements,
// from x's first) computed on the host: o3 from the checked indices.
func GatherSpec(dtype tensor.DType) *Spec {
	s := &Spec{Kind: KindGather, DType: dtype, CType: CTypes[dtype], Wide: true, PosOp: -1}
	s.ParamList = s.Params()
	return s
}

// ScanSpec is the structure of the scan kernel for dtype and def (cumsum,
// cumprod).
func ScanSpec(dtype tensor.DType, def ops.ReducerDef, wide bool) *Spec {
	s := &Spec{Kind: KindScan, DType: dtype, CType: CTypes[dtype], Red: &def, Wide: wide, PosOp: -1}
	s.ParamList = s.Params()
	return s
}
