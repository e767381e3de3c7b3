package kernels

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/dag"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The plan cache. An Assign of an elementwise tree (tensors of the tree's
// element type, constants, and unary, binary and ternary op nodes, under
// any Named or Chain nodes, and view nodes that expr.PushViews turns into
// tensor views of the leaves: the signature is the rewritten tree's) is described by a signature: the destination's
// and each leaf's shape, strides and device, which leaves are the same
// tensor (and which is the destination), the tree's node kinds and ops,
// in the order the lowering visits them, and which op nodes are the same
// node met again (a shared operand, described once and then referred to by
// its number: the lowering computes it once). Everything Assign's checks and the
// lowering decide depends on the signature alone, except two things that
// depend on the memory the tensors address: whether an operand must be
// copied before the destination is written (mustCopy), which is decided
// again on every call, and the addresses themselves, which are bound on
// every call. So a repeated Assign of the same signature skips expr.Check,
// the lowering and (on a device) the kernel's source and key: it binds the
// cached program to the call's tensors and constants and runs it. A call
// whose operand overlaps the destination unsafely takes the full path,
// which copies it aside.

// planCacheSize bounds the number of cached plans; when it is reached the
// cache is emptied (a program that builds ever new shapes does not grow it
// without bound, and one with a steady working set refills it at once).
const planCacheSize = 1024

// planCache holds the plans of every element type by signature hash.
var planCache struct {
	mu    sync.RWMutex
	by    map[uint64]any // → *plan[T]; verified against plan.sig
	stats PlanStats
}

// planCacheOff disables the cache (tests compare both paths).
var planCacheOff atomic.Bool

// PlanStats counts the plan cache's work since the process started.
type PlanStats struct {
	Hits   atomic.Int64 // Assigns that ran a cached plan
	Misses atomic.Int64 // cacheable Assigns that built their plan
	Bypass atomic.Int64 // cacheable Assigns that took the full path: an operand overlapping the destination, or a plan that could not be kept
}

// PlanCacheStats returns the plan cache's counters: hits, misses and
// bypasses (see PlanStats).
func PlanCacheStats() (hits, misses, bypass int64) {
	s := &planCache.stats
	return s.Hits.Load(), s.Misses.Load(), s.Bypass.Load()
}

// cachedPlan is one signature's Program: one checked, lowered pass with
// no tensor bound (the template), and pools of copies that each call binds
// to its tensors and constants.
type cachedPlan[T tensor.Number] struct {
	sig      []uint64
	template *program[T]                  // no data, blocks or constant values: those are bound per call
	bound    sync.Pool                    // *Program[T]: one pass, a copy of template with its own per-call slices
	variants *[256]atomic.Pointer[Kernel] // device plans: the kernel's structure per variant (variantOf), built on first use
	kernels  sync.Pool                    // *Kernel: per-call launches, each set from its variant's structure
}

// signature is a call's description, gathered in scratch memory reused
// between calls.
type signature struct {
	words  []uint64
	leaves []any // distinct leaf tensors (*tensor.Tensor[T]), in operand order
	consts []any // the *expr.Const[T] nodes, in slot order
	held   []interface{ Drop() }
	hash   uint64
	nodes  dag.Memo[expr.Node, int] // op nodes described → their number, in the order described
}

var signaturePool = sync.Pool{New: func() any { return &signature{} }}

// Signature word tags.
const (
	sigDst uint64 = iota + 1
	sigLeaf
	sigSameLeaf
	sigLeafIsDst
	sigConst
	sigOp
	sigSameNode
)

func (s *signature) reset() {
	s.words, s.leaves, s.consts = s.words[:0], s.leaves[:0], s.consts[:0]
	s.nodes.Reset()
}

func (s *signature) add(ws ...uint64) { s.words = append(s.words, ws...) }

// addGeometry appends a tensor's device, rank, shape and strides.
func (s *signature) addGeometry(dev alloc.Device, dims, strides []int) {
	s.add(uint64(dev.Kind())<<32|uint64(dev.ID()), uint64(len(dims)))
	for _, n := range dims {
		s.add(uint64(n))
	}
	for _, st := range strides {
		s.add(uint64(st))
	}
}

// The 64-bit FNV-1a constants.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// finish computes the hash (FNV-1a over the words).
func (s *signature) finish() {
	h := uint64(fnvOffset)
	for _, w := range s.words {
		h = (h ^ w) * fnvPrime
	}
	s.hash = h
}

