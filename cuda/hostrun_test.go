//go:build cuda

package cuda

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestHostStepsOnGPU runs the steps with no device kernel (a sort, a
// median, a gather by an argsort, a searchsorted) between kernels on a
// stream of its own, where each must wait for the kernels before it, and
// compares with the CPU; then checks a gather's index error (destination
// unchanged) and the refusal of such a step while recording a graph.
func TestHostStepsOnGPU(t *testing.T) {
	s, err := gpu.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := tensor.Rand[float64](7, 300, 257)
	x := toGPU(t, h)
	trees := []struct {
		name string
		e    func(x expr.Exp[float64]) expr.Exp[float64]
	}{
		{"sort", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.AddScalar(expr.Sort(expr.MulScalar(x, 2), 1), 1)
		}},
		{"median", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.BroadcastTo(expr.Median(expr.Exponential(x), 0, true), 300, 257)
		}},
		{"take_along_axis", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.TakeAlongAxis(x, expr.ArgSort(expr.Neg(x), 0), 0)
		}},
		{"searchsorted", func(x expr.Exp[float64]) expr.Exp[float64] {
			return expr.Cast[float64](expr.SearchSorted(expr.Sort(expr.Ravel(x), 0), expr.MulScalar(x, 1.5), false))
		}},
	}
	for _, c := range trees {
		t.Run(c.name, func(t *testing.T) {
			want, err := kernels.Eval(c.e(expr.Of[float64](h)))
			if err != nil {
				t.Fatal(err)
			}
			out := poisoned[float64](t, shape.Shape{300, 257})
			if err := Assign(s, out, c.e(expr.Of[float64](x))); err != nil {
				t.Fatal(err)
			}
			if err := s.Wait(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Data(), toHost(t, out), closeTo[float64]()); diff != "" {
				t.Errorf("(-cpu +gpu):\n%s", diff)
			}
		})
	}
	t.Run("index out of range", func(t *testing.T) {
		hi, err := tensor.FromSlice([]int64{0, 300}, shape.Shape{2})
		if err != nil {
			t.Fatal(err)
		}
		idx := toGPU(t, hi)
		out := poisoned[float64](t, shape.Shape{2, 257})
		err = Assign(s, out, expr.Take(expr.Of[float64](x), idx, 0))
		var ie *shape.IndexError
		if !errors.As(err, &ie) || ie.Index != 300 || ie.Dim != 0 {
			t.Fatalf("Assign = %v; want the IndexError of index 300 on axis 0", err)
		}
		for _, v := range toHost(t, out) {
			if !math.IsNaN(v) {
				t.Fatalf("a failed gather wrote %v into the destination", v)
			}
		}
	})
	t.Run("refused while recording", func(t *testing.T) {
		out := poisoned[float64](t, shape.Shape{300, 257})
		_, err := gpu.Record(func(r *Stream) error {
			return Assign(r, out, expr.Sort(expr.Of[float64](x), 1))
		})
		if err == nil || !strings.Contains(err.Error(), "recorded into a graph") {
			t.Fatalf("Record = %v; want the refusal of a sort while recording", err)
		}
	})
}
