package kernels

import (
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// The tests of the destination as scratch (spill.go): every call gives the
// same bits with the rule on as with it off, and the rule applies exactly
// where spill.go says.

// spillScene is a call made twice, on fresh copies of its tensors: build
// returns the destinations (written) and the call.
type spillScene struct {
	name  string
	build func() (dsts []*tensor.Tensor[float64], call func() error)
	spill int // the reductions lowered with a tee: 0 where the rule must not apply
}

// withSpecials puts a NaN, +Inf and -Inf into x's first three rows and
// returns x.
func withSpecials(x *tensor.Tensor[float64]) *tensor.Tensor[float64] {
	x.Set(math.NaN(), 0, 3)
	x.Set(math.Inf(1), 1, 4)
	x.Set(math.Inf(-1), 2, 5)
	return x
}

// expShifted is exp(x - max) / sum(exp(x - max)) along axis, softmax's numerator,
// written out so that the scenes can vary the reduction and the combination.
func expShifted(x expr.Exp[float64], axis int) expr.Exp[float64] {
	return expr.Exponential(expr.Sub(x, expr.Max(x, expr.Axis(axis), expr.KeepDims())))
}

func spillScenes() []spillScene {
	x := func() *tensor.Tensor[float64] { return tensor.Randn[float64](11, 9, 300) }
	assign := func(dst *tensor.Tensor[float64], e expr.Exp[float64]) ([]*tensor.Tensor[float64], func() error) {
		return []*tensor.Tensor[float64]{dst}, func() error { return Assign(dst, e) }
	}
	return []spillScene{
		{"softmax along the rows", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](9, 300), expr.Softmax[float64](x(), 1))
		}, 1},
		{"softmax along the columns", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](9, 300), expr.Softmax[float64](x(), 0))
		}, 1},
		{"into a transposed view", func() ([]*tensor.Tensor[float64], func() error) {
			return assign(tensor.Zeros[float64](300, 9).T(), expr.Softmax[float64](x(), 1))
		}, 1},
		{"into a slice with steps", func() ([]*tensor.Tensor[float64], func() error) {
			big := tensor.Zeros[float64](18, 900)
			return assign(big.Slice(0, 0, 18, 2).Slice(1, 0, 900, 3), expr.Softmax[float64](x(), 1))
		}, 1},
		{"with NaN and infinities in the rows", func() ([]*tensor.Tensor[float64], func() error) {
			in := withSpecials(x())
			return assign(tensor.Zeros[float64](9, 300), expr.Softmax[float64](in, 1))
		}, 1},
		{"normalised by the maximum instead of the sum", func() ([]*tensor.Tensor[float64], func() error) {
			e := expShifted(x(), 1)
			return assign(tensor.Zeros[float64](9, 300), expr.Div(e, expr.Max(e, expr.Axis(1), expr.KeepDims())))
		}, 1},
		{"two candidates for one destination: only the first is stored", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			e1 := expShifted(in, 1)
			e2 := expr.Tanh(expr.MulScalar[float64](in, 2))
			return assign(tensor.Zeros[float64](9, 300), expr.Add(
				expr.Div(e1, expr.Sum(e1, expr.Axis(1), expr.KeepDims())),
				expr.Mul(e2, expr.Max(e2, expr.Axis(1), expr.KeepDims()))))
		}, 1},
		{"a candidate inside another (the gradient of prod): only one is stored", func() ([]*tensor.Tensor[float64], func() error) {
			e := expr.Exponential(expr.Tanh[float64](x()))
			z := expr.Eq(e, expr.Scalar[float64](0))
			zeros := expr.Sum(z, expr.Axis(0), expr.KeepDims())
			return assign(tensor.Zeros[float64](9, 300), expr.Add(expr.Div(expr.Prod(e, expr.Axis(0), expr.KeepDims()), e), expr.Mul(zeros, z)))
		}, 1},
		{"a product of the destination's shape in the same tree (not written into it first)", func() ([]*tensor.Tensor[float64], func() error) {
			a, b := tensor.Randn[float64](13, 9, 4), tensor.Randn[float64](14, 4, 300)
			return assign(tensor.Zeros[float64](9, 300), expr.Add(expr.MatMul[float64](a, b), expr.Softmax[float64](x(), 1)))
		}, 1},
		{"Eval", func() ([]*tensor.Tensor[float64], func() error) {
			out := []*tensor.Tensor[float64]{nil}
			in := x()
			return out, func() error {
				var err error
				out[0], err = Eval(expr.Softmax[float64](in, 1))
				return err
			}
		}, 1},
		{"in place: dst is the operand (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			return assign(in, expr.Softmax[float64](in, 1))
		}, 0},
		{"dst overlapping the operand (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			in := tensor.Randn[float64](12, 40, 40)
			corner := func(t *tensor.Tensor[float64]) *tensor.Tensor[float64] {
				return t.Slice(0, 0, 20, 1).Slice(1, 0, 20, 1)
			}
			return assign(corner(in), expr.Softmax[float64](corner(in.T()), 1))
		}, 0},
		{"the subtree used only under a view (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			e := expShifted(x(), 1)
			return assign(tensor.Zeros[float64](9, 300), expr.Div(expr.Of(e).Reshape(300, 9).Reshape(9, 300), expr.Sum(e, expr.Axis(1), expr.KeepDims())))
		}, 0},
		{"a cheap subtree (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			d := expr.Sub[float64](in, expr.Mean[float64](in, expr.Axis(1), expr.KeepDims()))
			return assign(tensor.Zeros[float64](9, 300), expr.Div(d, expr.Sum(d, expr.Axis(1), expr.KeepDims())))
		}, 0},
		{"AssignAll: the loss's reduction stores into the gradient's destination", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			e := expShifted(in, 1)
			s := expr.Sum(e, expr.Axis(1), expr.KeepDims())
			d := []*tensor.Tensor[float64]{tensor.Zeros[float64](9), tensor.Zeros[float64](9, 300)}
			return d, func() error {
				return AssignAll(d, []expr.Exp[float64]{expr.Of(expr.Log(s)).Reshape(9), expr.Div(e, s)})
			}
		}, 1},
		{"AssignAll: another pair reads the destination (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			g := tensor.Zeros[float64](9, 300)
			d := []*tensor.Tensor[float64]{tensor.Zeros[float64](9), g}
			return d, func() error {
				return AssignAll(d, []expr.Exp[float64]{expr.Sum[float64](g, expr.Axis(1)), expr.Softmax[float64](in, 1)})
			}
		}, 0},
		{"AssignAll: destinations overlapping (no spill)", func() ([]*tensor.Tensor[float64], func() error) {
			in := x()
			big := tensor.Zeros[float64](9, 300)
			col, err := big.Slice(1, 0, 1, 1).Reshape(9)
			if err != nil {
				panic(err)
			}
			d := []*tensor.Tensor[float64]{col, big}
			return d, func() error {
				return AssignAll(d, []expr.Exp[float64]{expr.Sum[float64](in, expr.Axis(1)), expr.Softmax[float64](in, 1)})
			}
		}, 0},
	}
}

