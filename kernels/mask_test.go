package kernels

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

func TestMaskedSelect(t *testing.T) {
	a := mustFrom(t, []float64{1, -2, 3, -4, 5, -6}, 2, 3)
	m := mustFrom(t, []uint8{1, 0, 0, 1, 1, 0}, 2, 3)
	check := func(name string, got *tensor.Tensor[float64], err error, want []float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !got.Shape().Equal(shape.Shape{len(want)}) {
			t.Errorf("%s: shape %v, want (%d,)", name, got.Shape(), len(want))
		}
		if diff := cmp.Diff(want, got.Data()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	got, err := MaskedSelect[float64, uint8](a, m)
	check("uint8 mask", got, err, []float64{1, -4, 5})
	got, err = MaskedSelect[float64, float64](a, expr.Gt[float64](a, expr.Scalar(0.0)))
	check("a[a > 0]", got, err, []float64{1, 3, 5})
	got, err = MaskedSelect[float64, float64](a.T(), expr.Lt[float64](a.T(), expr.Scalar(0.0)))
	check("transposed: row-major order of the view", got, err, []float64{-4, -2, -6})
	got, err = MaskedSelect[float64, float64](expr.Of[float64](a).MulScalar(10), mustFrom(t, []float64{math.NaN(), 0, 0, 0, 0, -1}, 2, 3))
	check("tree, NaN and -1 count as true", got, err, []float64{10, -60})
	got, err = MaskedSelect[float64, int32](a, tensor.Zeros[int32](2, 3))
	check("nothing selected", got, err, []float64{})
	got, err = MaskedSelect[float64, int32](tensor.Zeros[float64](0, 3), tensor.Zeros[int32](0, 3))
	check("empty", got, err, []float64{})
	got, err = MaskedSelect[float64, int32](tensor.Scalar(7.0), tensor.Scalar[int32](1))
	check("scalar", got, err, []float64{7})

	var se *shape.ShapeError
	_, err = MaskedSelect[float64, uint8](a, mustFrom(t, []uint8{1, 0, 1}, 3))
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "(2,3), (3,)") {
		t.Errorf("mask (3,) for (2,3): %v, want a ShapeError naming both shapes", err)
	}
	var be *shape.BroadcastError
	_, err = MaskedSelect[float64, float64](expr.Add[float64](a, tensor.Zeros[float64](4)), a)
	if !errors.As(err, &be) {
		t.Errorf("bad operand tree: %v, want a BroadcastError", err)
	}
}
