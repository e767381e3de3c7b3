package kernels

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestCastConversions pins Go's conversion rules, which Cast documents.
func TestCastConversions(t *testing.T) {
	floats := mustFrom(t, []float64{-2.7, -0.5, 0.5, 2.7, 1e10}, 5)
	ints := mustFrom(t, []int64{300, -129, 255, 1 << 40, -1}, 5)
	tests := []struct {
		name string
		e    expr.Exp[int64]
		want []int64
	}{
		{"float64 to int32 truncates toward zero", expr.Cast[int64](expr.Cast[int32](floats.Slice(0, 0, 4, 1))), []int64{-2, 0, 0, 2}},
		{"float64 to int64", expr.Cast[int64](floats), []int64{-2, 0, 0, 2, 10_000_000_000}},
		{"int64 to int8 wraps", expr.Cast[int64](expr.Cast[int8](ints)), []int64{44, 127, -1, 0, -1}},
		{"int64 to uint8 wraps", expr.Cast[int64](expr.Cast[uint8](ints)), []int64{44, 127, 255, 0, 255}},
	}
	for _, tt := range tests {
		got, err := Eval(tt.e)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, values(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	f32, err := Eval[float32](expr.Cast[float32](mustFrom(t, []float64{0.1, 1 << 25}, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float32{0.1, 1 << 25}, values(f32)); diff != "" {
		t.Errorf("float64 to float32 rounds to nearest (-want +got):\n%s", diff)
	}
}

// TestCastFuses checks that a cast of a tensor is read through a conversion
// in the pass (no temporary), whatever its layout, and that a cast of a tree
// computes the tree once.
func TestCastFuses(t *testing.T) {
	ints := seq[int32](3, 4)
	x := seq[float64](4, 3).T()
	e := expr.Mul[float64](expr.Cast[float64](ints), x)
	checkCast(t, e, 0)
	checkCast(t, expr.Add[float64](expr.Cast[float64](ints.Index(0, 2)), x), 0)                                // broadcast: a stride-0 leaf
	checkCast(t, expr.Add[float64](expr.Cast[float64](ints.Slice(1, tensor.None, tensor.None, -1)), x), 0)     // reversed
	checkCast(t, expr.Add[float64](expr.Cast[float64](expr.Of[int32](ints).MulScalar(3).AddScalar(-1)), x), 1) // a tree: computed once
}

func checkCast(t *testing.T, e expr.Exp[float64], temps int) {
	t.Helper()
	dst := tensor.New[float64](shape.Shape{3, 4})
	ev := newEvaluation("Assign")
	if _, err := lower(ev, assignTo(dst), e, nil); err != nil {
		t.Fatal(err)
	}
	if len(ev.temps) != temps {
		t.Errorf("%v: %d temporaries, want %d", e, len(ev.temps), temps)
	}
	ev.release()
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(refEval(e, shape.Shape{3, 4}), values(dst)); diff != "" {
				t.Errorf("%v under %s (-oracle +fused):\n%s", e, cfg.name, diff)
			}
		})
	}
}

// celsius is an element type defined on a predeclared one.
type celsius float64

// TestCastFromDefinedType checks the one cast the evaluator cannot lower:
// from a defined element type. The error names the node's type and leaves
// dst as it was.
func TestCastFromDefinedType(t *testing.T) {
	temps := tensor.Full(celsius(21.5), 3)
	dst := tensor.Full(7.0, 3)
	err := Assign[float64](dst, expr.Cast[float64](temps))
	if !errors.Is(err, shape.ErrInvalid) {
		t.Fatalf("error %v, want ErrInvalid", err)
	}
	if diff := cmp.Diff([]float64{7, 7, 7}, values(dst)); diff != "" {
		t.Errorf("dst changed:\n%s", diff)
	}
}