// TestSpillChangesNoBit runs every scene with the rule off and on: the
// destinations must hold the same bits, and the rule must have applied as
// often as the scene says.
func TestSpillChangesNoBit(t *testing.T) {
	for _, sc := range spillScenes() {
		t.Run(sc.name, func(t *testing.T) {
			off := runSpillScene(t, sc, false)
			before := spillsTaken.Load()
			on := runSpillScene(t, sc, true)
			if got := int(spillsTaken.Load() - before); got != sc.spill {
				t.Errorf("reductions lowered with a tee: %d, want %d", got, sc.spill)
			}
			if diff := cmp.Diff(off, on); diff != "" {
				t.Errorf("results differ with the rule on (-off +on):\n%s", diff)
			}
		})
	}
}

// runSpillScene builds sc afresh and runs it with the rule set to on,
// returning the destinations' bits.
func runSpillScene(t *testing.T, sc spillScene, on bool) [][]uint64 {
	t.Helper()
	return runSwitched(t, &spillOff, on, sc.build)
}

// runSwitched builds a scene afresh and runs it with the rule that off
// turns off set to on, returning the destinations' bits.
func runSwitched(t *testing.T, off *atomic.Bool, on bool, build func() ([]*tensor.Tensor[float64], func() error)) [][]uint64 {
	t.Helper()
	defer off.Store(false)
	off.Store(!on)
	dsts, call := build()
	if err := call(); err != nil {
		t.Fatal(err)
	}
	out := make([][]uint64, len(dsts))
	for i, d := range dsts {
		for v := range d.Values() {
			out[i] = append(out[i], math.Float64bits(v))
		}
	}
	return out
}

// TestSpillExplained checks that Explain shows the store and the read back.
func TestSpillExplained(t *testing.T) {
	x := tensor.Randn[float32](1, 4, 5)
	got, err := Explain(tensor.Zeros[float32](4, 5), expr.Softmax[float32](x, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dst  = v2, stored for the pass that writes it", "read back from dst, where a reduction's pass stored it", "out  = divide(in0, in1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain lacks %q:\n%s", want, got)
		}
	}
}

