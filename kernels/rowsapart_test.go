package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestRowReductionsSameBitsAtAnyThreadCount checks that a reduction along
// the last axis gives the same bits on one goroutine and on several
// (runRowsApart splits rows, never a row), with blocks that cut rows into
// six and goroutine counts whose even split of the blocks would fall
// inside a row (at least minRowsApart rows per goroutine: with fewer, the
// blocks are split), and that the results agree with the reference
// oracle, NaN, infinities and signed zeros included.
func TestRowReductionsSameBitsAtAnyThreadCount(t *testing.T) {
	for _, dims := range [][]int{{3, 5, 37}, {2, 7, 50}, {1, 9, 41}} {
		x := tensor.Randn[float64](11, dims...)
		data := x.Data()
		for i, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)} {
			data[(i*53+7)%len(data)] = v
		}
		ops := []struct {
			name string
			e    expr.Exp[float64]
		}{
			{"sum", expr.Sum[float64](x, expr.Axis(-1))},
			{"mean", expr.Mean[float64](x, expr.Axis(-1), expr.KeepDims())},
			{"max", expr.Max[float64](x, expr.Axis(-1))},
			{"min", expr.Min[float64](x, expr.Axis(-1))},
			{"prod", expr.Prod[float64](x, expr.Axis(-1))},
			{"argmax", expr.Cast[float64](expr.ArgMax[float64](x, expr.Axis(-1)))},
			{"var", expr.Var[float64](x, expr.Axis(-1))},
			{"logsumexp of exp", expr.LogSumExp[float64](expr.Mul(x, expr.Scalar(0.5)), expr.Axis(-1))},
		}
		for _, op := range ops {
			t.Run(fmt.Sprintf("%s/%v", op.name, dims), func(t *testing.T) {
				var shapes expr.Shapes
				s, err := shapes.Of(op.e)
				if err != nil {
					t.Fatal(err)
				}
				var results [][]uint64
				for _, procs := range []int{1, 2, 3, 4} {
					got := tensor.Zeros[float64](s...)
					withConfig(7, 1, procs, func() {
						if err := Assign(got, op.e); err != nil {
							t.Fatal(err)
						}
					})
					bits := make([]uint64, len(got.Data()))
					for i, v := range got.Data() {
						bits[i] = math.Float64bits(v)
					}
					results = append(results, bits)
					if procs == 1 {
						want := refEval(op.e, s)
						if diff := cmp.Diff(want, got.Data(), cmpopts.EquateApprox(1e-12, 1e-12), cmpopts.EquateNaNs()); diff != "" {
							t.Errorf("values (-reference +Assign):\n%s", diff)
						}
					}
				}
				for k, bits := range results[1:] {
					if diff := cmp.Diff(results[0], bits); diff != "" {
						t.Errorf("%d goroutines: other bits than one (-one +several):\n%s", k+2, diff)
					}
				}
			})
		}
	}
}
