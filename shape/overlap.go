package shape

import (
	"fmt"
	"slices"
)

// A Region is the memory a strided view addresses, measured in bytes, so
// that views compare by what they touch rather than by which storage object
// they came from: two tensors wrapped separately over one slice, or views of
// one block as two element types, are seen to overlap. Element (i0, i1, …)
// occupies ItemSize bytes from Base + ItemSize·(Offset + Σ ik·Strides[k]).
//
// MayOverlap, Coincide and InternalOverlap are laze's one overlap rule: the
// evaluator's aliasing analysis, CopyFrom and the products all decide with
// them.
type Region struct {
	// Space names the address space: regions in different spaces never
	// overlap. Host memory is space 0; each device has its own.
	Space uint64
	// Base is the address of storage element 0.
	Base     uintptr
	ItemSize int
	Offset   int
	Shape    Shape
	Strides  []int
}

// first returns the address of element (0, 0, …).
func (r Region) first() int64 {
	return int64(r.Base) + int64(r.ItemSize)*int64(r.Offset)
}

// bytes returns the byte range [lo, hi) that the region's elements lie in;
// ok is false when it has no elements.
func (r Region) bytes() (lo, hi int64, ok bool) {
	elo, ehi, ok := Extent(r.Shape, r.Strides)
	if !ok {
		return 0, 0, false
	}
	size := int64(r.ItemSize)
	return r.first() + size*int64(elo), r.first() + size*int64(ehi+1), true
}

// strideGCD folds the byte strides of r's dimensions longer than 1 into g.
func (r Region) strideGCD(g int64) int64 {
	for d, n := range r.Shape {
		if n > 1 {
			g = gcd(g, int64(r.ItemSize)*abs(int64(r.Strides[d])))
		}
	}
	return g
}

// MayOverlap reports whether some byte belongs to an element of a and to an
// element of b. False is a proof that writing one never changes the other.
// True may be conservative: the test looks at the two byte ranges and at
// the element addresses modulo the gcd of all byte strides (so a[::2] and
// a[1::2] are told apart), not at every element.
func MayOverlap(a, b Region) bool {
	if a.Space != b.Space {
		return false
	}
	alo, ahi, aok := a.bytes()
	blo, bhi, bok := b.bytes()
	if !aok || !bok || ahi <= blo || bhi <= alo {
		return false
	}
	g := b.strideGCD(a.strideGCD(0))
	if g == 0 {
		return true // one element each, in intersecting ranges
	}
	// An element of b starts d bytes (mod g) after one of a; they share a
	// byte when that distance can lie in (-b.ItemSize, a.ItemSize).
	d := (b.first() - a.first()) % g
	if d < 0 {
		d += g
	}
	return d < int64(a.ItemSize) || d > g-int64(b.ItemSize)
}

// Coincide reports whether src, broadcast to dst's shape, reads at every
// index exactly the bytes that dst holds at that index: same space, same
// item size, same first element and, on every dimension of dst longer than
// 1, the same stride. An evaluator may then read src in place while it
// writes dst, since each element is read just before it is written at the
// same position and no other position reads it.
func Coincide(dst, src Region) bool {
	if dst.Space != src.Space || dst.ItemSize != src.ItemSize || dst.first() != src.first() {
		return false
	}
	bs, err := BroadcastStrides(src.Shape, src.Strides, dst.Shape)
	if err != nil {
		return false
	}
	for d, n := range dst.Shape {
		if n > 1 && bs[d] != dst.Strides[d] {
			return false
		}
	}
	return true
}

// CheckWritable returns an ArgumentError when two different indices of a
// destination with shape s and the given strides may address one element
// (InternalOverlap: a broadcast dimension, or overlapping strides), which no
// element-by-element write can fill with distinct values. op names the call
// in the error.
func CheckWritable(op string, s Shape, strides []int) error {
	if !InternalOverlap(s, strides) {
		return nil
	}
	reason := fmt.Sprintf("strides that overlap: several elements of the %s destination are one memory cell, so they cannot each be written", s)
	for d, n := range s {
		if n > 1 && strides[d] == 0 {
			reason = fmt.Sprintf("dimension %d is broadcast (stride 0), so its elements share memory and cannot each be written", d)
			break
		}
	}
	return &ArgumentError{Op: op, Name: "destination strides", Value: FormatInts(strides),
		Reason: reason + "; write into a tensor of its own (Clone) instead"}
}

// enumerateLimit bounds the elements InternalOverlap lists one by one when
// the quick test cannot decide.
const enumerateLimit = 1 << 16

// InternalOverlap reports whether two different indices of a view with
// shape s and the given strides may address the same element, so that the
// view cannot be written element by element (a broadcast dimension, or
// strides (1, 1) over a 2×3 view). It is exact for views of up to 65,536
// elements and for every view whose strides, ordered by size, each exceed
// the reach of the smaller ones (every layout made by slicing, permuting
// and reshaping a contiguous tensor); a larger view outside that class
// counts as overlapping.
func InternalOverlap(s Shape, strides []int) bool {
	type dim struct{ n, stride int }
	dims := make([]dim, 0, len(s))
	for d, n := range s {
		switch {
		case n == 0:
			return false
		case n > 1:
			dims = append(dims, dim{n, int(abs(int64(strides[d])))})
		}
	}
	slices.SortFunc(dims, func(a, b dim) int { return a.stride - b.stride })
	reach, nested := 0, true
	for _, d := range dims {
		if d.stride == 0 {
			return true
		}
		if d.stride <= reach {
			nested = false
			break
		}
		reach += d.stride * (d.n - 1)
	}
	if nested {
		return false
	}
	return enumeratedOverlap(s, strides)
}

// enumeratedOverlap lists the view's element offsets and looks for a
// repeat; beyond enumerateLimit elements it answers true.
func enumeratedOverlap(s Shape, strides []int) bool {
	n, err := s.Size()
	if err != nil || n > enumerateLimit {
		return true
	}
	offsets := make([]int, 0, n)
	off := 0
	for o := NewOdometer(s); !o.Done(); {
		offsets = append(offsets, off)
		off += o.Step(strides, o.Next())
	}
	slices.Sort(offsets)
	for i := 1; i < len(offsets); i++ {
		if offsets[i] == offsets[i-1] {
			return true
		}
	}
	return false
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
