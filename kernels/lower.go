package kernels

import (
	"fmt"
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/dag"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A program is a tree lowered for one destination: a flat list of
// instructions over value slots. Slots hold the leaves (read per block), the
// constants (set once) and the instructions' results. Operand 0 is the
// destination; operand 1+i is leaf i.
type program[T tensor.Number] struct {
	ir.Pass[T]

	first *productStep[T] // the product written into the destination before the pass (Pass.First is its Product), or nil
	red   *reduceState[T] // the reduction's state (Pass.Red is its Reduction); nil for an assignment

	notes []func(pl *plan) string // for Explain: views pushed down, operands materialised (views.go)
}

// newProgram starts the program of a reduction's pass with red's state,
// or of an assignment's with red nil.
func newProgram[T tensor.Number](red *reduceState[T]) *program[T] {
	p := &program[T]{red: red}
	if red != nil {
		p.Red = &red.Reduction
	}
	return p
}

// pass returns p's lowered pass, nil for a nil p (a step with no pass).
func (p *program[T]) pass() *ir.Pass[T] {
	if p == nil {
		return nil
	}
	return &p.Pass
}

// writeFirst makes s the product the program writes into the destination
// before its pass.
func (p *program[T]) writeFirst(s *productStep[T]) {
	p.first, p.First = s, &s.Product
}

// target is what a program writes: a tensor's storage walked with the given
// strides over the iteration shape dims. For an assignment it is the
// destination as it is; for a reduction, the accumulators broadcast to the
// operand's shape, with stride 0 along the reduced axes.
type target[T tensor.Number] struct {
	t       *tensor.Tensor[T]
	dims    shape.Shape
	strides []int
}

// assignTo is the target of an assignment to dst.
func assignTo[T tensor.Number](dst *tensor.Tensor[T]) target[T] {
	return target[T]{t: dst, dims: dst.ShapeView(friend.K), strides: dst.StridesView(friend.K)}
}

// lowering is the state of lower.
type lowering[T tensor.Number] struct {
	ev       *evaluation
	dst      *tensor.Tensor[T]
	dims     shape.Shape
	p        *program[T]
	leaves   []*tensor.Tensor[T]      // leaf i as given (for identity); nil for a converted leaf
	scalarAt []bool                   // per slot: one value per block
	bstrides [][]int                  // per operand, broadcast to dims, before coalescing
	root     expr.Exp[T]              // the whole tree, to check whether it reads the destination
	target   shape.Region             // the memory the program writes, for the aliasing analysis
	lowered  dag.Memo[expr.Node, int] // op, view and cast nodes already lowered → their slot
	targets  []shape.Region           // for a program that writes several destinations (AssignAll), every one (target is the first)
	multi    bool                     // the program writes several destinations: no product straight into the first
}

// lower turns e into a program that writes to, after evaluating into
// temporaries the nodes that do not fuse (products, reductions, the operands
// of casts). It checks nothing that checkAssign checked, and allocates
// nothing the size of the tensors except those temporaries and copies of
// operands that overlap the destination. red is nil for an assignment.
func lower[T tensor.Number](ev *evaluation, to target[T], e expr.Exp[T], red *reduceState[T]) (*program[T], error) {
	l := &lowering[T]{ev: ev, dst: to.t, dims: to.dims, p: newProgram(red), root: e, target: targetRegion(to)}
	l.addOperand(to.t.Elems(friend.K), to.t.Offset(), to.strides, ir.MemoryOf(to.t))
	root, err := l.node(e)
	if err != nil {
		return nil, err
	}
	p := l.p
	p.Result = root
	p.Leaves = l.leaves
	p.Noop = len(p.Code) == 0 && len(l.leaves) > 0 && l.leaves[0] == to.t && p.LeafSlot[0] == root && red == nil
	if red != nil && red.tee != nil {
		p.Outs = append(p.Outs, ir.Output{Operand: len(l.bstrides), Slot: root})
		l.addOperand(red.tee.Elems(friend.K), red.tee.Offset(), red.tee.StridesView(friend.K), ir.MemoryOf(red.tee))
	}
	if red != nil && red.Def.Arg {
		red.Pos = len(l.bstrides)
		l.addOperand(nil, 0, red.Positions, ir.Memory{})
	}
	p.Shape, p.Strides = shape.Coalesce(l.dims, l.bstrides...)
	if red == nil {
		p.Shape, p.Strides = longInnermost(p.Shape, p.Strides)
	}
	l.allocateRegisters()
	return p, nil
}

// Loop order. A pass walks its coalesced shape with the last dimension
// innermost, in blocks along it; when that dimension is a few elements
// long and the one before it long (np.repeat along the last axis copies a
// broadcast of shape (n, 2) with strides (1, 0); a transposed (n, 2)), a
// block holds two elements and the pass spends its time on the blocks'
// overhead. longInnermost then swaps the two, so blocks run along the
// long dimension (the writes strided by the short one's size). An
// assignment writes each element once from the same positions in any
// order, and every operand's strides (generators' positions included)
// swap together, so the values are the same; a reduction's pass keeps its
// order.
const (
	shortInnermost = 4  // the longest innermost dimension worth moving out
	longOuter      = 64 // the shortest dimension worth moving in
)

// longInnermost returns s and strides with the last two dimensions
// swapped when the last is at most shortInnermost long and the one before
// it at least longOuter (see above), else s and strides as they are.
func longInnermost(s shape.Shape, strides [][]int) (shape.Shape, [][]int) {
	n := len(s)
	if n < 2 || s[n-1] > shortInnermost || s[n-2] < longOuter {
		return s, strides
	}
	s = slices.Clone(s)
	s[n-2], s[n-1] = s[n-1], s[n-2]
	swapped := make([][]int, len(strides))
	for k, st := range strides {
		st = slices.Clone(st)
		st[n-2], st[n-1] = st[n-1], st[n-2]
		swapped[k] = st
	}
	return s, swapped
}

// newSlot returns a fresh value slot.
func (l *lowering[T]) newSlot(scalar bool) int {
	l.scalarAt = append(l.scalarAt, scalar)
	l.p.Slots++
	return l.p.Slots - 1
}

// node lowers one node and returns the slot holding its value.
func (l *lowering[T]) node(e expr.Exp[T]) (int, error) {
	if t, ok := l.spilledLeaf(e); ok {
		l.note(func(pl *plan) string {
			return fmt.Sprintf("%v read back from %s, where a reduction's pass stored it", exprString(pl, e), nameOf(pl, t))
		})
		return l.leaf(t)
	}
	switch n := e.(type) {
	case *tensor.Tensor[T]:
		return l.leaf(n)
	case *expr.Const[T]:
		s := l.newSlot(true)
		l.p.Consts = append(l.p.Consts, ir.Const[T]{Slot: s, Value: n.Value})
		return s, nil
	case *expr.Named[T]:
		return l.node(n.X)
	case expr.Chain[T]:
		return l.node(n.E)
	case expr.Elementwise[T]:
		return l.once(n, func() (int, error) {
			op, xs, k := n.OpParts()
			return l.op(op, xs[:k]...)
		})
	case *expr.View[T]:
		return l.once(n, func() (int, error) { return l.view(n) })
	case *expr.MatProduct[T]:
		return l.product(n)
	case *expr.Generator[T]:
		return l.once(n, func() (int, error) { return l.generator(n) })
	}
	if compute := stepsOf(l.ev, e); compute != nil {
		t, err := computed(l.ev, e, compute)
		if err != nil {
			return 0, err
		}
		return l.leaf(t)
	}
	if isPointer(e) {
		if slot, ok := l.lowered.Get(e); ok {
			return slot, nil
		}
	}
	if slot, ok, err := l.foreign(e); ok {
		if err == nil && isPointer(e) {
			l.lowered.Put(e, slot)
		}
		return slot, err
	}
	return 0, &shape.ArgumentError{Op: l.ev.call, Name: "node", Value: fmt.Sprintf("%T", e),
		Reason: "kernels evaluates the node types of package expr and tensors of the predeclared element types; this is neither"}
}

// once lowers the node n with lower the first time the lowering meets it,
// and returns the same slot when n is met again (an operand shared by
// several nodes): its value is computed once per element. The slot may
// then be read by several instructions; the register allocation frees its
// register after the last (allocateRegisters), and fuse merges only an
// instruction whose value is read once.
func (l *lowering[T]) once(n expr.Node, lower func() (int, error)) (int, error) {
	if slot, ok := l.lowered.Get(n); ok {
		return slot, nil
	}
	slot, err := lower()
	if err == nil {
		l.lowered.Put(n, slot)
	}
	return slot, err
}

// op lowers an op node: its operands first, then one instruction.
func (l *lowering[T]) op(op ops.Op, operands ...expr.Exp[T]) (int, error) {
	in := ir.Instr{Op: op, Reg: ir.ToDst}
	for i, x := range operands {
		s, err := l.node(x)
		if err != nil {
			return 0, err
		}
		in.Args[i] = s
	}
	in.Out = l.newSlot(false) // repattern decides
	l.p.Code = append(l.p.Code, in)
	return in.Out, nil
}

// leaf lowers a tensor operand: one slot per distinct tensor, its strides
// broadcast to the destination's shape, and a copy when it overlaps the
// destination unsafely.
func (l *lowering[T]) leaf(t *tensor.Tensor[T]) (int, error) {
	for i, seen := range l.leaves {
		if seen == t {
			return l.p.LeafSlot[i], nil
		}
	}
	read, err := readable(l, t)
	if err != nil {
		return 0, err
	}
	strides, err := shape.BroadcastStrides(read.ShapeView(friend.K), read.StridesView(friend.K), l.dims)
	if err != nil {
		return 0, err // unreachable after checkAssign; kept so a bug surfaces as an error
	}
	l.leaves = append(l.leaves, t)
	l.addOperand(read.Elems(friend.K), read.Offset(), strides, ir.MemoryOf(read))
	return l.newLeaf(nil), nil
}

// readable returns t, or a copy of it when it overlaps the program's target
// unsafely (mustCopy).
func readable[T, S tensor.Number](l *lowering[T], t *tensor.Tensor[S]) (*tensor.Tensor[S], error) {
	r := t.Region(friend.K)
	copyIt := mustCopy(l.target, r)
	for _, target := range l.targets {
		copyIt = copyIt || mustCopy(target, r)
	}
	if !copyIt {
		return t, nil
	}
	return copyAside(l.ev, t)
}

// copyAside copies an operand that overlaps the destination into a
// temporary: on a device with one kernel; on the host the temporary is
// allocated now and filled when the evaluation runs, before its first step
// (evaluation.copies), so that a compiled Program copies the operand's
// contents of each run.
func copyAside[S tensor.Number](ev *evaluation, t *tensor.Tensor[S]) (*tensor.Tensor[S], error) {
	if ev.device != nil {
		return deviceCopy(ev, t)
	}
	defer blame(ev.call, t)
	c := tensor.Empty[S](t.ShapeView(friend.K))
	ev.temps = append(ev.temps, c)
	if t.Device().IsCPU() { // else Explain or CUDASource of device tensors: nothing runs
		ev.copies = append(ev.copies, func() { copyValues(c, t) })
	}
	return c, nil
}

// copyValues copies src's elements into dst, a tensor of the same shape.
func copyValues[S tensor.Number](dst, src *tensor.Tensor[S]) {
	if err := dst.CopyFrom(src); err != nil {
		panic(err) // unreachable: dst was made with src's shape
	}
}

// newLeaf gives the operand just added a slot, with its conversion.
func (l *lowering[T]) newLeaf(c converter[T]) int {
	s := l.newSlot(false)
	l.p.LeafSlot = append(l.p.LeafSlot, s)
	l.p.Convert = append(l.p.Convert, c)
	return s
}

// addOperand records an operand's storage, offset and broadcast strides.
func (l *lowering[T]) addOperand(data []T, offset int, strides []int, mem ir.Memory) {
	l.p.Data = append(l.p.Data, data)
	l.p.Mems = append(l.p.Mems, mem)
	l.p.Offsets = append(l.p.Offsets, offset)
	l.bstrides = append(l.bstrides, strides)
}

// allocateRegisters marks leaves whose inner stride is 0 as scalars per
// block, gives the other strided leaves a gather register, and gives each
// instruction a register, reusing those whose value is dead (an instruction
// may write over its own argument: elementwise loops allow it). The last
// instruction writes straight into the destination when that is a
// contiguous run.
func (l *lowering[T]) allocateRegisters() {
	p := l.p
	last := len(p.Shape) - 1
	p.LeafReg = make([]int, len(p.LeafSlot))
	owner := make([]int, p.Slots) // register held by each slot, or -1
	for i := range owner {
		owner[i] = -1
	}
	var free []int
	take := func() int {
		if n := len(free); n > 0 {
			r := free[n-1]
			free = free[:n-1]
			return r
		}
		p.Regs++
		return p.Regs - 1
	}
	for i, s := range p.LeafSlot {
		p.LeafReg[i] = -1
		switch p.Strides[1+i][last] {
		case 0:
			l.scalarAt[s] = true
		case 1:
			if p.Convert[i] != nil {
				p.LeafReg[i] = take()
				owner[s] = p.LeafReg[i]
			}
		default:
			p.LeafReg[i] = take()
			owner[s] = p.LeafReg[i]
		}
	}
	l.repattern()
	l.fuse()
	lastUse := make([]int, p.Slots)
	for k, in := range p.Code {
		for _, a := range in.Args[:in.Arity()] {
			lastUse[a] = k
		}
	}
	// The results are read after the last instruction: their registers are
	// never freed (with several destinations, a result may also be an
	// operand of a later instruction).
	lastUse[p.Result] = len(p.Code)
	for _, o := range p.Outs {
		lastUse[o.Slot] = len(p.Code)
	}
	for k := range p.Code {
		in := &p.Code[k]
		for _, a := range in.Args[:in.Arity()] {
			if lastUse[a] == k && owner[a] >= 0 {
				free = append(free, owner[a])
				owner[a] = -1
			}
		}
		if in.Pat == 0 {
			continue
		}
		if k == len(p.Code)-1 && in.Out == p.Result && p.Strides[0][last] == 1 && p.red == nil && len(p.Outs) == 0 {
			p.InPlace = true
			continue
		}
		if k == len(p.Code)-1 && in.Out == p.Result && p.red != nil && p.red.tee != nil && p.Strides[p.Outs[0].Operand][last] == 1 {
			in.Reg = ir.ToTee
			p.TeeInPlace = true
			continue
		}
		in.Reg = take()
		owner[in.Out] = in.Reg
	}
	p.Scalar = l.scalarAt[p.Result]
	for i := range p.Outs {
		p.Outs[i].Scalar = l.scalarAt[p.Outs[i].Slot]
	}
	if p.red != nil && p.Scalar {
		p.red.Spare = take() // the scalar result is spread over a block to be folded
	}
}

// repattern recomputes each instruction's pattern now that the leaves whose
// inner stride is 0 are known to be scalars per block.
func (l *lowering[T]) repattern() {
	for k := range l.p.Code {
		in := &l.p.Code[k]
		arity := in.Op.Arity()
		mask := l.scalarMask(in.Args[:arity])
		in.Pat = loops.Pattern(arity, mask)
		l.scalarAt[in.Out] = mask == 1<<arity-1
	}
}

// scalarMask returns the pattern mask of an instruction's argument slots:
// bit i set when argument i is one value per block.
func (l *lowering[T]) scalarMask(args []int) int {
	mask := 0
	for i, a := range args {
		if l.scalarAt[a] {
			mask |= 1 << i
		}
	}
	return mask
}

// fuse merges each instruction (a op1 b) whose value is used only as the
// left operand of the next instruction (· op2 c) into one fused instruction
// when the pair has a fused loop (a*b + c, a*2 - y): one pass over the block
// instead of two. A fused pair whose operands are vectors or constants and
// whose value is used only as the left operand of a third instruction
// whose other operand is a vector or a constant (· op3 e) becomes a fused
// triple: poly4's a*b + c - e and diff's (a - b)·2 + 1 are one pass.
func (l *lowering[T]) fuse() {
	p := l.p
	uses := make([]int, p.Slots)
	uses[p.Result]++
	for _, o := range p.Outs {
		uses[o.Slot]++
	}
	for _, in := range p.Code {
		for _, a := range in.Args[:in.Arity()] {
			uses[a]++
		}
	}
	code := p.Code[:0]
	for k := 0; k < len(p.Code); k++ {
		in := p.Code[k]
		if k+1 < len(p.Code) && feedsNext(in, p.Code[k+1], uses) {
			if pair := loops.FusedPair(in.Op, p.Code[k+1].Op); pair != 0 && in.Pat != 0 {
				in = l.fusedPairOf(in, p.Code[k+1], pair)
				k++
			}
		}
		if in.Pair != 0 && k+1 < len(p.Code) && feedsNext(in, p.Code[k+1], uses) {
			next := p.Code[k+1]
			if triple := loops.FusedTriple(in.Op, in.Op2, next.Op); triple != 0 && l.vectorsOrConsts(in.Args[:3]) && l.vectorsOrConsts(next.Args[1:2]) {
				in.Pat = loops.PatVVV
				in.Op3, in.Triple, in.Out, in.Args[3] = next.Op, triple, next.Out, next.Args[1]
				k++
			}
		}
		code = append(code, in)
	}
	p.Code = code
}

// vectorsOrConsts reports whether every slot of args is a vector or a
// constant: a fused triple's operands. The CPU executor spreads a constant
// a triple reads over a register of its own each time it takes a worker
// (its splatConsts), so that (a - b)·2 + 1 is one pass, not a pair's pass
// into a register and a second into the destination; each element is
// computed by the same operations in the same order as by the pair and the
// single op, so the values are the same bits.
func (l *lowering[T]) vectorsOrConsts(args []int) bool {
	for _, a := range args {
		if l.scalarAt[a] && !slices.ContainsFunc(l.p.Consts, func(c ir.Const[T]) bool { return c.Slot == a }) {
			return false
		}
	}
	return true
}

// feedsNext reports whether in's value is used once, as the left operand of
// next only.
func feedsNext(in, next ir.Instr, uses []int) bool {
	return next.Args[0] == in.Out && next.Args[1] != in.Out && uses[in.Out] == 1
}

// fusedPairOf is the fused instruction computing next(in(a, b), c).
func (l *lowering[T]) fusedPairOf(in, next ir.Instr, pair uint8) ir.Instr {
	fused := ir.Instr{Op: in.Op, Op2: next.Op, Pair: pair, Out: next.Out, Reg: ir.ToDst,
		Args: [4]int{in.Args[0], in.Args[1], next.Args[1]}}
	fused.Pat = loops.Pattern(3, l.scalarMask(fused.Args[:3]))
	return fused
}
