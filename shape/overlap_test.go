package shape

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// region is a host region over storage at base.
func region(base uintptr, item, offset int, s Shape, strides ...int) Region {
	return Region{Base: base, ItemSize: item, Offset: offset, Shape: s, Strides: strides}
}

func TestMayOverlapAndCoincide(t *testing.T) {
	const base = 0x1000
	tests := []struct {
		name         string
		a, b         Region
		overlap, coi bool
	}{
		{"same view", region(base, 8, 0, Of(3, 3), 3, 1), region(base, 8, 0, Of(3, 3), 3, 1), true, true},
		{"transpose", region(base, 8, 0, Of(3, 3), 3, 1), region(base, 8, 0, Of(3, 3), 1, 3), true, false},
		{"disjoint halves", region(base, 8, 0, Of(4), 1), region(base, 8, 4, Of(4), 1), false, false},
		{"a[::2] and a[1::2]", region(base, 8, 0, Of(4), 2), region(base, 8, 1, Of(4), 2), false, false},
		{"a[1:] and a[:-1]", region(base, 8, 1, Of(4), 1), region(base, 8, 0, Of(4), 1), true, false},
		{"two wrappers of one slice (same address, other storage)", region(base, 8, 0, Of(2, 2), 2, 1), region(base, 8, 0, Of(2, 2), 2, 1), true, true},
		{"another slice", region(base, 8, 0, Of(4), 1), region(base+32, 8, 0, Of(4), 1), false, false},
		{"adjacent slice, one byte in", region(base, 8, 0, Of(4), 1), region(base+31, 8, 0, Of(4), 1), true, false},
		{"another address space", region(base, 8, 0, Of(4), 1), Region{Space: 1, Base: base, ItemSize: 8, Shape: Of(4), Strides: []int{1}}, false, false},
		{"float64 bytes as int32 halves", region(base, 8, 0, Of(4), 1), region(base, 4, 0, Of(8), 1), true, false},
		{"int32 odd halves against float64 elements", region(base, 8, 0, Of(4), 1), region(base, 4, 1, Of(4), 2), true, false},
		{"int32 even words, stride 4, against float64 odd elements", region(base, 8, 1, Of(2), 2), region(base, 4, 0, Of(4), 4), false, false},
		{"broadcast row against its matrix", region(base, 8, 0, Of(3, 3), 3, 1), region(base, 8, 0, Of(3), 1), true, false},
		{"empty (no index, so vacuously coinciding)", region(base, 8, 0, Of(0, 3), 3, 1), region(base, 8, 0, Of(3), 1), false, true},
		{"single elements at one address", region(base, 8, 2, Of(1), 5), region(base, 8, 2, Of()), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MayOverlap(tt.a, tt.b); got != tt.overlap {
				t.Errorf("MayOverlap = %v, want %v", got, tt.overlap)
			}
			if got := MayOverlap(tt.b, tt.a); got != tt.overlap {
				t.Errorf("MayOverlap reversed = %v, want %v", got, tt.overlap)
			}
			if got := Coincide(tt.a, tt.b); got != tt.coi {
				t.Errorf("Coincide = %v, want %v", got, tt.coi)
			}
		})
	}
}