// FuzzSpill compares the rule on and off on random softmax-like trees: the
// subtree's function, the reduction, the combination, the axis and the
// destination's layout come from the input.
func FuzzSpill(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(5), uint8(7), uint8(0), uint64(1))
	f.Add(uint8(1), uint8(2), uint8(1), uint8(3), uint8(33), uint8(1), uint64(2))
	f.Add(uint8(2), uint8(1), uint8(2), uint8(1), uint8(1), uint8(2), uint64(3))
	f.Add(uint8(3), uint8(3), uint8(3), uint8(8), uint8(2), uint8(3), uint64(4))
	f.Add(uint8(0), uint8(0), uint8(0x80), uint8(6), uint8(9), uint8(0), uint64(5))
	f.Add(uint8(1), uint8(0), uint8(0x40), uint8(4), uint8(12), uint8(1), uint64(6))
	f.Fuzz(func(t *testing.T, fn, red, comb, rows, cols, layout uint8, seed uint64) {
		r, c := int(rows%16)+1, int(cols%64)+1
		axis := int(seed % 2)
		build := func() (*tensor.Tensor[float64], expr.Exp[float64]) {
			x := tensor.Randn[float64](seed, r, c)
			e := spillFunctions[int(fn)%len(spillFunctions)](expr.Of[float64](x))
			s := spillReductions[int(red)%len(spillReductions)](e, axis)
			var dst *tensor.Tensor[float64]
			switch layout % 4 {
			case 0:
				dst = tensor.Zeros[float64](r, c)
			case 1:
				dst = tensor.Zeros[float64](c, r).T()
			case 2:
				dst = tensor.Zeros[float64](2*r, 2*c).Slice(0, 0, 2*r, 2).Slice(1, 1, 2*c, 2)
			default:
				dst = x // in place: the rule must not apply
			}
			out := spillCombinations[int(comb)%len(spillCombinations)](e, s)
			if comb&0x80 != 0 { // a second candidate for the same destination
				e2 := spillFunctions[(int(fn)+1)%len(spillFunctions)](expr.Of[float64](x))
				s2 := spillReductions[(int(red)+1)%len(spillReductions)](e2, 1-axis)
				out = expr.Add(out, spillCombinations[(int(comb)+1)%len(spillCombinations)](e2, s2))
			}
			if comb&0x40 != 0 { // a product of the destination's shape
				a, b := tensor.Randn[float64](seed+1, r, 3), tensor.Randn[float64](seed+2, 3, c)
				out = expr.Add(out, expr.MatMul[float64](a, b))
			}
			return dst, out
		}
		var got [2][]uint64
		for i, on := range []bool{false, true} {
			spillOff.Store(!on)
			dst, e := build()
			err := Assign(dst, e)
			spillOff.Store(false)
			if err != nil {
				t.Fatal(err)
			}
			for v := range dst.Values() {
				got[i] = append(got[i], math.Float64bits(v))
			}
		}
		if diff := cmp.Diff(got[0], got[1]); diff != "" {
			t.Errorf("fn %d red %d comb %d %dx%d axis %d layout %d: results differ with the rule on (-off +on):\n%s",
				fn, red, comb, r, c, axis, layout%4, diff)
		}
	})
}

var spillFunctions = []func(x expr.Exp[float64]) expr.Exp[float64]{
	func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Exponential(x) },
	func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Tanh(expr.MulScalar(x, 3)) },
	func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Log(expr.Abs(x)) },
	func(x expr.Exp[float64]) expr.Exp[float64] { return expr.Sin(expr.AddScalar(x, 1)) },
}

var spillReductions = []func(e expr.Exp[float64], axis int) expr.Exp[float64]{
	func(e expr.Exp[float64], axis int) expr.Exp[float64] {
		return expr.Sum(e, expr.Axis(axis), expr.KeepDims())
	},
	func(e expr.Exp[float64], axis int) expr.Exp[float64] {
		return expr.Max(e, expr.Axis(axis), expr.KeepDims())
	},
	func(e expr.Exp[float64], axis int) expr.Exp[float64] {
		return expr.Mean(e, expr.Axis(axis), expr.KeepDims())
	},
	func(e expr.Exp[float64], _ int) expr.Exp[float64] { return expr.Min(e) },
}

var spillCombinations = []func(e, s expr.Exp[float64]) expr.Exp[float64]{
	func(e, s expr.Exp[float64]) expr.Exp[float64] { return expr.Div(e, s) },
	func(e, s expr.Exp[float64]) expr.Exp[float64] { return expr.Sub(expr.Mul(e, e), s) },
	func(e, s expr.Exp[float64]) expr.Exp[float64] { return expr.Add(expr.Sqrt(expr.Abs(e)), s) },
	func(e, s expr.Exp[float64]) expr.Exp[float64] { return expr.Where(expr.Gt(e, s), e, s) },
}
