//go:build !(386 || arm || mips || mipsle)

// The cases in this file are written at the bounds of a 64-bit int (2^40,
// 2^62, MaxInt64) and their messages name those values, so they need one;
// on 32-bit machines the portable tests (the size rule at this int's own
// bounds) run instead, and TestSizeBounds64 says that these were skipped.

package shape

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const p40, p62 = 1 << 40, 1 << 62

// TestSizeRule checks the one rule for a valid shape (the product of the
// non-zero sizes fits in an int, no size is negative) in Size and Bytes,
// against the exact product.
func TestSizeRule(t *testing.T) {
	tests := []struct {
		name     string
		s        Shape
		itemsize int
		size     int   // want, when kind is nil
		bytes    int   // want, when bytesKind is nil
		kind     error // Size's error kind
		bytesErr error // Bytes' error kind
	}{
		{"scalar", Shape{}, 8, 1, 8, nil, nil},
		{"plain", Shape{2, 3, 4}, 4, 24, 96, nil, nil},
		{"zero", Shape{3, 0, 2}, 8, 0, 0, nil, nil},
		{"largest", Shape{math.MaxInt/2 + 0, 2}, 1, math.MaxInt - 1, math.MaxInt - 1, nil, nil},
		{"largest bytes overflow", Shape{math.MaxInt / 2, 2}, 2, math.MaxInt - 1, 0, nil, ErrOverflow},
		{"product overflows", Shape{p40, p40}, 8, 0, 0, ErrOverflow, ErrOverflow},
		{"zero hides an overflow", Shape{0, p62, p62}, 8, 0, 0, ErrOverflow, ErrOverflow},
		{"zero last hides an overflow", Shape{p62, 4, 0}, 1, 0, 0, ErrOverflow, ErrOverflow},
		{"zero, bytes overflow", Shape{1 << 61, 0}, 8, 0, 0, nil, ErrOverflow},
		{"zero, bytes fit", Shape{1 << 59, 0}, 8, 0, 0, nil, nil},
		{"negative", Shape{2, -3}, 8, 0, 0, ErrInvalid, ErrInvalid},
		{"MaxInt", Shape{math.MaxInt}, 1, math.MaxInt, math.MaxInt, nil, nil},
		{"MaxInt twice", Shape{math.MaxInt, 2}, 1, 0, 0, ErrOverflow, ErrOverflow},
		{"MinInt", Shape{math.MinInt}, 1, 0, 0, ErrInvalid, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := tt.s.Size()
			if !errors.Is(err, tt.kind) || (tt.kind == nil) != (err == nil) {
				t.Fatalf("Size() = %d, %v; want kind %v", n, err, tt.kind)
			}
			if err == nil && (n != tt.size || !exactProduct(tt.s).IsInt64() || exactProduct(tt.s).Int64() != int64(n)) {
				t.Errorf("Size() = %d, want %d (exact %v)", n, tt.size, exactProduct(tt.s))
			}
			var oe *OverflowError
			if errors.As(err, &oe) && (!oe.Shape.Equal(tt.s) || oe.Op != "Shape.Size") {
				t.Errorf("OverflowError does not name the shape: %+v", oe)
			}
			nb, err := tt.s.Bytes(tt.itemsize)
			if !errors.Is(err, tt.bytesErr) || (tt.bytesErr == nil) != (err == nil) {
				t.Fatalf("Bytes(%d) = %d, %v; want kind %v", tt.itemsize, nb, err, tt.bytesErr)
			}
			if err == nil && nb != tt.bytes {
				t.Errorf("Bytes(%d) = %d, want %d", tt.itemsize, nb, tt.bytes)
			}
		})
	}
}

func exactProduct(s Shape) *big.Int {
	p := big.NewInt(1)
	for _, d := range s {
		p.Mul(p, big.NewInt(int64(d)))
	}
	return p
}

