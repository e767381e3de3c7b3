package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// GenKind names what a Generator computes from an element's position.
type GenKind uint8

// The generators, each NumPy's function of the same name.
const (
	GenArange   GenKind = iota + 1 // start + i·step
	GenLinspace                    // num values evenly spaced from start to stop
	GenFull                        // one value everywhere
	GenEye                         // 1 on the k-th diagonal, 0 elsewhere
	GenTri                         // 1 on and below the k-th diagonal, 0 above
)

var genNames = [...]string{GenArange: "arange", GenLinspace: "linspace", GenFull: "full", GenEye: "eye", GenTri: "tri"}

// String returns NumPy's name of the generator: "arange", "eye".
func (k GenKind) String() string {
	if int(k) < len(genNames) && genNames[k] != "" {
		return genNames[k]
	}
	return "GenKind(" + strconv.Itoa(int(k)) + ")"
}

// Generator is a leaf that holds no memory: each element is computed from
// its row-major position in the generator's own shape when the evaluator
// reads it, inside the fused loop, so that exp(-Arange(n)·dt)·x allocates
// nothing. Views of a generator (a slice, a transpose, a broadcast…) are
// views of those positions, as of a tensor's storage, and cost nothing
// either.
//
// Make one with Arange, Linspace, Full, Eye or Tri. A Generator whose
// arguments are invalid (a zero step, a negative size) reports the error
// from Check, as a view with bad arguments does.
type Generator[T tensor.Number] struct {
	kind   GenKind
	params GenParams[T]
	space  *tensor.Tensor[T] // the positions each element reads (tensor.IndexSpace, viewed)
	text   string            // as NumPy writes it, views included
	err    error             // why the arguments make no generator
}

// GenParams are a generator's arguments, reduced to what its formula
// reads (Generator.Value documents each kind's): the fields of its kind
// are set, the others are zero.
type GenParams[T tensor.Number] struct {
	First, Second, Delta T       // arange: the first two values and their difference, in T (NumPy's fill)
	Start, Step, Stop    float64 // linspace: element i is i·Step + Start in float64, element Last is Stop
	Last                 int     // linspace: the position that is Stop exactly, or -1
	Cols, K              int     // eye, tri: the number of columns and the diagonal (clamped to [-rows-1, Cols+1])
	Value                T       // full: the value
}

// newGenerator makes a generator of the given shape, or one that reports
// err (or the shape's own error).
func newGenerator[T tensor.Number](kind GenKind, s shape.Shape, p GenParams[T], text string, err error) *Generator[T] {
	g := &Generator[T]{kind: kind, params: p, text: text, err: err}
	if err == nil {
		g.space, g.err = tensor.IndexSpace[T](friend.K, s)
		if g.err != nil {
			g.err = shape.Rename(g.err, kind.String())
		}
	}
	return g
}

// Arange returns the generator of the values from start towards stop
// (excluded) in steps of step, as numpy.arange(start, stop, step,
// dtype=T): ⌈(stop-start)/step⌉ elements (none when that is not positive),
// element i being start + i·(second-start) computed in T, where second is
// start+step rounded to T (NumPy's own formula, whose float values can
// differ from start+i·step in the last bit). A zero step is an
// ArgumentError at Check.
func Arange[T tensor.Number](start, stop, step T) *Generator[T] {
	text := fmt.Sprintf("np.arange(%s, %s, %s)", formatScalar(start), formatScalar(stop), formatScalar(step))
	if step == 0 {
		return newGenerator[T](GenArange, nil, GenParams[T]{}, text,
			&shape.ArgumentError{Op: "arange", Name: "step", Value: step, Reason: "must not be zero"})
	}
	n := math.Ceil((float64(stop) - float64(start)) / float64(step))
	if isInteger[T]() { // exact for integers: ⌈(stop-start)/step⌉ in int64 where they fit
		n = float64(ceilDiv(int64(stop)-int64(start), int64(step)))
	}
	size, err := genSize("arange", "length", n)
	first := start
	second := T(float64(start) + float64(step))
	if isInteger[T]() {
		second = start + step
	}
	return newGenerator(GenArange, shape.Shape{size}, GenParams[T]{First: first, Second: second, Delta: second - first}, text, err)
}

