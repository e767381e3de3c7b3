package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// reduceAxes are the axis choices every reduction is tested with on a
// (3,4,5) operand.
var reduceAxes = []struct {
	name string
	opts []expr.ReduceOption
	want shape.Shape
}{
	{"all", nil, shape.Shape{}},
	{"all keepdims", []expr.ReduceOption{expr.KeepDims()}, shape.Shape{1, 1, 1}},
	{"axis 0", []expr.ReduceOption{expr.Axis(0)}, shape.Shape{4, 5}},
	{"axis 1", []expr.ReduceOption{expr.Axis(1)}, shape.Shape{3, 5}},
	{"axis -1", []expr.ReduceOption{expr.Axis(-1)}, shape.Shape{3, 4}},
	{"axis -1 keepdims", []expr.ReduceOption{expr.Axis(-1), expr.KeepDims()}, shape.Shape{3, 4, 1}},
	{"axes 0, 2", []expr.ReduceOption{expr.Axis(0, 2)}, shape.Shape{4}},
	{"axes 2, 0 keepdims", []expr.ReduceOption{expr.Axis(2, 0), expr.KeepDims()}, shape.Shape{1, 4, 1}},
	{"no axis", []expr.ReduceOption{expr.Axis()}, shape.Shape{3, 4, 5}},
}

// reduceOperands are (3,4,5) operands of several layouts: contiguous,
// permuted, stepped and reversed, and a tree.
func reduceOperands[T tensor.Number]() map[string]expr.Exp[T] {
	base := seq[T](3, 4, 5)
	wide := seq[T](3, 8, 5).Slice(1, tensor.None, tensor.None, -2)
	return map[string]expr.Exp[T]{
		"contiguous": base,
		"permuted":   seq[T](5, 3, 4).Permute(1, 2, 0),
		"stepped":    wide,
		"tree":       expr.Add(expr.Mul[T](base, wide), expr.Scalar[T](1)),
	}
}

// checkReduction compares e, evaluated by the fused evaluator under every
// configuration, with the oracle.
func checkReduction[T tensor.Number](t *testing.T, e expr.Exp[T], want shape.Shape) {
	t.Helper()
	info, err := expr.Check(e)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Shape.Equal(want) {
		t.Fatalf("%v: shape %v, want %v", e, info.Shape, want)
	}
	oracle := refEval(e, want)
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			got, err := Eval(e)
			if err != nil {
				t.Fatal(err)
			}
			if g := values(got); !slices.EqualFunc(oracle, g, closeEnough[T]) {
				t.Errorf("%v under %s (-oracle +fused):\n%s", e, cfg.name, cmp.Diff(oracle, g))
			}
		})
	}
}

func TestReduce(t *testing.T) {
	for _, ax := range reduceAxes {
		for _, x := range reduceOperands[float64]() {
			for _, r := range []func(expr.Exp[float64], ...expr.ReduceOption) expr.Exp[float64]{
				expr.Sum[float64], expr.Mean[float64], expr.Prod[float64], expr.Max[float64], expr.Min[float64]} {
				checkReduction[float64](t, r(x, ax.opts...), ax.want)
			}
			checkReduction[float32](t, expr.Sum[float32](expr.Cast[float32](x), ax.opts...), ax.want)
		}
		for _, x := range reduceOperands[int32]() {
			for _, r := range []func(expr.Exp[int32], ...expr.ReduceOption) expr.Exp[int32]{
				expr.Sum[int32], expr.Prod[int32], expr.Max[int32], expr.Min[int32]} {
				checkReduction[int32](t, r(x, ax.opts...), ax.want)
			}
		}
		for _, x := range reduceOperands[uint8]() {
			checkReduction[uint8](t, expr.Sum[uint8](x, ax.opts...), ax.want) // wraps, as Go's uint8 does
		}
	}
}

func TestArgReduce(t *testing.T) {
	tests := []struct {
		name string
		opts []expr.ReduceOption
		want shape.Shape
	}{
		{"flattened", nil, shape.Shape{}},
		{"flattened keepdims", []expr.ReduceOption{expr.KeepDims()}, shape.Shape{1, 1, 1}},
		{"axis 0", []expr.ReduceOption{expr.Axis(0)}, shape.Shape{4, 5}},
		{"axis -1", []expr.ReduceOption{expr.Axis(-1)}, shape.Shape{3, 4}},
		{"axis 1 keepdims", []expr.ReduceOption{expr.Axis(1), expr.KeepDims()}, shape.Shape{3, 1, 5}},
	}
	for _, tt := range tests {
		for _, x := range reduceOperands[float64]() {
			checkReduction[int64](t, expr.ArgMax(x, tt.opts...), tt.want)
			checkReduction[int64](t, expr.ArgMin(x, tt.opts...), tt.want)
		}
		for _, x := range reduceOperands[int8]() {
			checkReduction[int64](t, expr.ArgMax(x, tt.opts...), tt.want)
		}
	}
}

