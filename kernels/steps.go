// The steps an evaluation performs: each step type with every method of the
// step interface (run on the CPU, launch on a device, describe and
// cudaSource for Explain).

package kernels

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// assignStep is a pass of a program that writes dst.
type assignStep[T tensor.Number] struct {
	p   *program[T]
	dst *tensor.Tensor[T]
	e   expr.Exp[T]
}

func (s *assignStep[T]) run() { cpu.Execute(&s.p.Pass) }

// keepWorkers gives the step's program workers of its own (a Program).
func (s *assignStep[T]) keepWorkers() { cpu.KeepWorkers(&s.p.Pass) }

// prepare acquires what the product computed straight into dst needs, if
// the program has one, and compiles the program's kernel.
func (s *assignStep[T]) prepare(d *onDevice) error {
	if s.p.first != nil {
		if err := s.p.first.prepare(d); err != nil {
			return err
		}
	}
	return d.compile(s.e, device.ProgramKernel(s.p.pass()))
}

func (s *assignStep[T]) launch(d *onDevice) error {
	if s.p.first != nil {
		if err := s.p.first.launch(d); err != nil {
			return err
		}
	}
	return device.LaunchProgram(d.backend, d.queue, s.p.pass())
}

func (s *assignStep[T]) cudaSource(pl *plan) string {
	name, ok := pl.names[s.dst]
	if !ok {
		name = newTemp(pl, s.dst)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %v\n", name, exprString(pl, s.e))
	if s.p.first != nil {
		fmt.Fprintf(&b, "// first %s, straight into %s\n", describeProduct(pl, s.p.first), name)
	}
	if pl.device != nil && (len(pl.work) > 0 || !s.p.Noop) {
		writeSources(&b, pl.work)
	}
	if s.p.Noop {
		b.WriteString("// nothing to do: the expression is the destination itself\n")
		return b.String()
	}
	if pl.device != nil {
		return b.String()
	}
	k := device.KernelFor(s.p.pass())
	b.WriteString(k.Source())
	return b.String()
}

func (s *assignStep[T]) describe(pl *plan) string {
	name, ok := pl.names[s.dst]
	if !ok {
		name = newTemp(pl, s.dst)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %v\n", name, s.dst.ShapeView(friend.K), tensor.DTypeOf[T](), exprString(pl, s.e))
	if s.p.first != nil {
		fmt.Fprintf(&b, "  first %s, straight into %s\n", describeProduct(pl, s.p.first), name)
	}
	if pl.device != nil && (len(pl.work) > 0 || !s.p.Noop) {
		writeWork(&b, pl.work)
	}
	if s.p.Noop {
		b.WriteString("  nothing to do: the expression is the destination itself\n")
		return b.String()
	}
	describeProgram(&b, pl, s.p, name)
	return b.String()
}

// reduceStep is a reduction: a program folding its operand into
// accumulators.
type reduceStep[T tensor.Number] struct {
	n   expr.Node // the reduction node
	p   *program[T]
	acc *tensor.Tensor[T]
	x   expr.Exp[T]
	g   expr.ReduceGeometry

	// Set by prepare, on a device: the fill of a reduction over no
	// elements, or the kernel and, for a split reduction, its partials.
	fill  *program[T]
	k     *Kernel
	split *device.Split
}

// keepWorkers gives the step's program workers of its own (a Program).
func (s *reduceStep[T]) keepWorkers() { cpu.KeepWorkers(&s.p.Pass) }

// rewind readies the accumulators for another run of a compiled Program.
func (s *reduceStep[T]) rewind() { cpu.Rewind(s.p.Red) }

// run folds the reduction into its accumulators and finishes them: split
// by rows where the rows fold apart (runRowsApart), else by blocks, each
// goroutine into accumulators of its own, merged before the finish.
func (s *reduceStep[T]) run() { cpu.Reduce(&s.p.Pass) }

// prepare lowers the fill of a reduction over no elements (a sum or
// product: the others refuse it), which is its identity; else it builds
// the reduction's kernel and, for a split reduction, allocates the
// partials. It compiles every kernel launch will queue.
func (s *reduceStep[T]) prepare(d *onDevice) (err error) {
	if s.g.Count == 0 {
		if s.fill, err = lower(d.ev, assignTo(s.acc), expr.Of[T](expr.Scalar(ops.Start[T](s.p.red.Def.Identity))), nil); err != nil {
			return err
		}
		return d.compile(s.n, device.ProgramKernel(s.fill.pass()))
	}
	s.k = device.KernelFor(s.p.pass())
	if s.k.Work == 0 {
		return nil
	}
	if !device.IsSplit(s.k) {
		return d.compile(s.n, s.k)
	}
	sp := newSplit(d.ev, s.n, s.p, s.k)
	s.split = &sp
	return d.compile(s.n, s.k, device.FinishKernel(s.k))
}

// launch queues the reduction's kernel (two for a split reduction), or
// the fill of a reduction over no elements.
func (s *reduceStep[T]) launch(d *onDevice) error {
	switch {
	case s.fill != nil:
		return device.LaunchProgram(d.backend, d.queue, s.fill.pass())
	case s.k.Work == 0:
		return nil
	case s.split != nil:
		return device.LaunchSplit(d.backend, d.queue, s.k, *s.split)
	}
	return d.backend.Launch(d.queue, s.k)
}

func (s *reduceStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.acc)
	if pl.device != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s = %s of %v\n", name, s.p.red.Def.Name, exprString(pl, s.x))
		if s.g.Count == 0 {
			b.WriteString("// no kernel: over no elements, the step before fills it with the identity\n")
			return b.String()
		}
		writeSources(&b, pl.work)
		return b.String()
	}
	return fmt.Sprintf("%s = %s of %v\n%s", name, s.p.red.Def.Name, s.x, device.KernelFor(s.p.pass()).Source())
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
		name, s.g.Result, tensor.DTypeOf[T](), s.p.red.Def.Name, exprString(pl, s.x), shape.FormatInts(axes), s.g.Count)
	if pl.device != nil {
		if s.g.Count == 0 {
			b.WriteString("  no kernel: over no elements, the step before fills it with the identity\n")
			return b.String()
		}
		b.WriteString("  folded on the device by threads that each fold a share, then combine their results; the operand is not materialised\n")
		writeWork(&b, pl.work)
		describeProgram(&b, pl, s.p, "acc")
		return b.String()
	}
	fold := "folded into one accumulator per result element"
	if s.p.red.Compensated {
		fold += ", pairwise within a block and compensated (Neumaier) across blocks"
	}
	fmt.Fprintf(&b, "  %s; the operand is not materialised\n", fold)
	describeProgram(&b, pl, s.p, "acc")
	return b.String()
}

