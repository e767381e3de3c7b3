package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// geometry is a tensor's geometry computed exactly, in big integers, so that
// checking it does not trust the int arithmetic it checks.
type geometry struct {
	s         shape.Shape
	numel     *big.Int
	first     *big.Int // lowest storage offset of an element
	last      *big.Int // highest
	stridesOK bool     // every stride's byte form fits in an int
	negative  bool     // a size is negative
}

func exactGeometry(s shape.Shape, strides []int, offset, itemsize int) geometry {
	g := geometry{s: s, numel: big.NewInt(1), first: big.NewInt(int64(offset)), last: big.NewInt(int64(offset)), stridesOK: true}
	maxI := big.NewInt(math.MaxInt64)
	for d, n := range s {
		g.negative = g.negative || n < 0
		g.numel.Mul(g.numel, big.NewInt(int64(n)))
		st := big.NewInt(int64(strides[d]))
		if new(big.Int).Abs(new(big.Int).Mul(st, big.NewInt(int64(itemsize)))).Cmp(maxI) > 0 {
			g.stridesOK = false
		}
		if n > 0 {
			reach := new(big.Int).Mul(big.NewInt(int64(n-1)), st)
			if reach.Sign() < 0 {
				g.first.Add(g.first, reach)
			} else {
				g.last.Add(g.last, reach)
			}
		}
	}
	return g
}

// valid reports whether the geometry is one a tensor over a storage of n
// elements may have: non-negative sizes obeying Shape.Size's rule, valid
// strides, and every element inside the storage.
func (g geometry) valid(n int) bool {
	if g.negative || !g.stridesOK {
		return false
	}
	if _, err := g.s.Size(); err != nil {
		return false
	}
	if g.numel.Sign() == 0 {
		return true
	}
	return g.first.Sign() >= 0 && g.last.Cmp(big.NewInt(int64(n))) < 0
}

// huge draws a size, index, bound or step: mostly extreme values (powers of
// two up to 2^62, values next to MaxInt and MinInt, zeros, negatives), some
// small ones.
func (b *byteSource) huge() int {
	switch b.next(12) {
	case 0:
		return b.next(4)
	case 1:
		return 1 << b.next(63)
	case 2:
		return math.MaxInt - b.next(3)
	case 3:
		return math.MaxInt/2 + b.next(3) - 1
	case 4:
		return -b.next(3)
	case 5:
		return math.MinInt + b.next(2)
	case 6:
		return 1<<b.next(63) + b.next(3) - 1
	case 7:
		return -(1 << b.next(63))
	case 8:
		return 1 << (20 + b.next(12)) // around the allocator's limit
	default:
		return 1 + b.next(6)
	}
}

func (b *byteSource) hugeDims() []int {
	dims := make([]int, b.next(5))
	for i := range dims {
		dims[i] = b.huge()
	}
	return dims
}

// axis draws a dimension number for rank n: mostly valid, sometimes at the
// ends of int.
func (b *byteSource) axis(n int) int {
	switch b.next(6) {
	case 0:
		return math.MinInt + b.next(2)
	case 1:
		return math.MaxInt - b.next(2)
	default:
		return b.next(2*n+1) - n
	}
}

// shapeStep is one call of the property: a constructor or a view, which must
// return or panic with a typed error, or give a tensor with a valid
// geometry.
type shapeStep struct {
	name string
	f    func() (*Tensor[int64], error)
	// want, when set, says what a result must be beyond a valid geometry,
	// or "" when it is right.
	want func(*Tensor[int64]) string
}

// st makes a shapeStep.
func st(name string, f func() (*Tensor[int64], error), want ...func(*Tensor[int64]) string) shapeStep {
	step := shapeStep{name: name, f: f}
	if len(want) > 0 {
		step.want = want[0]
	}
	return step
}

