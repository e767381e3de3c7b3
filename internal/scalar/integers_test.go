package scalar

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIntegerFunctions checks the bitwise, shift, gcd and lcm helpers in
// int8, uint8 and int64 at NumPy 1.24's values: shift counts negative, at
// and past the width, the most negative value's magnitude.
func TestIntegerFunctions(t *testing.T) {
	type row struct {
		name       string
		a, b, want int64
	}
	int8s := []row{
		{"invert", 5, 0, -6}, {"invert", -128, 0, 127},
		{"and", -12, 10, 0}, {"or", -128, 127, -1}, {"xor", -1, 12, -13},
		{"lshift", 1, 7, -128}, {"lshift", -1, 3, -8}, {"lshift", 5, 8, 0}, {"lshift", 5, -1, 0},
		{"rshift", -128, 3, -16}, {"rshift", -128, 8, -1}, {"rshift", 5, 100, 0}, {"rshift", -1, -1, -1}, {"rshift", 127, 6, 1},
		{"gcd", -128, 0, -128}, {"gcd", -128, 6, 2}, {"gcd", 12, -18, 6}, {"gcd", 0, 0, 0},
		{"lcm", 100, 3, 44}, {"lcm", -128, 3, -128}, {"lcm", 0, 5, 0}, {"lcm", -4, 6, 12},
	}
	uint8s := []row{
		{"invert", 200, 0, 55}, {"lshift", 200, 3, 64}, {"lshift", 1, 8, 0}, {"rshift", 200, 3, 25}, {"rshift", 255, 8, 0},
		{"gcd", 200, 150, 50}, {"lcm", 200, 3, 88}, {"and", 200, 56, 8}, {"or", 200, 56, 248}, {"xor", 255, 15, 240},
	}
	int64s := []row{
		{"lshift", 1, 63, math.MinInt64}, {"lshift", 1, 64, 0}, {"rshift", math.MinInt64, 63, -1}, {"rshift", math.MinInt64, 64, -1},
		{"gcd", math.MinInt64, math.MinInt64, math.MinInt64}, {"gcd", math.MinInt64, 6, 2}, {"lcm", math.MinInt64, 3, math.MinInt64},
		{"invert", math.MaxInt64, 0, math.MinInt64},
	}
	run := func(t *testing.T, rows []row, f func(name string, a, b int64) int64) {
		for _, r := range rows {
			if got := f(r.name, r.a, r.b); got != r.want {
				t.Errorf("%s(%d, %d) = %d, want %d", r.name, r.a, r.b, got, r.want)
			}
		}
	}
	run(t, int8s, func(name string, a, b int64) int64 { return int64(integerOp(name, int8(a), int8(b))) })
	run(t, uint8s, func(name string, a, b int64) int64 { return int64(integerOp(name, uint8(a), uint8(b))) })
	run(t, int64s, func(name string, a, b int64) int64 { return integerOp(name, a, b) })
}

func integerOp[T int8 | uint8 | int64](name string, a, b T) T {
	switch name {
	case "invert":
		return Invert(a)
	case "and":
		return BitwiseAnd(a, b)
	case "or":
		return BitwiseOr(a, b)
	case "xor":
		return BitwiseXor(a, b)
	case "lshift":
		return LeftShift(a, b)
	case "rshift":
		return RightShift(a, b)
	case "gcd":
		return Gcd(a, b)
	}
	return Lcm(a, b)
}

// TestFloatHelpers checks signbit, spacing and ldexp in both widths at
// NumPy's values.
func TestFloatHelpers(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	negNaN := math.Copysign(nan, -1)
	signs := []float64{0, nz, -2, inf, -inf, nan, negNaN}
	var got64, got32 []bool
	for _, v := range signs {
		got64 = append(got64, Signbit(v))
		got32 = append(got32, Signbit(float32(v)))
	}
	wantSigns := []bool{false, true, true, false, true, false, true}
	if diff := cmp.Diff(wantSigns, got64); diff != "" {
		t.Errorf("Signbit float64 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSigns, got32); diff != "" {
		t.Errorf("Signbit float32 (-want +got):\n%s", diff)
	}
	if Signbit(int8(-1)) != true || Signbit(int8(0)) != false {
		t.Error("Signbit of integers is not x < 0")
	}
	spacings := []struct{ x, want64, want32 float64 }{
		{0, 5e-324, 0x1p-149}, {nz, 5e-324, 0x1p-149}, {1, 0x1p-52, 0x1p-23}, {-1, -0x1p-52, -0x1p-23},
		{inf, nan, nan}, {nan, nan, nan}, {math.MaxFloat64, inf, nan}, {math.MaxFloat32, 0x1p75, inf},
	}
	for _, s := range spacings {
		if got := Spacing(s.x); !same(got, s.want64) {
			t.Errorf("Spacing(%v) = %v, want %v", s.x, got, s.want64)
		}
		if got := Spacing(float32(s.x)); !same(float64(got), s.want32) {
			t.Errorf("Spacing(float32(%v)) = %v, want %v", s.x, got, s.want32)
		}
	}
	ldexps := []struct{ x, n, want64, want32 float64 }{
		{3, 2, 12, 12}, {1, -1074, 5e-324, 0}, {1, -150, 0x1p-150, 0}, {1, -149, 0x1p-149, 0x1p-149},
		{1.5, 2.7, 6, 6}, {1.5, -2.7, 0.375, 0.375}, {1, nan, nan, nan}, {1, 1e10, inf, inf}, {1, -1e10, 0, 0}, {-1, 1024, -inf, -inf},
	}
	for _, l := range ldexps {
		if got := Ldexp(l.x, l.n); !same(got, l.want64) {
			t.Errorf("Ldexp(%v, %v) = %v, want %v", l.x, l.n, got, l.want64)
		}
		if got := Ldexp(float32(l.x), float32(l.n)); !same(float64(got), l.want32) {
			t.Errorf("Ldexp(float32(%v), %v) = %v, want %v", l.x, l.n, got, l.want32)
		}
	}
}
