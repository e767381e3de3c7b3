package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exprdemo is the command built once for the CLI tests.
var exprdemo string

// standIn, set in the environment, makes the test binary act as exprdemo
// (see TestMain).
const standIn = "EXPRDEMO_TEST_STAND_IN"

// TestMain builds exprdemo for the tests that run the command. Where there
// is no go command (a GPU machine running a test binary built elsewhere,
// make gpu-build), the test binary itself stands in for the command: run
// with standIn set, it runs exprdemo's main instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv(standIn) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if _, err := exec.LookPath("go"); err != nil {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		exprdemo = self
		os.Setenv(standIn, "1") // for the commands the tests start
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "exprdemo")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	exprdemo = filepath.Join(dir, "exprdemo")
	if out, err := exec.Command("go", "build", "-o", exprdemo, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building exprdemo: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runCLI runs the built command in testdata/inputs and returns what it
// printed, as a transcript, and its exit status.
func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(exprdemo, args...)
	cmd.Dir = filepath.Join("testdata", "inputs")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if strings.ContainsAny(a, " *()[]<>!&|'\"") {
			quoted[i] = "'" + a + "'"
		}
	}
	return fmt.Sprintf("$ exprdemo %s\n%s%s[exit status %d]\n", strings.Join(quoted, " "), stdout.String(), stderr.String(), code), code
}

// cliCases are the golden cases: each runs the command and compares its
// transcript with testdata/golden/NAME.txt (go test -update rewrites them).
var cliCases = []struct {
	name string
	args []string
	code int
}{
	{"broadcast", []string{"eval", "-i", "a=a.npy", "-i", "i=i.npy", "a * 2 - i[1]"}, 0},
	{"true_divide", []string{"eval", "-i", "i=i.npy", "i / 4"}, 0},
	{"floor_divide", []string{"eval", "-i", "i=i.npy", "--", "-i // 4"}, 0},
	{"err_leading_minus", []string{"eval", "-i", "i=i.npy", "-i // 4"}, 2},
	{"floor_mod", []string{"eval", "-i", "i=i.npy", "(-i // 4) * 10 + (-i % 4)"}, 0},
	{"compare", []string{"eval", "-i", "a=a.npy", "-i", "b=b.npy", "(a > 2) == b"}, 0},
	{"where", []string{"eval", "-i", "a=a.npy", "where(a % 2 == 0, a, -1)"}, 0},
	{"reductions", []string{"eval", "-i", "i=i.npy", "sum(i, axis=0, keepdims=True) + i.max(axis=1, keepdims=True)"}, 0},
	{"mean", []string{"eval", "-i", "a=a.npy", "a.mean(axis=1)"}, 0},
	{"argmax", []string{"eval", "-i", "a=a.npy", "argmax(a[:, ::-1], axis=1)"}, 0},
	{"nonzero", []string{"eval", "-i", "a=a.npy", "nonzero(a % 2)"}, 0},
	{"unique_counts", []string{"eval", "-i", "a=a.npy", "unique(a // 2, return_counts=True)"}, 0},
	{"matmul_fortran", []string{"eval", "-i", "f=f.npy", "f.T @ f"}, 0},
	{"views", []string{"eval", "-i", "a=a.npy", "a.T[::-2, None] + a.reshape(3, -1)[..., 1:]"}, 0},
	{"index", []string{"eval", "-i", "a=a.npy", "a[-1, 1:]"}, 0},
	{"numpy_views", []string{"eval", "-i", "a=a.npy", "np.broadcast_to(np.diagonal(np.flip(a, -1)), (2, 2)) + np.expand_dims(a.ravel()[:2], 1)"}, 0},
	{"explain_ravel", []string{"eval", "-explain", "-i", "a=a.npy", "np.moveaxis(a, 0, 1).ravel() + (a * 2).swapaxes(0, 1).flatten()"}, 0},
	{"weak_int", []string{"eval", "-i", "u=u.npy", "u + 1"}, 0},
	{"weak_float", []string{"eval", "-i", "f=f.npy", "f * 2.5"}, 0},
	{"python_numbers", []string{"eval", "2 ** 10 // 3 + 7 / 2"}, 0},
	{"cast", []string{"eval", "-i", "a=a.npy", "int8(a * 50)"}, 0},
	{"rand", []string{"eval", "-rand", "x=2x3:int32", "-seed", "7", "x * 2"}, 0},
	{"explain", []string{"eval", "-explain", "-i", "a=a.npy", "relu(a - 2) @ a.T + sum(a)"}, 0},
	{"explain_view_of_expression", []string{"eval", "-explain", "-i", "a=a.npy", "(a + 1).T * 2"}, 0},
	{"err_syntax", []string{"eval", "-i", "a=a.npy", "a + * 2"}, 1},
	{"err_unknown_name", []string{"eval", "-i", "a=a.npy", "a + c"}, 1},
	{"err_broadcast", []string{"eval", "-i", "a=a.npy", "-i", "u=u.npy", "a[0, :2] + u"}, 1},
	{"err_matmul", []string{"eval", "-i", "a=a.npy", "a @ a"}, 1},
	{"err_index", []string{"eval", "-i", "a=a.npy", "a[2]"}, 1},
	{"err_weak_overflow", []string{"eval", "-i", "u=u.npy", "u + 300"}, 1},
	{"err_axis", []string{"eval", "-i", "a=a.npy", "sum(a, axis=2)"}, 1},
	{"err_squeeze", []string{"eval", "-i", "a=a.npy", "np.squeeze(a[None], axis=(0, 1))"}, 1},
	{"err_diagonal", []string{"eval", "-i", "a=a.npy", "np.diagonal(a[0])"}, 1},
	{"err_unknown_function", []string{"eval", "-i", "a=a.npy", "frobnicate(a)"}, 1},
	{"err_missing_file", []string{"eval", "-i", "a=missing.npy", "a"}, 1},
	{"err_bad_file", []string{"eval", "-i", "a=gen.py", "a"}, 1},
	{"err_flag", []string{"eval", "-bogus", "1"}, 2},
	{"err_no_expression", []string{"eval", "-i", "a=a.npy"}, 2},
	{"err_two_expressions", []string{"eval", "a", "b"}, 2},
	{"err_rand_spec", []string{"eval", "-rand", "x=2xy", "x"}, 2},
	{"err_rand_dtype", []string{"eval", "-rand", "x=2:float16", "x"}, 2},
	{"err_device", []string{"eval", "-device", "cuda", "1 + 1"}, 2},
	{"err_command", []string{"evaluate", "1"}, 2},
	{"grad", []string{"grad", "-i", "a=a.npy", "-i", "f=f.npy", "-wrt", "a,f", "sum(sin(a)) + sum(f @ f)"}, 0},
	{"grad_tree", []string{"grad", "-tree", "-i", "a=a.npy", "-wrt", "a", "sum(a * a)"}, 0},
	{"grad_err_not_scalar", []string{"grad", "-i", "a=a.npy", "-wrt", "a", "a * 2"}, 1},
	{"grad_err_integer", []string{"grad", "-i", "i=i.npy", "-wrt", "i", "sum(i * 2.0)"}, 1},
}

