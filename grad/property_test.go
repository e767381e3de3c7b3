package grad_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// chooser is the source of a random tree's choices: a seeded generator
// for the property test, the fuzzer's bytes for FuzzGradient.
type chooser interface {
	intn(n int) int  // in [0, n)
	float() float64  // in [0, 1)
	exhausted() bool // no choices left (the tree should stop growing)
	String() string  // for failure messages
}

type randChooser struct {
	r    *rand.Rand
	seed uint64
}

func (c *randChooser) intn(n int) int  { return c.r.IntN(n) }
func (c *randChooser) float() float64  { return c.r.Float64() }
func (c *randChooser) exhausted() bool { return false }
func (c *randChooser) String() string  { return fmt.Sprintf("seed %d", c.seed) }

// byteChooser takes its choices from bytes; past their end every choice is
// 0.
type byteChooser struct {
	b []byte
	i int
}

func (c *byteChooser) next() byte {
	if c.i >= len(c.b) {
		return 0
	}
	c.i++
	return c.b[c.i-1]
}
func (c *byteChooser) intn(n int) int  { return int(c.next()) % n }
func (c *byteChooser) float() float64  { return float64(uint16(c.next())<<8|uint16(c.next())) / 65536 }
func (c *byteChooser) exhausted() bool { return c.i >= len(c.b) }
func (c *byteChooser) String() string  { return fmt.Sprintf("bytes %x", c.b) }

// margin is how far every input of a kink or a discontinuity (abs and relu
// at 0, maximum and minimum at ties, clip at its bounds, where's condition,
// mod where x/y is an integer, max and min reductions at ties) stays from
// it in a generated tree, so that the finite differences' steps (at most
// 2·fdStep on a leaf) cannot cross it: it allows intermediate values to
// move 25 times faster than the leaf.
const margin = 0.05

// maxValue bounds the magnitude of every node of a generated tree: larger
// values (exp of exp, long products) are replaced by the node's operand.
const maxValue = 100

// maxSize bounds the element count of every node.
const maxSize = 48

// sub is a generated subtree and its shape.
type sub struct {
	e expr.Exp[float64]
	s shape.Shape
}

// treeGen draws random differentiable trees over a few leaf tensors of
// small shapes that broadcast together.
type treeGen struct {
	t      testing.TB
	c      chooser
	leaves []*tensor.Tensor[float64]
}

// newTreeGen draws two or three leaves: suffixes of a base shape of rank 0
// to 3, some dimensions set to 1, so that they broadcast; elements in
// [-1.5, 1.5).
func newTreeGen(t testing.TB, c chooser) *treeGen {
	g := &treeGen{t: t, c: c}
	base := make([]int, c.intn(4))
	for i := range base {
		base[i] = 1 + c.intn(3)
	}
	for range 2 + c.intn(2) {
		dims := slices.Clone(base[c.intn(len(base)+1):])
		for i := range dims {
			if c.intn(3) == 0 {
				dims[i] = 1
			}
		}
		x := tensor.New[float64](shape.Shape(dims))
		data := x.Data()
		for i := range data {
			data[i] = 3*c.float() - 1.5
		}
		g.leaves = append(g.leaves, x)
	}
	return g
}

func (g *treeGen) leaf() sub {
	x := g.leaves[g.c.intn(len(g.leaves))]
	return sub{x, x.Shape()}
}

// try returns the node e when it passes Check, is small and its values are
// finite and bounded, and fallback otherwise.
func (g *treeGen) try(e expr.Exp[float64], fallback sub) sub {
	info, err := expr.Check(e)
	if err != nil {
		return fallback
	}
	if n, _ := info.Shape.Size(); n > maxSize || n == 0 {
		return fallback
	}
	for _, v := range values(g.t, e) {
		if math.IsNaN(v) || math.Abs(v) > maxValue {
			return fallback
		}
	}
	return sub{e, info.Shape}
}

// far reports whether every element of e (which must pass Check) is at
// least margin away from 0.
func (g *treeGen) far(e expr.Exp[float64]) bool {
	if _, err := expr.Check(e); err != nil {
		return false
	}
	for _, v := range values(g.t, e) {
		if !(math.Abs(v) >= margin) {
			return false
		}
	}
	return true
}

// positive returns a² + 0.5, for the ops defined on positive numbers.
func positive(a expr.Exp[float64]) expr.Exp[float64] {
	return expr.AddScalar(expr.Square(a), 0.5)
}

