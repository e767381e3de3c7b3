package scalar

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The expected values are NumPy's (floor_divide, remainder, power, abs,
// maximum, minimum, where), worked out by hand from its documented rules.

func TestIntegerDivision(t *testing.T) {
	tests := []struct {
		a, b, div, mod int64
	}{
		{7, 2, 3, 1},
		{-7, 2, -4, 1},
		{7, -2, -4, -1},
		{-7, -2, 3, -1},
		{6, 3, 2, 0},
		{-6, 3, -2, 0},
		{0, 5, 0, 0},
		{7, 0, 0, 0}, // NumPy gives 0 (with a warning) for integer division by zero
		{math.MinInt64, -1, math.MinInt64, 0},
	}
	for _, tt := range tests {
		if got := Div(tt.a, tt.b); got != tt.div {
			t.Errorf("Div(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.div)
		}
		if got := Mod(tt.a, tt.b); got != tt.mod {
			t.Errorf("Mod(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.mod)
		}
		if tt.b != 0 && Div(tt.a, tt.b)*tt.b+Mod(tt.a, tt.b) != tt.a {
			t.Errorf("Div and Mod of (%d, %d) do not recombine", tt.a, tt.b)
		}
	}
}

func TestUnsignedDivision(t *testing.T) {
	got := []uint8{Div[uint8](7, 2), Mod[uint8](7, 2), Div[uint8](255, 16), Mod[uint8](255, 16), Div[uint8](3, 0), Mod[uint8](3, 0)}
	want := []uint8{3, 1, 15, 15, 0, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("uint8 Div/Mod (-want +got):\n%s", diff)
	}
}

func TestFloatDivision(t *testing.T) {
	tests := []struct {
		a, b, div, mod float64
	}{
		{7, 2, 3.5, 1},
		{-7.5, 2, -3.75, 0.5},
		{7.5, -2, -3.75, -0.5},
		{-7.5, -2, 3.75, -1.5},
		{1, 0, math.Inf(1), math.NaN()},
		{-1, 0, math.Inf(-1), math.NaN()},
		{0, 0, math.NaN(), math.NaN()},
	}
	opt := cmpopts.EquateNaNs()
	for _, tt := range tests {
		if got := Div(tt.a, tt.b); !cmp.Equal(got, tt.div, opt) {
			t.Errorf("Div(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.div)
		}
		if got := Mod(tt.a, tt.b); !cmp.Equal(got, tt.mod, opt) {
			t.Errorf("Mod(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.mod)
		}
	}
	if got := Mod[float32](-7.5, 2); got != 0.5 {
		t.Errorf("float32 Mod(-7.5, 2) = %v, want 0.5", got)
	}
}

func TestPow(t *testing.T) {
	ints := []struct{ a, b, want int64 }{
		{2, 10, 1024},
		{-3, 3, -27},
		{-3, 2, 9},
		{0, 0, 1},
		{5, 0, 1},
		{0, 3, 0},
		{2, -1, 0},
		{1, -5, 1},
		{-1, -3, -1},
		{-1, -2, 1},
		{7, -2, 0},
	}
	for _, tt := range ints {
		if got := Pow(tt.a, tt.b); got != tt.want {
			t.Errorf("Pow(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := Pow[int8](2, 7); got != -128 {
		t.Errorf("int8 Pow(2, 7) = %d, want -128 (wraps)", got)
	}
	if got := Pow[uint8](3, 5); got != 243 {
		t.Errorf("uint8 Pow(3, 5) = %d, want 243", got)
	}
	if got := Pow(2.0, 0.5); got != math.Sqrt2 {
		t.Errorf("Pow(2, 0.5) = %v, want √2", got)
	}
	if got := Pow(-8.0, 1.0/3); !math.IsNaN(got) {
		t.Errorf("Pow(-8, 1/3) = %v, want NaN", got)
	}
}

func TestAbsReLU(t *testing.T) {
	if got := Abs[int8](-128); got != -128 {
		t.Errorf("Abs(int8 -128) = %d, want -128 (no positive counterpart)", got)
	}
	if got := Abs[int32](-5); got != 5 {
		t.Errorf("Abs(-5) = %d", got)
	}
	if got := Abs(math.Copysign(0, -1)); math.Signbit(got) {
		t.Errorf("Abs(-0) = %v, want +0", got)
	}
	if got := Abs[uint16](7); got != 7 {
		t.Errorf("Abs(uint16 7) = %d", got)
	}
	if got := ReLU(-3.5); got != 0 {
		t.Errorf("ReLU(-3.5) = %v", got)
	}
	if got := ReLU(math.NaN()); !math.IsNaN(got) {
		t.Errorf("ReLU(NaN) = %v, want NaN", got)
	}
	if got := ReLU[int64](4); got != 4 {
		t.Errorf("ReLU(4) = %d", got)
	}
}

func TestMaximumMinimumNaN(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		a, b, max, min float64
	}{
		{2, 3, 3, 2},
		{3, 2, 3, 2},
		{1, nan, nan, nan},
		{nan, 1, nan, nan},
		{math.Inf(-1), 0, 0, math.Inf(-1)},
	}
	opt := cmpopts.EquateNaNs()
	for _, tt := range tests {
		if got := Maximum(tt.a, tt.b); !cmp.Equal(got, tt.max, opt) {
			t.Errorf("Maximum(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.max)
		}
		if got := Minimum(tt.a, tt.b); !cmp.Equal(got, tt.min, opt) {
			t.Errorf("Minimum(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.min)
		}
	}
}

func TestWhereBool(t *testing.T) {
	got := []float64{Where(1.0, 10, 20), Where(0.0, 10, 20), Where(math.NaN(), 10, 20), Where(-2.0, 10, 20), Bool[float64](true), Bool[float64](false)}
	want := []float64{10, 20, 10, 10, 1, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Where/Bool (-want +got):\n%s", diff)
	}
}

// TestFloorDiv checks float floor division against Python's // (which NumPy's
// floor_divide follows), including the cases where floor(a/b) differs.
func TestFloorDiv(t *testing.T) {
	tests := []struct {
		a, b, want float64
	}{
		{7, 2, 3},
		{-7, 2, -4},
		{7, -2, -4},
		{-7.5, -2, 3},
		{1, 0.1, 9},    // floor(1/0.1) would be 10
		{-1, 0.1, -10}, // Python: -1 // 0.1 == -10.0
		{0.3, 0.1, 2},  // Python: 0.3 // 0.1 == 2.0
		{math.Copysign(0, -1), 5, math.Copysign(0, -1)},
		{0, -5, math.Copysign(0, -1)},
		{1, 0, math.Inf(1)},
		{-1, 0, math.Inf(-1)},
		{0, 0, math.NaN()},
		{math.Inf(1), 2, math.NaN()}, // fmod(inf, 2) is NaN, as in NumPy
	}
	for _, tt := range tests {
		got := FloorDiv(tt.a, tt.b)
		if !cmp.Equal(got, tt.want, cmpopts.EquateNaNs()) || (got == got && math.Signbit(got) != math.Signbit(tt.want)) {
			t.Errorf("FloorDiv(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if got := FloorDiv[float32](7, 2); got != 3 {
		t.Errorf("float32 FloorDiv(7, 2) = %v, want 3", got)
	}
	if got := FloorDiv[int16](-7, 2); got != -4 {
		t.Errorf("int16 FloorDiv(-7, 2) = %v, want -4", got)
	}
}
