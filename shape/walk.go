package shape

// ForEachRun walks the positions of a strided layout (shape s, strides,
// offset) in row-major order, after coalescing its dimensions, and calls fn
// once per run of the innermost dimension: the run's first offset, its
// length and its stride (one run of one element for a scalar shape, none
// for an empty one). It stops early when fn returns false.
func ForEachRun(s Shape, strides []int, offset int, fn func(off, n, stride int) bool) {
	cs, cst := Coalesce(s, strides)
	ForEachRun2(cs, cst[0], nil, offset, 0, func(a, _, n, sa, _ int) bool { return fn(a, n, sa) })
}

// ForEachOffset calls fn with the offset of every position of a strided
// layout, in row-major order.
func ForEachOffset(s Shape, strides []int, offset int, fn func(off int)) {
	ForEachRun(s, strides, offset, func(off, n, stride int) bool {
		for i := range n {
			fn(off + i*stride)
		}
		return true
	})
}

// ForEachRun2 walks two layouts of one shape s (coalesced or not), with
// strides a and b, in lock step, calling fn once per innermost run with
// both offsets, the run length and both inner strides. b may be nil, and
// then its offsets are 0. It stops early when fn returns false.
func ForEachRun2(s Shape, a, b []int, offA, offB int, fn func(offA, offB, n, strideA, strideB int) bool) {
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
	var o Odometer // over the outer dimensions
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
