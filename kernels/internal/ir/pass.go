package ir

import (
	"sync"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Pass is one lowered walk: every element of the iteration shape computed
// by the instructions, block by block along the last dimension, and
// written to operand 0 (the target) or, for a reduction, folded into its
// accumulators. Operand 0 is the target, operands 1 to len(LeafSlot) the
// leaves in order, further operands AssignAll's other destinations, a
// reduction's tee, or an arg reduction's positions (an operand walked for
// its index, never read from memory).
type Pass[T tensor.Number] struct {
	Shape   shape.Shape // coalesced iteration shape; the last dimension is walked in blocks
	Strides [][]int     // coalesced strides per operand
	Offsets []int       // base offset per operand
	Data    [][]T       // storage per operand (nil for a converted leaf, read through Convert, and for an arg reduction's positions)
	Mems    []Memory    // per operand, its block and element type, for device kernels

	Leaves     []*tensor.Tensor[T] // leaf i as given (nil for a converted leaf)
	LeafSlot   []int               // slot of leaf i
	LeafReg    []int               // register that leaf i is gathered into when its inner stride is not 0 or 1 or it converts, else -1
	Convert    []Converter[T]      // per leaf, the conversion from another element type, or nil
	Consts     []Const[T]
	Code       []Instr
	Slots      int      // number of value slots
	Regs       int      // number of block-sized registers
	Result     int      // slot of the tree's value
	Scalar     bool     // the result is one value per block (a constant or a broadcast leaf)
	InPlace    bool     // the last instruction writes straight into the destination
	TeeInPlace bool     // the last instruction writes straight into the reduction's tee (Outs[0]), which the fold then reads
	Noop       bool     // the tree is the destination itself: nothing to write
	Outs       []Output // AssignAll's further destinations, or a reduction's tee, written with their values after each block

	// Workers is the CPU executor's pool of workers kept with the pass
	// (a cached plan's or a compiled Program's), or nil.
	Workers *sync.Pool

	First *Product[T]   // the matrix product written into the destination before the pass, or nil
	Red   *Reduction[T] // how the values fold into the destination, for a reduction; nil for an assignment
}

// Output is a further destination of a pass that writes several
// (AssignAll): the operand holding it and the slot of its value.
type Output struct {
	Operand int
	Slot    int
	Scalar  bool // the value is one per block
}

// Const is a value slot set once for the whole pass.
type Const[T tensor.Number] struct {
	Slot  int
	Value T
}

// Instr computes Op over its arguments' slots into Out's slot.
type Instr struct {
	Op     ops.Op
	Op2    ops.Op // for a fused pair, the second op: out = Op2(Op(args[0], args[1]), args[2])
	Op3    ops.Op // for a fused triple, the third op: out = Op3(Op2(Op(args[0], args[1]), args[2]), args[3])
	Pair   uint8  // the fused pair's number (loops.FusedPair), 0 for a single op
	Triple uint8  // the fused triple's number (loops.FusedTriple), 0 for a single op or a pair
	Pat    uint8  // operand pattern (loops.Pattern); 0 when every argument is a scalar
	Out    int    // result slot
	Reg    int    // register the result is computed into; ToDst or ToTee for straight into memory
	Args   [4]int
}

// The registers that are memory: an instruction whose Reg is ToDst writes
// straight into the destination's block (the last of an assignment whose
// destination has inner stride 1), one whose Reg is ToTee into the block
// of the pass's one further output (the last of a reduction storing its
// operand into the destination, at inner stride 1).
const (
	ToDst = -1
	ToTee = -2
)

// Converter reads an operand of another element type, converting to T.
type Converter[T tensor.Number] interface {
	// Load fills d with the elements stride apart from off.
	Load(d []T, off, stride int)
	// At returns the element at off.
	At(off int) T
}

// Generated is the Converter of a generator leaf (expr.Generator): an
// operand with no memory (nil Data, a zero Memory) whose offset and
// strides walk the generator's positions, each element computed from its
// position. A device kernel computes the elements itself from the
// positions it walks, with the generator's formulas (Generator().Value)
// and arguments (Generator().Params), and reads no memory for them.
type Generated[T tensor.Number] interface {
	Converter[T]
	// Generator returns the generator (viewed: its positions are the
	// operand's offset and strides).
	Generator() *expr.Generator[T]
}

// Product is a matrix product C = A @ B of tensors, batched and
// broadcast as expr.MatMul defines it.
type Product[T tensor.Number] struct {
	C, A, B *tensor.Tensor[T]
}

// Reduction is what a reduction pass folds into and how.
type Reduction[T tensor.Number] struct {
	Def         ops.ReducerDef
	Compensated bool            // a float sum: accumulators carry a Neumaier compensation
	Main        *Accumulator[T] // the result's accumulators (nil on a device, whose kernel keeps its own)
	Size        int             // number of accumulators (result elements)
	Count       int             // elements folded into each
	Positions   []int           // arg reductions: per operand axis, the weight of its index in the result index (0 on kept axes)
	Pos         int             // arg reductions: the operand that carries positions
	Spare       int             // register for a scalar result spread over a block

	Index       Memory // arg reductions on a device: the index output's block
	IndexOffset int    // and its offset
}

// Accumulator holds one partial result per result element.
type Accumulator[T tensor.Number] struct {
	Vals []T
	Comp []T     // float sums: the compensation (the low-order part lost so far)
	Idx  []int64 // arg reductions: the index of the element kept
}

// Chain is the ops the instruction applies in turn: Op alone, or a fused
// pair's or triple's ops.
func (in *Instr) Chain() []ops.Op {
	switch {
	case in.Triple != 0:
		return []ops.Op{in.Op, in.Op2, in.Op3}
	case in.Pair != 0:
		return []ops.Op{in.Op, in.Op2}
	}
	return []ops.Op{in.Op}
}

// Arity is the number of argument slots the instruction reads.
func (in *Instr) Arity() int {
	switch {
	case in.Triple != 0:
		return 4
	case in.Pair != 0:
		return 3
	}
	return in.Op.Arity()
}

// Memory is what a device kernel needs of an operand besides its strides:
// the block holding it (nil for the index operand of an arg reduction,
// which is not read from memory) and its element type.
type Memory struct {
	Block    *alloc.Allocation
	DType    tensor.DType
	ItemSize int
}

// Address returns the device address of the operand's element at offset.
func (m Memory) Address(offset int) uint64 {
	if m.Block == nil {
		return 0
	}
	return uint64(m.Block.Ptr()) + uint64(offset*m.ItemSize)
}

// MemoryOf describes t's storage for a device kernel.
func MemoryOf[S tensor.Number](t *tensor.Tensor[S]) Memory {
	return Memory{Block: t.Mem(friend.K), DType: tensor.DTypeOf[S](), ItemSize: tensor.ItemSize[S]()}
}
