package kernels

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestExplain checks that Explain lists the steps Assign would take, in
// order, with the facts that decide how each runs, and writes nothing.
func TestExplain(t *testing.T) {
	x, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	w, _ := tensor.Arange[float64](0, 12, 1).View(3, 4)
	b := tensor.Arange[float64](0, 3, 1)
	i := tensor.Arange[int32](0, 3, 1)
	big := tensor.Zeros[float32](1024, 1024)
	X, W, B, I := expr.Name("x", x), expr.Name("w", w), expr.Name("b", b), expr.Name("i", i)
	tests := []struct {
		name  string
		plan  func() (string, error)
		steps int
		want  []string // substrings, in order
	}{
		{"fused elementwise", func() (string, error) {
			return Explain(tensor.Full(-1.0, 2, 3), expr.Of(X).MulScalar(2).Add(B).ReLU())
		}, 1, []string{"dst (2,3) float64 = relu(((x * 2) + b))", "one goroutine", "in0  x strides (3,1)",
			"in1  b strides (0,1)", "c0   = 2", "add(multiply(in0, c0), in1)   fused", "out  = relu(v0)"}},
		{"product into dst, then a reduction", func() (string, error) {
			return Explain(tensor.Zeros[float64](2, 4), expr.Add[float64](expr.MatMul[float64](X, W), expr.Sum[float64](W, expr.Axis(0))))
		}, 2, []string{"step 1: t1 (4,) float64 = sum of w over axes (0,) (3 elements each)", "compensated", "out  acc strides (0,1)",
			"fold in0 into out with sum", "step 2: dst (2,4)", "first x @ w: BLAS dgemm (gonum), M=2 K=3 N=4", "straight into dst", "in1  t1 strides (0,1)"}},
		{"transposed operand", func() (string, error) {
			return Explain(tensor.Zeros[float64](3, 3), expr.MatMul[float64](expr.Name("x.T", x.T()), X))
		}, 1, []string{"x.T read as stored, transposed", "nothing to do"}},
		{"product to a temporary", func() (string, error) {
			return Explain(x, expr.Add[float64](X, expr.MatMul[float64](X, expr.Name("eye", tensor.Eye[float64](3)))))
		}, 2, []string{"step 1: t1 (2,3) float64 = x @ eye: BLAS dgemm", "step 2: x (2,3) float64 = (x + (x @ eye))", "in1  t1"}},
		{"overlap copied", func() (string, error) {
			return Explain(x, expr.Add[float64](X, expr.Name("x[::-1]", x.Slice(0, tensor.None, tensor.None, -1))))
		}, 1, []string{"a copy of x[::-1] (it overlaps the destination)"}},
		{"cast", func() (string, error) {
			return Explain(tensor.Zeros[float64](2, 3), expr.Add[float64](X, expr.Cast[float64](I)))
		}, 1, []string{"i (int32, converted) strides (0,1) offset 0, converted per block"}},
		{"integer product and parallel pass", func() (string, error) {
			return Explain(big, expr.Of[float32](big).Tanh())
		}, 1, []string{"split among up to GOMAXPROCS goroutines"}},
		{"integer product", func() (string, error) {
			a := tensor.Zeros[int64](2, 2)
			return Explain(tensor.Zeros[int64](2, 2), expr.Add[int64](expr.MatMul[int64](a, a.Slice(1, tensor.None, tensor.None, -1)), a))
		}, 1, []string{"blocked Go loop", "read through a packed copy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.plan()
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(got, "step "); n != tt.steps {
				t.Errorf("%d steps, want %d:\n%s", n, tt.steps, got)
			}
			rest := got
			for _, w := range tt.want {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[k+len(w):]
			}
		})
	}
}

// TestExplainWritesNothing poisons the destination and checks that Explain
// leaves it, and every operand, as they were, and returns what Assign would
// for a bad tree.
func TestExplainWritesNothing(t *testing.T) {
	a, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	dst := tensor.Full(-7.0, 2, 3)
	before := dst.String()
	if _, err := Explain(dst, expr.Add[float64](expr.MatMul[float64](a, tensor.Eye[float64](3)), expr.Sum[float64](a, expr.Axis(0)))); err != nil {
		t.Fatal(err)
	}
	if _, err := Explain(a, expr.Of[float64](a.T().T()).AddScalar(1)); err != nil {
		t.Fatal(err)
	}
	if dst.String() != before || !cmp.Equal(a.Contiguous().Data(), []float64{0, 1, 2, 3, 4, 5}) {
		t.Errorf("Explain wrote: dst %v, a %v", dst, a)
	}
	_, err := Explain(dst, expr.Add[float64](a, tensor.Zeros[float64](4)))
	var be *shape.BroadcastError
	if !errors.As(err, &be) {
		t.Errorf("Explain of a bad tree = %v, want the BroadcastError Assign gives", err)
	}
}