// Linspace returns the generator of num values evenly spaced from start to
// stop, stop included when endpoint is true, as numpy.linspace(start,
// stop, num, endpoint, dtype=T): start + i·step in float64 with step =
// (stop-start)/(num-1) (or /num without the endpoint), the last value stop
// exactly, then converted to T (rounded towards -∞ for integer T, as NumPy
// 2 does). A negative num is an ArgumentError at Check.
func Linspace[T tensor.Number](start, stop float64, num int, endpoint bool) *Generator[T] {
	text := fmt.Sprintf("np.linspace(%s, %s, %d, endpoint=%s)", formatScalar(start), formatScalar(stop), num, pyBool(endpoint))
	div := num
	if endpoint {
		div = num - 1
	}
	p := GenParams[T]{Start: start, Stop: stop, Last: -1}
	if div > 0 {
		p.Step = (stop - start) / float64(div)
	}
	if endpoint && num > 1 {
		p.Last = num - 1
	}
	size, err := genSize("linspace", "num", float64(num))
	return newGenerator(GenLinspace, shape.Shape{size}, p, text, err)
}

// Full returns the generator of the shape dims with value v everywhere, as
// numpy.full(dims, v, dtype=T). It holds one value however large the shape.
func Full[T tensor.Number](v T, dims ...int) *Generator[T] {
	text := fmt.Sprintf("np.full(%s, %s)", pyShape(dims), formatScalar(v))
	return newGenerator(GenFull, shape.Shape(dims), GenParams[T]{Value: v}, text, nil)
}

// Eye returns the generator of the n×m matrix with ones on the k-th
// diagonal (k > 0 above the main one, k < 0 below) and zeros elsewhere, as
// numpy.eye(n, m, k, dtype=T).
func Eye[T tensor.Number](n, m, k int) *Generator[T] {
	text := fmt.Sprintf("np.eye(%d, %d, %d)", n, m, k)
	return newGenerator(GenEye, shape.Shape{n, m}, GenParams[T]{Cols: m, K: clampDiagonal(n, m, k)}, text, nil)
}

// Tri returns the generator of the n×m matrix with ones on and below the
// k-th diagonal and zeros above it, as numpy.tri(n, m, k, dtype=T);
// Mul(x, Tri) is numpy.tril(x, k).
func Tri[T tensor.Number](n, m, k int) *Generator[T] {
	text := fmt.Sprintf("np.tri(%d, %d, %d)", n, m, k)
	return newGenerator(GenTri, shape.Shape{n, m}, GenParams[T]{Cols: m, K: clampDiagonal(n, m, k)}, text, nil)
}

// clampDiagonal limits the diagonal k of an n×m matrix to [-n-1, m+1]:
// every diagonal past an edge selects the same (no element, or all), and
// the formulas then add nothing near the ends of int.
func clampDiagonal(n, m, k int) int {
	return max(-max(n, 0)-1, min(k, max(m, 0)+1))
}

// genSize converts a generator's computed length to a size: 0 when it is
// not positive, an error when it is not a number or does not fit an int.
func genSize(op, name string, n float64) (int, error) {
	switch {
	case math.IsNaN(n) || n >= math.MaxInt:
		return 0, &shape.ArgumentError{Op: op, Name: name, Value: n, Reason: "is not a size an array can have"}
	case n <= 0:
		return 0, nil
	}
	return int(n), nil
}

// ceilDiv returns ⌈a/b⌉ for b ≠ 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) == (b < 0)) {
		q++
	}
	return q
}

