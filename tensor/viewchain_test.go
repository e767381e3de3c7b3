package tensor

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/laze-go/laze/shape"
)

// A chained view and the explicit index mapping that says, for each of its
// indices, which index of the base tensor it must read. The mapping is built
// from each operation's definition (NumPy's semantics), never from strides,
// so it checks the stride arithmetic independently.
type mappedView struct {
	t    *Tensor[int64]
	base shape.Shape
	ref  func(idx []int) []int
	ops  []string
}

// byteSource hands out small numbers from fuzz input (or random bytes).
type byteSource struct {
	data []byte
	pos  int
}

func (b *byteSource) next(n int) int {
	if n <= 0 {
		return 0
	}
	if b.pos >= len(b.data) {
		return 0
	}
	v := int(b.data[b.pos])
	b.pos++
	return v % n
}

func (b *byteSource) done() bool { return b.pos >= len(b.data) }

// newMappedView makes a base arange tensor whose value at each index is its
// row-major position.
func newMappedView(src *byteSource) mappedView {
	ndim := 1 + src.next(4)
	dims := make([]int, ndim)
	for i := range dims {
		dims[i] = 1 + src.next(4)
	}
	n, _ := shape.Shape(dims).Size()
	t := Arange[int64](0, int64(n), 1).mustView(dims...)
	return mappedView{t: t, base: t.Shape(), ref: slices.Clone[[]int]}
}

const maxChainElems = 4096

