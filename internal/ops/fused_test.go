package ops

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestFusedNumbering checks the chain numbering every generator shares:
// pairs in row-major order over Fusable, triples extending each pair in the
// same order, with no chain twice.
func TestFusedNumbering(t *testing.T) {
	pairs := FusedPairs()
	if got, want := len(pairs), len(Fusable)*len(Fusable); got != want {
		t.Fatalf("len(FusedPairs()) = %d, want %d", got, want)
	}
	wantFirst := [][2]Op{{Add, Add}, {Add, Sub}, {Add, Mul}, {Sub, Add}}
	if diff := cmp.Diff(wantFirst, pairs[:4]); diff != "" {
		t.Errorf("first pairs (-want +got):\n%s", diff)
	}
	triples := FusedTriples()
	if got, want := len(triples), len(pairs)*len(Fusable); got != want {
		t.Fatalf("len(FusedTriples()) = %d, want %d", got, want)
	}
	seen := map[[3]Op]bool{}
	for k, tr := range triples {
		if seen[tr] {
			t.Errorf("triple %v listed twice", tr)
		}
		seen[tr] = true
		pair := pairs[k/len(Fusable)]
		if tr[0] != pair[0] || tr[1] != pair[1] || tr[2] != Fusable[k%len(Fusable)] {
			t.Errorf("triple %d = %v, want %v then %v", k, tr, pair, Fusable[k%len(Fusable)])
		}
	}
}

// TestCost checks that every op costs at least an add, that the
// transcendental ops cost more than an add, and that an invalid op costs 0.
func TestCost(t *testing.T) {
	for _, op := range All() {
		if op.Cost() < 1 {
			t.Errorf("%s.Cost() = %d, want >= 1", op, op.Cost())
		}
	}
	if Exp.Cost() <= Add.Cost() {
		t.Errorf("Exp.Cost() = %d, not above Add's %d", Exp.Cost(), Add.Cost())
	}
	if got := Op(0).Cost(); got != 0 {
		t.Errorf("Invalid.Cost() = %d, want 0", got)
	}
}

// TestNegativeExponentRule checks which element types refuse a negative
// integer exponent and that the error names the exponent and its index.
func TestNegativeExponentRule(t *testing.T) {
	got := map[string]bool{
		"int8": RefusesNegativeExponent[int8](), "int64": RefusesNegativeExponent[int64](),
		"uint8": RefusesNegativeExponent[uint8](), "uint64": RefusesNegativeExponent[uint64](),
		"float32": RefusesNegativeExponent[float32](), "float64": RefusesNegativeExponent[float64](),
	}
	want := map[string]bool{"int8": true, "int64": true, "uint8": false, "uint64": false, "float32": false, "float64": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RefusesNegativeExponent (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		index []int
		name  string
	}{
		{nil, "exponent"},
		{[]int{1, 2}, "exponent at index (1,2)"},
	} {
		err := NegativeExponentError(-3, tc.index)
		var arg *shape.ArgumentError
		if !errors.As(err, &arg) {
			t.Fatalf("NegativeExponentError(-3, %v) = %T, want *shape.ArgumentError", tc.index, err)
		}
		if arg.Op != "power" || arg.Name != tc.name || arg.Value != -3 {
			t.Errorf("NegativeExponentError(-3, %v) = {Op %q, Name %q, Value %v}, want {power, %q, -3}", tc.index, arg.Op, arg.Name, arg.Value, tc.name)
		}
		if !strings.Contains(err.Error(), "negative integer powers") {
			t.Errorf("error %q does not say why", err)
		}
	}
}
