package scalar

import (
	"math"
	"testing"
)

// same reports whether got and want are the same float64, NaN equal to NaN
// and -0 told apart from +0.
func same(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return got == want && math.Signbit(got) == math.Signbit(want)
}

// TestRoundingFloat checks Floor, Ceil, Trunc and Rint against NumPy's
// documented results, special values included.
func TestRoundingFloat(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	tests := []struct {
		x                        float64
		floor, ceil, trunc, rint float64
	}{
		{2.5, 2, 3, 2, 2},
		{3.5, 3, 4, 3, 4},
		{-0.5, -1, negZero, negZero, negZero},
		{-1.5, -2, -1, -1, -2},
		{0.3, 0, 1, 0, 0},
		{negZero, negZero, negZero, negZero, negZero},
		{1 << 53, 1 << 53, 1 << 53, 1 << 53, 1 << 53},
		{inf, inf, inf, inf, inf},
		{-inf, -inf, -inf, -inf, -inf},
		{nan, nan, nan, nan, nan},
	}
	for _, tc := range tests {
		got := [4]float64{Floor(tc.x), Ceil(tc.x), Trunc(tc.x), Rint(tc.x)}
		want := [4]float64{tc.floor, tc.ceil, tc.trunc, tc.rint}
		for i, name := range []string{"floor", "ceil", "trunc", "rint"} {
			if !same(got[i], want[i]) {
				t.Errorf("%s(%v) = %v, want %v", name, tc.x, got[i], want[i])
			}
		}
		if g := float64(Rint(float32(tc.x))); !same(g, float64(float32(tc.rint))) {
			t.Errorf("rint(float32(%v)) = %v, want %v", tc.x, g, float32(tc.rint))
		}
	}
	for _, x := range []int32{-7, 0, 7} {
		if Floor(x) != x || Ceil(x) != x || Trunc(x) != x || Rint(x) != x {
			t.Errorf("rounding int32 %d did not give it back", x)
		}
	}
}

// TestSignReciprocalClasses checks Sign, Reciprocal, IsFinite, IsInf and
// Log's subnormal path against worked values.
func TestSignReciprocalClasses(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct{ x, sign, recip float64 }{
		{3, 1, 1.0 / 3}, {-2, -1, -0.5}, {0, 0, inf}, {negZero, 0, -inf}, {inf, 1, 0}, {-inf, -1, negZero}, {nan, nan, nan},
	} {
		if g := Sign(tc.x); !same(g, tc.sign) {
			t.Errorf("sign(%v) = %v, want %v", tc.x, g, tc.sign)
		}
		if g := Reciprocal(tc.x); !same(g, tc.recip) {
			t.Errorf("reciprocal(%v) = %v, want %v", tc.x, g, tc.recip)
		}
	}
	for _, tc := range []struct{ x, sign, recip int8 }{
		{1, 1, 1}, {-1, -1, -1}, {2, 1, 0}, {-128, -1, 0}, {0, 0, 0},
	} {
		if g := Sign(tc.x); g != tc.sign {
			t.Errorf("sign(int8 %d) = %d, want %d", tc.x, g, tc.sign)
		}
		if g := Reciprocal(tc.x); g != tc.recip {
			t.Errorf("reciprocal(int8 %d) = %d, want %d", tc.x, g, tc.recip)
		}
	}
	if Sign(uint8(200)) != 1 || Reciprocal(uint8(1)) != 1 || Reciprocal(uint8(255)) != 0 {
		t.Error("unsigned sign or reciprocal wrong")
	}
	for _, tc := range []struct {
		x             float64
		finite, isInf bool
	}{{1, true, false}, {inf, false, true}, {-inf, false, true}, {nan, false, false}} {
		if IsFinite(tc.x) != tc.finite || IsInf(tc.x) != tc.isInf {
			t.Errorf("isfinite/isinf(%v) = %v/%v, want %v/%v", tc.x, IsFinite(tc.x), IsInf(tc.x), tc.finite, tc.isInf)
		}
	}
	if !IsFinite(int64(math.MaxInt64)) || IsInf(int64(math.MaxInt64)) {
		t.Error("integers must be finite and never infinite")
	}
	if got, want := Log(5e-324), -744.4400719213812; math.Abs(got-want) > 1e-12 {
		t.Errorf("log(5e-324) = %v, want %v", got, want)
	}
	if got := Log(math.E); got != 1 {
		t.Errorf("log(e) = %v, want 1", got)
	}
}
