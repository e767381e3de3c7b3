package shape

// An Odometer counts through the indices of a shape in row-major order, the
// last index fastest: the walk every strided loop over a tensor makes. It
// is laze's one definition of that walk; callers that keep storage offsets
// move them by Step after each Next.
//
//	for o := shape.NewOdometer(s); !o.Done(); {
//		use(o.Index(), off)
//		off += o.Step(strides, o.Next())
//	}
//
// A shape with a zero dimension has no index: Done is true at once. A
// scalar shape has one, the empty index. An Odometer set with Reset keeps
// an index of up to eight dimensions inside itself, so one declared in a
// function (var o shape.Odometer) allocates nothing; it must not be copied
// once set.
type Odometer struct {
	shape   Shape
	buf     [8]int // the index, up to eight dimensions
	big     []int  // the index, past eight (nil otherwise)
	reverse bool
	done    bool
}

// digits returns the index's storage. It is not kept in o itself (a
// pointer from o into o would make every odometer escape to the heap).
func (o *Odometer) digits() []int {
	if o.big != nil {
		return o.big
	}
	return o.buf[:len(o.shape)]
}

// NewOdometer returns an odometer at the first index of s, (0, 0, …). It
// keeps s, which must not change while the odometer is in use.
func NewOdometer(s Shape) *Odometer {
	o := new(Odometer)
	o.Reset(s)
	return o
}

// NewReverseOdometer returns an odometer at the last index of s, counting
// down to (0, 0, …): the same walk backwards.
func NewReverseOdometer(s Shape) *Odometer {
	o := new(Odometer)
	o.ResetReverse(s)
	return o
}

// Reset sets o to the first index of s, as NewOdometer does.
func (o *Odometer) Reset(s Shape) {
	o.shape, o.reverse, o.done, o.big = s, false, hasZero(s), nil
	if len(s) > len(o.buf) {
		o.big = make([]int, len(s))
	}
	clear(o.digits())
}

// ResetReverse sets o to the last index of s, as NewReverseOdometer does.
func (o *Odometer) ResetReverse(s Shape) {
	o.Reset(s)
	o.reverse = true
	if !o.done {
		index := o.digits()
		for d, n := range s {
			index[d] = n - 1
		}
	}
}

// Done reports whether the walk has passed its last index.
func (o *Odometer) Done() bool { return o.done }

// Index returns the current index. The slice is the odometer's own: read
// it, do not keep or modify it.
func (o *Odometer) Index() []int { return o.digits() }

// Next moves to the next index and returns the dimension whose digit moved
// by one; the digits after it wrapped around. It returns -1, and Done
// becomes true, after the last index.
func (o *Odometer) Next() int {
	if o.done {
		return -1
	}
	index := o.digits()
	for d := len(index) - 1; d >= 0; d-- {
		if !o.reverse && index[d] < o.shape[d]-1 {
			index[d]++
			return d
		}
		if o.reverse && index[d] > 0 {
			index[d]--
			return d
		}
		index[d] = 0
		if o.reverse {
			index[d] = o.shape[d] - 1
		}
	}
	o.done = true
	return -1
}

// Step returns how far an offset into storage with the given strides moves
// on a Next that returned d: one stride of d, less the wrapped digits'
// strides times their sizes less one (the opposite for a reverse
// odometer). It returns 0 for d < 0.
func (o *Odometer) Step(strides []int, d int) int {
	if d < 0 {
		return 0
	}
	step := strides[d]
	for k := d + 1; k < len(o.shape); k++ {
		step -= strides[k] * (o.shape[k] - 1)
	}
	if o.reverse {
		return -step
	}
	return step
}

// Offset returns the offset of the current index with the given strides:
// Σ index[d]·strides[d].
func (o *Odometer) Offset(strides []int) int {
	off := 0
	for d, i := range o.digits() {
		off += i * strides[d]
	}
	return off
}

func hasZero(s Shape) bool {
	for _, n := range s {
		if n == 0 {
			return true
		}
	}
	return false
}

// Unravel writes into index the row-major index of element flat of shape
// s (NumPy's unravel_index); index has len(s) elements and flat is in
// [0, s.Size()).
func Unravel(flat int, s Shape, index []int) {
	for d := len(s) - 1; d >= 0; d-- {
		index[d] = flat % s[d]
		flat /= s[d]
	}
}

// Ravel returns the row-major position of index in shape s (NumPy's
// ravel_multi_index), the inverse of Unravel.
func Ravel(index []int, s Shape) int {
	flat := 0
	for d, i := range index {
		flat = flat*s[d] + i
	}
	return flat
}

// FlatOffset returns the offset, from the view's origin, of element flat
// (counted in row-major order) of a view of shape s with the given
// strides: Unravel's index dotted with the strides, without the index.
func FlatOffset(flat int, s Shape, strides []int) int {
	off := 0
	for d := len(s) - 1; d >= 0; d-- {
		off += (flat % s[d]) * strides[d]
		flat /= s[d]
	}
	return off
}
