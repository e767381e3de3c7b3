package main

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gradInputs are the inputs of the gradient tests (testdata/inputs/gen_grad.py
// writes them): x and y are 2×3 float64 arrays, w a 3×2 one, x32 x as
// float32.
var gradInputs = []string{"-i", "x=x.npy", "-i", "y=y.npy", "-i", "w=w.npy", "-i", "x32=x32.npy", "-i", "a=a.npy", "-i", "i=i.npy"}

// TestGradValues runs exprdemo grad and compares each printed gradient
// with the derivative worked out by hand, which gen_grad.py evaluates with
// NumPy (its comments give each derivation).
func TestGradValues(t *testing.T) {
	tests := []struct {
		name string
		args []string
		wrt  []string    // the -wrt names, in order
		ndim []int       // each gradient's rank
		want [][]float64 // each gradient, flattened
	}{
		{"square", []string{"sum(x * x)"}, []string{"x"}, []int{2},
			[][]float64{{1.0, -2.0, 4.0, 3.0, 0.5, -6.0}}},
		{"stop_gradient", []string{"sum(x * stop_gradient(x))"}, []string{"x"}, []int{2},
			[][]float64{{0.5, -1.0, 2.0, 1.5, 0.25, -3.0}}}, // x, not 2x
		{"sin_mul", []string{"sum(sin(x) * y)"}, []string{"x", "y"}, []int{2, 2}, [][]float64{
			{1.755165123780745, 0.2701511529340698, 0.4161468365471424, 0.2122116050031087, -1.93782484342129, -0.9899924966004454},
			{0.47942553860420295, -0.8414709848078965, 0.9092974268256816, 0.9974949866040544, 0.24740395925452296, -0.1411200080598672}}},
		{"matmul", []string{"sum(x @ w)"}, []string{"x", "w"}, []int{2, 2}, [][]float64{
			{3.0, -0.5, -1.75, 3.0, -0.5, -1.75},
			{2.0, 2.0, -0.75, -0.75, -1.0, -1.0}}},
		{"matmul_mean_square", []string{"mean((x @ w) ** 2)"}, []string{"x", "w"}, []int{2, 2}, [][]float64{
			{-2.5, -1.875, 3.75, 9.375, 2.03125, -9.0625},
			{0.875, 5.96875, -0.9375, 2.890625, 1.25, -17.1875}}},
		{"broadcast", []string{"sum(x * w[:, 0])"}, []string{"x", "w"}, []int{2, 2}, [][]float64{
			{1.0, -1.0, 0.25, 1.0, -1.0, 0.25},
			{2.0, 0.0, -0.75, 0.0, -1.0, 0.0}}},
		{"view", []string{"sum(x.T[::2] ** 2)"}, []string{"x"}, []int{2},
			[][]float64{{1.0, 0.0, 4.0, 3.0, 0.0, -6.0}}},
		{"max", []string{"max(x)"}, []string{"x"}, []int{2},
			[][]float64{{0, 0, 1, 0, 0, 0}}},
		{"vjp", []string{"-v", "y", "sin(x)"}, []string{"x"}, []int{2}, [][]float64{
			{1.755165123780745, 0.2701511529340698, 0.4161468365471424, 0.2122116050031087, -1.93782484342129, -0.9899924966004454}}},
		{"float32", []string{"sum(x32 * y)"}, []string{"x32"}, []int{2},
			[][]float64{{2.0, 0.5, -1.0, 3.0, -2.0, 1.0}}},
		{"mean", []string{"mean(x)"}, []string{"x"}, []int{2},
			[][]float64{{1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6}}},
		{"logsumexp", []string{"logsumexp(x)"}, []string{"x"}, []int{2}, [][]float64{
			{0.10831772661676738, 0.02416895168691315, 0.48544637150223285, 0.2944381079623534, 0.08435793030965277, 0.003270911922080398}}},
		{"int_cast", []string{"sum(float64(int32(x)) + x)"}, []string{"x"}, []int{2},
			[][]float64{{1, 1, 1, 1, 1, 1}}},
		{"where", []string{"sum(where(x > 0, x, 0))"}, []string{"x"}, []int{2},
			[][]float64{{1, 0, 1, 1, 1, 0}}},
		{"integer_input_alongside", []string{"sum(x * i)"}, []string{"x"}, []int{2},
			[][]float64{{0, 1, 2, 3, 4, 5}}},
		{"index_reverse", []string{"sum(x[None, 1, ::-1] * y[0])"}, []string{"x"}, []int{2},
			[][]float64{{0, 0, 0, -1, 0.5, 2}}},
		{"matmul_element", []string{"(x @ w)[1, 0]"}, []string{"x"}, []int{2},
			[][]float64{{0, 0, 0, 1, -1, 0.25}}},
		{"cumsum", []string{"sum(cumsum(x, axis=1) * y)"}, []string{"x"}, []int{2},
			[][]float64{{1.5, -0.5, -1, 2, -1, 1}}},
		{"softmax", []string{"sum(softmax(x, axis=1) * y)"}, []string{"x"}, []int{2}, [][]float64{
			{0.4234069242309495, 0.035805994905574685, -0.4592129191365242, 0.8639628413972233, -0.8564384091767786, -0.007524432220444871}}},
		{"std", []string{"std(x)"}, []string{"x"}, []int{2}, [][]float64{
			{0.045991702477017456, -0.10452659653867605, 0.19651000149271095, 0.14633723515414646, 0.02090531930773521, -0.30521766189293403}}},
		{"scalar_input", []string{"-rand", "s=()", "s * sum(x)"}, []string{"s"}, []int{0},
			[][]float64{{0.25}}},
		{"one_element_not_scalar", []string{"sum(x * x, keepdims=True)"}, []string{"x"}, []int{2},
			[][]float64{{1.0, -2.0, 4.0, 3.0, 0.5, -6.0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"grad", "-wrt", strings.Join(tt.wrt, ",")}, gradInputs...)
			got, code := runCLI(t, append(args, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit status %d:\n%s", code, got)
			}
			grads := parseGrads(t, got)
			if len(grads) != len(tt.wrt) {
				t.Fatalf("printed %d gradients, want %d:\n%s", len(grads), len(tt.wrt), got)
			}
			for k, name := range tt.wrt {
				g := grads[k]
				if g.name != name || g.ndim != tt.ndim[k] || len(g.values) != len(tt.want[k]) {
					t.Errorf("gradient %d: %s of rank %d with %d values, want %s of rank %d with %d:\n%s",
						k, g.name, g.ndim, len(g.values), name, tt.ndim[k], len(tt.want[k]), got)
					continue
				}
				for j, w := range tt.want[k] {
					// NumPy prints 8 digits after the point.
					if math.Abs(g.values[j]-w) > 1e-8*math.Max(1, math.Abs(w)) {
						t.Errorf("d/d%s element %d = %v, want %v:\n%s", name, j, g.values[j], w, got)
					}
				}
			}
		})
	}
}

// printedGrad is one "grad NAME:" section of exprdemo grad's output.
type printedGrad struct {
	name   string
	ndim   int // the array's rank: how many [ open it
	values []float64
}

var (
	gradHeader = regexp.MustCompile(`(?m)^grad (\w+):\n`)
	number     = regexp.MustCompile(`[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)`)
)

// parseGrads reads the gradients a transcript printed (without -tree).
func parseGrads(t *testing.T, transcript string) []printedGrad {
	t.Helper()
	body, _, _ := strings.Cut(transcript, "[exit status")
	_, body, _ = strings.Cut(body, "\n") // the command line
	heads := gradHeader.FindAllStringSubmatchIndex(body, -1)
	var out []printedGrad
	for k, h := range heads {
		end := len(body)
		if k+1 < len(heads) {
			end = heads[k+1][0]
		}
		text := strings.TrimSpace(body[h[1]:end])
		g := printedGrad{name: body[h[2]:h[3]], ndim: len(text) - len(strings.TrimLeft(text, "["))}
		for _, s := range number.FindAllString(text, -1) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			g.values = append(g.values, v)
		}
		out = append(out, g)
	}
	return out
}