// step applies one operation chosen by src, with valid arguments.
func (m mappedView) step(tb testing.TB, src *byteSource) mappedView {
	t, ref := m.t, m.ref
	n := t.NDim()
	s := t.Shape()
	next := mappedView{base: m.base, ops: m.ops}
	switch op := src.next(15); {
	case op == 0 && n >= 2:
		a, b := src.next(n), src.next(n)
		next.t, next.ops = t.Transpose(a, b-n), append(next.ops, "Transpose")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx)
			j[a], j[b] = j[b], j[a]
			return ref(j)
		}
	case op == 1:
		next.t, next.ops = t.T(), append(next.ops, "T")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx)
			slices.Reverse(j)
			return ref(j)
		}
	case op == 2:
		perm := rand.New(rand.NewPCG(uint64(src.next(256)), 1)).Perm(n)
		next.t, next.ops = t.Permute(perm...), append(next.ops, "Permute")
		next.ref = func(idx []int) []int {
			j := make([]int, n)
			for i, p := range perm {
				j[p] = idx[i]
			}
			return ref(j)
		}
	case op == 3 && n >= 1 && s[src.next(n)%n] > 0:
		d := src.next(n)
		if s[d] == 0 {
			return m
		}
		i := src.next(s[d])
		neg := src.next(2) == 1
		arg := i
		if neg {
			arg = i - s[d]
		}
		next.t, next.ops = t.Index(d, arg), append(next.ops, "Index")
		next.ref = func(idx []int) []int { return ref(slices.Insert(slices.Clone(idx), d, i)) }
	case op == 4 && n >= 1:
		d := src.next(n)
		bound := func() int {
			if src.next(5) == 0 {
				return None
			}
			return src.next(2*s[d]+5) - s[d] - 2
		}
		start, end := bound(), bound()
		step := src.next(7) - 3
		if step == 0 {
			step = 1
		}
		picked := pySlice(s[d], start, end, step)
		next.t, next.ops = t.Slice(d, start, end, step), append(next.ops, "Slice")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx)
			j[d] = picked[idx[d]]
			return ref(j)
		}
	case op == 5:
		total := t.Numel()
		target := factorize(total, src)
		var err error
		if src.next(2) == 0 {
			next.t, err = t.View(target...)
			next.ops = append(next.ops, "View")
			if errors.Is(err, shape.ErrNotContiguous) {
				return m // legitimately refused; Reshape is exercised by the other branch
			}
		} else {
			next.t, err = t.Reshape(target...)
			next.ops = append(next.ops, "Reshape")
		}
		if err != nil {
			tb.Fatalf("%v %v → %v: %v", next.ops, s, target, err)
		}
		resolved := next.t.Shape() // target with any -1 inferred
		next.ref = func(idx []int) []int { return ref(unravel(ravel(idx, resolved), s)) }
	case op == 6:
		lead := src.next(2)
		target := make([]int, lead+n)
		for i := range target {
			target[i] = 1 + src.next(3)
		}
		for i, size := range s {
			if size != 1 || src.next(2) == 0 {
				target[lead+i] = size
			}
		}
		if sz, _ := shape.Shape(target).Size(); sz > maxChainElems {
			return m
		}
		v, err := t.Expand(target...)
		if err != nil {
			tb.Fatalf("Expand %v → %v: %v", s, target, err)
		}
		next.t, next.ops = v, append(next.ops, "Expand")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx[lead:])
			for i := range j {
				if s[i] == 1 {
					j[i] = 0
				}
			}
			return ref(j)
		}
	case op == 7:
		next.t, next.ops = t.Squeeze(), append(next.ops, "Squeeze")
		next.ref = func(idx []int) []int {
			j := make([]int, 0, n)
			k := 0
			for _, size := range s {
				if size == 1 {
					j = append(j, 0)
				} else {
					j = append(j, idx[k])
					k++
				}
			}
			return ref(j)
		}
	case op == 8:
		d := src.next(n + 1)
		next.t, next.ops = t.Unsqueeze(d), append(next.ops, "Unsqueeze")
		next.ref = func(idx []int) []int { return ref(slices.Delete(slices.Clone(idx), d, d+1)) }
	case op == 9 && n >= 1:
		d := src.next(n)
		start := src.next(s[d] + 1)
		length := src.next(s[d] - start + 1)
		next.t, next.ops = t.Narrow(d, start, length), append(next.ops, "Narrow")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx)
			j[d] += start
			return ref(j)
		}
	case op == 10:
		next.t, next.ref = selectStep(t, ref, src)
		next.ops = append(next.ops, "Select")
	case op == 11:
		var dims []int // none: every dimension
		for d := range n {
			if src.next(2) == 0 {
				dims = append(dims, d-n*src.next(2))
			}
		}
		flipped := make([]bool, n)
		for d := range n {
			flipped[d] = len(dims) == 0
		}
		for _, d := range dims {
			flipped[(d+n)%n] = true
		}
		next.t, next.ops = t.Flip(dims...), append(next.ops, "Flip")
		next.ref = func(idx []int) []int {
			j := slices.Clone(idx)
			for d, f := range flipped {
				if f {
					j[d] = s[d] - 1 - idx[d]
				}
			}
			return ref(j)
		}
	case op == 12 && n >= 1:
		// numpy.moveaxis, by its definition: the unmoved dimensions keep
		// their order and fill the positions not named in destination.
		k := 1 + src.next(n)
		from := rand.New(rand.NewPCG(uint64(src.next(256)), 2)).Perm(n)[:k]
		to := rand.New(rand.NewPCG(uint64(src.next(256)), 3)).Perm(n)[:k]
		perm := make([]int, n) // perm[i]: the dimension of t at position i
		placed := make([]bool, n)
		for i := range k {
			perm[to[i]], placed[to[i]] = from[i], true
		}
		rest := 0
		for i := range n {
			if placed[i] {
				continue
			}
			for slices.Contains(from, rest) {
				rest++
			}
			perm[i] = rest
			rest++
		}
		if src.next(2) == 0 {
			from[0] -= n
		}
		next.t, next.ops = t.MoveAxis(from, to), append(next.ops, "MoveAxis")
		next.ref = func(idx []int) []int {
			j := make([]int, n)
			for i, p := range perm {
				j[p] = idx[i]
			}
			return ref(j)
		}
	case op == 13:
		k := src.next(3)
		out := n + k
		at := rand.New(rand.NewPCG(uint64(src.next(256)), 4)).Perm(out)[:k]
		args := slices.Clone(at)
		for i := range args {
			if src.next(2) == 0 {
				args[i] -= out
			}
		}
		next.t, next.ops = t.ExpandDims(args...), append(next.ops, "ExpandDims")
		next.ref = func(idx []int) []int {
			j := make([]int, 0, n)
			for d, i := range idx {
				if !slices.Contains(at, d) {
					j = append(j, i)
				}
			}
			return ref(j)
		}
	case op == 14 && n >= 2:
		a := src.next(n)
		b := (a + 1 + src.next(n-1)) % n
		offset := src.next(2*(s[a]+s[b])+3) - s[a] - 1
		next.t, next.ops = t.Diagonal(offset, a, b-n*src.next(2)), append(next.ops, "Diagonal")
		next.ref = func(idx []int) []int {
			j := make([]int, n)
			k := 0
			for d := range n {
				if d != a && d != b {
					j[d] = idx[k]
					k++
				}
			}
			i := idx[n-2]
			j[a], j[b] = i+max(0, -offset), i+max(0, offset)
			return ref(j)
		}
	default:
		return m
	}
	return next
}

