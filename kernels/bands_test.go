package kernels

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/tensor"
)

// bandScene is a call whose steps may run in bands: build makes its
// tensors afresh and returns the destinations and the call; groups is how
// many groups the rule must run in bands.
type bandScene struct {
	name   string
	build  func() ([]*tensor.Tensor[float64], func() error)
	groups int
}

func bandScenes(t *testing.T) []bandScene {
	x := func() *tensor.Tensor[float64] { return tensor.Randn[float64](21, 37, 53) }
	assign := func(dst *tensor.Tensor[float64], e expr.Exp[float64]) ([]*tensor.Tensor[float64], func() error) {
		return []*tensor.Tensor[float64]{dst}, func() error { return Assign(dst, e) }
	}
	layerNorm := func(in expr.Exp[float64], axis int) expr.Exp[float64] {
		mean := expr.Mean(in, expr.Axis(axis), expr.KeepDims())
		variance := expr.Var(in, expr.Axis(axis), expr.KeepDims())
		return expr.Div(expr.Sub(in, mean), expr.Sqrt(expr.AddScalar(variance, 1e-5)))
	}
	return []bandScene{
		{"softmax along the rows", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](37, 53), expr.Softmax[float64](x(), 1))
		}, 1},
		{"in place: dst is the operand", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			return assign(in, expr.Softmax[float64](in, 1))
		}, 1},
		{"layer norm of a 3-d tensor along its last axis", func() ([]*tensor.Tensor[float64], func() error) {
			in := tensor.Randn[float64](22, 3, 7, 29)
			return assign(tensor.Zeros[float64](3, 7, 29), layerNorm(in, 2))
		}, 1},
		{"log-sum-exp without keepdims: the reductions band, the pass over the rows does not", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](37), expr.LogSumExp[float64](x(), expr.Axis(1)))
		}, 1},
		{"softmax along the columns: the reductions fold across rows", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](37, 53), expr.Softmax[float64](x(), 0))
		}, 0},
		{"the rows reversed into the operand: the pass reads where another row writes", func() ([]*tensor.Tensor[float64], func() error) {
			// The steps: the maxima, the copy of the reversed rows (they
			// overlap the destination), the pass. The first two band
			// (neither writes the operand); the pass writes rows the copy
			// reads elsewhere, so it runs after them on its own.
			in := x()
			rev := in.Slice(0, tensor.None, tensor.None, -1)
			return assign(in, expr.Sub[float64](rev, expr.Max[float64](in, expr.Axis(1), expr.KeepDims())))
		}, 1},
		{"the rows reversed, read by a later step where an earlier one writes", func() ([]*tensor.Tensor[float64], func() error) {
			// The maxima are written per row; the pass reads them in
			// reverse order of rows: not banded.
			in := x()
			m := expr.Max[float64](in, expr.Axis(1), expr.KeepDims())
			return assign(tensor.Zeros[float64](37, 53), expr.Sub[float64](in, expr.Of(m).Slice(0, tensor.None, tensor.None, -1).E))
		}, 0},
		{"two tensors over one slice, one element apart: the pass writes what later rows' reductions read", func() ([]*tensor.Tensor[float64], func() error) {
			// Wrap makes a storage per tensor: overlap is a matter of
			// addresses. The pass writes y over x, which the means read a
			// row later: not banded (a rule that compared storages
			// banded it, and rows from the second band on were wrong).
			buf := tensor.Randn[float64](23, 37*53+1).Data()
			x, err := tensor.Wrap(buf[:37*53], []int{37, 53})
			if err != nil {
				t.Fatal(err)
			}
			y, err := tensor.Wrap(buf[1:], []int{37, 53})
			if err != nil {
				t.Fatal(err)
			}
			return assign(y, expr.Sub[float64](x, expr.Mean[float64](x, expr.Axis(1), expr.KeepDims())))
		}, 0},
		{"into a slice with steps", func() ([]*tensor.Tensor[float64], func() error) {
			big := tensor.Zeros[float64](74, 159)
			return assign(big.Slice(0, 0, 74, 2).Slice(1, 0, 159, 3), layerNorm(x(), 1))
		}, 1},
		{"with NaN and infinities in the rows", func() ([]*tensor.Tensor[float64], func() error) {
			in := withSpecials(x())
			return assign(tensor.Zeros[float64](37, 53), expr.Softmax[float64](in, 1))
		}, 1},
		{"AssignAll: the loss and the probabilities", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			probs, lse := tensor.Zeros[float64](37, 53), tensor.Zeros[float64](37, 1)
			dsts := []*tensor.Tensor[float64]{probs, lse}
			es := []expr.Exp[float64]{expr.Softmax[float64](in, 1), expr.LogSumExp[float64](in, expr.Axis(1), expr.KeepDims())}
			return dsts, func() error { return AssignAll(dsts, es) }
		}, 1},
	}
}

