package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
)

// Explain describes how Assign(dst, e) would run, without running it: each
// step in order (a matrix product, a reduction, the pass that writes dst),
// and for each pass its lowered program: the coalesced loop, the operands
// with their strides, the instructions, and whether it goes parallel. It
// checks as Assign does and returns the same errors; dst is not written.
// Temporaries are allocated to lower the steps that read them, and given
// back before Explain returns.
func Explain[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) (string, error) {
	if err := checkAssign("Explain", dst, e); err != nil {
		return "", err
	}
	ev := newEvaluation("Explain")
	defer ev.release()
	ev.plan = newPlan(e)
	ev.plan.name(dst, "dst")
	if err := evaluate(ev, dst, e); err != nil {
		return "", err
	}
	return ev.plan.String(), nil
}

// plan is what Explain collects: the steps, described, and the names of the
// tensors they read and write.
type plan struct {
	names map[any]string // a tensor, or a storage (storageKey), → its name
	steps []string
	temps int
	cuda  bool // CUDASource: each step gives its kernel's source
}

// newPlan names the tensors e's Named nodes stand for.
func newPlan(e expr.Node) *plan {
	pl := &plan{names: map[any]string{}}
	expr.Walk(e, func(n expr.Node, _ int) bool {
		if l, ok := n.(interface {
			Label() string
			Operands() []expr.Node
		}); ok {
			if _, seen := pl.names[l.Operands()[0]]; !seen {
				pl.names[l.Operands()[0]] = l.Label()
			}
		}
		return true
	})
	return pl
}

// storageKey identifies a tensor's storage: the address of its first
// element, or the tensor itself when it has none.
func storageKey[T tensor.Number](t *tensor.Tensor[T]) any {
	if e := t.Elems(friend.K); cap(e) > 0 {
		return &e[:1][0]
	}
	return t
}

// name records t's name unless the tree already names it.
func (pl *plan) name(t any, name string) {
	if _, ok := pl.names[t]; !ok {
		pl.names[t] = name
	}
}

// nameStorage records a name for every view of t's storage.
func nameStorage[T tensor.Number](pl *plan, t *tensor.Tensor[T], name string) {
	pl.names[t] = name
	if _, seen := pl.names[storageKey(t)]; !seen {
		pl.names[storageKey(t)] = name
	}
}

// nameOf returns t's name: its own, its storage's, or its shape.
func nameOf[T tensor.Number](pl *plan, t *tensor.Tensor[T]) string {
	if n, ok := pl.names[t]; ok {
		return n
	}
	if n, ok := pl.names[storageKey(t)]; ok {
		return n
	}
	return fmt.Sprintf("tensor%v", t.ShapeView(friend.K))
}

// newTemp names a temporary a step writes.
func newTemp[T tensor.Number](pl *plan, t *tensor.Tensor[T]) string {
	pl.temps++
	name := fmt.Sprintf("t%d", pl.temps)
	nameStorage(pl, t, name)
	return name
}

func (pl *plan) add(s step) {
	if pl.cuda {
		pl.steps = append(pl.steps, s.cudaSource(pl))
		return
	}
	pl.steps = append(pl.steps, s.describe(pl))
}

// String numbers the steps.
func (pl *plan) String() string {
	var b strings.Builder
	prefix := ""
	if pl.cuda {
		prefix = "// " // the listing is CUDA C
	}
	for i, s := range pl.steps {
		fmt.Fprintf(&b, "%sstep %d: %s", prefix, i+1, s)
	}
	return b.String()
}

// assignStep is a pass of a program that writes dst.
type assignStep[T tensor.Number] struct {
	p   *program[T]
	dst *tensor.Tensor[T]
	e   expr.Exp[T]
}

func (s *assignStep[T]) run() { s.p.execute() }

func (s *assignStep[T]) launch(d *onDevice) error {
	if s.p.first != nil {
		if err := s.p.first.launch(d); err != nil {
			return err
		}
	}
	return launchProgram(d, s.p)
}