// check compares every element of the view with the base element its
// mapping names, and the iterators and Data with At.
func (m mappedView) check(tb testing.TB) {
	tb.Helper()
	var fromAt []int64
	for idx := range indices(m.t.shape) {
		want := int64(ravel(m.ref(idx), m.base))
		got := m.t.At(idx...)
		if got != want {
			tb.Fatalf("after %v: view %v strides %v offset %d: At%v = %d, want %d",
				m.ops, m.t.shape, m.t.strides, m.t.offset, idx, got, want)
		}
		fromAt = append(fromAt, got)
	}
	fromValues := slices.Collect(m.t.Values())
	if !slices.Equal(fromAt, fromValues) {
		tb.Fatalf("after %v: Values() %v differs from At %v", m.ops, fromValues, fromAt)
	}
	if m.t.IsContiguous() && !slices.Equal(fromAt, m.t.Data()) && m.t.Numel() > 0 {
		tb.Fatalf("after %v: Data() %v differs from At %v", m.ops, m.t.Data(), fromAt)
	}
	if m.t.Numel() > 0 && m.t.MemSize() < 1 {
		tb.Fatalf("after %v: MemSize %d", m.ops, m.t.MemSize())
	}
}

func runChain(tb testing.TB, data []byte) {
	src := &byteSource{data: data}
	m := newMappedView(src)
	for range 12 {
		if src.done() {
			break
		}
		m = m.step(tb, src)
		m.check(tb)
	}
}

// TestViewChainsProperty applies random chains of views and checks every
// element against the explicit index mapping.
func TestViewChainsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	for range 3000 {
		data := make([]byte, 40)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		runChain(t, data)
	}
}

// FuzzViewChain is the same check driven by the fuzzer:
//
//	go test -fuzz FuzzViewChain ./tensor
func FuzzViewChain(f *testing.F) {
	f.Add([]byte{3, 2, 3, 4, 0, 0, 2, 4, 1, 0, 5, 5, 0, 1})
	f.Add([]byte{2, 1, 4, 4, 2, 0, 1, 1, 8, 0, 6, 1, 0, 2})
	f.Add([]byte{4, 1, 1, 2, 1, 7, 6, 0, 1, 1, 1, 5, 9, 1})
	f.Fuzz(func(t *testing.T, data []byte) { runChain(t, data) })
}