// productStep is one matrix product: c = a @ b, the value of node n.
type productStep[T tensor.Number] struct {
	ir.Product[T]
	n  expr.Node
	on *productOnDevice[T] // set by prepare, on a device
}

// productOnDevice is what a product's launch works with on a device:
// contiguous operands, a contiguous result, the product's geometry, and
// the pass that follows the product (then: the copy of a contiguous
// temporary into c, or, for K = 0, the fill of c with zeros), if any.
type productOnDevice[T tensor.Number] struct {
	c, a, b *tensor.Tensor[T]
	g       expr.ProductGeometry
	then    *program[T]
}

func (s *productStep[T]) run() { cpu.Multiply(s.C, s.A, s.B) }

// prepare acquires what the product's launch needs: a contiguous copy of
// an operand that is not contiguous (each copy a step performed before
// this one), a contiguous temporary when c is not, and the pass that
// follows the product; it compiles every kernel launch will queue.
func (s *productStep[T]) prepare(d *onDevice) (err error) {
	on := &productOnDevice[T]{c: s.C}
	if on.a, err = contiguousOn(d, s.A); err != nil {
		return err
	}
	if on.b, err = contiguousOn(d, s.B); err != nil {
		return err
	}
	on.g, _ = expr.ProductShape(on.a.ShapeView(friend.K), on.b.ShapeView(friend.K))
	switch {
	case on.g.K == 0:
		on.then, err = lower(d.ev, assignTo(s.C), expr.Of[T](expr.Scalar(T(0))), nil)
	case !s.C.IsContiguous():
		on.c = temp[T](d.ev, s.n, s.C.ShapeView(friend.K))
		on.then, err = lower(d.ev, assignTo(s.C), expr.Of[T](on.c), nil)
	}
	s.on = on
	if err != nil {
		return err
	}
	var gemm *Kernel // the generated product, for the types cuBLAS lacks
	if on.g.K > 0 && !tensor.IsFloat[T]() {
		gemm = device.GemmLaunch(tensor.DTypeOf[T](), on.g)
	}
	return d.compile(s.n, gemm, device.ProgramKernel(on.then.pass()))
}