// describe fills s with the signature of Assign(dst, e) and reports
// whether the tree can be cached. It touches no tensor's elements.
func describe[T tensor.Number](s *signature, dst *tensor.Tensor[T], e expr.Exp[T]) bool {
	s.reset()
	if dst == nil {
		return false
	}
	s.add(sigDst, dtypeCode[T]())
	s.addGeometry(dst.Device(), dst.ShapeView(friend.K), dst.StridesView(friend.K))
	if !describeNode(s, dst, e) {
		return false
	}
	s.finish()
	return true
}

// describeNode appends n's part of the signature in the order lowering.node
// visits the tree.
func describeNode[T tensor.Number](s *signature, dst *tensor.Tensor[T], n expr.Exp[T]) bool {
	switch n := n.(type) {
	case *tensor.Tensor[T]:
		if n == nil {
			return false
		}
		for i, seen := range s.leaves {
			if seen.(*tensor.Tensor[T]) == n {
				s.add(sigSameLeaf, uint64(i))
				return true
			}
		}
		if n == dst {
			s.add(sigLeafIsDst)
		}
		s.leaves = append(s.leaves, n)
		s.add(sigLeaf)
		s.addGeometry(n.Device(), n.ShapeView(friend.K), n.StridesView(friend.K))
		return true
	case *expr.Const[T]:
		if n == nil {
			return false
		}
		s.consts = append(s.consts, n)
		s.add(sigConst)
		return true
	case *expr.Named[T]:
		return n != nil && describeNode(s, dst, n.X)
	case expr.Chain[T]:
		return describeNode(s, dst, n.E)
	// The three op node types are listed and read directly rather than
	// through expr.Elementwise: every Assign describes its tree, and a case
	// of an interface type costs an itab lookup per node and OpParts a
	// call (poly4's Assign at 1e3 took 3-10% longer).
	case *expr.Unary[T]:
		return n != nil && describeOp(s, dst, n, uint64(n.Op), n.X)
	case *expr.Binary[T]:
		// An integer power whose exponent values need checking takes the
		// full path, which checks them (power.go).
		return n != nil && !checksExponent(n.Op, n.Y) && describeOp(s, dst, n, uint64(n.Op), n.X, n.Y)
	case *expr.Ternary[T]:
		return n != nil && describeOp(s, dst, n, uint64(n.Op), n.X, n.Y, n.Z)
	}
	return false
}

// describeOp appends an op node's part: its operands', then the op; or,
// for a node described before, its number.
func describeOp[T tensor.Number](s *signature, dst *tensor.Tensor[T], n expr.Node, op uint64, operands ...expr.Exp[T]) bool {
	if i, ok := s.nodes.Get(n); ok {
		s.add(sigSameNode, uint64(i))
		return true
	}
	for _, x := range operands {
		if !describeNode(s, dst, x) {
			return false
		}
	}
	s.add(sigOp, op, uint64(len(operands)))
	s.nodes.Put(n, s.nodes.Len())
	return true
}

// dtypeCode numbers T for signatures: its dtype. A plan is also typed
// (*cachedPlan[T]), so a type defined on another (type celsius float64)
// could only be a miss.
func dtypeCode[T tensor.Number]() uint64 { return uint64(tensor.DTypeOf[T]()) }

// lookupPlan returns the cached plan of s's signature, or nil.
func lookupPlan[T tensor.Number](s *signature) *cachedPlan[T] {
	planCache.mu.RLock()
	v := planCache.by[s.hash]
	planCache.mu.RUnlock()
	cp, ok := v.(*cachedPlan[T])
	if !ok || !slices.Equal(cp.sig, s.words) {
		return nil
	}
	return cp
}

// storePlan keeps cp under s's hash.
func storePlan[T tensor.Number](s *signature, cp *cachedPlan[T]) {
	planCache.mu.Lock()
	defer planCache.mu.Unlock()
	if planCache.by == nil || len(planCache.by) >= planCacheSize {
		planCache.by = make(map[uint64]any)
	}
	planCache.by[s.hash] = cp
}