// draw picks a constructor (when t is nil) or a view of t.
func (b *byteSource) draw(t *Tensor[int64]) shapeStep {
	if t == nil {
		dims := b.hugeDims()
		s := shape.Shape(dims)
		switch b.next(11) {
		case 0:
			return st(fmt.Sprintf("Zeros%v", dims), func() (*Tensor[int64], error) { return Zeros[int64](dims...), nil })
		case 1:
			return st(fmt.Sprintf("Full%v", dims), func() (*Tensor[int64], error) { return Full[int64](7, dims...), nil })
		case 2:
			return st(fmt.Sprintf("Make%v", dims), func() (*Tensor[int64], error) { return Make[int64](s) })
		case 3:
			return st(fmt.Sprintf("Empty%v", dims), func() (*Tensor[int64], error) { return Empty[int64](s), nil })
		case 4:
			k := b.next(64)
			return st(fmt.Sprintf("FromSlice(%d, %v)", k, dims), func() (*Tensor[int64], error) { return FromSlice(make([]int64, k), s) })
		case 5:
			k := b.next(64)
			return st(fmt.Sprintf("Wrap(%d, %v)", k, dims), func() (*Tensor[int64], error) { return Wrap(make([]int64, k), s) })
		case 6:
			k := b.next(64)
			strides := make([]int, len(dims))
			for i := range strides {
				if b.next(2) == 0 {
					strides[i] = b.huge()
				} else {
					strides[i] = b.next(9) - 4
				}
			}
			offset := b.next(64)
			if b.next(3) == 0 {
				offset = b.huge()
			}
			return st(fmt.Sprintf("WrapStrided(%d, %v, %v, %d)", k, dims, strides, offset),
				func() (*Tensor[int64], error) { return WrapStrided(make([]int64, k), s, strides, offset) })
		case 7:
			start, stop, step := b.huge(), b.huge(), b.huge()
			return st(fmt.Sprintf("Arange(%d, %d, %d)", start, stop, step),
				func() (*Tensor[int64], error) { return Arange(int64(start), int64(stop), int64(step)), nil })
		case 8:
			n := b.huge()
			return st(fmt.Sprintf("Eye(%d)", n), func() (*Tensor[int64], error) { return Eye[int64](n), nil })
		case 9:
			n := b.huge()
			return st(fmt.Sprintf("Linspace(0, 9, %d)", n), func() (*Tensor[int64], error) { return Linspace[int64](0, 9, n), nil })
		default:
			small := make([]int, b.next(4))
			n := 1
			for i := range small {
				small[i] = 1 + b.next(4)
				n *= small[i]
			}
			return st(fmt.Sprintf("Arange(0, %d).View%v", n, small),
				func() (*Tensor[int64], error) { return Arange[int64](0, int64(n), 1).View(small...) })
		}
	}
	n := t.NDim()
	switch b.next(16) {
	case 0:
		d0, d1 := b.axis(n), b.axis(n)
		return st(fmt.Sprintf("Transpose(%d, %d)", d0, d1), func() (*Tensor[int64], error) { return t.Transpose(d0, d1), nil })
	case 1:
		return st("T()", func() (*Tensor[int64], error) { return t.T(), nil })
	case 2:
		perm := rand.New(rand.NewPCG(uint64(b.next(256)), 2)).Perm(n)
		if n > 0 && b.next(3) == 0 {
			perm[b.next(n)] = b.axis(n)
		}
		return st(fmt.Sprintf("Permute%v", perm), func() (*Tensor[int64], error) { return t.Permute(perm...), nil })
	case 3, 4:
		dims := b.hugeDims()
		if len(dims) > 0 && b.next(2) == 0 {
			dims[b.next(len(dims))] = -1
		}
		if b.next(2) == 0 {
			return st(fmt.Sprintf("View%v", dims), func() (*Tensor[int64], error) { return t.View(dims...) })
		}
		return st(fmt.Sprintf("Reshape%v", dims), func() (*Tensor[int64], error) { return t.Reshape(dims...) })
	case 5:
		return st("Flatten()", func() (*Tensor[int64], error) { return t.Flatten(), nil })
	case 6:
		return st("FlatTo2D()", func() (*Tensor[int64], error) { return t.FlatTo2D() })
	case 7:
		d, i := b.axis(n), b.huge()
		if b.next(2) == 0 {
			i = b.next(4) - 2
		}
		return st(fmt.Sprintf("Index(%d, %d)", d, i), func() (*Tensor[int64], error) { return t.Index(d, i), nil },
			func(v *Tensor[int64]) string {
				if v.NDim() != n-1 {
					return fmt.Sprintf("Index gave rank %d from rank %d", v.NDim(), n)
				}
				return ""
			})
	case 8:
		d := b.axis(n)
		bound := func() int {
			switch b.next(3) {
			case 0:
				return None
			case 1:
				return b.huge()
			}
			return b.next(9) - 4
		}
		start, end := bound(), bound()
		step := b.huge()
		if b.next(2) == 0 {
			step = -step
		}
		return st(fmt.Sprintf("Slice(%d, %d, %d, %d)", d, start, end, step),
			func() (*Tensor[int64], error) { return t.Slice(d, start, end, step), nil })
	case 9:
		d, start, length := b.axis(n), b.huge(), b.huge()
		if b.next(2) == 0 {
			start = b.next(4) - 1
		}
		return st(fmt.Sprintf("Narrow(%d, %d, %d)", d, start, length),
			func() (*Tensor[int64], error) { return t.Narrow(d, start, length), nil },
			func(v *Tensor[int64]) string {
				dd := d
				if dd < 0 {
					dd += n
				}
				if v.NDim() != n || v.shape[dd] != length {
					return fmt.Sprintf("Narrow gave shape %v, want %d elements in dimension %d", v.shape, length, d)
				}
				return ""
			})
	case 10, 11:
		dims := make([]int, b.next(2)+n)
		lead := len(dims) - n
		for i := range dims {
			switch {
			case i < lead || t.shape[i-lead] == 1:
				dims[i] = b.huge()
			case b.next(2) == 0:
				dims[i] = -1
			default:
				dims[i] = t.shape[i-lead]
			}
		}
		if b.next(2) == 0 {
			return st(fmt.Sprintf("Expand%v", dims), func() (*Tensor[int64], error) { return t.Expand(dims...) })
		}
		return st(fmt.Sprintf("BroadcastTo%v", dims), func() (*Tensor[int64], error) { return t.BroadcastTo(dims) })
	case 12:
		d := b.axis(n)
		return st(fmt.Sprintf("Squeeze(%d)", d), func() (*Tensor[int64], error) { return t.Squeeze(d), nil })
	case 13:
		d := b.axis(n + 1)
		return st(fmt.Sprintf("Unsqueeze(%d)", d), func() (*Tensor[int64], error) { return t.Unsqueeze(d), nil })
	case 14:
		return st("Contiguous()", func() (*Tensor[int64], error) { return t.Contiguous(), nil })
	default:
		idx := make([]int, n)
		for i := range idx {
			idx[i] = b.huge()
			if b.next(2) == 0 {
				idx[i] = b.next(3) - 1
			}
		}
		return st(fmt.Sprintf("At%v", idx), func() (*Tensor[int64], error) { t.At(idx...); return t, nil })
	}
}