// launch queues the product on the device: one Gemm (cuBLAS, for float32
// and float64) or one generated tiled kernel (every other element type,
// device.GemmKernel) per matrix of the batch, over the operands and into the
// result prepare made contiguous, then the pass that follows it.
func (s *productStep[T]) launch(d *onDevice) error {
	on := s.on
	if on.g.K > 0 {
		queue := func() error {
			return device.QueueGemms(d.backend, d.queue, tensor.DTypeOf[T](), on.g, on.c, on.a, on.b)
		}
		if !tensor.IsFloat[T]() {
			queue = func() error { return device.QueueGemmKernels(d.backend, d.queue, on.g, on.c, on.a, on.b) }
		}
		if err := queue(); err != nil {
			return err
		}
	}
	if on.then != nil {
		return device.LaunchProgram(d.backend, d.queue, on.then.pass())
	}
	return nil
}

func (s *productStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.C)
	g, _ := expr.ProductShape(s.A.ShapeView(friend.K), s.B.ShapeView(friend.K))
	if pl.device != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %v = %s @ %s: M=%d K=%d N=%d, batch %v\n",
			name, s.C.ShapeView(friend.K), nameOf(pl, s.A), nameOf(pl, s.B), g.M, g.K, g.N, g.Batch)
		writeSources(&b, pl.work)
		return b.String()
	}
	return fmt.Sprintf("%s %v = %s @ %s: cuBLAS %sgemm, M=%d K=%d N=%d, batch %v\n",
		name, s.C.ShapeView(friend.K), nameOf(pl, s.A), nameOf(pl, s.B), blasPrefix(tensor.DTypeOf[T]()), g.M, g.K, g.N, g.Batch)
}

func (s *productStep[T]) describe(pl *plan) string {
	name := newTemp(pl, s.C)
	line := fmt.Sprintf("%s %v %s = %s\n", name, s.C.ShapeView(friend.K), tensor.DTypeOf[T](), describeProduct(pl, s))
	if pl.device == nil {
		return line
	}
	var b strings.Builder
	b.WriteString(line)
	writeWork(&b, pl.work)
	return b.String()
}

// scanStep is one scan: src (contiguous) into dst (contiguous, same shape).
type scanStep[T tensor.Number] struct {
	n                    *expr.Scan[T]
	def                  ops.ReducerDef
	src, dst             *tensor.Tensor[T]
	outer, length, inner int
}

// run folds every line on the host.
func (s *scanStep[T]) run() {
	cpu.Scan(s.def.Combine, s.dst.Elems(friend.K)[s.dst.Offset():], s.src.Elems(friend.K)[s.src.Offset():], s.outer, s.length, s.inner)
}

// prepare compiles the scan's kernel; it has nothing to acquire: the
// scan's operand and result are temporaries the lowering allocated.
func (s *scanStep[T]) prepare(d *onDevice) error {
	if k := s.kernel(); k.Work > 0 {
		return d.compile(s.n, k)
	}
	return nil
}

// launch queues the scan's kernel: one thread per line.
func (s *scanStep[T]) launch(d *onDevice) error {
	k := s.kernel()
	if k.Work == 0 {
		return nil
	}
	return d.backend.Launch(d.queue, k)
}

// kernel is the launch of the scan's CUDA kernel.
func (s *scanStep[T]) kernel() *Kernel {
	return device.ScanKernel(tensor.DTypeOf[T](), s.def, s.outer, s.length, s.inner,
		ir.MemoryOf(s.dst).Address(s.dst.Offset()), ir.MemoryOf(s.src).Address(s.src.Offset()))
}

func (s *scanStep[T]) cudaSource(pl *plan) string {
	name := newTemp(pl, s.dst)
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %s\n", name, s.header(pl))
	if pl.device != nil {
		writeSources(&b, pl.work)
		return b.String()
	}
	if k := s.kernel(); k.Work > 0 {
		b.WriteString(k.Source())
	} else {
		b.WriteString("// no kernel: the result has no elements\n")
	}
	return b.String()
}

func (s *scanStep[T]) describe(pl *plan) string {
	name := newTemp(pl, s.dst)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s = %s\n", name, s.dst.ShapeView(friend.K), tensor.DTypeOf[T](), s.header(pl))
	if pl.device != nil {
		b.WriteString("  one thread per line, each folding its line first element first\n")
		writeWork(&b, pl.work)
		return b.String()
	}
	fmt.Fprintf(&b, "  %d lines of %d, folded first element first, %d lines in step\n", s.outer*s.inner, s.length, s.inner)
	return b.String()
}

// header names the scan and its operand for Explain.
func (s *scanStep[T]) header(pl *plan) string {
	return fmt.Sprintf("%s of %s along axis %d", s.n.Name(), nameOf(pl, s.src), s.n.Axis)
}
