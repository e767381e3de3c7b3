package ops_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/ops/opcases"
	"github.com/laze-go/laze/tensor"
)

// result is one case's value, named after the case, so that a diff says
// which input went wrong.
type result[T tensor.Number] struct {
	Case  string
	Value T
}

func caseName(op ops.Op, dtype string, a, b, c any) string {
	args := []any{a, b, c}[:op.Arity()]
	return fmt.Sprintf("%s %s%v", dtype, op, args)
}

// floatResults returns, for every case, the wanted value and the one that
// eval computes from the case's operands, in float64 and in float32.
func floatResults(cases []opcases.Float, eval64 func(ops.Op, float64, float64, float64) float64,
	eval32 func(ops.Op, float32, float32, float32) float32) (want64, got64 []result[float64], want32, got32 []result[float32]) {
	for _, c := range cases {
		name := caseName(c.Op, "float64", c.A, c.B, c.C)
		want64 = append(want64, result[float64]{name, c.F64})
		got64 = append(got64, result[float64]{name, eval64(c.Op, c.A, c.B, c.C)})
		a, b, cc := float32(c.A), float32(c.B), float32(c.C)
		name = caseName(c.Op, "float32", a, b, cc)
		want32 = append(want32, result[float32]{name, c.F32})
		got32 = append(got32, result[float32]{name, eval32(c.Op, a, b, cc)})
	}
	return
}

// TestApplyWorkedValues runs every worked case (opcases) through ops.Apply,
// the scalar form of the Go column, which the generated loops share.
func TestApplyWorkedValues(t *testing.T) {
	for _, set := range opcases.FloatSets {
		want64, got64, want32, got32 := floatResults(set.Cases, ops.Apply[float64], ops.Apply[float32])
		if diff := cmp.Diff(want64, got64, set.Opt); diff != "" {
			t.Errorf("%s float64 cases (-want +got):\n%s", set.Name, diff)
		}
		if diff := cmp.Diff(want32, got32, set.Opt); diff != "" {
			t.Errorf("%s float32 cases (-want +got):\n%s", set.Name, diff)
		}
	}
	var want, got []result[int64]
	for _, c := range opcases.Ints {
		name := caseName(c.Op, c.DType, c.A, c.B, c.C)
		want = append(want, result[int64]{name, c.Want})
		got = append(got, result[int64]{name, applyInt(c)})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("integer cases (-want +got):\n%s", diff)
	}
}

// applyInt computes an integer case with ops.Apply in its element type.
func applyInt(c opcases.Int) int64 {
	switch c.DType {
	case "int64":
		return ops.Apply(c.Op, c.A, c.B, c.C)
	case "int8":
		return int64(ops.Apply(c.Op, int8(c.A), int8(c.B), int8(c.C)))
	case "uint8":
		return int64(ops.Apply(c.Op, uint8(c.A), uint8(c.B), uint8(c.C)))
	}
	panic("opcases: unknown dtype " + c.DType)
}

// TestWorkedValuesCoverTable fails when an op has no exact float case, and
// checks that every integer case's values fit its type.
func TestWorkedValuesCoverTable(t *testing.T) {
	covered := map[ops.Op]bool{}
	for _, c := range opcases.Floats {
		covered[c.Op] = true
		if !c.Op.Def().Domain.Accepts(true) {
			t.Errorf("%v is defined for integers only, but has a case in opcases.Floats", c.Op)
		}
	}
	intCovered := map[ops.Op]bool{}
	for _, c := range opcases.Ints {
		intCovered[c.Op] = true
	}
	for _, op := range ops.All() {
		switch {
		case op.Def().Domain == ops.IntOnly && !intCovered[op]:
			t.Errorf("%v has no case in opcases.Ints", op)
		case op.Def().Domain != ops.IntOnly && !covered[op]:
			t.Errorf("%v has no case in opcases.Floats", op)
		}
	}
	bounds := map[string][2]int64{"int64": {math.MinInt64, math.MaxInt64}, "int8": {math.MinInt8, math.MaxInt8}, "uint8": {0, math.MaxUint8}}
	for _, c := range opcases.Ints {
		b, ok := bounds[c.DType]
		if !ok {
			t.Errorf("case %v: unknown dtype %q", c.Op, c.DType)
		}
		for _, v := range []int64{c.A, c.B, c.C, c.Want} {
			if v < b[0] || v > b[1] {
				t.Errorf("%s case %v: %d does not fit", c.DType, c.Op, v)
			}
		}
		if !c.Op.Def().Domain.Accepts(false) {
			t.Errorf("%s case %v: the op takes floats only", c.DType, c.Op)
		}
	}
}
