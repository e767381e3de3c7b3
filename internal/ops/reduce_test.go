package ops

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReducerTable(t *testing.T) {
	var names []string
	for _, r := range Reducers() {
		def := r.Def()
		names = append(names, r.String())
		if def.Combine.Arity() != 2 {
			t.Errorf("%v combines with %v, which is not binary", r, def.Combine)
		}
		if def.Arg && def.Combine != Maximum && def.Combine != Minimum {
			t.Errorf("%v keeps an index but combines with %v", r, def.Combine)
		}
	}
	want := []string{"sum", "mean", "prod", "max", "min", "argmax", "argmin"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("reducers (-want +got):\n%s", diff)
	}
	if InvalidReducer.Valid() || reducerCount.Valid() {
		t.Error("the invalid reducers report themselves valid")
	}
	if got := Reducer(200).String(); got != "reducer(200)" {
		t.Errorf("String() of an invalid reducer = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Def of an invalid reducer did not panic")
		}
	}()
	_ = InvalidReducer.Def()
}

// TestStart checks each identity for the signed, unsigned and float types.
func TestStart(t *testing.T) {
	type row struct{ zero, one, lowest, highest float64 }
	check := func(name string, got, want row) {
		t.Helper()
		if got != want {
			t.Errorf("%s: identities %+v, want %+v", name, got, want)
		}
	}
	starts := func(f func(Identity) float64) row {
		return row{f(Zero), f(One), f(Lowest), f(Highest)}
	}
	check("int8", starts(func(id Identity) float64 { return float64(Start[int8](id)) }), row{0, 1, -128, 127})
	check("int64", starts(func(id Identity) float64 { return float64(Start[int64](id)) }), row{0, 1, math.MinInt64, math.MaxInt64})
	check("uint8", starts(func(id Identity) float64 { return float64(Start[uint8](id)) }), row{0, 1, 0, 255})
	check("uint32", starts(func(id Identity) float64 { return float64(Start[uint32](id)) }), row{0, 1, 0, math.MaxUint32})
	check("float32", starts(func(id Identity) float64 { return float64(Start[float32](id)) }), row{0, 1, math.Inf(-1), math.Inf(1)})
}

func TestArgBetterOrder(t *testing.T) {
	// Visiting elements in any order gives the first maximum: 5 at index 1.
	vals := []float64{3, 5, 1, 5}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 3, 0, 1}} {
		best, bi := math.Inf(-1), int64(math.MaxInt64)
		for _, i := range order {
			if ArgBetter(Maximum, vals[i], int64(i), best, bi) {
				best, bi = vals[i], int64(i)
			}
		}
		if bi != 1 {
			t.Errorf("order %v: argmax %d, want 1", order, bi)
		}
	}
	if !ArgBetter(Minimum, 1.0, 5, 2.0, 0) || ArgBetter(Minimum, 2.0, 0, 1.0, 5) {
		t.Error("ArgBetter(Minimum) does not prefer the smaller value")
	}
	if !ArgBetter(Minimum, math.NaN(), 5, 2.0, 0) {
		t.Error("ArgBetter does not prefer a NaN")
	}
}

// TestReducerRowsComplete checks the columns the generator and package
// grad read: every reduction names its Go function and documents it, and
// has a gradient rule exactly when it is not an arg reduction.
func TestReducerRowsComplete(t *testing.T) {
	for _, r := range Reducers() {
		def := r.Def()
		if def.GoName == "" || !strings.HasPrefix(def.Doc, "returns ") || !strings.HasSuffix(def.Doc, ".") {
			t.Errorf("%s: GoName %q, Doc %q: want a name and a doc sentence starting with \"returns\"", def.Name, def.GoName, def.Doc)
		}
		if (def.Grad == NoGradient) != def.Arg {
			t.Errorf("%s: gradient rule %d with Arg %t: every reduction but the arg ones has a derivative", def.Name, def.Grad, def.Arg)
		}
	}
}