func (s *assignStep[T]) cudaSource(pl *plan) string {
	name, ok := pl.names[s.dst]
	if !ok {
		name = newTemp(pl, s.dst)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %v\n", name, s.e)
	if s.p.first != nil {
		fmt.Fprintf(&b, "// first %s, straight into %s\n", describeProduct(pl, s.p.first), name)
	}
	if s.p.noop {
		b.WriteString("// nothing to do: the expression is the destination itself\n")
		return b.String()
	}
	k := kernelFor(s.p)
	b.WriteString(k.Source())
	return b.String()
}
func (s *assignStep[T]) describe(pl *plan) string {
	name, ok := pl.names[s.dst]
	if !ok {
		name = newTemp(pl, s.dst)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %v\n", name, s.dst.ShapeView(friend.K), tensor.DType[T](), s.e)
	if s.p.first != nil {
		fmt.Fprintf(&b, "  first %s, straight into %s\n", describeProduct(pl, s.p.first), name)
	}
	if s.p.noop {
		b.WriteString("  nothing to do: the expression is the destination itself\n")
		return b.String()
	}
	describeProgram(&b, pl, s.p, name)
	return b.String()
}

// reduceStep is a reduction: a program folding its operand into
// accumulators.
type reduceStep[T tensor.Number] struct {
	p   *program[T]
	acc *tensor.Tensor[T]
	x   expr.Exp[T]
	g   expr.ReduceGeometry
}

func (s *reduceStep[T]) run() {
	s.p.run()
	s.p.red.finish()
}

// launch queues the reduction's kernel; a reduction over no elements (a
// sum or product: the others refuse it) is its identity, filled in.
func (s *reduceStep[T]) launch(d *onDevice) error {
	if s.g.Count == 0 {
		return evaluate(d.ev, s.acc, expr.Exp[T](expr.Scalar(ops.Start[T](s.p.red.def.Identity))))
	}
	return launchProgram(d, s.p)
}

func (s *reduceStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.acc)
	return fmt.Sprintf("%s = %s of %v\n%s", name, s.p.red.def.Name, s.x, kernelFor(s.p).Source())
}
func (s *reduceStep[T]) describe(pl *plan) string {
	name := newTemp(pl, s.acc)
	var axes []int
	for d, r := range s.g.Reduced {
		if r {
			axes = append(axes, d)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %s of %v over axes %s (%d elements each)\n",
		name, s.g.Result, tensor.DType[T](), s.p.red.def.Name, s.x, shape.FormatInts(axes), s.g.Count)
	fold := "folded into one accumulator per result element"
	if s.p.red.compensated {
		fold += ", pairwise within a block and compensated (Neumaier) across blocks"
	}
	fmt.Fprintf(&b, "  %s; the operand is not materialised\n", fold)
	describeProgram(&b, pl, s.p, "acc")
	return b.String()
}

func (s *productStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.c)
	g, _ := expr.ProductShape(s.a.ShapeView(friend.K), s.b.ShapeView(friend.K))
	return fmt.Sprintf("%s %v = %s @ %s: cuBLAS %sgemm, M=%d K=%d N=%d, batch %v\n",
		name, s.c.ShapeView(friend.K), nameOf(pl, s.a), nameOf(pl, s.b), tensor.DType[T]()[:1]+"-", g.M, g.K, g.N, g.Batch)
}

func (s *productStep[T]) describe(pl *plan) string {
	name := newTemp(pl, s.c)
	return fmt.Sprintf("%s %v %s = %s\n", name, s.c.ShapeView(friend.K), tensor.DType[T](), describeProduct(pl, s))
}

// describeProduct says how a product runs: BLAS or the blocked loop, and
// how each operand is read.
func describeProduct[T tensor.Number](pl *plan, s *productStep[T]) string {
	g, _ := expr.ProductShape(s.a.ShapeView(friend.K), s.b.ShapeView(friend.K))
	engine := "blocked Go loop"
	switch any(s.a).(type) {
	case *tensor.Tensor[float64]:
		engine = "BLAS dgemm (gonum)"
	case *tensor.Tensor[float32]:
		engine = "BLAS sgemm (gonum)"
	}
	batch := ""
	if len(g.Batch) > 0 {
		batch = fmt.Sprintf(", batch %v", g.Batch)
	}
	return fmt.Sprintf("%s @ %s: %s, M=%d K=%d N=%d%s; %s read %s, %s read %s",
		nameOf(pl, s.a), nameOf(pl, s.b), engine, g.M, g.K, g.N, batch,
		nameOf(pl, s.a), readMode(s.a, false), nameOf(pl, s.b), readMode(s.b, true))
}

// readMode says how BLAS takes a product operand (a matrix per batch).
func readMode[T tensor.Number](t *tensor.Tensor[T], right bool) string {
	s, st := t.ShapeView(friend.K), t.StridesView(friend.K)
	m := matrix[T]{rows: 1, cols: 1, rs: 1, cs: 1}
	switch {
	case len(s) == 1 && right:
		m.rows, m.rs = s[0], st[0]
	case len(s) == 1:
		m.cols, m.cs = s[0], st[0]
	default:
		r := len(s) - 2
		m.rows, m.cols, m.rs, m.cs = s[r], s[r+1], st[r], st[r+1]
	}
	_, trans, ok := m.layout()
	switch {
	case !ok:
		return "through a packed copy"
	case trans == blas.Trans:
		return "as stored, transposed"
	}
	return "as stored"
}

// describeProgram writes a program's loop, operands and instructions; dst
// names what operand 0 is.
func describeProgram[T tensor.Number](b *strings.Builder, pl *plan, p *program[T], dst string) {
	w := p.walkShape()
	inner := p.shape[len(p.shape)-1]
	work := w.planes * w.rows * inner * p.cost()
	mode := fmt.Sprintf("one goroutine (work %d < %d)", work, parallelThreshold)
	if work >= parallelThreshold {
		mode = fmt.Sprintf("split among up to GOMAXPROCS goroutines (work %d >= %d)", work, parallelThreshold)
	}
	tiles := ""
	if w.groupRows > 1 {
		tiles = fmt.Sprintf(", tiles of %d rows", w.groupRows)
	}
	fmt.Fprintf(b, "  loop over %v (coalesced) in blocks of up to %d%s, %s\n", p.shape, blockSize, tiles, mode)
	slot := slotNames(pl, p)
	fmt.Fprintf(b, "  %-4s %s strides %s offset %d\n", "out", dst, shape.FormatInts(p.strides[0]), p.offsets[0])
	for i, s := range p.leafSlot {
		how := "read in place"
		switch st := p.strides[1+i][len(p.shape)-1]; {
		case p.convert[i] != nil:
			how = "converted per block"
		case st == 0:
			how = "one value per block"
		case st != 1:
			how = "gathered per block"
		}
		fmt.Fprintf(b, "  %-4s %s strides %s offset %d, %s\n", slot[s], leafName(pl, p, i), shape.FormatInts(p.strides[1+i]), p.offsets[1+i], how)
	}
	for _, c := range p.consts {
		fmt.Fprintf(b, "  %-4s = %v\n", slot[c.slot], c.value)
	}
	for k, in := range p.code {
		out := slot[in.out]
		if k == len(p.code)-1 && p.inPlace {
			out = "out"
		}
		fmt.Fprintf(b, "  %-4s = %s\n", out, describeInstr(in, slot))
	}
	switch {
	case p.red != nil:
		fmt.Fprintf(b, "  fold %s into out with %s\n", slot[p.result], p.red.def.Name)
	case !p.inPlace:
		fmt.Fprintf(b, "  out  = %s\n", slot[p.result])
	}
}

// slotNames names each value slot: leaves in0, in1…, constants c0…, and
// instruction results v0….
func slotNames[T tensor.Number](pl *plan, p *program[T]) []string {
	names := make([]string, p.nslots)
	for i, s := range p.leafSlot {
		names[s] = fmt.Sprintf("in%d", i)
	}
	for i, c := range p.consts {
		names[c.slot] = fmt.Sprintf("c%d", i)
	}
	for k, in := range p.code {
		names[in.out] = fmt.Sprintf("v%d", k)
	}
	return names
}

// leafName names leaf i of p.
func leafName[T tensor.Number](pl *plan, p *program[T], i int) string {
	if c := p.convert[i]; c != nil {
		return c.source(pl)
	}
	t := p.leaves[i]
	name := nameOf(pl, t)
	if e := t.Elems(friend.K); cap(e) > 0 && cap(p.data[1+i]) > 0 && &e[:1][0] != &p.data[1+i][:1][0] {
		name = "a copy of " + name + " (it overlaps the destination)"
	}
	return name
}

// describeInstr writes an instruction as a call of its op (or fused pair).
func describeInstr(in instr, slot []string) string {
	args := make([]string, in.op.Arity())
	for i := range args {
		args[i] = slot[in.args[i]]
	}
	call := in.op.String() + "(" + strings.Join(args, ", ") + ")"
	if in.pair != 0 {
		call = fmt.Sprintf("%s(%s, %s)   fused", in.op2, call, slot[in.args[2]])
	}
	return call
}
