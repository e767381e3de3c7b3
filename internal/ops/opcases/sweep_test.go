package opcases

import (
	"math"
	"testing"

	"github.com/laze-go/laze/internal/ops"
)

func TestULPDistance(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	nz := math.Copysign(0, -1)
	tests := []struct {
		name      string
		got, want float64
		wantD     uint64
	}{
		{"same", 1.5, 1.5, 0},
		{"next up", math.Nextafter(1, 2), 1, 1},
		{"three below", math.Nextafter(math.Nextafter(math.Nextafter(2, 0), 0), 0), 2, 3},
		{"across a binade", math.Nextafter(1, 0), math.Nextafter(1, 2), 2},
		{"NaN for NaN", nan, nan, 0},
		{"number for NaN", 1, nan, math.MaxUint64},
		{"NaN for a number", nan, 1, math.MaxUint64},
		{"-0 for +0", nz, 0, math.MaxUint64},
		{"tiny for 0", 5e-324, 0, math.MaxUint64},
		{"Inf for the largest", inf, math.MaxFloat64, math.MaxUint64},
		{"largest for Inf", math.MaxFloat64, inf, math.MaxUint64},
		{"other sign", -1, 1, math.MaxUint64},
	}
	for _, tt := range tests {
		if d := ULPDistance(tt.got, tt.want); d != tt.wantD {
			t.Errorf("%s: ULPDistance(%v, %v) = %d, want %d", tt.name, tt.got, tt.want, d, tt.wantD)
		}
	}
	if d := ULPDistance(float32(1.0000001), float32(1)); d != 1 {
		t.Errorf("float32 next up: %d ulp, want 1", d)
	}
}

func TestSweepCoversTheEdges(t *testing.T) {
	xs := Sweep()
	has := func(v float64) bool {
		for _, x := range xs {
			if x == v && math.Signbit(x) == math.Signbit(v) || x != x && v != v {
				return true
			}
		}
		return false
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, math.Inf(1), math.Inf(-1), math.NaN(), 1000, -1e6, 710, -710} {
		if !has(v) {
			t.Errorf("Sweep lacks %v", v)
		}
	}
	if g := SweepGrid(); len(g)*29 < len(xs) || len(g) > len(xs) {
		t.Errorf("SweepGrid has %d values of %d", len(g), len(xs))
	}
}

func TestSweepOperands(t *testing.T) {
	a, b := SweepOperands(1)
	if len(a) != len(Sweep()) || len(b) != len(a) {
		t.Errorf("arity 1: %d and %d operands, want %d each", len(a), len(b), len(Sweep()))
	}
	g := SweepGrid()
	a, b = SweepOperands(2)
	if len(a) != len(g)*len(g) || len(b) != len(a) {
		t.Fatalf("arity 2: %d and %d operands, want %d", len(a), len(b), len(g)*len(g))
	}
	if a[1] != g[0] || b[1] != g[1] || a[len(g)] != g[1] || b[len(g)] != g[0] {
		t.Errorf("arity 2: the pairs are not the grid's, row by row")
	}
}

func TestFloatFunctions(t *testing.T) {
	fs := FloatFunctions()
	has := map[ops.Op]bool{}
	for _, op := range fs {
		has[op] = true
		if op.Arity() > 2 || !op.Def().Domain.Accepts(true) {
			t.Errorf("%v: arity %d, domain %v", op, op.Arity(), op.Def().Domain)
		}
	}
	for _, op := range []ops.Op{ops.Sin, ops.Arctan2, ops.Add, ops.Log2} {
		if !has[op] {
			t.Errorf("FloatFunctions lacks %v", op)
		}
	}
	for _, op := range []ops.Op{ops.BitwiseAnd, ops.Gcd} {
		if has[op] {
			t.Errorf("FloatFunctions has the integer-only %v", op)
		}
	}
}
