package kernels

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// A reduction runs its operand's elementwise tree as an ordinary program
// whose target is the accumulators, broadcast to the operand's shape with
// stride 0 along the reduced axes. Each block of values is then folded
// rather than stored: when the target's inner stride is 0 the whole block
// belongs to one result element and is folded to one value first (pairwise
// for sums); otherwise each value folds into its own accumulator. The
// operand is never materialised.

// reduceState is a reduction's ir.Reduction with what lowering needs
// besides.
type reduceState[T tensor.Number] struct {
	ir.Reduction[T]
	tee *tensor.Tensor[T] // where the pass also stores its operand's values (spill.go), or nil
}

// newReduceState prepares the accumulators of a reduction with geometry g
// over an operand of shape s; vals and idx are the main accumulators'
// storage (idx nil unless arg). On a device (host false) the kernel keeps
// its accumulators itself: only idx's block is recorded.
func newReduceState[T tensor.Number](def ops.ReducerDef, g expr.ReduceGeometry, s shape.Shape, vals []T, idx *tensor.Tensor[int64], host bool) *reduceState[T] {
	r := &reduceState[T]{Reduction: ir.Reduction[T]{Def: def, Size: len(vals), Count: g.Count,
		Compensated: tensor.IsFloat[T]() && def.Combine == ops.Add}}
	var idxData []int64
	if idx != nil {
		idxData = idx.Elems(friend.K)
		r.Index, r.IndexOffset = ir.MemoryOf(idx), idx.Offset()
	}
	if host {
		r.Main = cpu.NewAccumulator(&r.Reduction, vals, idxData)
	}
	if def.Arg {
		r.Positions = make([]int, len(s))
		w := 1
		for d := len(s) - 1; d >= 0; d-- {
			if g.Reduced[d] {
				r.Positions[d] = w
				w *= s[d]
			}
		}
	}
	return r
}

// reduce evaluates a reduction into a new temporary of its result's shape.
func reduce[T tensor.Number](ev *evaluation, n *expr.Reduction[T]) (*tensor.Tensor[T], error) {
	def := n.Op.Def()
	s, g, err := reduceGeometry(ev, def, n.X, n.Axes, n.KeepDims)
	if err != nil {
		return nil, err
	}
	key, keyed := sameReductionKey(n.Op, n.X, g)
	if t, ok := ev.sameReductions[key]; keyed && ok {
		return t.(*tensor.Tensor[T]), nil
	}
	acc, err := runReduction(ev, n, def, n.X, s, g, nil)
	if err != nil {
		return nil, err
	}
	res, err := acc.View(g.Result...)
	if err == nil && keyed {
		if ev.sameReductions == nil {
			ev.sameReductions = map[reductionKey]any{}
		}
		ev.sameReductions[key] = res
	}
	return res, err
}

// reductionKey names what a reduction of a tensor computes: two reduction
// nodes of one call with the same key have the same value, such as a
// user's Mean(x, Axis(1), KeepDims()) and the one inside Var(x, Axis(1)),
// which are different nodes. The evaluation computes such a value once.
type reductionKey struct {
	op   ops.Reducer
	x    any // the *tensor.Tensor reduced
	axes string
	kept string
	res  string
}

// sameReductionKey returns the key of a reduction of op over x with
// geometry g, and false unless x is a tensor (an operand tree is keyed by
// its node's identity, in evaluation.done, and never compared).
func sameReductionKey[T tensor.Number](op ops.Reducer, x expr.Exp[T], g expr.ReduceGeometry) (reductionKey, bool) {
	t, ok := x.(*tensor.Tensor[T])
	if !ok {
		return reductionKey{}, false
	}
	return reductionKey{op: op, x: t, axes: fmt.Sprint(g.Axes), kept: g.Kept.String(), res: g.Result.String()}, true
}

// argReduce evaluates an arg reduction into a new temporary of int64
// indices.
func argReduce[T tensor.Number](ev *evaluation, n *expr.ArgReduction[T]) (*tensor.Tensor[int64], error) {
	def := n.Op.Def()
	s, g, err := reduceGeometry(ev, def, n.X, n.Axes, n.KeepDims)
	if err != nil {
		return nil, err
	}
	idx := temp[int64](ev, n, g.Kept)
	if _, err := runReduction(ev, n, def, n.X, s, g, idx); err != nil {
		return nil, err
	}
	return idx.View(g.Result...)
}

// reduceGeometry returns the shape of a reduction's operand and the
// reduction's geometry; the operand's tree is checked once per evaluation.
func reduceGeometry[T tensor.Number](ev *evaluation, def ops.ReducerDef, x expr.Exp[T], axes []int, keep bool) (shape.Shape, expr.ReduceGeometry, error) {
	s, err := ev.shapes.Of(x)
	if err != nil {
		return nil, expr.ReduceGeometry{}, err
	}
	g, err := expr.ReduceShape(def.Name, s, axes, keep)
	return s, g, err
}

// runReduction folds x, of shape s, the operand of the reduction node n,
// into new accumulators of g's kept shape (size-1 reduced axes), indices
// going to idx for arg reductions (nil otherwise).
func runReduction[T tensor.Number](ev *evaluation, n expr.Node, def ops.ReducerDef, x expr.Exp[T], s shape.Shape, g expr.ReduceGeometry, idx *tensor.Tensor[int64]) (*tensor.Tensor[T], error) {
	acc := temp[T](ev, n, g.Kept)
	strides, err := shape.BroadcastStrides(g.Kept, acc.StridesView(friend.K), s)
	if err != nil {
		return nil, err
	}
	for d := range strides {
		if g.Reduced[d] {
			strides[d] = 0
		}
	}
	red := newReduceState(def, g, s, acc.Elems(friend.K), idx, ev.device == nil)
	red.tee = takeTee(ev, x)
	p, err := lower(ev, target[T]{t: acc, dims: s, strides: strides}, x, red)
	if err != nil {
		return nil, err
	}
	ev.perform(&reduceStep[T]{n: n, p: p, acc: acc, x: x, g: g})
	return acc, nil
}

// newSplit allocates the partials of the split reduction n, whose kernel
// k has been packed for p, and returns the split's launch description.
func newSplit[T tensor.Number](ev *evaluation, n expr.Node, p *program[T], k *Kernel) device.Split {
	sp := device.SplitOf(k)
	size := []int{int(k.Work * sp.Parts)}
	vals := temp[T](ev, n, size)
	sp.Vals = ir.MemoryOf(vals).Address(vals.Offset())
	if p.red.Def.Arg {
		idx := temp[int64](ev, n, size)
		sp.Idx = ir.MemoryOf(idx).Address(idx.Offset())
	}
	return sp
}