func isInteger[T tensor.Number]() bool { return !tensor.DTypeOf[T]().IsFloat() }

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func pyShape(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d)
	}
	if len(dims) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Kind returns what the generator computes.
func (g *Generator[T]) Kind() GenKind { return g.kind }

// Params returns the arguments the generator's formula reads, for
// evaluators that compute its elements themselves (laze's CUDA kernels
// compute them from the positions they walk, with the formulas of Value).
func (g *Generator[T]) Params() GenParams[T] { return g.params }

// Shape returns the generator's shape (its views' included). It panics
// with the error Check returns when its arguments make no generator.
func (g *Generator[T]) Shape() shape.Shape { return mustShape(g) }

// Space returns the positions the generator's elements read (a tensor
// with no elements, see tensor.IndexSpace) for laze's evaluators, which
// walk it as they walk a tensor's storage and call Fill or Value with the
// positions met. See tensor.Elems for the key.
func (g *Generator[T]) Space(friend.Key) *tensor.Tensor[T] { return g.space }

// At returns the element at index, computed from its position.
func (g *Generator[T]) At(index ...int) T {
	checkRank(g, index)
	p := g.space.Offset()
	strides := g.space.StridesView(friend.K)
	for d, i := range index {
		p += i * strides[d]
	}
	return g.Value(p)
}

// Value returns the element at row-major position p of the generator's
// own shape (before any view), with the params q (GenParams): arange's
// is q.First at 0, q.Second at 1, else q.First + T(T(p)·q.Delta), each
// operation in T; linspace's is T(float64(p)·q.Step + q.Start) (q.Stop
// at q.Last; rounded towards -∞ first for an integer T); full's q.Value;
// eye's 1 where column − row is q.K (tri's: at most q.K), with row =
// p / q.Cols and column = p mod q.Cols, else 0.
func (g *Generator[T]) Value(p int) T {
	var one [1]T
	g.Fill(one[:], p, 0)
	return one[0]
}

// Fill sets d[i] to the element at position p + i·stride, for the
// evaluators' blocks.
func (g *Generator[T]) Fill(d []T, p, stride int) {
	q := g.params
	switch g.kind {
	case GenArange:
		fillArange(d, q.First, q.Second, q.Delta, p, stride)
	case GenLinspace:
		for i := range d {
			d[i] = linspaceValue[T](q.Start, q.Step, q.Stop, q.Last, p+i*stride)
		}
	case GenFull:
		for i := range d {
			d[i] = q.Value
		}
	case GenEye, GenTri:
		fillDiagonal(d, g.kind == GenTri, q.Cols, q.K, p, stride)
	}
}

// fillArange is Fill for arange: d[k] = arangeValue(p + k·stride). The
// loop computes first + i·delta for every element (no test per element:
// a per-element switch on i was most of the fill's time), then puts the
// first two values, which NumPy fills as given, where d holds them.
func fillArange[T tensor.Number](d []T, first, second, delta T, p, stride int) {
	if last := int64(p + (len(d)-1)*stride); stride == 0 || max(int64(p), last, -int64(p), -last) >= 1<<53 {
		for k := range d { // a broadcast, or past float64's exact integers: the formula itself
			d[k] = arangeValue(first, second, delta, p+k*stride)
		}
		return
	}
	// i counted in float64 (exact below 2^53, and T(i) is then T(int i)'s
	// rounding), four independent counters a trip: no conversion from
	// int, no dependence between the elements of a trip
	s := float64(stride)
	c0, c1, c2, c3, s4 := float64(p), float64(p)+s, float64(p)+2*s, float64(p)+3*s, 4*s
	k := 0
	for ; k+4 <= len(d); k += 4 {
		dd := (*[4]T)(d[k:])
		dd[0] = first + T(T(c0)*delta)
		dd[1] = first + T(T(c1)*delta)
		dd[2] = first + T(T(c2)*delta)
		dd[3] = first + T(T(c3)*delta)
		c0, c1, c2, c3 = c0+s4, c1+s4, c2+s4, c3+s4
	}
	for ; k < len(d); k++ {
		d[k] = first + T(T(c0)*delta)
		c0 += s
	}
	for i, v := range [2]T{first, second} {
		if k := (i - p) / stride; (i-p)%stride == 0 && k >= 0 && k < len(d) {
			d[k] = v
		}
	}
}

