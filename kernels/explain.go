package kernels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Explain describes how Assign(dst, e) would run, without running it: each
// step in order (a matrix product, a reduction, the pass that writes dst),
// and for each pass its lowered program: the coalesced loop, the operands
// with their strides, the instructions, and whether it goes parallel. It
// checks as Assign does and returns the same errors; dst is not written.
// Temporaries are allocated to lower the steps that read them, and given
// back before Explain returns.
//
// On device tensors (dst and the tree on a GPU) Explain follows the device
// path of Assign instead: each step lists the work it would queue (the
// generated CUDA kernels by name and size, the cuBLAS calls of a product),
// and the steps include the copies a device makes (a contiguous copy of a
// product's operand, a copy of an operand that overlaps dst). Nothing is
// launched and no backend is needed, so it works without a GPU; its
// temporaries are allocated on the device, and given back.
func Explain[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) (string, error) {
	return explainPlan("Explain", dst, e, false)
}

// explainPlan is Explain, and CUDASource when cuda is set: it lowers e for
// dst as Assign would, collecting the steps instead of running them. For a
// device destination the steps are also "launched" on a describer, which
// records what each would queue.
func explainPlan[T tensor.Number](call string, dst *tensor.Tensor[T], e expr.Exp[T], cuda bool) (_ string, err error) {
	if err := checkAssign(call, dst, e); err != nil {
		return "", err
	}
	defer recoverAllocation(&err)
	ev := newEvaluation(call)
	defer ev.release()
	ev.plan = newPlan(e)
	ev.plan.cuda = cuda
	ev.plan.name(dst, "dst")
	if dev := dst.Device(); !dev.IsCPU() {
		a, err := alloc.For(dev)
		if err != nil {
			return "", err
		}
		rec := &describer{dev: dev}
		ev.device = &onDevice{ev: ev, backend: rec, queue: rec, alloc: a}
		ev.plan.device, ev.plan.rec = ev.device, rec
	}
	if err := evaluateRoot(ev, dst, e); err != nil {
		return "", err
	}
	if ev.err != nil {
		return "", ev.err
	}
	if ev.plan.err != nil {
		return "", ev.plan.err
	}
	return ev.plan.String(), nil
}

// describer is the Backend and Queue of Explain and CUDASource on device
// tensors: it records the work a step queues (kernels, products) and runs
// none of it.
type describer struct {
	dev  alloc.Device
	work []queued // what the step being launched has queued so far
}

// queued is one piece of device work: a kernel or a cuBLAS product.
type queued struct {
	kernel *Kernel
	gemm   *Gemm
	host   string // work on the host between the device's (hostrun.go): what it is
}

func (d *describer) DefaultQueue(alloc.Device) (Queue, error) { return d, nil }
func (d *describer) Device() alloc.Device                     { return d.dev }
func (d *describer) Wait() error                              { return nil }
func (d *describer) Defer(f func())                           { f() } // nothing is queued: done at once

func (d *describer) Launch(_ Queue, k *Kernel) error {
	d.work = append(d.work, queued{kernel: k})
	return nil
}

func (d *describer) Gemm(_ Queue, g Gemm) error {
	d.work = append(d.work, queued{gemm: &g})
	return nil
}

// describe says what q runs: a kernel by name and size, a product by its
// cuBLAS routine and sizes.
func (q queued) describe() string {
	if g := q.gemm; g != nil {
		return fmt.Sprintf("cuBLAS %sgemm, M=%d N=%d K=%d", blasPrefix(g.DType), g.M, g.N, g.K)
	}
	if q.host != "" {
		return "on the host: " + q.host
	}
	k := q.kernel
	if device.IsScan(k) {
		return fmt.Sprintf("CUDA kernel %s: a scan of %s", k.Name, plural(k.Work, "line"))
	}
	if device.IsGather(k) {
		return fmt.Sprintf("CUDA kernel %s: a gather of %s", k.Name, plural(k.Work, "element"))
	}
	if k.Reduction {
		return fmt.Sprintf("CUDA kernel %s: a reduction into %s", k.Name, plural(k.Work, "result"))
	}
	return fmt.Sprintf("CUDA kernel %s: %s", k.Name, plural(k.Work, "element"))
}