// bytesOf lists the bytes a region's elements occupy.
func bytesOf(r Region) map[int64]bool {
	out := map[int64]bool{}
	n, _ := r.Shape.Size()
	idx := make([]int, len(r.Shape))
	for range n {
		off := r.Offset
		for d, i := range idx {
			off += i * r.Strides[d]
		}
		for b := range int64(r.ItemSize) {
			out[int64(r.Base)+int64(r.ItemSize)*int64(off)+b] = true
		}
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < r.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// randomRegion draws a small strided region over 64 bytes' worth of storage
// at 0x1000, of item size 1, 2, 4 or 8.
func randomRegion(r *rand.Rand) Region {
	item := []int{1, 2, 4, 8}[r.IntN(4)]
	s := make(Shape, r.IntN(3))
	strides := make([]int, len(s))
	for d := range s {
		s[d] = r.IntN(4)
		strides[d] = r.IntN(9) - 4
	}
	return region(0x1000, item, 8+r.IntN(16), s, strides...)
}

// TestOverlapProperty checks the rule against a byte-by-byte listing on
// random regions: MayOverlap is never false when a byte is shared,
// Coincide only when every index reads the bytes written there, and
// InternalOverlap exactly when two indices share an element.
func TestOverlapProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a, b := randomRegion(r), randomRegion(r)
		ba, bb := bytesOf(a), bytesOf(b)
		shared := false
		for x := range ba {
			if bb[x] {
				shared = true
				break
			}
		}
		if shared && !MayOverlap(a, b) {
			t.Fatalf("MayOverlap(%+v, %+v) = false, but they share a byte", a, b)
		}
		if Coincide(a, b) {
			if _, err := BroadcastStrides(b.Shape, b.Strides, a.Shape); err != nil {
				t.Fatalf("Coincide(%+v, %+v) although b does not broadcast to a", a, b)
			}
			if !cmp.Equal(ba, bytesOf(Region{Base: b.Base, ItemSize: b.ItemSize, Offset: b.Offset, Shape: a.Shape, Strides: mustBroadcast(b, a.Shape)})) {
				t.Fatalf("Coincide(%+v, %+v), but they read other bytes", a, b)
			}
		}
		n, _ := a.Shape.Size()
		distinct := len(bytesOf(Region{Base: 0, ItemSize: 1, Offset: a.Offset, Shape: a.Shape, Strides: a.Strides}))
		if got, want := InternalOverlap(a.Shape, a.Strides), distinct < n; got != want {
			t.Fatalf("InternalOverlap(%v, %v) = %v, want %v", a.Shape, a.Strides, got, want)
		}
	}
}

func mustBroadcast(r Region, to Shape) []int {
	s, err := BroadcastStrides(r.Shape, r.Strides, to)
	if err != nil {
		panic(err)
	}
	return s
}

func TestInternalOverlapLayouts(t *testing.T) {
	tests := []struct {
		name    string
		s       Shape
		strides []int
		want    bool
	}{
		{"contiguous", Of(2, 3, 4), []int{12, 4, 1}, false},
		{"transposed", Of(4, 3, 2), []int{1, 4, 12}, false},
		{"stepped and reversed", Of(3, 2), []int{-6, 2}, false},
		{"broadcast", Of(3, 4), []int{0, 1}, true},
		{"strides (1,1)", Of(2, 4), []int{1, 1}, true},
		{"interleaved but distinct", Of(3, 2), []int{2, 3}, false},
		{"size-1 dimension with stride 0", Of(1, 4), []int{0, 1}, false},
		{"empty", Of(0, 4), []int{0, 0}, false},
		{"large, overlapping, past the listing limit", Of(300, 300), []int{1, 2}, true},
		{"large, distinct, outside the nested class, past the listing limit (refused)", Of(300, 301), []int{301, 300}, true},
	}
	for _, tt := range tests {
		if got := InternalOverlap(tt.s, tt.strides); got != tt.want {
			t.Errorf("%s: InternalOverlap(%v, %v) = %v, want %v", tt.name, tt.s, tt.strides, got, tt.want)
		}
	}
	err := CheckWritable("Assign", Of(3, 4), []int{0, 1})
	var ae *ArgumentError
	if !errors.As(err, &ae) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "dimension 0 is broadcast") {
		t.Errorf("CheckWritable of a broadcast view: %v", err)
	}
	if err := CheckWritable("Assign", Of(2, 4), []int{1, 1}); err == nil || !strings.Contains(err.Error(), "(1,1)") {
		t.Errorf("CheckWritable of strides (1,1): %v", err)
	}
	if err := CheckWritable("Assign", Of(2, 4), []int{4, 1}); err != nil {
		t.Errorf("CheckWritable of a contiguous view: %v", err)
	}
}