// runShapes is the property: a constructor and a chain of views drawn from
// data, with huge sizes, indices and steps. Every call returns or panics with
// one of laze's typed errors, or yields a tensor whose element count is the
// exact product of its shape and whose every element lies in its storage.
func runShapes(tb testing.TB, data []byte) {
	old := alloc.Default().Limit()
	alloc.Default().SetLimit(4 << 20) // large valid shapes fail fast, with a MemoryError
	defer alloc.Default().SetLimit(old)
	src := &byteSource{data: data}
	var t *Tensor[int64]
	var made []*Tensor[int64]
	defer func() {
		for _, m := range made {
			_ = m.Release()
		}
	}()
	var trail []string
	for range 10 {
		if src.done() {
			break
		}
		step := src.draw(t)
		trail = append(trail, step.name)
		var next *Tensor[int64]
		err := outcome(func() (err error) {
			next, err = step.f()
			return err
		})
		var raw *rawPanic
		switch {
		case errors.As(err, &raw):
			tb.Fatalf("%v: %v", trail, err)
		case err != nil && !isLaze(err):
			tb.Fatalf("%v: untyped error %T: %v", trail, err, err)
		case err != nil:
			continue
		}
		checkShapes(tb, trail, next)
		if step.want != nil {
			if msg := step.want(next); msg != "" {
				tb.Fatalf("%v: %s", trail, msg)
			}
		}
		shapeSuccesses++
		if t == nil {
			made = append(made, next)
		}
		t = next
	}
}

