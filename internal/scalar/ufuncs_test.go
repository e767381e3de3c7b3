package scalar

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTwoOperandFunctions checks the helpers behind fmax, fmin, fmod,
// logaddexp, logaddexp2, heaviside and nextafter in float64 and float32,
// at NumPy's values (NaN rules, signed zeros, infinities, domain edges).
func TestTwoOperandFunctions(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	tests := []struct {
		name string
		f64  func(a, b float64) float64
		f32  func(a, b float32) float32
		a, b float64
		want float64
	}{
		{"fmax", Fmax[float64], Fmax[float32], 1, 2, 2},
		{"fmax", Fmax[float64], Fmax[float32], nan, 2, 2},
		{"fmax", Fmax[float64], Fmax[float32], 2, nan, 2},
		{"fmax", Fmax[float64], Fmax[float32], nan, nan, nan},
		{"fmax", Fmax[float64], Fmax[float32], 0, nz, nz},
		{"fmin", Fmin[float64], Fmin[float32], 1, 2, 1},
		{"fmin", Fmin[float64], Fmin[float32], nan, 2, 2},
		{"fmin", Fmin[float64], Fmin[float32], -inf, nan, -inf},
		{"fmod", Fmod[float64], Fmod[float32], -7.5, 2, -1.5},
		{"fmod", Fmod[float64], Fmod[float32], 5, 0, nan},
		{"fmod", Fmod[float64], Fmod[float32], 5, inf, 5},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], 0, 0, math.Ln2},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], -inf, -inf, -inf},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], inf, -inf, inf},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], 3, -inf, 3},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], -inf, 3, 3},
		{"logaddexp", LogAddExp[float64], LogAddExp[float32], nan, 1, nan},
		{"logaddexp2", LogAddExp2[float64], LogAddExp2[float32], 3, 3, 4},
		{"logaddexp2", LogAddExp2[float64], LogAddExp2[float32], 1, -inf, 1},
		{"logaddexp2", LogAddExp2[float64], LogAddExp2[float32], -inf, 1, 1},
		{"logaddexp2", LogAddExp2[float64], LogAddExp2[float32], 1, nan, nan},
		{"heaviside", Heaviside[float64], Heaviside[float32], -2, 0.5, 0},
		{"heaviside", Heaviside[float64], Heaviside[float32], 2, 0.5, 1},
		{"heaviside", Heaviside[float64], Heaviside[float32], nz, 0.5, 0.5},
		{"heaviside", Heaviside[float64], Heaviside[float32], nan, 0.5, nan},
		{"nextafter", Nextafter[float64], Nextafter[float32], 1, 1, 1},
		{"nextafter", Nextafter[float64], Nextafter[float32], 0, -1, -5e-324},
		{"nextafter", Nextafter[float64], Nextafter[float32], nan, 1, nan},
	}
	var got64, want64 []float64
	var got32, want32 []float32
	for _, tt := range tests {
		got64, want64 = append(got64, tt.f64(tt.a, tt.b)), append(want64, tt.want)
		w32 := float32(tt.want)
		if tt.name == "nextafter" && tt.want == -5e-324 {
			w32 = -math.SmallestNonzeroFloat32 // the next float32, not float64
		}
		got32, want32 = append(got32, tt.f32(float32(tt.a), float32(tt.b))), append(want32, w32)
	}
	signed := cmp.Comparer(func(x, y float64) bool {
		return x == y && math.Signbit(x) == math.Signbit(y) || x != x && y != y
	})
	if diff := cmp.Diff(want64, got64, signed); diff != "" {
		t.Errorf("float64 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want32, got32, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("float32 (-want +got):\n%s", diff)
	}
}

