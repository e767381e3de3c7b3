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