// plural writes a count of things.
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// blasPrefix is BLAS's letter for an element type: s for float32, d for
// float64.
func blasPrefix(dtype tensor.DType) string {
	if dtype == tensor.Float32 {
		return "s"
	}
	return "d"
}

// source is q's CUDA C: a kernel's source, or a comment for a product.
func (q queued) source() string {
	if q.gemm != nil || q.host != "" {
		return "// " + q.describe() + "\n"
	}
	return q.kernel.Source()
}

// plan is what Explain collects: the steps, described, and the names of the
// tensors they read and write.
type plan struct {
	names map[any]string // a tensor, or a storage (storageKey), → its name
	steps []string
	run   []step // the steps, for the bands they run in (CPU only)
	temps int
	cuda  bool // CUDASource: each step gives its kernel's source

	// Device tensors: each step is launched on rec (device) before it is
	// described, and describes the work it queued (work).
	device *onDevice
	rec    *describer
	work   []queued
	err    error // the first error a step's launch returned (Assign's error)
}

// newPlan names the tensors e's Named nodes stand for.
func newPlan(e expr.Node) *plan {
	pl := &plan{names: map[any]string{}}
	pl.nameNodes(e)
	return pl
}

// nameNodes names the tensors e's Named nodes stand for, unless named
// already.
func (pl *plan) nameNodes(e expr.Node) {
	walkOnce(e, func(n expr.Node) bool {
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
}

// storageKey identifies a tensor's storage: the address of its first
// element, or the tensor itself when it has none.
func storageKey[T tensor.Number](t *tensor.Tensor[T]) any {
	if e := t.Elems(friend.K); cap(e) > 0 {
		return &e[:1][0]
	}
	if m := t.Mem(friend.K); m != nil {
		return m // device memory
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
	if pl.device != nil {
		// A step's prepare has performed its copies, each added with its
		// own work before it.
		outer := pl.rec.work
		pl.rec.work = nil
		if pl.err == nil {
			pl.err = s.launch(pl.device)
		}
		pl.work, pl.rec.work = pl.rec.work, outer
	}
	if pl.cuda {
		pl.steps = append(pl.steps, s.cudaSource(pl))
		return
	}
	pl.steps = append(pl.steps, s.describe(pl))
	pl.run = append(pl.run, s)
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
	if pl.device == nil && !pl.cuda {
		for i := 0; i < len(pl.run); {
			j := bandGroup(pl.run, i)
			if j-i > 1 {
				g := bandGroupOf(pl.run[i:j])
				fmt.Fprintf(&b, "steps %d to %d run in bands of %d rows, each band through all of them before the next (%s)\n",
					i+1, j, g.BandRows(), g.Mode())
			}
			i = j
		}
	}
	return b.String()
}

// exprString prints a step's expression; on a device, a bare tensor (a
// copy's operand) by its name rather than its values, which printing would
// copy to the host.
func exprString[T tensor.Number](pl *plan, e expr.Exp[T]) any {
	if t, ok := unwrap(e).(*tensor.Tensor[T]); ok && pl.device != nil {
		return nameOf(pl, t)
	}
	return e
}

// writeSources writes the source of each piece of work a device step
// queued, or says there is none.
func writeSources(b *strings.Builder, work []queued) {
	if len(work) == 0 {
		b.WriteString("// no kernel: there are no elements\n")
	}
	for _, q := range work {
		b.WriteString(q.source())
	}
}

// writeWork lists the work a device step queued.
func writeWork(b *strings.Builder, work []queued) {
	if len(work) == 0 {
		b.WriteString("  no kernel: there are no elements\n")
	}
	for _, q := range work {
		fmt.Fprintf(b, "  %s\n", q.describe())
	}
}

// describeProduct says how a product runs: BLAS or the blocked loop, and
// how each operand is read.
func describeProduct[T tensor.Number](pl *plan, s *productStep[T]) string {
	g, _ := expr.ProductShape(s.A.ShapeView(friend.K), s.B.ShapeView(friend.K))
	if pl.device != nil {
		return describeDeviceProduct(pl, s, g)
	}
	engine := "blocked Go loop"
	switch any(s.A).(type) {
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
		nameOf(pl, s.A), nameOf(pl, s.B), engine, g.M, g.K, g.N, batch,
		nameOf(pl, s.A), readMode(s.A, false), nameOf(pl, s.B), readMode(s.B, true))
}

// describeDeviceProduct says how a product runs on a device: one call per
// matrix of the batch, over contiguous operands (a copy, made by a step
// above, of one that is not) into a contiguous result.
func describeDeviceProduct[T tensor.Number](pl *plan, s *productStep[T], g expr.ProductGeometry) string {
	read := func(t *tensor.Tensor[T]) string {
		if t.IsContiguous() {
			return nameOf(pl, t) + " read as stored"
		}
		return nameOf(pl, t) + " read through a contiguous copy (a step above)"
	}
	batch := ""
	if len(g.Batch) > 0 {
		batch = fmt.Sprintf(", batch %v", g.Batch)
	}
	into := ""
	if !s.C.IsContiguous() {
		into = ", written to a contiguous temporary and copied (a step above)"
	}
	return fmt.Sprintf("%s @ %s on %v: M=%d K=%d N=%d%s, one call per matrix; %s, %s%s",
		nameOf(pl, s.A), nameOf(pl, s.B), pl.rec.dev, g.M, g.K, g.N, batch, read(s.A), read(s.B), into)
}

// readMode says how BLAS takes a product operand (a matrix per batch).
func readMode[T tensor.Number](t *tensor.Tensor[T], right bool) string {
	s, st := t.ShapeView(friend.K), t.StridesView(friend.K)
	rows, cols, rs, cs := 1, 1, 1, 1
	switch {
	case len(s) == 1 && right:
		rows, rs = s[0], st[0]
	case len(s) == 1:
		cols, cs = s[0], st[0]
	default:
		r := len(s) - 2
		rows, cols, rs, cs = s[r], s[r+1], st[r], st[r+1]
	}
	trans, ok := cpu.BLASLayout(rows, cols, rs, cs)
	switch {
	case !ok:
		return "through a packed copy"
	case trans:
		return "as stored, transposed"
	}
	return "as stored"
}

// describeProgram writes a program's loop, operands and instructions; dst
// names what operand 0 is.
func describeProgram[T tensor.Number](b *strings.Builder, pl *plan, p *program[T], dst string) {
	w := cpu.WalkOf(&p.Pass)
	mode := fmt.Sprintf("one goroutine (work %d < %d)", w.Work, cpu.ParallelThreshold)
	if w.Work >= cpu.ParallelThreshold {
		mode = fmt.Sprintf("split among up to GOMAXPROCS goroutines (work %d >= %d)", w.Work, cpu.ParallelThreshold)
	}
	tiles := ""
	if w.TileRows > 1 {
		tiles = fmt.Sprintf(", tiles of %d rows", w.TileRows)
	}
	if w.Shared {
		tiles += " whose values are the same (each block computed once a tile, then stored into its rows)"
	}
	if pl.device != nil {
		fmt.Fprintf(b, "  over %v (coalesced), the kernel's program:\n", p.Shape)
	} else {
		fmt.Fprintf(b, "  loop over %v (coalesced) in blocks of up to %d%s, %s\n", p.Shape, w.Block, tiles, mode)
	}
	for _, note := range p.notes {
		fmt.Fprintf(b, "  %s\n", note(pl))
	}
	slot := slotNames(pl, p)
	fmt.Fprintf(b, "  %-4s %s strides %s offset %d\n", "out", dst, shape.FormatInts(p.Strides[0]), p.Offsets[0])
	for i, s := range p.LeafSlot {
		how := "read in place"
		switch st := p.Strides[1+i][len(p.Shape)-1]; {
		case pl.device != nil && isGenerated(p.Convert[i]):
			how = "computed from the index in the kernel"
		case pl.device != nil && p.Convert[i] != nil:
			how = "converted as read"
		case pl.device != nil && slices.Contains(p.Strides[1+i], 0):
			how = "broadcast"
		case pl.device != nil:
		case isGenerated(p.Convert[i]):
			how = "computed per block"
		case p.Convert[i] != nil:
			how = "converted per block"
		case st == 0:
			how = "one value per block"
		case st != 1:
			how = "gathered per block"
		}
		fmt.Fprintf(b, "  %-4s %s strides %s offset %d, %s\n", slot[s], leafName(pl, p, i), shape.FormatInts(p.Strides[1+i]), p.Offsets[1+i], how)
	}
	for _, c := range p.Consts {
		fmt.Fprintf(b, "  %-4s = %v\n", slot[c.Slot], c.Value)
	}
	for k, in := range p.Code {
		out := slot[in.Out]
		if k == len(p.Code)-1 && p.InPlace {
			out = "out"
		}
		fmt.Fprintf(b, "  %-4s = %s\n", out, describeInstr(in, slot))
	}
	switch {
	case p.red != nil:
		if p.red.tee != nil {
			fmt.Fprintf(b, "  %-4s = %s, stored for the pass that writes it\n", nameOf(pl, p.red.tee), slot[p.Result])
		}
		fmt.Fprintf(b, "  fold %s into out with %s\n", slot[p.Result], p.red.Def.Name)
	case !p.InPlace:
		fmt.Fprintf(b, "  out  = %s\n", slot[p.Result])
	}
}

// slotNames names each value slot: leaves in0, in1…, constants c0…, and
// instruction results v0….
func slotNames[T tensor.Number](pl *plan, p *program[T]) []string {
	names := make([]string, p.Slots)
	for i, s := range p.LeafSlot {
		names[s] = fmt.Sprintf("in%d", i)
	}
	for i, c := range p.Consts {
		names[c.Slot] = fmt.Sprintf("c%d", i)
	}
	for k, in := range p.Code {
		names[in.Out] = fmt.Sprintf("v%d", k)
	}
	return names
}

// leafName names leaf i of p.
func leafName[T tensor.Number](pl *plan, p *program[T], i int) string {
	if c := p.Convert[i]; c != nil {
		return c.(converter[T]).source(pl)
	}
	t := p.Leaves[i]
	name := nameOf(pl, t)
	if e := t.Elems(friend.K); cap(e) > 0 && cap(p.Data[1+i]) > 0 && &e[:1][0] != &p.Data[1+i][:1][0] {
		name = "a copy of " + name + " (it overlaps the destination)"
	}
	if m, c := t.Mem(friend.K), p.Mems[1+i].Block; pl.device != nil && m != nil && c != nil && m != c {
		name = fmt.Sprintf("%s, a copy of %s (it overlaps the destination)", pl.names[c], name)
	}
	return name
}

// describeInstr writes an instruction as a call of its op (or fused pair).
func describeInstr(in ir.Instr, slot []string) string {
	args := make([]string, in.Op.Arity())
	for i := range args {
		args[i] = slot[in.Args[i]]
	}
	call := in.Op.String() + "(" + strings.Join(args, ", ") + ")"
	chain := in.Chain()
	for k, op := range chain[1:] {
		call = fmt.Sprintf("%s(%s, %s)", op, call, slot[in.Args[k+2]])
	}
	if len(chain) > 1 {
		call += "   fused"
	}
	return call
}
