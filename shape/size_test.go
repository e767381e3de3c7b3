package shape

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// TestMemoryError checks the new error's kind, fields and NumPy-like
// message.
func TestMemoryError(t *testing.T) {
	cause := errors.New("CUDA_ERROR_OUT_OF_MEMORY")
	tests := []struct {
		err  *MemoryError
		want string
	}{
		{&MemoryError{Op: "New", Bytes: 80_000_000_000, Limit: 16 << 30, Reason: "above the limit",
			Shape: Shape{100000, 100000}, DType: "float64"},
			"laze: New: unable to allocate 74.5 GiB for an array with shape (100000,100000) and data type float64: above the limit"},
		{&MemoryError{Op: "Caching.Alloc", Bytes: 1 << 49, Reason: "too large"},
			"laze: Caching.Alloc: unable to allocate 512. TiB (562949953421312 bytes): too large"},
		{&MemoryError{Op: "Alloc", Bytes: 100, Err: cause, Reason: cause.Error()},
			"laze: Alloc: unable to allocate 100 bytes (100 bytes): CUDA_ERROR_OUT_OF_MEMORY"},
		{&MemoryError{Op: "New", Bytes: 8, Shape: Shape{}, DType: "int64"},
			"laze: New: unable to allocate 8 bytes for an array with shape () and data type int64"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("message\n got %s\nwant %s", got, tt.want)
		}
		var me *MemoryError
		if !errors.Is(tt.err, ErrMemory) || !errors.As(error(tt.err), &me) || errors.Is(tt.err, ErrOverflow) {
			t.Errorf("%v: kind", tt.err)
		}
	}
	if !errors.Is(tests[2].err, cause) {
		t.Errorf("MemoryError does not unwrap to its cause")
	}
	sizes := map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1.00 KiB", 1536: "1.50 KiB",
		1<<20 - 1: "1.00 MiB", 80_000_000_000: "74.5 GiB", 1 << 49: "512. TiB", math.MaxInt64: "8.00 EiB"}
	for n, want := range sizes {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestOverflowErrorMessage covers the fields added to OverflowError.
func TestOverflowErrorMessage(t *testing.T) {
	tests := []struct {
		err  *OverflowError
		want string
	}{
		{&OverflowError{Op: "New", Shape: Shape{1 << 29}, What: "byte count", DType: "float64"},
			"laze: New: byte count of shape (536870912,) and dtype float64 overflows int"},
		{&OverflowError{Op: "Arange", What: "length ceil((stop-start)/step) = 1e+600 for start=0, stop=1, step=1e-600"},
			"laze: Arange: length ceil((stop-start)/step) = 1e+600 for start=0, stop=1, step=1e-600 overflows int"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("message\n got %s\nwant %s", got, tt.want)
		}
	}
}

// TestSizeRuleAtIntBounds checks the size rule at the bounds of this
// machine's int, whatever its width (size64_test.go holds the cases written
// for a 64-bit int): the largest shapes that fit, the first that do not, and
// zeros that do not hide an overflow; CheckedMul and CheckedAdd against exact
// arithmetic at the same bounds.
func TestSizeRuleAtIntBounds(t *testing.T) {
	half, quarter := math.MaxInt/2+1, math.MaxInt/4+1 // 2^62 and 2^61, or 2^30 and 2^29
	tests := []struct {
		s               Shape
		itemsize        int
		sizeOK, bytesOK bool
		size, bytes     int
	}{
		{Shape{math.MaxInt}, 1, true, true, math.MaxInt, math.MaxInt},
		{Shape{math.MaxInt / 2, 2}, 1, true, true, math.MaxInt - 1, math.MaxInt - 1},
		{Shape{math.MaxInt / 2, 2}, 2, true, false, math.MaxInt - 1, 0},
		{Shape{half, 2}, 1, false, false, 0, 0},
		{Shape{0, half, half}, 8, false, false, 0, 0},
		{Shape{quarter, 0}, 8, true, false, 0, 0},
		{Shape{quarter / 4, 0}, 8, true, true, 0, 0},
		{Shape{quarter / 4, 8}, 1, true, true, half, half},
	}
	for _, tt := range tests {
		n, err := tt.s.Size()
		var oe *OverflowError
		if tt.sizeOK != (err == nil) || (err == nil && n != tt.size) || (err != nil && (!errors.As(err, &oe) || !oe.Shape.Equal(tt.s))) {
			t.Errorf("%v.Size() = %d, %v; want %d (fits: %v)", tt.s, n, err, tt.size, tt.sizeOK)
		}
		nb, err := tt.s.Bytes(tt.itemsize)
		if tt.bytesOK != (err == nil) || (err == nil && nb != tt.bytes) || (err != nil && !errors.Is(err, ErrOverflow)) {
			t.Errorf("%v.Bytes(%d) = %d, %v; want %d (fits: %v)", tt.s, tt.itemsize, nb, err, tt.bytes, tt.bytesOK)
		}
	}
	if _, err := Broadcast(Shape{half, 1}, Shape{1, half}); !errors.Is(err, ErrOverflow) {
		t.Errorf("Broadcast (%d,1) with (1,%d): %v, want an OverflowError", half, half, err)
	}
	vals := []int{0, 1, -1, 2, -2, 3, math.MaxInt, math.MinInt, math.MaxInt / 2, math.MinInt / 2, half, -half, quarter, -quarter}
	minI, maxI := big.NewInt(math.MinInt), big.NewInt(math.MaxInt)
	fits := func(v *big.Int) bool { return v.Cmp(minI) >= 0 && v.Cmp(maxI) <= 0 }
	for _, a := range vals {
		for _, b := range vals {
			want := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
			if got, ok := CheckedMul(a, b); ok != fits(want) || (ok && int64(got) != want.Int64()) {
				t.Errorf("CheckedMul(%d, %d) = %d, %v; exact %v", a, b, got, ok, want)
			}
			want.Add(big.NewInt(int64(a)), big.NewInt(int64(b)))
			if got, ok := CheckedAdd(a, b); ok != fits(want) || (ok && int64(got) != want.Int64()) {
				t.Errorf("CheckedAdd(%d, %d) = %d, %v; exact %v", a, b, got, ok, want)
			}
		}
	}
}
