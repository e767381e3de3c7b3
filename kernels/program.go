package kernels

import (
	"fmt"
	"slices"
	"sync"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Program is an assignment compiled once to be run many times, as a
// training loop runs the same step over new contents: its trees checked,
// the alias analysis done, every step lowered and every temporary
// allocated by Compile (or CompileAll). Run evaluates it again on the
// tensors' current contents, with the result Assign (AssignAll) would give
// for them, and without looking the trees up, checking or lowering them
// again.
//
// A Program keeps its temporaries until Release. It reads and writes the
// very tensors it was compiled for: it sees their new contents, but a
// tensor changed in place since (tensor.Resize: another shape or storage)
// makes Run return a *shape.StaleError naming it, and a released one makes
// Run panic, as Assign does. Run calls on one Program are serialised (a
// mutex); Programs of the same trees run in parallel where their
// destinations differ.
type Program[T tensor.Number] struct {
	mu       sync.Mutex
	steps    []step
	copies   []func() // operands copied aside (copyAside), before the steps
	temps    []interface{ Release() error }
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
// Assign(dst, e) would run and allocates the temporaries, and returns the
// Program that runs them; it writes nothing. Its errors are Assign's (the
// call named Compile). It compiles for the CPU: a destination on a device
// is a *shape.DeviceError (Assign evaluates there).
func Compile[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) (*Program[T], error) {
	const call = "Compile"
	if err := checkAssign(call, dst, e); err != nil {
		return nil, err
	}
	return compile(call, []*tensor.Tensor[T]{dst}, []expr.Exp[T]{e}, func(ev *evaluation) error {
		return evaluateRoot(ev, dst, e)
	})
}

// CompileAll is Compile for AssignAll(dsts, es): one Program computing
// every pair, as AssignAll does (one fused pass where AssignAll makes one).
func CompileAll[T tensor.Number](dsts []*tensor.Tensor[T], es []expr.Exp[T]) (*Program[T], error) {
	const call = "CompileAll"
	if err := checkAll(call, dsts, es); err != nil {
		return nil, err
	}
	return compile(call, dsts, es, func(ev *evaluation) error {
		if len(dsts) == 0 {
			return nil
		}
		return lowerPairs(ev, dsts, es)
	})
}

// compile lowers checked pairs with lowerPairs into a Program.
func compile[T tensor.Number](call string, dsts []*tensor.Tensor[T], es []expr.Exp[T], lowerPairs func(*evaluation) error) (_ *Program[T], err error) {
	for _, d := range dsts {
		if !d.Device().IsCPU() {
			return nil, &shape.DeviceError{Op: call, Devices: []fmt.Stringer{d.Device()},
				Reason: "a Program runs on the CPU; Assign and AssignAll evaluate on a device"}
		}
	}
	for i := range dsts {
		defer holdAll(call, dsts[i], es[i])()
	}
	ev := newEvaluation(call)
	defer func() {
		if err != nil {
			ev.release()
		}
	}()
	defer recoverAllocation(&err)
	if err := lowerPairs(ev); err != nil {
		return nil, err
	}
	if ev.err != nil {
		return nil, ev.err
	}
	p := &Program[T]{steps: ev.pending, copies: ev.copies, temps: ev.temps}
	for _, s := range p.steps {
		if k, ok := s.(interface{ keepWorkers() }); ok {
			k.keepWorkers()
		}
	}
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
	return p, nil
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
// since Compile, and the error of an integer power's negative exponent as
// Assign does; it panics after Release, or when a tensor was released.
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
	if err := runChecks(p.checks); err != nil {
		return err
	}
	if p.ran {
		for _, s := range p.steps {
			if r, ok := s.(interface{ rewind() }); ok {
				r.rewind()
			}
		}
	}
	p.ran = true
	runHost(p.copies, p.steps)
	return nil
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
	for _, t := range p.temps {
		_ = t.Release()
	}
	p.temps, p.steps, p.copies = nil, nil, nil
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