// other returns a second operand for a: a new subtree when its shape
// broadcasts with a's, else a function of a (sharing a's node).
func (g *treeGen) other(a sub, depth int) sub {
	b := g.build(depth)
	if _, err := shape.Broadcast(a.s, b.s); err == nil {
		return b
	}
	return sub{expr.Cos(a.e), a.s}
}

// build draws a tree of at most depth levels above the leaves.
func (g *treeGen) build(depth int) sub {
	if depth == 0 || g.c.exhausted() || g.c.intn(5) == 0 {
		return g.leaf()
	}
	a := g.build(depth - 1)
	switch g.c.intn(8) {
	case 0, 1:
		return g.unary(a)
	case 2, 3:
		return g.binary(a, g.other(a, depth-1))
	case 4:
		return g.reduction(a)
	case 5:
		return g.view(a)
	case 6:
		if len(a.s) == 0 {
			return g.unary(a)
		}
		axis := g.c.intn(len(a.s))
		if g.c.intn(2) == 0 {
			axis -= len(a.s)
		}
		if g.c.intn(2) == 0 {
			return g.try(expr.CumSum(a.e, axis), a)
		}
		return g.try(expr.CumProd(a.e, axis), a)
	default:
		switch g.c.intn(3) {
		case 0:
			return g.matmul(a, g.build(depth-1))
		case 1:
			return g.concat(a, g.build(depth-1))
		default:
			return g.ternary(a, g.other(a, depth-1), depth)
		}
	}
}

func (g *treeGen) unary(a sub) sub {
	x := a.e
	var e expr.Exp[float64]
	switch g.c.intn(13) {
	case 0:
		e = expr.Neg(x)
	case 1:
		if !g.far(x) {
			return g.unary(a)
		}
		e = expr.Abs(x)
	case 2:
		e = expr.Sqrt(positive(x))
	case 3:
		e = expr.Exponential(x)
	case 4:
		e = expr.Log(positive(x))
	case 5:
		e = expr.Sin(x)
	case 6:
		e = expr.Cos(x)
	case 7:
		e = expr.Tanh(x)
	case 8:
		e = expr.Sigmoid(x)
	case 9:
		if !g.far(x) {
			return g.unary(a)
		}
		e = expr.ReLU(x)
	case 10:
		e = expr.Square(x)
	case 11:
		e = expr.Reciprocal(positive(x))
	default:
		e = expr.MulScalar(x, 2*g.c.float()-1)
	}
	return g.try(e, a)
}

func (g *treeGen) binary(a, b sub) sub {
	x, y := a.e, b.e
	var e expr.Exp[float64]
	switch g.c.intn(9) {
	case 0:
		e = expr.Add(x, y)
	case 1:
		e = expr.Sub(x, y)
	case 2:
		e = expr.Mul(x, y)
	case 3:
		e = expr.Div(x, positive(y))
	case 4:
		// mod jumps where x/y is an integer: keep |y| and x's distance
		// from a multiple of y above the margin.
		frac := expr.ModScalar(expr.Div(x, y), 1) // in [0, 1)
		dist := expr.Mul(expr.Sub(expr.Scalar(0.5), expr.Abs(expr.SubScalar(frac, 0.5))), expr.Abs(y))
		if !g.far(y) || !g.far(dist) {
			return g.binary(a, b)
		}
		e = expr.Mod(x, y)
	case 5:
		e = expr.Pow(positive(x), y)
	case 6:
		if !g.far(expr.Sub(x, y)) {
			return g.binary(a, b)
		}
		e = expr.Maximum(x, y)
	case 7:
		if !g.far(expr.Sub(x, y)) {
			return g.binary(a, b)
		}
		e = expr.Minimum(x, y)
	default:
		e = expr.Add(expr.Mul(x, y), x) // x read twice
	}
	return g.try(e, a)
}

// ternary draws where(p > q, x, y) with p and q apart, or clip(x, lo, hi)
// with x, lo and hi apart (lo above hi included).
func (g *treeGen) ternary(a, b sub, depth int) sub {
	c := g.other(a, depth-1)
	if g.c.intn(2) == 0 {
		if !g.far(expr.Sub(b.e, c.e)) {
			return g.binary(a, b)
		}
		return g.try(expr.Where(expr.Gt(b.e, c.e), a.e, expr.Sin(c.e)), a)
	}
	lo, hi := b.e, c.e
	if g.c.intn(3) == 0 {
		lo = expr.Scalar(g.c.float() - 1)
	}
	if !g.far(expr.Sub(a.e, lo)) || !g.far(expr.Sub(a.e, hi)) || !g.far(expr.Sub(lo, hi)) {
		return g.binary(a, b)
	}
	return g.try(expr.Clamp(a.e, lo, hi), a)
}

