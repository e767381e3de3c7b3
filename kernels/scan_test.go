package kernels

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// scanCase checks Eval(e) against hand-worked values and against the
// reference oracle (the node's own At).
func scanCase[T tensor.Number](t *testing.T, name string, e expr.Exp[T], want []T) {
	t.Helper()
	got, err := Eval(e)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	nan := cmp.Options{cmp.Comparer(func(x, y T) bool { return x == y || (x != x && y != y) }), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(want, got.Contiguous().Data(), nan); diff != "" {
		t.Errorf("%s: Eval (-want +got):\n%s", name, diff)
	}
	if diff := cmp.Diff(want, refEval(e, e.Shape()), nan); diff != "" {
		t.Errorf("%s: reference (-want +got):\n%s", name, diff)
	}
}

func TestScanValues(t *testing.T) {
	m := mustFrom(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	scanCase(t, "cumsum axis=1", expr.CumSum[float64](m, 1), []float64{1, 3, 6, 4, 9, 15})
	scanCase(t, "cumsum axis=0", expr.CumSum[float64](m, 0), []float64{1, 2, 3, 5, 7, 9})
	scanCase(t, "cumsum axis=-1", expr.CumSum[float64](m, -1), []float64{1, 3, 6, 4, 9, 15})
	scanCase(t, "cumprod axis=1", expr.CumProd[float64](m, 1), []float64{1, 2, 6, 4, 20, 120})
	scanCase(t, "cumprod axis=0", expr.CumProd[float64](m, 0), []float64{1, 2, 3, 4, 10, 18})
	scanCase(t, "cumsum of a transposed view", expr.CumSum[float64](m.T(), 1), []float64{1, 5, 2, 7, 3, 9})
	scanCase(t, "cumsum of a tree, in a tree", expr.Of(expr.CumSum[float64](expr.Of[float64](m).MulScalar(2), 1)).AddScalar(1),
		[]float64{3, 7, 13, 9, 19, 31})
	scanCase(t, "reduction of a scan", expr.Sum[float64](expr.CumSum[float64](m, 1), expr.Axis(1)), []float64{10, 28})
	// (2,2,2): the middle axis, outer and inner both 2.
	c := mustFrom(t, []int32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 2, 2)
	scanCase(t, "int32 middle axis", expr.CumSum[int32](c, 1), []int32{1, 2, 4, 6, 5, 6, 12, 14})
	scanCase(t, "int32 cumprod first axis", expr.CumProd[int32](c, 0), []int32{1, 2, 3, 4, 5, 12, 21, 32})
	// Integers wrap: int8 100+100 = 200 - 256 = -56, -56+100 = 44; uint8
	// 16*16 = 256 → 0.
	scanCase(t, "int8 wraps", expr.CumSum[int8](mustFrom(t, []int8{100, 100, 100}, 3), 0), []int8{100, -56, 44})
	scanCase(t, "uint8 wraps", expr.CumProd[uint8](mustFrom(t, []uint8{16, 16, 3}, 3), 0), []uint8{16, 0, 0})
	scanCase(t, "int64 cumprod", expr.CumProd[int64](mustFrom(t, []int64{1 << 40, 1 << 30, 2}, 3), 0), []int64{1 << 40, 0, 0})
	// Floats: sequential order. 1e16 + 1 rounds to 1e16, and so does each
	// later +1, where a pairwise sum of the ones would keep them.
	scanCase(t, "float64 sequential", expr.CumSum[float64](mustFrom(t, []float64{1e16, 1, 1, 1, 1}, 5), 0),
		[]float64{1e16, 1e16, 1e16, 1e16, 1e16})
	scanCase(t, "float32", expr.CumSum[float32](mustFrom(t, []float32{0.5, 0.25, 16777216, 1}, 4), 0),
		[]float32{0.5, 0.75, 16777216, 16777216}) // 16777216.75 rounds to 16777216 in float32, +1 ties to even
	nan, inf := math.NaN(), math.Inf(1)
	scanCase(t, "nan and inf", expr.CumSum[float64](mustFrom(t, []float64{1, inf, -inf, 2}, 4), 0), []float64{1, inf, nan, nan})
	scanCase(t, "empty axis", expr.CumSum[float64](tensor.Zeros[float64](2, 0), 1), []float64{})
	scanCase(t, "empty outer", expr.CumProd[float64](tensor.Zeros[float64](0, 3), 1), []float64{})
	scanCase(t, "scalar line", expr.CumSum[float64](mustFrom(t, []float64{7}, 1), 0), []float64{7})
}

// TestScanOverlap writes a scan of a tensor into that tensor and into views
// overlapping it: the scan reads its whole operand before the destination
// is written.
func TestScanOverlap(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3, 4}, 4)
	if err := Assign(a, expr.CumSum[float64](a, 0)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{1, 3, 6, 10}, a.Data()); diff != "" {
		t.Errorf("in place (-want +got):\n%s", diff)
	}
	b := mustFrom(t, []float64{1, 2, 3, 4, 5}, 5)
	if err := Assign(b.Narrow(0, 1, 4), expr.CumSum[float64](b.Narrow(0, 0, 4), 0)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{1, 1, 3, 6, 10}, b.Data()); diff != "" {
		t.Errorf("shifted (-want +got):\n%s", diff)
	}
	r := mustFrom(t, []float64{1, 2, 3, 4}, 4)
	if err := Assign(r, expr.CumProd[float64](r.Slice(0, tensor.None, tensor.None, -1), 0)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{4, 12, 24, 24}, r.Data()); diff != "" {
		t.Errorf("reversed (-want +got):\n%s", diff)
	}
}

func TestScanErrors(t *testing.T) {
	m := tensor.Zeros[float64](2, 3)
	a := mustFrom(t, []float64{1, 2}, 2)
	for _, e := range []expr.Exp[float64]{expr.CumSum[float64](m, 2), expr.CumProd[float64](m, -3), expr.CumSum[float64](tensor.Scalar(1.0), 0)} {
		before := a.Clone()
		err := Assign(a, e)
		var de *shape.DimensionError
		if !errors.As(err, &de) {
			t.Errorf("%v: %v, want a DimensionError", e, err)
		}
		if diff := cmp.Diff(before.Data(), a.Data()); diff != "" {
			t.Errorf("%v: the destination changed", e)
		}
	}
	bad := &expr.Scan[float64]{Op: ops.Max, X: m, Axis: 0}
	var ae *shape.ArgumentError
	if _, err := expr.Check[float64](bad); !errors.As(err, &ae) {
		t.Errorf("scan with op %v: %v, want an ArgumentError", bad.Op, err)
	}
}