// TestGradErrors checks the exit status and the message of each failure:
// one line on stderr naming what is at fault.
func TestGradErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in the message
	}{
		{"not_one_element", []string{"-wrt", "x", "sin(x)"}, 1,
			"sin(x) has shape (2,3), 6 elements: a gradient needs a one-element value, as PyTorch's backward() does; take sum(sin(x))"},
		{"integer_wrt", []string{"-wrt", "i", "sum(x * i)"}, 1, "-wrt i: input i is int32; gradients need float32 or float64 inputs"},
		{"bool_value", []string{"-wrt", "x", "(x > 0).sum()"}, 1, "the expression's dtype is int64; a gradient needs a float32 or float64 value"},
		{"unused", []string{"-wrt", "x,y", "sum(x)"}, 1, "column 1: sum(x) does not use input y"},
		{"mask", []string{"-wrt", "x", "sum(x * 2) + sum(x[x > 0])"}, 1,
			"column 18: x[x > 0]: a boolean mask index is computed when the expression is built, so no gradient flows through it to x"},
		{"v_shape", []string{"-wrt", "x", "-v", "w", "sin(x)"}, 1, "-v w: the cotangent has shape (3,2); it must have the expression's shape (2,3)"},
		{"syntax", []string{"-wrt", "x", "sum(x +)"}, 1, "syntax error at column 8"},
		{"unknown_name_in_expression", []string{"-wrt", "x", "sum(x * z)"}, 1, `unknown name "z"`},
		{"unknown_wrt", []string{"-wrt", "z", "sum(x)"}, 2, "-wrt z: no input is named z (define it with -i z=file.npy or -rand z=2x3) (see exprdemo grad -h)"},
		{"unknown_v", []string{"-wrt", "x", "-v", "z", "sin(x)"}, 2, "-v z: no input is named z"},
		{"no_wrt", []string{"sum(x)"}, 2, "grad: -wrt is required"},
		{"wrt_twice", []string{"-wrt", "x", "-wrt", "y,x", "sum(x * y)"}, 2, "-wrt: x is named twice"},
		{"wrt_list", []string{"-wrt", "x,,y", "sum(x * y)"}, 2, "-wrt x,,y: want input names separated by commas"},
		{"no_expression", []string{"-wrt", "x"}, 2, "grad: missing the expression to differentiate"},
		{"device", []string{"-wrt", "x", "-device", "tpu", "sum(x)"}, 2, "-device tpu: unknown device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"grad"}, gradInputs...), tt.args...)
			got, code := runCLI(t, args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d:\n%s", code, tt.code, got)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("the message lacks %q:\n%s", tt.want, got)
			}
			if strings.Contains(got, "grad x:") || strings.Contains(got, "panic") {
				t.Errorf("printed a gradient or a panic:\n%s", got)
			}
			// The transcript's lines: the command, the message, the status.
			if lines := strings.Count(got, "\n") - 2; lines != 1 && tt.name != "syntax" {
				t.Errorf("the error takes more than one line:\n%s", got)
			}
		})
	}
}