func checkShapes(tb testing.TB, trail []string, t *Tensor[int64]) {
	tb.Helper()
	g := exactGeometry(t.shape, t.strides, t.offset, ItemSize[int64]())
	if !g.valid(len(t.st.data)) {
		tb.Fatalf("%v: invalid geometry: shape %v strides %v offset %d, storage of %d (elements %v to %v)",
			trail, t.shape, t.strides, t.offset, len(t.st.data), g.first, g.last)
	}
	if !g.numel.IsInt64() || int64(t.Numel()) != g.numel.Int64() {
		tb.Fatalf("%v: Numel() = %d, exact product of %v is %v", trail, t.Numel(), t.shape, g.numel)
	}
	if g.numel.Sign() > 0 {
		span := new(big.Int).Sub(g.last, g.first)
		if int64(t.MemSize()) != span.Int64()+1 {
			tb.Fatalf("%v: MemSize() = %d, exact span %v", trail, t.MemSize(), span.Add(span, big.NewInt(1)))
		}
	}
	if t.Numel() <= 64 { // read every element: none may fault
		n := 0
		for range t.Values() {
			n++
		}
		if n != t.Numel() {
			tb.Fatalf("%v: Values() yielded %d of %d elements", trail, n, t.Numel())
		}
		for idx := range indices(t.shape) {
			t.At(idx...)
		}
	}
}

// shapeSuccesses counts the calls that gave a tensor, so that
// TestShapesProperty can tell that the property reaches past the errors.
var shapeSuccesses int

// TestShapesProperty runs the property on random inputs; FuzzShapes lets the
// fuzzer search.
func TestShapesProperty(t *testing.T) {
	shapeSuccesses = 0
	rng := rand.New(rand.NewPCG(2026, 15))
	runs := 3000
	if testing.Short() {
		runs = 300
	}
	for range runs {
		data := make([]byte, 60)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		runShapes(t, data)
	}
	if shapeSuccesses < runs {
		t.Errorf("only %d of the calls in %d runs gave a tensor", shapeSuccesses, runs)
	}
	t.Logf("%d calls gave a tensor in %d runs", shapeSuccesses, runs)
	runtime.GC()
}

// FuzzShapes is TestShapesProperty driven by the fuzzer:
//
//	go test -run '^$' -fuzz FuzzShapes ./tensor
func FuzzShapes(f *testing.F) {
	f.Add([]byte{10, 2, 3, 0, 11, 0, 0, 10, 1, 40, 1, 40})                  // a (1,1) view expanded to (2^40, 2^40)
	f.Add([]byte{0, 3, 0, 1, 1, 62, 1, 62})                                 // Zeros(0, 2^62, 2^62)
	f.Add([]byte{10, 2, 1, 1, 9, 0, 1, 2, 5, 1, 2})                         // Narrow with a huge length
	f.Add([]byte{10, 1, 3, 8, 0, 0, 0, 5, 0, 1, 1})                         // Slice with step MinInt
	f.Add([]byte{6, 2, 9, 9, 6, 2, 1, 1, 2, 0, 1, 3, 0, 0, 9, 0, 1, 62, 0}) // WrapStrided with huge strides
	f.Add([]byte{7, 5, 0, 2, 0, 9, 1})                                      // Arange(MinInt, MaxInt, 1)
	f.Fuzz(func(t *testing.T, data []byte) { runShapes(t, data) })
}