// arangeValue is numpy.arange's element i: first, second, then first +
// i·delta rounded to T at each step (NumPy's fill).
func arangeValue[T tensor.Number](first, second, delta T, i int) T {
	switch i {
	case 0:
		return first
	case 1:
		return second
	}
	return first + T(T(i)*delta)
}

// linspaceValue is numpy.linspace's element i in float64, converted to T
// (rounded towards -∞ for an integer T). The product is rounded before
// the sum (the conversion keeps the compiler from fusing them), as NumPy
// and the generated CUDA (--fmad=false) round them.
func linspaceValue[T tensor.Number](start, step, stop float64, last, i int) T {
	v := float64(float64(i)*step) + start
	if i == last {
		v = stop
	}
	if isInteger[T]() {
		v = math.Floor(v)
	}
	return T(v)
}

// fillDiagonal sets d[i] to eye's element (tri's when below is set) at
// position p + i·stride of a matrix of cols columns: 1 where the column
// minus the row is k (at most k for tri), else 0. The row and column are
// divided out once, then stepped, so that a block costs no division per
// element.
func fillDiagonal[T tensor.Number](d []T, below bool, cols, k, p, stride int) {
	if len(d) == 0 {
		return
	}
	r, c := p/cols, p%cols
	if stride == 1 {
		fillDiagonalRows(d, below, cols, k, r, c)
		return
	}
	dr, dc := stride/cols, stride%cols // dc in (-cols, cols), of stride's sign
	for i := range d {
		diff := c - r
		if diff == k || below && diff < k {
			d[i] = 1
		} else {
			d[i] = 0
		}
		r, c = r+dr, c+dc
		if c >= cols {
			r, c = r+1, c-cols
		} else if c < 0 {
			r, c = r-1, c+cols
		}
	}
}

// fillDiagonalRows is fillDiagonal for stride 1, from row r, column c: a
// run of each row at a time, with no test per element.
func fillDiagonalRows[T tensor.Number](d []T, below bool, cols, k, r, c int) {
	clear(d)
	for i := 0; i < len(d); r, c = r+1, 0 {
		run := d[i:min(len(d), i+cols-c)] // row r from column c
		on := r + k - c                   // the index in run of the column r+k
		if below {
			for j := range run[:max(0, min(len(run), on+1))] {
				run[j] = 1
			}
		} else if on >= 0 && on < len(run) {
			run[on] = 1
		}
		i += len(run)
	}
}

// String prints the generator as NumPy writes it, with its views:
// "np.arange(0, 5, 1)[::-1]".
func (g *Generator[T]) String() string { return render(g) }

func (g *Generator[T]) render(b *strings.Builder) { b.WriteString(g.text) }

func (g *Generator[T]) checkNode(cc *checking) (info, error) {
	if g.err != nil {
		return info{}, &shape.NodeError{Op: cc.call, Node: g.text, Err: g.err}
	}
	return info{shape: g.space.Shape(), anyDevice: true}, nil
}

func (g *Generator[T]) pushViews(st *pushState, chain *viewChain) Node {
	if chain == nil {
		return g
	}
	p := pusher[T]{st}
	v, k := p.leaf(g.space, chain)
	if k == 0 {
		return wrap[T](g, chain)
	}
	viewed := &Generator[T]{kind: g.kind, params: g.params, space: v, text: viewedName(g.text, chain, k)}
	return wrap[T](viewed, chain.after(k))
}