// TestOneOperandReferences checks the functions whose references are not
// Go's math (docs/design.md): within an ulp of the true value (60-digit
// decimal arithmetic; NumPy and CUDA agree) where Go's function is far off,
// and the special values exactly. Float32 results are the float64 ones
// rounded.
func TestOneOperandReferences(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	tests := []struct {
		name string
		f64  func(float64) float64
		f32  func(float32) float32
		x    float64
		want float64
	}{
		{"log2", Log2[float64], Log2[float32], 1.0000009279968451, 1.3388158252442355e-06}, // math.Log2: 196,778 ulp off
		{"log2", Log2[float64], Log2[float32], 8, 3},
		{"log2", Log2[float64], Log2[float32], 0.5, -1},
		{"log2", Log2[float64], Log2[float32], 5e-324, -1074},
		{"log2", Log2[float64], Log2[float32], 0, -inf},
		{"log2", Log2[float64], Log2[float32], -1, nan},
		{"log2", Log2[float64], Log2[float32], inf, inf},
		{"arccos", Acos[float64], Acos[float32], 0.9988719712549543, 0.04750243959357956}, // math.Acos: 51 ulp off
		{"arccos", Acos[float64], Acos[float32], -0.9988719712549543, 3.0940902139962136},
		{"arccos", Acos[float64], Acos[float32], 1, 0},
		{"arccos", Acos[float64], Acos[float32], -1, math.Pi},
		{"arccos", Acos[float64], Acos[float32], 0, math.Pi / 2},
		{"arccos", Acos[float64], Acos[float32], 1.0000000000000002, nan},
		{"arccos", Acos[float64], Acos[float32], nan, nan},
		{"cosh", Cosh[float64], Cosh[float32], 710, 1.1169973830808555e+308}, // math.Cosh: +Inf
		{"cosh", Cosh[float64], Cosh[float32], -709.79, 9.054204815152345e+307},
		{"cosh", Cosh[float64], Cosh[float32], 710.5, inf},
		{"cosh", Cosh[float64], Cosh[float32], 1, 1.5430806348152437},
		{"cosh", Cosh[float64], Cosh[float32], nan, nan},
		{"sinh", Sinh[float64], Sinh[float32], -710, -1.1169973830808555e+308},
		{"sinh", Sinh[float64], Sinh[float32], 710.5, inf},
		{"sinh", Sinh[float64], Sinh[float32], nz, nz},
		{"sinh", Sinh[float64], Sinh[float32], -inf, -inf},
	}
	for _, tt := range tests {
		if got := tt.f64(tt.x); !withinULP(got, tt.want) {
			t.Errorf("float64 %s(%v) = %v, want %v", tt.name, tt.x, got, tt.want)
		}
		if got, want := tt.f32(float32(tt.x)), float32(tt.f64(float64(float32(tt.x)))); got != want && (got == got || want == want) {
			t.Errorf("float32 %s(%v) = %v, want %v (the float64 result rounded)", tt.name, float32(tt.x), got, want)
		}
	}
}

// withinULP reports whether got is want (the same special value, a NaN
// matching a NaN) or a finite value within an ulp of it.
func withinULP(got, want float64) bool {
	if want != want || got != got {
		return want != want && got != got
	}
	if math.IsInf(want, 0) || want == 0 {
		return got == want && math.Signbit(got) == math.Signbit(want)
	}
	return got == want || math.Nextafter(want, got) == got
}

// TestFmodIntegers checks C's truncated remainder on integers, with
// NumPy's 0 for a zero divisor and 0 for the most negative value by -1
// (where the quotient overflows).
func TestFmodIntegers(t *testing.T) {
	got := []int64{Fmod[int64](-7, 2), Fmod[int64](7, -2), Fmod[int64](7, 0), Fmod[int64](math.MinInt64, -1)}
	if diff := cmp.Diff([]int64{-1, 1, 0, 0}, got); diff != "" {
		t.Errorf("int64 (-want +got):\n%s", diff)
	}
	got8 := []int8{Fmod[int8](-128, -1), Fmod[int8](-128, 3), Fmax[int8](-128, 127), Fmin[int8](-128, 127)}
	if diff := cmp.Diff([]int8{0, -2, 127, -128}, got8); diff != "" {
		t.Errorf("int8 (-want +got):\n%s", diff)
	}
	if got := Fmod[uint8](250, 7); got != 5 {
		t.Errorf("uint8 fmod(250, 7) = %d, want 5", got)
	}
}
