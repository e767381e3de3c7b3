package kernels

import (
	"fmt"
	"slices"
	"sync"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Program is an assignment compiled once to be run many times, as a
// training loop runs the same step over new contents: its trees checked,
// the alias analysis done, every step lowered, every temporary allocated
// and, on a device, every kernel compiled by Compile (or CompileAll). Run
// evaluates it again on the tensors' current contents, with the result
// Assign (AssignAll) would give for them, and without looking the trees
// up, checking or lowering them again.
//
// Every evaluation goes through a Program: Assign, Eval and AssignAll
// compile one (or take the plan cache's, for an elementwise tree), run it
// and release it; Compile hands it to the caller instead.
//
// A Program keeps its temporaries until Release. It reads and writes the
// very tensors it was compiled for: it sees their new contents, but a
// tensor changed in place since (tensor.Resize: another shape or storage)
// makes Run return a *shape.StaleError naming it, and a released one makes
// Run panic, as Assign does. Run calls on one Program are serialised (a
// mutex); Programs of the same trees run in parallel where their
// destinations differ. A Program of device tensors queues its kernels on
// the device's default queue and Run waits for them.
type Program[T tensor.Number] struct {
	mu       sync.Mutex
	steps    []step
	copies   []func() // operands copied aside (copyAside), before the steps
	temps    []interface{ Release() error }
	exec     executor       // where the steps run: the CPU, or a device's queue
	checks   []func() error // integer powers' exponent values (power.go)
	tensors  []boundTensor
	held     []interface{ Drop() } // Run's holds, reused
	ran      bool                  // a run happened: reductions rewind first
	released bool
}

// boundTensor is a tensor a Program reads or writes, with its geometry
// and its storage (the value its Hold returns: the storage object) when
// the program was compiled: a tensor released and resized since may get
// the very block back from the cache, at the same address, in another
// storage object that the program's steps do not address.
type boundTensor struct {
	t       friend.Tensor
	name    string
	was     shape.Region
	storage interface{ Drop() }
}

// Compile checks e and dst as Assign does, lowers e into every step
// Assign(dst, e) would run, allocates the temporaries (and, on a device,
// compiles the kernels), and returns the Program that runs them; it writes
// nothing. Its errors are Assign's (the call named Compile).
func Compile[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) (*Program[T], error) {
	const call = "Compile"
	if err := checkAssign(call, dst, e); err != nil {
		return nil, err
	}
	return compileFor(call, []*tensor.Tensor[T]{dst}, []expr.Exp[T]{e}, lowerAssign(dst, e))
}

// CompileAll is Compile for AssignAll(dsts, es): one Program computing
// every pair, as AssignAll does (one fused pass where AssignAll makes one).
func CompileAll[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) (*Program[T], error) {
	const call = "CompileAll"
	if err := checkAll(call, dsts, es); err != nil {
		return nil, err
	}
	return compileFor(call, dsts, es, lowerAssignAll(dsts, es))
}

// lowerAssign lowers Assign(dst, e)'s checked pair: on the host with the
// destination as scratch (evaluateRoot), on a device as it is.
func lowerAssign[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) func(*evaluation) error {
	return func(ev *evaluation) error {
		if ev.device != nil {
			return evaluate(ev, dst, e)
		}
		return evaluateRoot(ev, dst, e)
	}
}

// lowerAssignAll lowers AssignAll's checked pairs: on the host fused into
// one pass where lowerPairs allows, on a device tree by tree.
func lowerAssignAll[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) func(*evaluation) error {
	return func(ev *evaluation) error {
		switch {
		case len(dsts) == 0:
			return nil
		case ev.device != nil:
			return evaluateAll(ev, dsts, es)
		}
		return lowerPairs(ev, dsts, es)
	}
}

// compileFor lowers checked pairs into a Program the caller keeps: with
// workers of its own, and every tensor it addresses recorded for Run's
// guard.
func compileFor[T tensor.Number](call string, dsts []*tensor.Tensor[T], es []expr.Exp[T], lower func(*evaluation) error) (*Program[T], error) {
	defer holdPairs(call, dsts, es)()
	var dev alloc.Device = alloc.CPU
	if len(dsts) > 0 {
		dev = dsts[0].Device()
	}
	p, err := lowerProgram[T](call, dev, nil, lower)
	if err != nil {
		return nil, err
	}
	for _, s := range p.steps {
		if k, ok := s.(interface{ keepWorkers() }); ok {
			k.keepWorkers()
		}
	}
	p.guard(dsts, es)
	return p, nil
}

// lowerProgram lowers with lower into a Program that runs on the host
// (dev the CPU) or queues its steps on q (nil: dev's default queue, which
// Run waits for). Every temporary is allocated, and every kernel
// compiled, before it returns; an allocation that fails is its error. The
// caller holds the tensors.
func lowerProgram[T tensor.Number](call string, dev alloc.Device, q Queue, lower func(*evaluation) error) (_ *Program[T], err error) {
	ev := newEvaluation(call)
	if !dev.IsCPU() {
		if ev, err = deviceEvaluation(call, dev, q); err != nil {
			return nil, err
		}
	}
	kept := false
	defer func() {
		if !kept { // an error, or a panic going on: the temporaries go back either way
			ev.release()
		}
	}()
	defer recoverAllocation(&err)
	if err := lower(ev); err != nil {
		return nil, err
	}
	if ev.err != nil {
		return nil, ev.err
	}
	kept = true
	p := &Program[T]{steps: ev.pending, copies: ev.copies, temps: ev.temps, exec: host{}}
	if ev.device != nil {
		p.exec = ev.device
	}
	return p, nil
}

// guard records what Run checks: every tensor of the pairs, and the
// integer powers' exponent values.
func (p *Program[T]) guard(dsts []*tensor.Tensor[T], es []expr.Exp[T]) {
	for i, d := range dsts {
		name := "the destination"
		if len(dsts) > 1 {
			name = fmt.Sprintf("destination %d", i)
		}
		p.bind(d, name)
	}
	for _, e := range es {
		p.checks = append(p.checks, exponentChecks("Program.Run", e)...)
		walkOnce(e, func(n expr.Node) bool {
			if t, ok := n.(friend.Tensor); ok {
				p.bind(t, "operand "+expr.Render(n))
			}
			return true
		})
	}
	p.held = make([]interface{ Drop() }, 0, len(p.tensors))
}

// runOnce is Assign's and AssignAll's evaluation of checked pairs on the
// CPU or a device's default queue: a Program compiled, run once and
// released, the tensors held meanwhile.
func runOnce[T tensor.Number](call string, dst *tensor.Tensor[T], holds func() func(), lower func(*evaluation) error) error {
	defer holds()()
	p, err := lowerProgram[T](call, dst.Device(), nil, lower)
	if err != nil {
		return err
	}
	defer p.release()
	return p.execute()
}

// runAssign compiles the Program of Assign(dst, e), a checked pair, shows
// it to seen (the plan cache keeps its pass; nil: nothing), and runs it:
// queued on q and released, with the tensors' holds, once q has run it;
// or, q nil, on the CPU or the device's default queue, waited for and
// released. The holds end on every path, a panic's included.
func runAssign[T tensor.Number](call string, q Queue, dst *tensor.Tensor[T], e expr.Exp[T], seen func(*Program[T])) error {
	drop := holdAll(call, dst, e)
	handed := false // to q, which lets the holds go once it has run the work
	defer func() {
		if !handed {
			drop()
		}
	}()
	p, err := lowerProgram[T](call, dst.Device(), q, lowerAssign(dst, e))
	if err != nil {
		return err
	}
	if seen != nil {
		seen(p)
	}
	if q != nil {
		handed = true
		defer q.Defer(func() {
			p.release()
			drop()
		})
		return p.start()
	}
	defer p.release()
	return p.execute()
}

// start runs the steps, or queues them, stopping at the first launch
// refused.
func (p *Program[T]) start() error { return p.exec.start(p.copies, p.steps) }

// execute is start, then a wait for the steps to have run: the first
// error of a launch or of the wait.
func (p *Program[T]) execute() error {
	err := p.start()
	if werr := p.exec.wait(); err == nil {
		err = werr
	}
	return err
}

// executor runs a Program's lowered steps where its tensors live: the CPU
// (host) or a device's queue (*onDevice, which the device's Backend
// serves). Every evaluation reaches its executor through a Program.
type executor interface {
	// start runs the steps (the operands copied aside first), or queues
	// them, stopping at the first error.
	start(copies []func(), steps []step) error
	// wait returns once the steps started have run, with the first error
	// met while they ran.
	wait() error
	// rerun readies the steps for another run of the same Program.
	rerun(steps []step)
}

// host is the CPU's executor: the steps run on the calling goroutine
// (and the worker pool), bands of steps together where bands.go allows.
type host struct{}

func (host) start(copies []func(), steps []step) error {
	return runHost(copies, steps)
}

func (host) wait() error { return nil }

// rerun rewinds the reductions' accumulators to their identity.
func (host) rerun(steps []step) {
	for _, s := range steps {
		if r, ok := s.(interface{ rewind() }); ok {
			r.rewind()
		}
	}
}

// start queues each step's launches on the device's queue. Operands are
// never copied aside on the host for a device (copies is empty).
func (d *onDevice) start(_ []func(), steps []step) error {
	for _, s := range steps {
		if err := s.launch(d); err != nil {
			return err
		}
	}
	return nil
}

func (d *onDevice) wait() error { return d.queue.Wait() }

// rerun does nothing: a device reduction computes its result afresh on
// every launch.
func (d *onDevice) rerun([]step) {}

// release gives the temporaries back.
func (p *Program[T]) release() {
	for _, t := range p.temps {
		_ = t.Release()
	}
	p.temps, p.steps, p.copies = nil, nil, nil
}

// bind records t as a tensor the program addresses, once.
func (p *Program[T]) bind(t friend.Tensor, name string) {
	for _, b := range p.tensors {
		if b.t == t {
			return
		}
	}
	r := t.Region(friend.K)
	r.Shape, r.Strides = r.Shape.Clone(), slices.Clone(r.Strides)
	storage := t.Hold(friend.K, "Compile") // held by compile already: only its identity is kept
	storage.Drop()
	p.tensors = append(p.tensors, boundTensor{t: t, name: name, was: r, storage: storage})
}

// Run evaluates the program on its tensors' current contents: the
// destinations then hold what Assign (AssignAll) would write. It returns
// a *shape.StaleError, writing nothing, when a tensor changed in place
// since Compile, and the error of an integer power's negative exponent or
// of a gather's index out of range as Assign does, naming Program.Run,
// writing nothing; it panics after Release, or when a tensor was released.
func (p *Program[T]) Run() (err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.released {
		panic(&shape.ReleaseError{Op: "Program.Run", What: "this program"})
	}
	held := p.held[:0]
	defer func() {
		for _, h := range held {
			h.Drop()
		}
	}()
	for _, b := range p.tensors {
		held = append(held, b.t.Hold(friend.K, "Program.Run"))
	}
	for i, b := range p.tensors {
		now := b.t.Region(friend.K)
		if !sameRegion(b.was, now) {
			return &shape.StaleError{Op: "Program.Run", Tensor: b.name, Was: describeRegion(b.was), Now: describeRegion(now)}
		}
		if held[i] != b.storage {
			return &shape.StaleError{Op: "Program.Run", Tensor: b.name, Was: describeRegion(b.was),
				Now: "the same geometry over new storage (released and resized)"}
		}
	}
	defer recoverAllocation(&err) // an exponent check may evaluate the exponent
	// the checks and steps carry Compile's name
	defer func() { err = shape.Rename(err, "Program.Run") }()
	if err := runChecks(p.checks); err != nil {
		return err
	}
	if p.ran {
		p.exec.rerun(p.steps)
	}
	p.ran = true
	return p.execute()
}

// Release gives the program's temporaries back to the allocator; the
// program must not run again. A second Release is a *shape.ReleaseError.
func (p *Program[T]) Release() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.released {
		return &shape.ReleaseError{Op: "Program.Release", What: "this program"}
	}
	p.released = true
	p.release()
	return nil
}

// sameRegion reports whether two regions address the same elements in the
// same order: space, storage, element size, offset, shape and strides.
func sameRegion(a, b shape.Region) bool {
	return a.Space == b.Space && a.Base == b.Base && a.ItemSize == b.ItemSize && a.Offset == b.Offset &&
		a.Shape.Equal(b.Shape) && slices.Equal(a.Strides, b.Strides)
}

// describeRegion names a region's geometry for a StaleError.
func describeRegion(r shape.Region) string {
	return fmt.Sprintf("shape %v, strides %v, offset %d, storage at %#x", r.Shape, r.Strides, r.Offset, r.Base)
}
