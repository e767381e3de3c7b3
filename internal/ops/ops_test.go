package ops

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTableComplete checks every row: a unique name, an arity from 1 to 3, a
// Go and a CUDA definition using exactly the operands the arity gives, and
// CUDA helpers that Prelude defines.
func TestTableComplete(t *testing.T) {
	names := map[string]Op{}
	operand := regexp.MustCompile(`\b[abc]\b`)
	helper := regexp.MustCompile(`laze_[a-z0-9]+`)
	for _, op := range All() {
		def := op.Def()
		if prev, dup := names[def.Name]; dup {
			t.Errorf("ops %d and %d are both named %q", prev, op, def.Name)
		}
		names[def.Name] = op
		if def.Arity < 1 || def.Arity > 3 {
			t.Errorf("%s: arity %d", def.Name, def.Arity)
		}
		want := []string{"a", "b", "c"}[:def.Arity]
		for lang, src := range map[string]string{"Go": def.Go, "CUDA": def.CUDA} {
			used := map[string]bool{}
			for _, m := range operand.FindAllString(src, -1) {
				used[m] = true
			}
			var got []string
			for _, v := range []string{"a", "b", "c"} {
				if used[v] {
					got = append(got, v)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: %s definition %q uses operands (-want +got):\n%s", def.Name, lang, src, diff)
			}
		}
		for _, h := range helper.FindAllString(def.CUDA, -1) {
			if !strings.Contains(Prelude, " "+h+"(") {
				t.Errorf("%s: CUDA helper %s is not defined in Prelude", def.Name, h)
			}
		}
	}
}

func TestOpMethods(t *testing.T) {
	if Add.String() != "add" || Add.Arity() != 2 || !Add.Valid() {
		t.Errorf("Add: %q arity %d valid %v", Add.String(), Add.Arity(), Add.Valid())
	}
	if Invalid.Valid() || Invalid.Arity() != 0 || Invalid.String() != "op(0)" {
		t.Errorf("Invalid: %q arity %d valid %v", Invalid.String(), Invalid.Arity(), Invalid.Valid())
	}
	if count.Valid() || Op(200).String() != "op(200)" {
		t.Error("ops past the table are valid")
	}
	defer func() {
		if recover() == nil {
			t.Error("Def of an invalid op did not panic")
		}
	}()
	Invalid.Def()
}

// TestApply checks the generated scalar switch on one case per op, against
// values worked out by hand.
func TestApply(t *testing.T) {
	tests := []struct {
		op      Op
		a, b, c float64
		want    float64
	}{
		{Neg, 2, 0, 0, -2},
		{Abs, -3, 0, 0, 3},
		{Sqrt, 16, 0, 0, 4},
		{Exp, 0, 0, 0, 1},
		{Log, 1, 0, 0, 0},
		{Sin, 0, 0, 0, 0},
		{Cos, 0, 0, 0, 1},
		{Tanh, 0, 0, 0, 0},
		{Sigmoid, 0, 0, 0, 0.5},
		{ReLU, -1, 0, 0, 0},
		{Floor, -1.5, 0, 0, -2},
		{Ceil, -1.5, 0, 0, -1},
		{Trunc, -1.5, 0, 0, -1},
		{Rint, -1.5, 0, 0, -2},
		{Square, -3, 0, 0, 9},
		{Sign, -3, 0, 0, -1},
		{Reciprocal, 4, 0, 0, 0.25},
		{IsNaN, 1, 0, 0, 0},
		{IsFinite, 1, 0, 0, 1},
		{IsInf, 1, 0, 0, 0},
		{LogicalNot, 1, 0, 0, 0},
		{StopGradient, -2.5, 0, 0, -2.5},
		{Tan, 0, 0, 0, 0},
		{Arcsin, 1, 0, 0, math.Pi / 2},
		{Arccos, 1, 0, 0, 0},
		{Arctan, 1, 0, 0, math.Pi / 4},
		{Sinh, 0, 0, 0, 0},
		{Cosh, 0, 0, 0, 1},
		{Arcsinh, 0, 0, 0, 0},
		{Arccosh, 1, 0, 0, 0},
		{Arctanh, 0, 0, 0, 0},
		{Exp2, 3, 0, 0, 8},
		{Expm1, 0, 0, 0, 0},
		{Log2, 8, 0, 0, 3},
		{Log10, 100, 0, 0, 2},
		{Log1p, 0, 0, 0, 0},
		{Cbrt, -8, 0, 0, -2},
		{Erf, 0, 0, 0, 0},
		{Erfc, 0, 0, 0, 1},
		{Rsqrt, 4, 0, 0, 0.5},
		{Deg2rad, 180, 0, 0, math.Pi},
		{Rad2deg, math.Pi, 0, 0, 180},
		{Add, 2, 3, 0, 5},
		{Sub, 2, 3, 0, -1},
		{Mul, 2, 3, 0, 6},
		{Div, 3, 2, 0, 1.5},
		{FloorDiv, -7.5, 2, 0, -4},
		{Mod, -7.5, 2, 0, 0.5},
		{Pow, 2, 3, 0, 8},
		{Maximum, 2, 3, 0, 3},
		{Minimum, 2, 3, 0, 2},
		{Eq, 2, 2, 0, 1},
		{Ne, 2, 2, 0, 0},
		{Lt, 2, 3, 0, 1},
		{Le, 3, 3, 0, 1},
		{Gt, 2, 3, 0, 0},
		{Ge, 2, 3, 0, 0},
		{LogicalAnd, 2, 0, 0, 0},
		{LogicalOr, 2, 0, 0, 1},
		{LogicalXor, 2, 3, 0, 0},
		{Arctan2, 1, -1, 0, 3 * math.Pi / 4},
		{Hypot, 3, 4, 0, 5},
		{Copysign, 2, -0.5, 0, -2},
		{Nextafter, 1, 2, 0, 1 + 0x1p-52},
		{Fmax, math.NaN(), 2, 0, 2},
		{Fmin, 1, math.NaN(), 0, 1},
		{Fmod, -7.5, 2, 0, -1.5},
		{Logaddexp, 0, 0, 0, math.Ln2},
		{Logaddexp2, 3, 3, 0, 4},
		{Heaviside, 0, 0.5, 0, 0.5},
		{Fabs, -2, 0, 0, 2},
		{Positive, -2, 0, 0, -2},
		{Signbit, math.Copysign(0, -1), 0, 0, 1},
		{Spacing, 1, 0, 0, 0x1p-52},
		{Logb, 0.75, 0, 0, -1},
		{Ldexp, 3, 2, 0, 12},
		{FloatPower, 2, 0.5, 0, math.Sqrt2},
		{Where, 0, 1, 2, 2},
		{Clamp, 5, 0, 3, 3},
	}
	covered := map[Op]bool{}
	for _, tt := range tests {
		covered[tt.op] = true
		if got := Apply(tt.op, tt.a, tt.b, tt.c); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("Apply(%v, %v, %v, %v) = %v, want %v", tt.op, tt.a, tt.b, tt.c, got, tt.want)
		}
	}
	integers := []struct {
		op         Op
		a, b, want int32
	}{
		{Invert, 5, 0, -6},
		{BitwiseAnd, 12, 10, 8},
		{BitwiseOr, 12, 10, 14},
		{BitwiseXor, 12, 10, 6},
		{LeftShift, -3, 2, -12},
		{RightShift, -12, 2, -3},
		{Gcd, -12, 18, 6},
		{Lcm, -4, 6, 12},
	}
	for _, tt := range integers {
		covered[tt.op] = true
		if got := Apply(tt.op, tt.a, tt.b, 0); got != tt.want {
			t.Errorf("Apply[int32](%v, %v, %v) = %v, want %v", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
	for _, op := range All() {
		if !covered[op] {
			t.Errorf("op %v has no Apply case here", op)
		}
	}
	if got := Apply[int32](Div, -7, 2, 0); got != -4 {
		t.Errorf("int32 -7 / 2 = %d, want -4 (floor)", got)
	}
}

func TestApplyInvalidPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Apply of an invalid op did not panic")
		}
	}()
	Apply[float64](Invalid, 1, 2, 3)
}
