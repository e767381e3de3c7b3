package expr

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// PadMode says how Pad fills the elements it adds, as numpy.pad's mode;
// String returns NumPy's name of it.
type PadMode uint8

// The modes of numpy.pad that Pad has. For an axis a b c d:
const (
	// PadConstant adds the value given: v v | a b c d | v v.
	PadConstant PadMode = iota
	// PadEdge repeats the edge elements: a a | a b c d | d d.
	PadEdge
	// PadReflect reflects the axis about its edge elements, which are
	// not repeated: c b | a b c d | c b.
	PadReflect
	// PadSymmetric reflects the axis about its edges, the edge elements
	// repeated: b a | a b c d | d c.
	PadSymmetric
	// PadWrap continues the axis periodically: c d | a b c d | a b.
	PadWrap
)

var padModeNames = [...]string{"constant", "edge", "reflect", "symmetric", "wrap"}

// String returns NumPy's name of the mode: "constant", "edge", "reflect",
// "symmetric" or "wrap".
func (m PadMode) String() string {
	if int(m) < len(padModeNames) {
		return padModeNames[m]
	}
	return fmt.Sprintf("PadMode(%d)", uint8(m))
}

// ParsePadMode returns the mode NumPy names s ("constant", "edge",
// "reflect", "symmetric", "wrap"); any other name is an ArgumentError
// naming it.
func ParsePadMode(s string) (PadMode, error) {
	if i := slices.Index(padModeNames[:], s); i >= 0 {
		return PadMode(i), nil
	}
	return 0, &shape.ArgumentError{Op: "pad", Name: "mode", Value: fmt.Sprintf("%q", s),
		Reason: "must be one of " + strings.Join(padModeNames[:], ", ")}
}

// padMaxPeriods is how many periods of the reflected or wrapped axis one
// side's pad may span before it is built as a tiled period rather than
// as one view per run.
const padMaxPeriods = 3

// Pad returns x with widths[d][0] elements added before and widths[d][1]
// after along each axis d, as numpy.pad(x, widths, mode,
// constant_values=value): value for PadConstant (ignored by the other
// modes), the edges repeated for PadEdge, x reflected for PadReflect and
// PadSymmetric, continued periodically for PadWrap. widths holds one pair
// per dimension of x, or one pair for every dimension (NumPy's
// ((before, after),)).
//
// The result is a grid of blocks that copy nothing: along the first
// padded axis, one concatenation (Concatenate) of x's pieces — a Full
// generator (constant), a broadcast width-1 slice (edge), slices and
// flipped slices (reflect, symmetric, wrap) — and of x, each padded along
// the later axes in the same way; a constant piece is one Full of every
// later axis padded. A width larger than the axis reflects or
// wraps again and again, as NumPy's own definition does (numpy 1.25
// fixed wrap's, numpy 2 reflect's and symmetric's on one side: see
// numpy#25926); past three periods the side is one period tiled (a copy
// of the period) and sliced. An axis of size 1 reflects as edge, as in
// NumPy.
//
// Widths that make no array — a negative width, a number of pairs that is
// neither 1 nor x's rank, a mode other than constant extending an empty
// axis, a result whose size overflows — give a node that Check reports as
// a NodeError wrapping an ArgumentError (or OverflowError) naming the
// values at fault.
func Pad[T tensor.Number](x Exp[T], widths [][2]int, mode PadMode, value T) Exp[T] {
	xs, err := new(Shapes).Of(x)
	if err != nil {
		return x // the tree reports x's own error
	}
	text := padText(widths, mode, value)
	fail := func(err error) Exp[T] { return failedNode[T](text, err) }
	if int(mode) >= len(padModeNames) {
		return fail(&shape.ArgumentError{Op: "pad", Name: "mode", Value: mode,
			Reason: "must be one of " + strings.Join(padModeNames[:], ", ")})
	}
	switch {
	case len(widths) == 1 && len(xs) != 1:
		widths = slices.Repeat(widths, len(xs))
	case len(widths) == 0 && len(xs) == 0:
	case len(widths) != len(xs):
		return fail(&shape.ArgumentError{Op: "pad", Name: "len(widths)", Value: len(widths),
			Reason: fmt.Sprintf("needs one (before, after) pair per dimension of x's shape %v (%d), or one pair for all", xs, len(xs))})
	}
	out := xs.Clone()
	for d, w := range widths {
		if w[0] < 0 || w[1] < 0 {
			return fail(&shape.ArgumentError{Op: "pad", Name: fmt.Sprintf("widths[%d]", d), Value: fmt.Sprintf("(%d, %d)", w[0], w[1]),
				Reason: "the widths must be non-negative"})
		}
		if mode != PadConstant && xs[d] == 0 && w != [2]int{} {
			return fail(&shape.ArgumentError{Op: "pad", Name: fmt.Sprintf("widths[%d]", d), Value: fmt.Sprintf("(%d, %d)", w[0], w[1]),
				Reason: fmt.Sprintf("axis %d of x's shape %v is empty: only mode constant can extend it", d, xs)})
		}
		if w[0] > math.MaxInt-xs[d] || w[1] > math.MaxInt-xs[d]-w[0] {
			return fail(&shape.OverflowError{Op: "pad", What: fmt.Sprintf("size of axis %d of x's shape %v padded (%d + %d + %d)", d, xs, w[0], xs[d], w[1])})
		}
		out[d] = w[0] + xs[d] + w[1]
	}
	if _, err := out.Size(); err != nil {
		return fail(&shape.OverflowError{Op: "pad", What: fmt.Sprintf("element count of x's shape %v padded", xs), Shape: out})
	}
	return padFrom(new(Shapes), x, xs, out, widths, 0, mode, value)
}