// pySlice lists the indices range(n)[start:end:step] selects, following the
// Python reference's normalisation step by step.
func pySlice(n, start, end, step int) []int {
	var lo, hi int
	if step > 0 {
		lo, hi = 0, n
	} else {
		lo, hi = -1, n-1
	}
	norm := func(v, omitted int) int {
		if v == None {
			return omitted
		}
		if v < 0 {
			v += n
			if v < lo {
				v = lo
			}
		} else if v > hi {
			v = hi
		}
		return v
	}
	var out []int
	if step > 0 {
		for i := norm(start, lo); i < norm(end, hi); i += step {
			out = append(out, i)
		}
	} else {
		for i := norm(start, hi); i > norm(end, lo); i += step {
			out = append(out, i)
		}
	}
	return out
}

// factorize picks a shape with the given element count (a -1 may stand for
// one dimension).
func factorize(total int, src *byteSource) []int {
	var dims []int
	rest := total
	for range src.next(4) {
		var divisors []int
		for d := 1; d <= rest && d <= 6; d++ {
			if rest%d == 0 {
				divisors = append(divisors, d)
			}
		}
		if total == 0 {
			divisors = []int{0, 1, 2}
		}
		d := divisors[src.next(len(divisors))]
		dims = append(dims, d)
		if d > 0 {
			rest /= d
		}
	}
	if total == 0 {
		return append(dims, 0)
	}
	if src.next(2) == 0 {
		return slices.Insert(dims, src.next(len(dims)+1), -1)
	}
	return append(dims, rest)
}

func ravel(idx []int, s []int) int {
	off := 0
	for d, i := range idx {
		off = off*s[d] + i
	}
	return off
}

func unravel(pos int, s []int) []int {
	idx := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		if s[d] > 0 {
			idx[d] = pos % s[d]
			pos /= s[d]
		}
	}
	return idx
}

// selectStep draws a multi-dimensional index for Select (integers, slices,
// whole dimensions, new axes and at most one ellipsis) and returns the view
// with its mapping, built entry by entry from NumPy's indexing rules.
func selectStep(t *Tensor[int64], ref func([]int) []int, src *byteSource) (*Tensor[int64], func([]int) []int) {
	s := t.Shape()
	type entry struct {
		ix     Ix
		dims   int   // input dimensions the entry stands for
		picked []int // Range: the input index of each output index
		at     int   // At: the input index
	}
	var entries []entry
	ellipsis := false
	for d := 0; d < len(s); {
		switch k := src.next(6); {
		case k == 0 && s[d] > 0:
			i := src.next(s[d])
			arg := i
			if src.next(2) == 1 {
				arg = i - s[d]
			}
			entries = append(entries, entry{ix: At(arg), dims: 1, at: i})
			d++
		case k == 1:
			start, end := src.next(2*s[d]+3)-s[d]-1, None
			step := src.next(5) - 2
			if step == 0 {
				step = -1
			}
			entries = append(entries, entry{ix: Range(start, end, step), dims: 1, picked: pySlice(s[d], start, end, step)})
			d++
		case k == 2:
			entries = append(entries, entry{ix: NewAxis})
		case k == 3 && !ellipsis:
			n := src.next(len(s) - d + 1)
			entries = append(entries, entry{ix: Ellipsis, dims: n})
			ellipsis = true
			d += n
		case k == 4 && !ellipsis && src.next(2) == 0:
			d = len(s) // the rest is implied (with an ellipsis, NumPy gives it the rest)
		default:
			entries = append(entries, entry{ix: All, dims: 1})
			d++
		}
	}
	ix := make([]Ix, len(entries))
	for i, e := range entries {
		ix[i] = e.ix
	}
	v := t.Select(ix...)
	return v, func(idx []int) []int {
		j := make([]int, 0, len(s))
		p := 0
		for _, e := range entries {
			switch e.ix.spec().kind {
			case ixAt:
				j = append(j, e.at)
			case ixRange:
				j = append(j, e.picked[idx[p]])
				p++
			case ixNewAxis:
				p++
			default: // All, Ellipsis
				j = append(j, idx[p:p+e.dims]...)
				p += e.dims
			}
		}
		j = append(j, idx[p:]...)
		return ref(j)
	}
}
