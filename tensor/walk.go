package tensor

import "github.com/laze-go/laze/shape"

// forEachRun walks the elements of a strided tensor in row-major order,
// after coalescing its dimensions, and calls fn once per run of the innermost
// dimension: the run's first storage offset, its length and its stride. It
// stops early when fn returns false.
func forEachRun(s shape.Shape, strides []int, offset int, fn func(off, n, stride int) bool) {
	cs, cst := shape.Coalesce(s, strides)
	forEachRun2(cs, cst[0], nil, offset, 0, func(a, _, n, sa, _ int) bool { return fn(a, n, sa) })
}

// forEachRun2 walks two operands of one (already coalesced or not) shape in
// lock step, calling fn once per innermost run with both offsets, the run
// length and both inner strides. b may be nil, and then its offsets are 0. It
// stops early when fn returns false.
func forEachRun2(s shape.Shape, a, b []int, offA, offB int, fn func(offA, offB, n, strideA, strideB int) bool) {
	if len(s) == 0 {
		fn(offA, offB, 1, 0, 0)
		return
	}
	for _, d := range s {
		if d == 0 {
			return
		}
	}
	last := len(s) - 1
	inner, innerA, innerB := s[last], a[last], 0
	if b != nil {
		innerB = b[last]
	}
	var o shape.Odometer // over the outer dimensions
	for o.Reset(s[:last]); !o.Done(); {
		if !fn(offA, offB, inner, innerA, innerB) {
			return
		}
		d := o.Next()
		offA += o.Step(a, d)
		if b != nil {
			offB += o.Step(b, d)
		}
	}
}