func (g *treeGen) axes(r int) []expr.ReduceOption {
	var opts []expr.ReduceOption
	if r > 0 && g.c.intn(3) != 0 {
		var axes []int
		for d := range r {
			if g.c.intn(2) == 0 {
				if g.c.intn(2) == 0 {
					d -= r
				}
				axes = append(axes, d)
			}
		}
		if len(axes) == 0 {
			axes = append(axes, g.c.intn(r))
		}
		opts = append(opts, expr.Axis(axes...))
	}
	if g.c.intn(2) == 0 {
		opts = append(opts, expr.KeepDims())
	}
	return opts
}

func (g *treeGen) reduction(a sub) sub {
	opts := g.axes(len(a.s))
	switch g.c.intn(5) {
	case 0:
		return g.try(expr.Sum(a.e, opts...), a)
	case 1:
		return g.try(expr.Mean(a.e, opts...), a)
	case 2:
		return g.try(expr.Prod(a.e, opts...), a)
	default:
		// max and min: only where the extremum is ahead of the others by
		// the margin.
		red := expr.Max[float64]
		if g.c.intn(2) == 0 {
			red = expr.Min[float64]
		}
		keep := append(slices.Clone(opts), expr.KeepDims())
		near := expr.LtScalar(expr.Abs(expr.Sub(a.e, red(a.e, keep...))), margin)
		for _, n := range values(g.t, expr.Sum(near, keep...)) {
			if n != 1 {
				return g.try(expr.Sum(a.e, opts...), a)
			}
		}
		return g.try(red(a.e, opts...), a)
	}
}

// perm draws a permutation of 0, …, n-1.
func (g *treeGen) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		j := g.c.intn(i + 1)
		p[i], p[j] = p[j], i
	}
	return p
}

func (g *treeGen) view(a sub) sub {
	x, s := a.e, a.s
	r := len(s)
	dim := func() int { // a dimension, negative half the time
		d := g.c.intn(r)
		if g.c.intn(2) == 0 {
			d -= r
		}
		return d
	}
	if r == 0 {
		switch g.c.intn(3) {
		case 0:
			return g.try(expr.Reshape(x, 1, 1), a)
		case 1:
			return g.try(expr.Unsqueeze(x, 0), a)
		default:
			return g.try(expr.Expand(x, 2), a)
		}
	}
	switch g.c.intn(15) {
	case 0:
		return g.try(expr.T(x), a)
	case 1:
		return g.try(expr.Transpose(x, dim(), dim()), a)
	case 2:
		p := make([]int, r)
		for i := range p {
			j := g.c.intn(i + 1)
			p[i], p[j] = p[j], i
		}
		for i := range p {
			if g.c.intn(2) == 0 {
				p[i] -= r
			}
		}
		return g.try(expr.Permute(x, p...), a)
	case 3:
		n, _ := s.Size()
		k := 1 + g.c.intn(n)
		if n%k != 0 {
			return g.try(expr.Reshape(x, -1), a)
		}
		return g.try(expr.Reshape(x, n/k, k), a)
	case 4:
		d := dim()
		step := []int{1, 2, 3, -1, -2, -3}[g.c.intn(6)]
		bound := func() int {
			if g.c.intn(3) == 0 {
				return tensor.None
			}
			n := s[(d+r)%r]
			return g.c.intn(2*n+3) - n - 1
		}
		return g.try(expr.Slice(x, d, bound(), bound(), step), a)
	case 5:
		d := dim()
		n := s[(d+r)%r]
		return g.try(expr.Index(x, d, g.c.intn(2*n)-n), a)
	case 6:
		dims := []int{2}
		for _, n := range s {
			if n == 1 && g.c.intn(2) == 0 {
				dims = append(dims, 2)
			} else {
				dims = append(dims, -1)
			}
		}
		if g.c.intn(2) == 0 {
			dims = dims[1:]
		}
		return g.try(expr.Expand(x, dims...), a)
	case 9:
		var dims []int
		for range g.c.intn(3) {
			dims = append(dims, dim())
		}
		return g.try(expr.Flip(x, dims...), a) // a repeated dimension is refused: try keeps a
	case 10:
		k := 1 + g.c.intn(r)
		return g.try(expr.MoveAxis(x, g.perm(r)[:k], g.perm(r)[:k]), a)
	case 11:
		axes := []int{g.c.intn(2*r+2) - r - 1}
		if g.c.intn(2) == 0 {
			axes = append(axes, g.c.intn(2*r+4)-r-2)
		}
		return g.try(expr.ExpandDims(x, axes...), a)
	case 12:
		if r >= 2 {
			d0, d1 := dim(), dim()
			n := s[(d0+r)%r] + s[(d1+r)%r]
			return g.try(expr.Diagonal(x, g.c.intn(n+1)-n/2, d0, d1), a) // same axes: refused
		}
		return g.try(expr.Ravel(x), a)
	case 13:
		dims := slices.Clone([]int(s))
		for d, n := range dims {
			if n == 1 && g.c.intn(2) == 0 {
				dims[d] = 3
			}
		}
		if g.c.intn(2) == 0 {
			dims = append([]int{2}, dims...)
		}
		return g.try(expr.BroadcastTo(x, dims...), a)
	case 14:
		return g.try(expr.Ravel(x), a)
	case 7:
		if slices.Contains(s, 1) {
			return g.try(expr.Squeeze(x), a)
		}
		fallthrough
	default:
		return g.try(expr.Unsqueeze(x, g.c.intn(2*r+2)-r-1), a)
	}
}