// TestGradTree checks that -tree and -explain print each gradient's tree
// (reading the expression's own nodes) and its plan, before its values.
func TestGradTree(t *testing.T) {
	got, code := runCLI(t, append(append([]string{"grad", "-tree", "-wrt", "x"}, gradInputs...), "sum(sin(x) * y)")...)
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, got)
	}
	// d/dx sum(sin(x) * y) is the seed times y times cos(x).
	for _, want := range []string{"grad x:\ntree:   ", "cos(", "y", "\n[[ 1.75516512  0.27015115  0.41614684]\n [ 0.21221161 -1.93782484 -0.9899925 ]]\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("-tree output lacks %q:\n%s", want, got)
		}
	}
	got, code = runCLI(t, append(append([]string{"grad", "-explain", "-wrt", "x,y"}, gradInputs...), "sum(sin(x) * y)")...)
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, got)
	}
	for _, want := range []string{"parsed: sum((sin(x) * y))\n", "shape:  ()\ndtype:  float64\n", "grad x:\ntree:   ", "grad y:\ntree:   ", "plan:\nstep 1:", "out  = "} {
		if !strings.Contains(got, want) {
			t.Errorf("-explain output lacks %q:\n%s", want, got)
		}
	}
	// x32's gradient is float32, though the expression computes in float64.
	got, code = runCLI(t, append(append([]string{"grad", "-explain", "-wrt", "x32"}, gradInputs...), "sum(x32 * y)")...)
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, got)
	}
	for _, want := range []string{"dtype:  float64\n", "grad x32:\n", "dst (2,3) float32 = "} {
		if !strings.Contains(got, want) {
			t.Errorf("-explain output lacks %q:\n%s", want, got)
		}
	}
}

// TestGradHelp checks that grad -h prints the command's help, with the
// decisions a user needs (no implicit sum, float inputs), and succeeds.
func TestGradHelp(t *testing.T) {
	got, code := runCLI(t, "grad", "-h")
	if code != 0 {
		t.Errorf("exit status %d:\n%s", code, got)
	}
	for _, want := range []string{"usage: exprdemo grad -wrt", "as PyTorch's backward() requires a scalar", "-v name", "integer or bool dtype is an error"} {
		if !strings.Contains(got, want) {
			t.Errorf("the help lacks %q:\n%s", want, got)
		}
	}
}