func TestCLIGolden(t *testing.T) {
	for _, tt := range cliCases {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "err_device" && openCUDA != nil {
				t.Skip("this exprdemo (the cuda-tagged test binary standing in for it) has a CUDA backend")
			}
			got, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d:\n%s", code, tt.code, got)
			}
			if strings.Contains(got, "goroutine 1 [") || strings.Contains(got, "panic:") {
				t.Errorf("a Go panic reached the user:\n%s", got)
			}
			if tt.code != 0 && strings.Count(strings.TrimSuffix(got, "\n"), "\n") > 2 && !strings.HasPrefix(tt.name, "err_syntax") {
				t.Errorf("the error takes more than one line:\n%s", got)
			}
			golden := filepath.Join("testdata", "golden", tt.name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("transcript (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCLIWritesNumPysBytes runs -o cases whose expected files NumPy wrote
// (testdata/inputs/gen.py): the CLI's .npy must be byte-identical.
func TestCLIWritesNumPysBytes(t *testing.T) {
	tests := []struct {
		want string
		args []string
	}{
		{"want_mixed.npy", []string{"-i", "a=a.npy", "-i", "i=i.npy", "-i", "u=u.npy", "maximum(a * 2 - i, 1) / (u[:, None][:2, :1] + 1)"}},
		{"want_compare.npy", []string{"-i", "a=a.npy", "-i", "b=b.npy", "(a > 2) == b"}},
		{"want_reduce.npy", []string{"-i", "i=i.npy", "i.sum(axis=0, keepdims=True)"}},
		{"want_fortran_T.npy", []string{"-i", "f=f.npy", "f.T @ f"}},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.npy")
			transcript, code := runCLI(t, append([]string{"eval", "-o", out}, tt.args...)...)
			if code != 0 || strings.Count(transcript, "\n") != 2 {
				t.Fatalf("want a silent success:\n%s", transcript)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "inputs", tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("wrote\n%q\nNumPy wrote\n%q", got, want)
			}
		})
	}
}