// TestArgReduceTiesAndNaN checks NumPy's rules: the first of equal elements,
// and the first NaN before any number, whatever the goroutines and blocks.
func TestArgReduceTiesAndNaN(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name       string
		data       []float64
		max, min   int64
		dims       []int
		axisMax    []int64
		axisOption []expr.ReduceOption
	}{
		{"ties", []float64{1, 3, 3, 0, 0, 3}, 1, 3, []int{6}, nil, nil},
		{"NaN first", []float64{1, nan, 5, nan, -1}, 1, 1, []int{5}, nil, nil},
		{"all equal", []float64{2, 2, 2, 2}, 0, 0, []int{4}, nil, nil},
		{"infinities", []float64{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}, 2, 0, []int{4}, nil, nil},
		{"rows", []float64{1, 5, 5, 9, 9, 1}, 3, 0, []int{2, 3}, []int64{1, 0}, []expr.ReduceOption{expr.Axis(1)}},
	}
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			for _, tt := range tests {
				x := mustFrom(t, tt.data, tt.dims...)
				for _, c := range []struct {
					e    expr.Exp[int64]
					want int64
				}{{expr.ArgMax[float64](x), tt.max}, {expr.ArgMin[float64](x), tt.min}} {
					got, err := Eval(c.e)
					if err != nil {
						t.Fatal(err)
					}
					if got.Item() != c.want {
						t.Errorf("%s, %s: %v = %d, want %d", cfg.name, tt.name, c.e, got.Item(), c.want)
					}
				}
				if tt.axisMax != nil {
					got, err := Eval[int64](expr.ArgMax[float64](x, tt.axisOption...))
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tt.axisMax, values(got)); diff != "" {
						t.Errorf("%s, %s along the axis (-want +got):\n%s", cfg.name, tt.name, diff)
					}
				}
			}
		})
	}
}

// TestReduceSpecialValues checks NaN propagation through max and min, and
// infinities through compensated sums.
func TestReduceSpecialValues(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		e    func(x *tensor.Tensor[float64]) expr.Exp[float64]
		data []float64
		want float64
	}{
		{"max with NaN", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Max[float64](x) }, []float64{1, nan, 3}, nan},
		{"min with NaN", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Min[float64](x) }, []float64{1, 3, nan}, nan},
		{"sum to +Inf", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x) }, []float64{1, inf, 3}, inf},
		{"sum of +Inf and -Inf", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x) }, []float64{inf, 1, -inf}, nan},
		{"sum that overflows", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x) }, []float64{math.MaxFloat64, math.MaxFloat64}, inf},
		{"compensated", func(x *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x) }, []float64{1, 1e100, 1, -1e100}, 2},
	}
	for _, tt := range tests {
		withConfig(1, 1, 2, func() { // one element per block: the compensation works across blocks
			got, err := Eval(tt.e(mustFrom(t, tt.data, len(tt.data))))
			if err != nil {
				t.Fatal(err)
			}
			if !sameNumber(got.Item(), tt.want) {
				t.Errorf("%s: got %v, want %v", tt.name, got.Item(), tt.want)
			}
		})
	}
}

// TestSumAccuracy checks the accuracy rule: a float32 sum of 1e7 random
// values is within 1e-6 (relative) of the float64 sum of the same values,
// on one goroutine and on several.
func TestSumAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("sums 1e7 values")
	}
	x := tensor.Rand[float32](7, 10_000_000)
	var exact float64
	for v := range x.Values() {
		exact += float64(v)
	}
	naive := float32(0)
	for v := range x.Values() {
		naive += v
	}
	for _, procs := range []int{1, 4} {
		withConfig(cpu.BlockSize, cpu.ParallelThreshold, procs, func() {
			got, err := Eval(expr.Sum[float32](x))
			if err != nil {
				t.Fatal(err)
			}
			if rel := math.Abs(float64(got.Item())-exact) / exact; rel > 1e-6 {
				t.Errorf("%d goroutines: float32 sum %v, float64 sum %v: relative error %.2g > 1e-6 (a running float32 sum errs by %.2g)",
					procs, got.Item(), exact, rel, math.Abs(float64(naive)-exact)/exact)
			}
		})
	}
}