// matmul draws x @ yᵀ (the last two dimensions of y swapped), stretching
// a last dimension of size 1 to match the other's.
func (g *treeGen) matmul(a, b sub) sub {
	if len(a.s) == 0 || len(b.s) == 0 {
		return g.unary(a)
	}
	x, y := a.e, b.e
	ka, kb := a.s[len(a.s)-1], b.s[len(b.s)-1]
	switch {
	case ka == kb:
	case kb == 1:
		y = expr.Expand(y, append(slices.Repeat([]int{-1}, len(b.s)-1), ka)...)
	case ka == 1:
		x = expr.Expand(x, append(slices.Repeat([]int{-1}, len(a.s)-1), kb)...)
	default:
		y = b.e
		x = a.e
		if len(a.s) >= 2 {
			return g.try(expr.MatMul(x, expr.Transpose(x, -1, -2)), a)
		}
		return g.try(expr.MatMul(x, x), a)
	}
	if len(b.s) >= 2 {
		y = expr.Transpose(y, -1, -2)
	}
	return g.try(expr.MatMul(x, y), a)
}

// concat draws a concatenation of a and b along a dimension where they
// may differ, or a stack of a and a function of a.
func (g *treeGen) concat(a, b sub) sub {
	r := len(a.s)
	if g.c.intn(2) == 0 || r == 0 || len(b.s) != r {
		d := g.c.intn(r + 1)
		if g.c.intn(2) == 0 {
			d -= r + 1
		}
		return g.try(expr.Stack(d, a.e, expr.Sin(a.e)), a)
	}
	for d := range r {
		same := true
		for k := range r {
			same = same && (k == d || a.s[k] == b.s[k])
		}
		if same {
			if g.c.intn(2) == 0 {
				d -= r
			}
			return g.try(expr.Concatenate(d, a.e, b.e, a.e), a)
		}
	}
	return g.try(expr.Concatenate(0, a.e, a.e), a)
}

// gradCase is a generated tree, its loss sum(tree * w) and the leaves it
// reads.
type gradCase struct {
	tree sub
	loss expr.Exp[float64]
	wrt  []*tensor.Tensor[float64]
}

// draw builds a tree and its loss with fixed random weights.
func (g *treeGen) draw() gradCase {
	tree := g.build(4)
	w := tensor.New[float64](tree.s)
	for i := range w.Data() {
		w.Data()[i] = 2*g.c.float() - 1
	}
	loss := expr.Sum(expr.Mul(tree.e, w))
	var wrt []*tensor.Tensor[float64]
	used := map[*tensor.Tensor[float64]]bool{}
	seen := map[expr.Node]bool{}
	expr.Walk(tree.e, func(n expr.Node, _ int) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		if x, ok := n.(*tensor.Tensor[float64]); ok && slices.Contains(g.leaves, x) && !used[x] {
			used[x] = true
			wrt = append(wrt, x)
		}
		return true
	})
	return gradCase{tree, loss, wrt}
}