// assignVia is Assign (q nil: on the CPU, or on the device's default
// queue, waited for) and AssignOn (queued on q): a Program run. An
// elementwise tree's comes from the plan cache, bound to the call's
// tensors; on a miss, the Program compiled for the call is run and its
// pass kept for the next. Any other tree's Program is compiled, run once
// and released. The tree is checked and lowered once either way.
func assignVia[T tensor.Number](call string, q Queue, dst *tensor.Tensor[T], e expr.Exp[T]) error {
	s := signaturePool.Get().(*signature)
	defer signaturePool.Put(s)
	e, cacheable := describeCall(s, q, dst, e)
	if cacheable {
		if cp := lookupPlan[T](s); cp != nil && operandsReadable(dst, s) {
			planCache.stats.Hits.Add(1)
			return runPlan(call, cp, dst, s, q)
		}
	}
	if err := checkAssign(call, dst, e); err != nil {
		return err
	}
	if q != nil && dst.Device() != q.Device() {
		return &shape.DeviceError{Op: call, Devices: []fmt.Stringer{dst.Device(), q.Device()},
			Reason: "the destination and the queue are on different devices"}
	}
	if !cacheable {
		return runAssign(call, q, dst, e, nil)
	}
	if !operandsReadable(dst, s) {
		// A lowering that copies an operand aside is bound to this call's
		// memory: nothing to keep.
		planCache.stats.Bypass.Add(1)
		return runAssign(call, q, dst, e, nil)
	}
	return runAssign(call, q, dst, e, keepPass(dst, s))
}

// describeCall fills s with the signature of Assign(dst, e) and reports
// whether the tree has one (the cache is on, the tree is elementwise, q if
// any is on dst's device); a tree with view nodes is described, and
// returned, as the tree PushViews makes of it, whose leaves are the tensor
// views it reads (views.go).
func describeCall[T tensor.Number](s *signature, q Queue, dst *tensor.Tensor[T], e expr.Exp[T]) (expr.Exp[T], bool) {
	if planCacheOff.Load() || dst == nil || e == nil || (q != nil && q.Device() != dst.Device()) {
		return e, false
	}
	if describe(s, dst, e) {
		return e, true
	}
	pushed, ok := pushedViews(e)
	if !ok || !describe(s, dst, pushed) {
		return e, false
	}
	return pushed, true
}

// keepPass keeps the pass of a cacheable tree's Program under s's
// signature when the Program is that one pass (onlyPass), bound to nothing
// but the call's tensors.
func keepPass[T tensor.Number](dst *tensor.Tensor[T], s *signature) func(*Program[T]) {
	return func(p *Program[T]) {
		pass := p.onlyPass()
		if pass == nil {
			planCache.stats.Bypass.Add(1)
			return
		}
		planCache.stats.Misses.Add(1)
		storePlan(s, planOf(dst, pass, s))
	}
}

// onlyPass returns the Program's one pass when that is all it is: no
// temporary, no operand copied aside, no product computed first.
func (p *Program[T]) onlyPass() *program[T] {
	if len(p.steps) != 1 || len(p.temps) > 0 || len(p.copies) > 0 {
		return nil
	}
	a, ok := p.steps[0].(*assignStep[T])
	if !ok || a.p.first != nil {
		return nil
	}
	return a.p
}

// planOf makes the cache's Program of signature s from pass, lowered for
// dst: a template with no tensor bound.
func planOf[T tensor.Number](dst *tensor.Tensor[T], pass *program[T], s *signature) *cachedPlan[T] {
	t := *pass
	t.Data, t.Leaves = nil, nil
	t.Shape = slices.Clone(pass.Shape) // Coalesce may return a tensor's own slices
	t.Strides = make([][]int, len(pass.Strides))
	for i, st := range pass.Strides {
		t.Strides[i] = slices.Clone(st)
	}
	t.Mems = slices.Clone(pass.Mems)
	for i := range t.Mems {
		t.Mems[i].Block = nil
	}
	t.Consts = slices.Clone(pass.Consts)
	for i := range t.Consts {
		t.Consts[i].Value = 0
	}
	t.Workers = nil
	cpu.KeepWorkers(&t.Pass) // workers sized for the template, shared by every bound copy
	cp := &cachedPlan[T]{sig: slices.Clone(s.words), template: &t}
	cp.bound.New = func() any { return cp.newBound() }
	cp.kernels.New = func() any { return new(Kernel) }
	if !dst.Device().IsCPU() {
		cp.variants = new([256]atomic.Pointer[Kernel])
	}
	return cp
}

// newBound returns a Program of one pass: a copy of the template with
// slices of its own for what each call binds.
func (cp *cachedPlan[T]) newBound() *Program[T] {
	p := *cp.template
	p.Data = make([][]T, len(p.Offsets))
	p.Offsets = make([]int, len(p.Offsets))
	p.Mems = slices.Clone(p.Mems)
	p.Consts = slices.Clone(p.Consts)
	return &Program[T]{steps: []step{&assignStep[T]{p: &p}}, exec: host{}}
}

// operandsReadable reports whether every leaf may be read while the
// destination is written: none overlaps it unsafely (mustCopy).
func operandsReadable[T tensor.Number](dst *tensor.Tensor[T], s *signature) bool {
	target := dst.Region(friend.K)
	for _, l := range s.leaves {
		if mustCopy(target, l.(*tensor.Tensor[T]).Region(friend.K)) {
			return false
		}
	}
	return true
}