func TestReduceErrors(t *testing.T) {
	x := seq[float64](3, 4)
	empty := tensor.New[float64](shape.Shape{3, 0})
	tests := []struct {
		name    string
		e       expr.Exp[float64]
		kind    error
		message string
	}{
		{"axis out of range", expr.Sum[float64](x, expr.Axis(2)), shape.ErrDimension, "dimension 2 is out of range for rank 2"},
		{"negative axis out of range", expr.Sum[float64](x, expr.Axis(-3)), shape.ErrDimension, "dimension -3"},
		{"repeated axis", expr.Sum[float64](x, expr.Axis(1, -1)), shape.ErrInvalid, "dimension 1 is named twice"},
		{"max of nothing", expr.Max[float64](empty, expr.Axis(1)), shape.ErrShape, "zero-size reduction over axes (1,): max has no identity"},
		{"min of nothing", expr.Min[float64](empty), shape.ErrShape, "min has no identity"},
		{"mean of nothing", expr.Mean[float64](empty, expr.Axis(-1)), shape.ErrShape, "mean has no identity"},
		{"argmax of nothing", expr.Cast[float64](expr.ArgMax[float64](empty)), shape.ErrShape, "argmax has no identity"},
		{"argmax over two axes", expr.Cast[float64](expr.ArgMax[float64](x, expr.Axis(0, 1))), shape.ErrInvalid, "takes one axis"},
		{"mean of integers", expr.Cast[float64](expr.Of[int64](seq[int64](3)).Mean()), shape.ErrDType, "dtype int64"},
	}
	for _, tt := range tests {
		dst := tensor.Full(7.0, 3)
		err := Assign[float64](dst, tt.e)
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.message) {
			t.Errorf("%s: error %v; want %v containing %q", tt.name, err, tt.kind, tt.message)
		}
		if diff := cmp.Diff([]float64{7, 7, 7}, values(dst)); diff != "" {
			t.Errorf("%s: dst changed:\n%s", tt.name, diff)
		}
	}
	var de *shape.DimensionError
	if err := Assign[float64](tensor.New[float64](shape.Shape{3}), expr.Sum[float64](x, expr.Axis(5))); !errors.As(err, &de) || de.Dim != 5 || de.NDim != 2 {
		t.Errorf("error %v: want a DimensionError naming dimension 5 and rank 2", err)
	}
}

// TestReduceEmpty checks the reductions that have an identity over no
// elements, and the empty results of any reduction.
func TestReduceEmpty(t *testing.T) {
	empty := tensor.New[float64](shape.Shape{3, 0})
	tests := []struct {
		name string
		e    expr.Exp[float64]
		want []float64
	}{
		{"sum", expr.Sum[float64](empty, expr.Axis(1)), []float64{0, 0, 0}},
		{"prod", expr.Prod[float64](empty, expr.Axis(1)), []float64{1, 1, 1}},
		{"sum of all", expr.Sum[float64](empty), []float64{0}},
		{"max with no result", expr.Max[float64](empty, expr.Axis(0)), []float64{}},
	}
	for _, tt := range tests {
		got, err := Eval(tt.e)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, values(got), cmp.Comparer(func(a, b []float64) bool { return slices.Equal(a, b) })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestReductionEvaluatedOnce checks that a reduction in a larger tree is
// computed once, and once only when the same node appears twice, and that
// its operand is never materialised: the only temporaries are the
// accumulators, of the result's size.
func TestReductionEvaluatedOnce(t *testing.T) {
	a := seq[float64](50, 40)
	m := expr.Mean[float64](a, expr.Axis(-1), expr.KeepDims())
	tests := []struct {
		name  string
		e     expr.Exp[float64]
		done  int
		temps []shape.Shape
	}{
		{"a - mean(a)", expr.Sub[float64](a, m), 1, []shape.Shape{{50, 1}}},
		{"(a - m) / m with one m", expr.Div(expr.Sub[float64](a, m), expr.Of[float64](m)), 1, []shape.Shape{{50, 1}}},
		{"sum(a * a) is not materialised", expr.Sum[float64](expr.Mul[float64](a, a)), 1, []shape.Shape{{1, 1}}},
	}
	for _, tt := range tests {
		dst := tensor.New[float64](tt.e.Shape())
		ev := newEvaluation("Assign")
		if _, err := lower(ev, assignTo(dst), tt.e, nil); err != nil {
			t.Fatal(err)
		}
		var temps []shape.Shape
		for _, x := range ev.temps {
			temps = append(temps, x.(*tensor.Tensor[float64]).Shape())
		}
		if len(ev.done) != tt.done {
			t.Errorf("%s: %d nodes evaluated, want %d", tt.name, len(ev.done), tt.done)
		}
		if diff := cmp.Diff(tt.temps, temps); diff != "" {
			t.Errorf("%s: temporaries (-want +got):\n%s", tt.name, diff)
		}
		ev.release()
	}
}

// TestReduceParallelSplits checks sums and arg reductions whose work is
// split among goroutines inside one result element and across result
// elements, against a plain loop.
func TestReduceParallelSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]int64, 64*257)
	for i := range data {
		data[i] = int64(r.IntN(1000))
	}
	x := mustFrom(t, data, 64, 257)
	for _, axis := range []int{0, 1} {
		for _, procs := range []int{2, 3, 5} {
			withConfig(16, 1, procs, func() {
				sum, err := Eval[int64](expr.Sum[int64](x, expr.Axis(axis)))
				if err != nil {
					t.Fatal(err)
				}
				arg, err := Eval[int64](expr.ArgMax[int64](x, expr.Axis(axis)))
				if err != nil {
					t.Fatal(err)
				}
				wantSum, wantArg := loopReduce(data, 64, 257, axis)
				if diff := cmp.Diff(wantSum, values(sum)); diff != "" {
					t.Errorf("sum axis %d, %d goroutines (-want +got):\n%s", axis, procs, diff)
				}
				if diff := cmp.Diff(wantArg, values(arg)); diff != "" {
					t.Errorf("argmax axis %d, %d goroutines (-want +got):\n%s", axis, procs, diff)
				}
			})
		}
	}
}

