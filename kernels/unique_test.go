package kernels

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The values of these tests were printed by NumPy 1.24.2 (/usr/bin/python3)
// for
//
//	x = np.array([[3., -1., nan, 0.], [-0., inf, -inf, 2.], [-1., 0., -nan, -0.]])
//	xi = np.array([[[0, 2], [1, 0]], [[0, 0], [5, 7]]], np.int16)
//
// and np.zeros((2, 0)).

func uniqueX(t *testing.T) *tensor.Tensor[float64] {
	x, err := tensor.FromSlice([]float64{3, -1, math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 2,
		-1, 0, math.Copysign(math.NaN(), -1), math.Copysign(0, -1)}, shape.Of(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func uniqueXi(t *testing.T) *tensor.Tensor[int16] {
	xi, err := tensor.FromSlice([]int16{0, 2, 1, 0, 0, 0, 5, 7}, shape.Of(2, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	return xi
}

// shownValues prints floats as the NumPy tables do ("-0", "-nan").
func shownValues[T tensor.Number](x *tensor.Tensor[T]) []string {
	out := []string{}
	for v := range x.Values() {
		f := float64(v)
		switch {
		case f != f && math.Signbit(f):
			out = append(out, "-nan")
		case f != f:
			out = append(out, "nan")
		case f == 0 && math.Signbit(f):
			out = append(out, "-0")
		case math.IsInf(f, 1):
			out = append(out, "inf")
		case math.IsInf(f, -1):
			out = append(out, "-inf")
		default:
			out = append(out, strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return out
}

func indexLists(t *testing.T, ts []*tensor.Tensor[int64], err error) [][]int64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	out := [][]int64{}
	for _, x := range ts {
		if len(x.Shape()) != 1 {
			t.Errorf("an index array of shape %v, want 1-D", x.Shape())
		}
		out = append(out, append([]int64{}, x.Contiguous().Data()...))
	}
	return out
}

// TestNonzeroMatchesNumPy checks Nonzero and FlatNonzero: NaN is nonzero,
// -0 is not; C order; every axis; a tree and a transposed view; empty.
func TestNonzeroMatchesNumPy(t *testing.T) {
	x, xi := uniqueX(t), uniqueXi(t)
	lists := func(ts []*tensor.Tensor[int64], err error) [][]int64 { t.Helper(); return indexLists(t, ts, err) }
	for _, tt := range []struct {
		name string
		got  [][]int64
		want [][]int64
	}{
		{"x", lists(Nonzero[float64](x)), [][]int64{{0, 0, 0, 1, 1, 1, 2, 2}, {0, 1, 2, 1, 2, 3, 0, 2}}},
		{"xi", lists(Nonzero[int16](xi)), [][]int64{{0, 0, 1, 1}, {0, 1, 1, 1}, {1, 0, 0, 1}}},
		// np.nonzero(x.T) and np.nonzero(x - 3)
		{"x.T", lists(Nonzero[float64](x.T())), [][]int64{{0, 0, 1, 1, 2, 2, 2, 3}, {0, 2, 0, 1, 0, 1, 2, 1}}},
		{"x - 3", lists(Nonzero(expr.Of[float64](x).SubScalar(3).E)), [][]int64{{0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, {1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}}},
		{"zeros (2,0)", lists(Nonzero[float64](tensor.Zeros[float64](2, 0))), [][]int64{{}, {}}},
		{"zeros (3)", lists(Nonzero[float64](tensor.Zeros[float64](3))), [][]int64{{}}},
	} {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("nonzero(%s) (-numpy +laze):\n%s", tt.name, diff)
		}
	}
	flat, err := FlatNonzero[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{0, 1, 2, 5, 6, 7, 8, 10}, flat.Data()); diff != "" {
		t.Errorf("flatnonzero (-numpy +laze):\n%s", diff)
	}
	for v, want := range map[float64][]int64{3: {0}, 0: {}} { // np.flatnonzero(np.float64(v))
		got, err := FlatNonzero[float64](tensor.Scalar(v))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Shape().Equal(shape.Of(len(want))) || len(want) == 1 && got.At(0) != want[0] {
			t.Errorf("flatnonzero(%v): %v", v, got)
		}
	}
}

// TestUniqueMatchesNumPy checks Unique and UniqueCounts: sorted, one NaN at
// the end counting every NaN, ±0 one value (the first in x), integers,
// a tree, empty.
func TestUniqueMatchesNumPy(t *testing.T) {
	x := uniqueX(t)
	v, c, err := UniqueCounts[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"-inf", "-1", "0", "2", "3", "inf", "nan"}, shownValues(v)); diff != "" {
		t.Errorf("unique (-numpy +laze):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{1, 2, 4, 1, 1, 1, 2}, c.Data()); diff != "" {
		t.Errorf("counts (-numpy +laze):\n%s", diff)
	}
	u, err := Unique[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shownValues(v), shownValues(u)); diff != "" {
		t.Errorf("Unique and UniqueCounts differ:\n%s", diff)
	}
	for _, tt := range []struct {
		in   []float64
		want string
	}{{[]float64{math.Copysign(0, -1), 0}, "-0"}, {[]float64{0, math.Copysign(0, -1)}, "0"}} {
		x, _ := tensor.FromSlice(tt.in, shape.Of(2))
		u, err := Unique[float64](x)
		if err != nil {
			t.Fatal(err)
		}
		if got := shownValues(u); len(got) != 1 || got[0] != tt.want {
			t.Errorf("unique(%v) = %v, want [%s] as NumPy", tt.in, got, tt.want)
		}
	}
	vi, ci, err := UniqueCounts(expr.Of[int16](uniqueXi(t)).T().E)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int16{0, 1, 2, 5, 7}, vi.Data()); diff != "" {
		t.Errorf("unique of int16 (-numpy +laze):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{4, 1, 1, 1, 1}, ci.Data()); diff != "" {
		t.Errorf("counts of int16 (-numpy +laze):\n%s", diff)
	}
	u8, _ := tensor.FromSlice([]uint8{250, 5, 0, 5, 250, 250}, shape.Of(6))
	vu, cu, err := UniqueCounts[uint8](u8)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal([]uint8{0, 5, 250}, vu.Data()) || !cmp.Equal([]int64{1, 2, 3}, cu.Data()) {
		t.Errorf("unique of uint8: %v %v, want [0 5 250] [1 2 3]", vu, cu)
	}
	e, ec, err := UniqueCounts[float64](tensor.Zeros[float64](2, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Shape().Equal(shape.Of(0)) || !ec.Shape().Equal(shape.Of(0)) {
		t.Errorf("unique of an empty array: shapes %v %v, want (0,)", e.Shape(), ec.Shape())
	}
}

// TestEagerErrors checks the errors of Nonzero, FlatNonzero and Unique: a
// 0-d x for Nonzero (a ShapeError naming its shape), a tree that does not
// check (the error renamed to the call), a tensor on a device.
func TestEagerErrors(t *testing.T) {
	var se *shape.ShapeError
	_, err := Nonzero[float64](tensor.Scalar(2.0))
	if !errors.As(err, &se) || se.Op != "Nonzero" || len(se.Shapes) != 1 || len(se.Shapes[0]) != 0 {
		t.Errorf("Nonzero of a 0-d array: got %v, want a ShapeError naming ()", err)
	}
	bad := expr.Add[float64](tensor.Zeros[float64](2), tensor.Zeros[float64](3))
	var be *shape.BroadcastError
	if _, err := Nonzero(bad); !errors.As(err, &be) {
		t.Errorf("Nonzero of a bad tree: got %v", err)
	}
	if _, err := FlatNonzero(bad); !errors.As(err, &be) {
		t.Errorf("FlatNonzero of a bad tree: got %v", err)
	}
	if _, _, err := UniqueCounts(bad); !errors.As(err, &be) || !errors.Is(err, shape.ErrBroadcast) {
		t.Errorf("UniqueCounts of a bad tree: got %v", err)
	}
}