// runPlan binds a copy of cp's program to the call's tensors and constants
// and runs it, holding every storage meanwhile: until it returns, or, when
// the work is queued on q, until q has run it.
func runPlan[T tensor.Number](call string, cp *cachedPlan[T], dst *tensor.Tensor[T], s *signature, q Queue) error {
	defer s.dropAll()
	s.held = append(s.held, dst.Hold(friend.K, call))
	for _, l := range s.leaves {
		s.held = append(s.held, l.(*tensor.Tensor[T]).Hold(friend.K, call))
	}
	bp := cp.bound.Get().(*Program[T])
	defer cp.bound.Put(bp)
	p := bp.steps[0].(*assignStep[T]).p
	bind(p, dst, s)
	defer unbind(p)
	if dst.Device().IsCPU() {
		return bp.start()
	}
	err := launchPlan(call, cp, p, dst.Device(), q)
	if q != nil {
		s.handHoldsTo(q)
	}
	return err
}

// heldUntilRun is the holds of a queued call, let go once its queue has run
// it. release is bound once, so that deferring it allocates nothing.
type heldUntilRun struct {
	held    []interface{ Drop() }
	release func()
}

var heldPool sync.Pool

func init() { heldPool.New = newHeldUntilRun }

func newHeldUntilRun() any {
	h := &heldUntilRun{}
	h.release = func() {
		for _, d := range h.held {
			d.Drop()
		}
		clear(h.held)
		h.held = h.held[:0]
		heldPool.Put(h)
	}
	return h
}

// handHoldsTo moves s's holds to q: they end when q has run the work
// queued so far.
func (s *signature) handHoldsTo(q Queue) {
	h := heldPool.Get().(*heldUntilRun)
	h.held = append(h.held, s.held...)
	clear(s.held)
	s.held = s.held[:0]
	q.Defer(h.release)
}

// dropAll ends the holds runPlan took.
func (s *signature) dropAll() {
	for _, h := range s.held {
		h.Drop()
	}
	clear(s.held)
	s.held = s.held[:0]
}

// bind points p's operands at dst's and the leaves' memory and sets its
// constants, in the order the lowering gave them.
func bind[T tensor.Number](p *program[T], dst *tensor.Tensor[T], s *signature) {
	bindOperand(p, 0, dst)
	for i, l := range s.leaves {
		bindOperand(p, 1+i, l.(*tensor.Tensor[T]))
	}
	for i, c := range s.consts {
		p.Consts[i].Value = c.(*expr.Const[T]).Value
	}
}

// unbind lets go of the memory a bound program points at, so that a pooled
// copy keeps no tensor alive.
func unbind[T tensor.Number](p *program[T]) {
	clear(p.Data)
	for i := range p.Mems {
		p.Mems[i].Block = nil
	}
}

func bindOperand[T tensor.Number](p *program[T], k int, t *tensor.Tensor[T]) {
	p.Data[k] = t.Elems(friend.K)
	p.Offsets[k] = t.Offset()
	p.Mems[k].Block = t.Mem(friend.K)
}

// launchFor returns a pooled launch of p's kernel: the structure of p's
// variant (alignment, index width, reduction strategy: variantOf, which
// depends on the call's addresses and sizes), built the first time the
// variant is met, with room for the parameters.
func (cp *cachedPlan[T]) launchFor(p *program[T]) *Kernel {
	v := device.Variant(p.pass())
	base := cp.variants[v].Load()
	if base == nil {
		base = device.NewKernel(p.pass())
		cp.variants[v].Store(base) // two racing builders store equal structures
	}
	k := cp.kernels.Get().(*Kernel)
	params := k.Params[:0]
	*k = *base
	k.Params = params
	return k
}

// launchPlan queues p's kernel on q, or, when q is nil, on dev's default
// queue and waits for it.
func launchPlan[T tensor.Number](call string, cp *cachedPlan[T], p *program[T], dev alloc.Device, q Queue) error {
	b, err := backendFor(call, dev)
	if err != nil {
		return err
	}
	wait := q == nil
	if wait {
		if q, err = b.DefaultQueue(dev); err != nil {
			return err
		}
	}
	if p.Noop {
		return nil
	}
	k := cp.launchFor(p)
	defer cp.kernels.Put(k)
	device.PackParams(k, p.pass())
	if k.Work > 0 {
		err = b.Launch(q, k)
	}
	if !wait {
		return err
	}
	if werr := q.Wait(); err == nil {
		err = werr
	}
	return err
}