// loopReduce sums and arg-maxes a rows×cols matrix along axis with plain
// loops.
func loopReduce(data []int64, rows, cols, axis int) (sum, arg []int64) {
	outer, inner := rows, cols
	at := func(o, i int) int64 { return data[o*cols+i] }
	if axis == 0 {
		outer, inner = cols, rows
		at = func(o, i int) int64 { return data[i*cols+o] }
	}
	for o := range outer {
		s, best, bi := int64(0), int64(math.MinInt64), int64(0)
		for i := range inner {
			v := at(o, i)
			s += v
			if v > best {
				best, bi = v, int64(i)
			}
		}
		sum, arg = append(sum, s), append(arg, bi)
	}
	return sum, arg
}

// TestArgBetter pins the rule arg reductions share: a NaN beats a number,
// and the lower index wins between equals.
func TestArgBetter(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		v       float64
		vi      int64
		best    float64
		bi      int64
		max     bool
		replace bool
	}{
		{3, 5, 2, 1, true, true},
		{3, 5, 2, 1, false, false},
		{2, 0, 2, 1, true, true},
		{2, 2, 2, 1, true, false},
		{nan, 9, 100, 0, true, true},
		{100, 0, nan, 9, true, false},
		{nan, 3, nan, 4, false, true},
	}
	for _, tt := range tests {
		op := ops.Minimum
		if tt.max {
			op = ops.Maximum
		}
		if got := ops.ArgBetter(op, tt.v, tt.vi, tt.best, tt.bi); got != tt.replace {
			t.Errorf("ArgBetter(%v, %v@%d, %v@%d) = %v, want %v", op, tt.v, tt.vi, tt.best, tt.bi, got, tt.replace)
		}
	}
}

// TestMixedTreeIntoOperand evaluates Sum(relu(a@b + c), 0), the issue's
// mixed tree, into a row of a itself: the product and the sum read a before
// the destination is written, so the result is NumPy's.
func TestMixedTreeIntoOperand(t *testing.T) {
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			a, b, c := seq[float64](4, 3), seq[float64](3, 3), seq[float64](3)
			e := expr.Sum(expr.ReLU(expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](c))), expr.Axis(0))
			want := refEval[float64](expr.Sum(expr.ReLU(expr.Add(expr.MatMul[float64](a.Clone(), b), expr.Of[float64](c))), expr.Axis(0)), shape.Shape{3})
			row := a.Index(0, 2)
			if err := Assign(row, e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, values(row)); diff != "" {
				t.Errorf("%s: a[2] = sum(relu(a@b + c), 0) (-NumPy +laze):\n%s", cfg.name, diff)
			}
		})
	}
}