// padFrom returns x, of shape xs, padded along axes d and after (out is
// the padded shape): one concatenation along the first padded axis of x's
// pieces along it (padSide) and of x, each of them padded along the axes
// after. So every block of the result is a view of x (or a Full), with
// the blocks of one axis nested in those of the axis before: np.pad's
// axis-by-axis order gives the same values, since the pieces of
// different axes commute. A constant pad along an axis is a Full of every
// axis after it padded already.
func padFrom[T tensor.Number](s *Shapes, x Exp[T], xs, out shape.Shape, widths [][2]int, d int, mode PadMode, value T) Exp[T] {
	for d < len(widths) && widths[d] == [2]int{} {
		d++
	}
	if d == len(widths) {
		return x
	}
	w := widths[d]
	var parts []Exp[T]
	side := func(lo, hi int) {
		if mode == PadConstant && lo < hi {
			ps := slices.Clone(out)
			copy(ps[:d], xs[:d])
			ps[d] = hi - lo
			parts = append(parts, Full(value, ps...))
			return
		}
		for _, p := range padSide(x, xs, d, lo, hi, mode, value) {
			ps, err := s.Of(p)
			if err != nil {
				panic(err) // unreachable: a piece is a view of x within its shape
			}
			parts = append(parts, padFrom(s, p, ps, out, widths, d+1, mode, value))
		}
	}
	side(-w[0], 0)
	parts = append(parts, padFrom(s, x, xs, out, widths, d+1, mode, value))
	side(xs[d], xs[d]+w[1])
	return Concatenate(d, parts...)
}

// padText is the call's text for messages and failed nodes.
func padText[T tensor.Number](widths [][2]int, mode PadMode, value T) string {
	var b strings.Builder
	b.WriteString("np.pad(x, (")
	for i, w := range widths {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, %d)", w[0], w[1])
	}
	if len(widths) == 1 {
		b.WriteByte(',')
	}
	fmt.Fprintf(&b, "), mode='%s'", mode)
	if mode == PadConstant {
		fmt.Fprintf(&b, ", constant_values=%s", formatScalar(value))
	}
	b.WriteByte(')')
	return b.String()
}

// padSide returns the pieces, in order, that fill positions lo to hi
// (excluded) of x's axis d extended by mode: positions below 0 are
// before x, those from xs[d] on after it. xs is x's shape.
func padSide[T tensor.Number](x Exp[T], xs shape.Shape, d, lo, hi int, mode PadMode, value T) []Exp[T] {
	if lo >= hi {
		return nil
	}
	dims := slices.Clone(xs)
	dims[d] = hi - lo
	n := xs[d]
	switch {
	case mode == PadConstant:
		return []Exp[T]{Full(value, dims...)}
	case mode == PadEdge || n == 1:
		at := 0
		if lo >= n {
			at = n - 1
		}
		return []Exp[T]{BroadcastTo(Slice(x, d, at, at+1, 1), dims...)}
	}
	segs, period := padPeriod(mode, n)
	off := ((lo % period) + period) % period
	if (hi-lo)/padMaxPeriods > period {
		// One period (x and its reflection) tiled as often as the side
		// needs, and sliced.
		var one []Exp[T]
		for _, s := range segs {
			one = append(one, padRun(x, d, s, s.start, s.end))
		}
		block := one[0]
		if len(one) > 1 {
			block = Concatenate(d, one...)
		}
		reps := make([]int, len(xs))
		for i := range reps {
			reps[i] = 1
		}
		reps[d] = (off + hi - lo + period - 1) / period
		return []Exp[T]{Slice(Tile(block, reps...), d, off, off+hi-lo, 1)}
	}
	var parts []Exp[T]
	for p, r := lo, off; p < hi; {
		s := segs[slices.IndexFunc(segs, func(s padSegment) bool { return r < s.end })]
		k := min(s.end-r, hi-p)
		parts = append(parts, padRun(x, d, s, r, r+k))
		p += k
		if r += k; r == period {
			r = 0
		}
	}
	return parts
}

// padSegment is a run of one period of an axis extended by reflection or
// wrapping: positions start to end (excluded) of the period read x's
// elements from: ascending from start (up), or descending from last.
type padSegment struct {
	start, end int
	up         bool
	last       int // the element read at start when !up
}

// padPeriod returns the runs of one period of an axis of size n > 1
// extended by mode, and the period: wrap a b c d; reflect a b c d c b;
// symmetric a b c d d c b a.
func padPeriod(mode PadMode, n int) ([]padSegment, int) {
	segs := []padSegment{{start: 0, end: n, up: true}}
	switch mode {
	case PadReflect:
		if n > 2 {
			segs = append(segs, padSegment{start: n, end: 2*n - 2, last: n - 2})
		}
		return segs, max(2*n-2, n)
	case PadSymmetric:
		return append(segs, padSegment{start: n, end: 2 * n, last: n - 1}), 2 * n
	}
	return segs, n
}

// padRun is the view of x along d that positions r0 to r1 of segment s
// read: a slice, flipped where the segment descends.
func padRun[T tensor.Number](x Exp[T], d int, s padSegment, r0, r1 int) Exp[T] {
	if s.up && r0 == 0 && r1 == s.end { // the up run is the whole axis, 0 to n
		return x
	}
	if s.up {
		return Slice(x, d, r0, r1, 1)
	}
	hi := s.last - (r0 - s.start) // the element read at r0
	lo := hi - (r1 - r0) + 1
	return Flip(Slice(x, d, lo, hi+1, 1), d)
}
