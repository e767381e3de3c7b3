package interp

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/tensor"
)

// gradInputs are the inputs of the Grad tests: x and y float64 (2,), x32
// float32 (2,), n int64 (2,), v float64 (2,), m float64 (2,2).
func gradInputs(t *testing.T) map[string]Input {
	t.Helper()
	in := map[string]Input{}
	for name, v := range map[string]any{
		"x":   vec([]float64{1, 2}),
		"y":   vec([]float64{3, -1}),
		"v":   vec([]float64{0.5, 2}),
		"x32": vec([]float32{1, 2}),
		"n":   vec([]int64{1, 2}),
	} {
		i, err := NewInput(v, false)
		if err != nil {
			t.Fatal(err)
		}
		in[name] = i
	}
	m, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, []int{2, 2})
	in["m"] = Input{DType: Float64, Tensor: m}
	return in
}

// floats returns a result tensor's elements as float64s.
func floats(t *testing.T, r *Result) []float64 {
	t.Helper()
	switch x := r.Tensor.(type) {
	case *tensor.Tensor[float64]:
		return x.Clone().Data()
	case *tensor.Tensor[float32]:
		var out []float64
		for _, v := range x.Clone().Data() {
			out = append(out, float64(v))
		}
		return out
	}
	t.Fatalf("gradient of type %T", r.Tensor)
	return nil
}

// TestGradValues checks gradients worked by hand: d/dx sum(x*y) = y,
// d/dx sum(sin(x)) = cos(x), the cotangent form d/dx (v·x²) = 2vx, a
// float32 input under a float64 expression, a view of an input, and a
// matrix product (d/dm sum(m @ x) = x broadcast over rows).
func TestGradValues(t *testing.T) {
	tests := []struct {
		name, src string
		wrt       []string
		opts      GradOptions
		want      [][]float64
		dtype     DType
	}{
		{"product", "sum(x * y)", []string{"x", "y"}, GradOptions{}, [][]float64{{3, -1}, {1, 2}}, Float64},
		{"sin", "sum(sin(x))", []string{"x"}, GradOptions{}, [][]float64{{math.Cos(1), math.Cos(2)}}, Float64},
		{"cotangent", "x * x", []string{"x"}, GradOptions{V: "v"}, [][]float64{{1, 8}}, Float64},
		{"float32", "sum(x32 * y)", []string{"x32"}, GradOptions{}, [][]float64{{3, -1}}, Float32},
		{"view", "sum(m.T[0] * x)", []string{"m"}, GradOptions{}, [][]float64{{1, 0, 2, 0}}, Float64}, // m row-major: [[x0, 0], [x1, 0]]
		{"matmul", "sum(m @ x)", []string{"m", "x"}, GradOptions{Explain: true}, [][]float64{{1, 2}, {1, 2}, {4, 6}}, Float64},
		// NumPy's views, taken as view nodes over the inputs.
		{"diagonal", "sum(np.diagonal(m) * x)", []string{"m"}, GradOptions{}, [][]float64{{1, 0, 0, 2}}, Float64},
		{"flip", "sum(np.flip(m, 0)[0] * x)", []string{"m"}, GradOptions{}, [][]float64{{0, 0, 1, 2}}, Float64},
		{"swapaxes", "sum(m.swapaxes(0, 1)[0] * x)", []string{"m"}, GradOptions{}, [][]float64{{1, 0, 2, 0}}, Float64},
		{"moveaxis", "sum(np.moveaxis(m, 0, -1)[0] * x)", []string{"m"}, GradOptions{}, [][]float64{{1, 0, 2, 0}}, Float64},
		{"broadcast_to", "sum(np.broadcast_to(x, (3, 2)))", []string{"x"}, GradOptions{}, [][]float64{{3, 3}}, Float64},
		{"ravel", "sum(m.T.ravel() * np.broadcast_to(x, (2, 2)).ravel())", []string{"m", "x"}, GradOptions{}, [][]float64{{1, 1, 2, 2}, {3, 7}}, Float64},
		{"expand_dims", "sum(np.squeeze(np.expand_dims(x, (0, 2)), axis=(0, -1)) * y)", []string{"x"}, GradOptions{}, [][]float64{{3, -1}}, Float64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Grad(tt.src, gradInputs(t), tt.wrt, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]float64
			for _, r := range g.Grads {
				got = append(got, floats(t, r))
				if tt.opts.Explain && !strings.Contains(r.Plan, "step") {
					t.Errorf("explain: plan %q has no step", r.Plan)
				}
			}
			if tt.name == "matmul" { // m's gradient is 2x2: split it into rows
				got = [][]float64{got[0][:2], got[0][2:], got[1]}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(1e-6, 1e-12)); diff != "" {
				t.Errorf("gradients (-want +got):\n%s", diff)
			}
			if g.Grads[0].DType != tt.dtype {
				t.Errorf("dtype %v; want %v", g.Grads[0].DType, tt.dtype)
			}
		})
	}
}

// TestGradErrors checks that each misuse is an error naming what is at
// fault.
func TestGradErrors(t *testing.T) {
	tests := []struct {
		name, src string
		wrt       []string
		opts      GradOptions
		want      string
	}{
		{"not scalar", "x * y", []string{"x"}, GradOptions{}, "one-element"},
		{"integer expression", "sum(n)", []string{"x"}, GradOptions{}, "float32 or float64"},
		{"unknown cotangent", "x * y", []string{"x"}, GradOptions{V: "w"}, "no input is named w"},
		{"cotangent shape", "sum(x)", []string{"x"}, GradOptions{V: "v"}, "must have the expression's shape"},
		{"unknown wrt", "sum(x)", []string{"z"}, GradOptions{}, "no input is named z"},
		{"integer wrt", "sum(x * n)", []string{"n"}, GradOptions{}, "gradients need float32 or float64 inputs"},
		{"unused", "sum(x)", []string{"y"}, GradOptions{}, "does not use input y"},
		{"mask", "sum(x[x > 1])", []string{"x"}, GradOptions{}, "boolean mask"},
		{"parse", "sum(x", []string{"x"}, GradOptions{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Grad(tt.src, gradInputs(t), tt.wrt, tt.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q; want it to contain %q", err, tt.want)
			}
		})
	}
}