// fdStep is the finite differences' step on a leaf element (whose values
// are of order 1).
const fdStep = 1e-4

// numericGradient returns the derivative of loss with respect to each
// element of x by the five-point central difference
// (8(f(x+h) − f(x−h)) − (f(x+2h) − f(x−2h))) / 12h, whose truncation error
// is of order h⁴·f⁽⁵⁾ (about 1e-13 here) and rounding error about
// ε·|loss|/h (1e-13·|loss|), far below the 1e-6 the test asks of the
// gradient: a plain central difference's h²·f‴ error would need h ≈ 1e-5,
// where rounding (ε·|loss|/h ≈ 1e-11·|loss|) leaves less room.
func numericGradient[T tensor.Float](t testing.TB, loss expr.Exp[T], x *tensor.Tensor[T]) []float64 {
	t.Helper()
	data := x.Data()
	out := make([]float64, len(data))
	at := func(i int, v T) float64 {
		data[i] = v
		return float64(values(t, loss)[0])
	}
	for i := range data {
		orig := data[i]
		h := T(fdStep)
		f1, fm1 := at(i, orig+h), at(i, orig-h)
		f2, fm2 := at(i, orig+2*h), at(i, orig-2*h)
		data[i] = orig
		out[i] = (8*(f1-fm1) - (f2 - fm2)) / (12 * float64(h))
	}
	return out
}

// gradientMismatch compares a gradient with its finite-difference estimate,
// element by element: got agrees with num when |got − num| ≤
// rel·max(|num|, 1e-3·scale), scale being the largest |num| of the whole
// loss (at least 1). The floor keeps the relative test for the elements
// that matter and stops it from asking 1e-6 of an element that is tiny
// next to the others (a sum of terms of size scale that cancel, whose
// rounding error is ε·scale in both estimates).
func gradientMismatch(got []float64, num []float64, rel, scale float64) string {
	for i := range got {
		if err := math.Abs(got[i] - num[i]); !(err <= rel*max(math.Abs(num[i]), 1e-3*scale)) {
			return fmt.Sprintf("element %d: grad.Of %.17g, finite differences %.17g (error %.3g, %.3g relative)",
				i, got[i], num[i], err, err/math.Abs(num[i]))
		}
	}
	return ""
}

// checkGradient compares grad.Of(c.loss, c.wrt...) with finite
// differences of the loss, relative error at most rel.
func checkGradient(t testing.TB, c gradCase, rel float64, origin fmt.Stringer) {
	t.Helper()
	if len(c.wrt) == 0 {
		return
	}
	gs, err := grad.Of(c.loss, c.wrt...)
	if err != nil {
		t.Fatalf("%v: tree %v: grad.Of: %v", origin, c.tree.e, err)
	}
	got := evalGrads(t, gs, c.wrt)
	nums := make([][]float64, len(c.wrt))
	scale := 1.0
	for i, x := range c.wrt {
		nums[i] = numericGradient(t, c.loss, x)
		for _, v := range nums[i] {
			scale = max(scale, math.Abs(v))
		}
	}
	for i := range c.wrt {
		if msg := gradientMismatch(got[i], nums[i], rel, scale); msg != "" {
			t.Errorf("%v: tree %v, leaf %d of shape %v: %s", origin, c.tree.e, i, c.wrt[i].Shape(), msg)
		}
	}
}

// TestGradientProperty checks the gradients of random trees over leaves of
// small shapes that broadcast (elementwise ops away from their kinks,
// reductions, matrix products, views, scans, concatenations; nodes shared
// between parents) against finite differences: relative error at most
// 1e-6.
func TestGradientProperty(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for seed := range uint64(n) {
		c := &randChooser{r: rand.New(rand.NewPCG(seed, 19)), seed: seed}
		checkGradient(t, newTreeGen(t, c).draw(), 1e-6, c)
	}
}

// FuzzGradient checks grad.Of against finite differences on trees decoded
// from the fuzzer's bytes, as TestGradientProperty does with a seeded
// generator.
func FuzzGradient(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("grad"))
	for seed := range uint64(8) {
		b := binary.LittleEndian.AppendUint64(nil, seed*0x9e3779b97f4a7c15)
		r := rand.New(rand.NewPCG(seed, 7))
		for range 64 {
			b = append(b, byte(r.Uint32()))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			data = data[:512]
		}
		c := &byteChooser{b: data}
		checkGradient(t, newTreeGen(t, c).draw(), 1e-6, c)
	})
}