// TestBroadcastOverflow checks that a broadcast whose result breaks the size
// rule is an OverflowError naming the result and every operand, never a
// wrapped size.
func TestBroadcastOverflow(t *testing.T) {
	tests := []struct {
		name   string
		shapes []Shape
		kind   error
		msg    string
	}{
		{"2^40 by 2^40", []Shape{{p40, 1}, {1, p40}}, ErrOverflow,
			"laze: Broadcast: element count of shape (1099511627776,1099511627776) (broadcasting (1099511627776,1) and (1,1099511627776)) overflows int"},
		{"zero does not hide it", []Shape{{0, 1, 1}, {p62, 1}, {p62}}, ErrOverflow,
			"laze: Broadcast: element count of shape (0,4611686018427387904,4611686018427387904) (broadcasting (0,1,1) and (4611686018427387904,1) and (4611686018427387904,)) overflows int"},
		{"negative", []Shape{{-1}, {1}}, ErrInvalid, "laze: Broadcast: dim 0 = -1: a dimension size must not be negative"},
		{"mismatch first", []Shape{{p40, 2}, {p40, 3}}, ErrBroadcast, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Broadcast(tt.shapes...)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("Broadcast = %v, %v; want kind %v", out, err, tt.kind)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message\n got %s\nwant %s", err, tt.msg)
			}
			var oe *OverflowError
			if errors.As(err, &oe) {
				if diff := cmp.Diff(tt.shapes, oe.Inputs); diff != "" {
					t.Errorf("Inputs (-want +got):\n%s", diff)
				}
			}
		})
	}
	if _, err := BroadcastStrides(Shape{1, 1}, []int{1, 1}, Shape{p40, p40}); !errors.Is(err, ErrOverflow) {
		t.Errorf("BroadcastStrides to (2^40,2^40): %v", err)
	}
	if _, err := BroadcastStrides(Shape{1}, []int{1}, Shape{0, p62, p62}); !errors.Is(err, ErrOverflow) {
		t.Errorf("BroadcastStrides to (0,2^62,2^62): %v", err)
	}
}

// TestCheckedArithmetic compares CheckedMul, CheckedAdd and CheckedExtent
// with exact big.Int arithmetic over extreme values.
func TestCheckedArithmetic(t *testing.T) {
	vals := []int{0, 1, -1, 2, -2, 3, math.MaxInt, math.MinInt, math.MaxInt / 2, math.MinInt / 2,
		math.MaxInt/2 + 1, 1 << 31, -(1 << 31), 1 << 32, p62, -p62, 3037000499, 3037000500}
	minI, maxI := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	fits := func(v *big.Int) bool { return v.Cmp(minI) >= 0 && v.Cmp(maxI) <= 0 }
	for _, a := range vals {
		for _, b := range vals {
			want := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
			got, ok := CheckedMul(a, b)
			if ok != fits(want) || (ok && int64(got) != want.Int64()) {
				t.Errorf("CheckedMul(%d, %d) = %d, %v; exact %v", a, b, got, ok, want)
			}
			want.Add(big.NewInt(int64(a)), big.NewInt(int64(b)))
			got, ok = CheckedAdd(a, b)
			if ok != fits(want) || (ok && int64(got) != want.Int64()) {
				t.Errorf("CheckedAdd(%d, %d) = %d, %v; exact %v", a, b, got, ok, want)
			}
		}
	}
	extents := []struct {
		s           Shape
		strides     []int
		offset      int
		first, last int
		ok          bool
		kind        error
	}{
		{Shape{2, 3}, []int{3, 1}, 0, 0, 5, true, nil},
		{Shape{2, 3}, []int{-3, 1}, 3, 0, 5, true, nil},
		{Shape{2, 2}, []int{math.MaxInt, 1}, 5, 0, 0, false, ErrOverflow},
		{Shape{2}, []int{1}, math.MaxInt, 0, 0, false, ErrOverflow},
		{Shape{2}, []int{math.MinInt}, 0, math.MinInt, 0, true, nil},
		{Shape{3}, []int{math.MinInt}, 0, 0, 0, false, ErrOverflow},
		{Shape{2, 2}, []int{math.MinInt / 2, math.MinInt / 2}, 0, math.MinInt, 0, true, nil},
		{Shape{2, 2}, []int{math.MinInt / 2, math.MinInt / 2}, -1, 0, 0, false, ErrOverflow},
		{Shape{0, 5}, []int{1, math.MaxInt}, math.MaxInt, 0, 0, false, nil},
	}
	for _, e := range extents {
		first, last, ok, err := CheckedExtent("X", e.s, e.strides, e.offset)
		if !errors.Is(err, e.kind) || (e.kind == nil) != (err == nil) || ok != e.ok || (ok && (first != e.first || last != e.last)) {
			t.Errorf("CheckedExtent(%v, %v, %d) = %d, %d, %v, %v; want %d, %d, %v, %v",
				e.s, e.strides, e.offset, first, last, ok, err, e.first, e.last, e.ok, e.kind)
		}
	}
}

// TestIsContiguousOverflow: a shape the size rule refuses is never reported
// contiguous through a wrapped product.
func TestIsContiguousOverflow(t *testing.T) {
	// Strides (0, 2^62, 1)·… would match a wrapped running product.
	s := Shape{4, p62, 1 << 2}
	strides := []int{0, 4, 1} // 4·2^62 wraps to 0
	if IsContiguous(s, strides, RowMajor) {
		t.Errorf("IsContiguous(%v, %v) = true through an overflow", s, strides)
	}
}