// TestBandsChangeNoBit runs every scene step by step on one goroutine and
// in bands, on one goroutine and shared among several, at the same block
// length: the destinations must hold the same bits (a band never splits a
// row, so each row's folds are the ones one goroutine makes), and the rule
// must have run as many groups as the scene says. A scene the rule does
// not apply to is compared on one goroutine only: step by step, several
// goroutines may split a row and merge their partial folds.
func TestBandsChangeNoBit(t *testing.T) {
	for _, sc := range bandScenes(t) {
		t.Run(sc.name, func(t *testing.T) {
			for _, cfg := range []struct{ block, threshold, procs int }{{cpu.BlockSize, cpu.ParallelThreshold, 1}, {7, 1, 1}, {7, 1, 4}, {1024, 1, 3}} {
				var off, on [][]uint64
				withConfig(cfg.block, cfg.threshold, 1, func() { off = runBandScene(t, sc, false) })
				withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
					before := cpu.BandGroupsRun.Load()
					on = runBandScene(t, sc, true)
					if got := int(cpu.BandGroupsRun.Load() - before); got != sc.groups {
						t.Errorf("block %d, %d goroutines: %d groups run in bands, want %d", cfg.block, cfg.procs, got, sc.groups)
					}
				})
				if sc.groups == 0 && cfg.procs > 1 {
					continue
				}
				if diff := cmp.Diff(off, on); diff != "" {
					t.Errorf("block %d, %d goroutines: results differ in bands (-step by step +bands):\n%s", cfg.block, cfg.procs, diff)
				}
			}
		})
	}
}

// TestBandsAgreeWithReference checks the banded results of the scenes with
// one destination against the reference oracle.
func TestBandsAgreeWithReference(t *testing.T) {
	x := tensor.Randn[float64](3, 9, 13)
	for _, e := range []expr.Exp[float64]{
		expr.Softmax[float64](x, 1),
		expr.Sub[float64](x, expr.LogSumExp[float64](x, expr.Axis(1), expr.KeepDims())),
		expr.Div(expr.Sub[float64](x, expr.Mean[float64](x, expr.Axis(1), expr.KeepDims())), expr.Std[float64](x, expr.Axis(1), expr.KeepDims())),
	} {
		withConfig(4, 1, 2, func() {
			got := tensor.Zeros[float64](9, 13)
			before := cpu.BandGroupsRun.Load()
			if err := Assign(got, e); err != nil {
				t.Fatal(err)
			}
			if cpu.BandGroupsRun.Load() == before {
				t.Errorf("%s: not run in bands", expr.Render(e))
			}
			if diff := cmp.Diff(refEval(e, got.Shape()), got.Data(), cmpopts.EquateApprox(1e-12, 1e-12)); diff != "" {
				t.Errorf("%s (-reference +bands):\n%s", expr.Render(e), diff)
			}
		})
	}
}

// runBandScene builds sc afresh and runs it with banding on or off,
// returning the destinations' bits.
func runBandScene(t *testing.T, sc bandScene, on bool) [][]uint64 {
	t.Helper()
	return runSwitched(t, &cpu.BandOff, on, sc.build)
}

// TestBandsExplained checks that Explain says which steps run in bands.
func TestBandsExplained(t *testing.T) {
	x := tensor.Randn[float32](1, 64, 1000)
	got, err := Explain(tensor.Zeros[float32](64, 1000), expr.Softmax[float32](x, 1))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("steps 1 to 3 run in bands of %d rows", cpu.BandBytes/(1000*4)); !strings.Contains(got, want) {
		t.Errorf("Explain lacks %q:\n%s", want, got)
	}
	got, err = Explain(tensor.Zeros[float32](64, 1000), expr.Softmax[float32](x, 0))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "bands") {
		t.Errorf("Explain shows bands for a softmax along the columns:\n%s", got)
	}
}
