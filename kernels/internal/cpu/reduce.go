package cpu

import (
	"math"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/tensor"
)

// newAccumulator sets accumulators to the reduction's identity, allocating
// what vals and idx do not provide.
func (r *reduction[T]) newAccumulator(vals []T, idx []int64) *ir.Accumulator[T] {
	if vals == nil {
		vals = make([]T, r.Size)
	}
	loops.Fill(vals, ops.Start[T](r.Def.Identity))
	a := &ir.Accumulator[T]{Vals: vals}
	if r.Compensated {
		a.Comp = make([]T, r.Size)
	}
	if r.Def.Arg {
		if idx == nil {
			idx = make([]int64, r.Size)
		}
		loops.Fill(idx, math.MaxInt64)
		a.Idx = idx
	}
	return a
}

// rewind sets the main accumulators to the reduction's identity again, for
// a compiled Program's next run (newAccumulator set them for the first).
func (r *reduction[T]) rewind() {
	if r == nil || r.Main == nil {
		return
	}
	loops.Fill(r.Main.Vals, ops.Start[T](r.Def.Identity))
	clear(r.Main.Comp)
	if r.Main.Idx != nil {
		loops.Fill(r.Main.Idx, math.MaxInt64)
	}
}

// mainAccumulator returns the accumulators a single goroutine folds into:
// the main ones, or nil for an assignment.
func (r *reduction[T]) mainAccumulator() *ir.Accumulator[T] {
	if r == nil {
		return nil
	}
	return r.Main
}

// accumulators returns one set of accumulators per goroutine: the main ones
// first, then fresh ones (nil for an assignment).
func (r *reduction[T]) accumulators(workers int) []*ir.Accumulator[T] {
	accs := make([]*ir.Accumulator[T], workers)
	if r == nil {
		return accs
	}
	accs[0] = r.Main
	for k := 1; k < workers; k++ {
		accs[k] = r.newAccumulator(nil, nil)
	}
	return accs
}

// merge folds the other goroutines' accumulators into the main ones.
func (r *reduction[T]) merge(accs []*ir.Accumulator[T]) {
	if r == nil {
		return
	}
	for _, a := range accs[1:] {
		for o := range r.Size {
			r.combineAt(r.Main, o, a.Vals[o], r.indexAt(a, o))
			if r.Compensated {
				r.Main.Comp[o] += a.Comp[o] // low-order parts: a plain sum suffices
			}
		}
	}
}

func (r *reduction[T]) indexAt(a *ir.Accumulator[T], o int) int64 {
	if a.Idx == nil {
		return 0
	}
	return a.Idx[o]
}

// combineAt folds value v (at index i, for arg reductions) into accumulator o.
func (r *reduction[T]) combineAt(a *ir.Accumulator[T], o int, v T, i int64) {
	switch {
	case r.Def.Arg:
		if ops.ArgBetter(r.Def.Combine, v, i, a.Vals[o], a.Idx[o]) {
			a.Vals[o], a.Idx[o] = v, i
		}
	case r.Compensated:
		neumaier(&a.Vals[o], &a.Comp[o], v)
	default:
		a.Vals[o] = loops.Combine(r.Def.Combine, a.Vals[o], v)
	}
}

// finish turns the main accumulators into the result: the compensation
// added back, the mean divided by the count.
func (r *reduction[T]) finish() {
	for o := range r.Size {
		r.finishAt(o)
	}
}

// finishAt is finish for accumulator o.
func (r *reduction[T]) finishAt(o int) {
	a := r.Main
	if r.Compensated && isFinite(a.Vals[o]) {
		a.Vals[o] += a.Comp[o]
	}
	if r.Def.Average {
		a.Vals[o] /= T(r.Count)
	}
}

// fold folds one block's result into the worker's accumulators.
func (p *pass[T]) fold(w *worker[T], res loops.Value[T], n int) {
	r, a := p.red(), w.acc
	last := len(p.Shape) - 1
	v := res.Vec
	if p.Scalar {
		v = w.regs[r.Spare][:n]
		loops.Fill(v, res.S)
	}
	off, stride := w.blockOffsets[0], p.Strides[0][last]
	var at, step int64
	if r.Def.Arg {
		at, step = int64(w.blockOffsets[r.Pos]), int64(p.Strides[r.Pos][last])
	}
	if stride == 0 {
		best, i := r.foldBlock(v, at, step)
		r.combineAt(a, off, best, i)
		return
	}
	if !r.Def.Arg && stride == 1 {
		loops.CombineInto(r.Def.Combine, a.Vals[off:off+n], v)
		return
	}
	for k, x := range v {
		r.combineAt(a, off+k*stride, x, at+int64(k)*step)
	}
}

// foldBlock folds a block that belongs to one result element to one value
// (and, for arg reductions, its index; element k has index at + k·step).
func (r *reduction[T]) foldBlock(v []T, at, step int64) (T, int64) {
	if r.Def.Arg {
		return loops.ArgFold(r.Def.Combine, v, at, step)
	}
	return loops.Fold(r.Def.Combine, v), 0
}

// neumaier adds x to the compensated sum (sum, comp): Neumaier's variant of
// Kahan summation, which also holds when x is larger than the sum.
func neumaier[T tensor.Number](sum, comp *T, x T) {
	s := *sum
	t := s + x
	if math.Abs(float64(s)) >= math.Abs(float64(x)) {
		*comp += (s - t) + x
	} else {
		*comp += (x - t) + s
	}
	*sum = t
}

func isFinite[T tensor.Number](v T) bool {
	f := float64(v)
	return !math.IsInf(f, 0) && !math.IsNaN(f)
}
