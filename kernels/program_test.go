package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// programCase is a tree over x (4×6) and y (6×6) to compile into d.
type programCase struct {
	name string
	dims []int
	tree func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64]
}

// programCases cover every step kind a Program keeps: a fused pass,
// reductions of each kind (folded rows, columns, arg, mean, var, banded
// softmax), a product with its epilogue, a scan, a concatenation, a cast,
// a reordering view, an operand copied aside (the destination overlaps it
// reversed) and an in-place update.
func programCases() []programCase {
	return []programCase{
		{"elementwise", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Add(expr.Mul[float64](x, x), expr.Exponential[float64](x))
		}},
		{"row sum", []int{4}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x, expr.Axis(1)) }},
		{"column max", []int{6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Max[float64](x, expr.Axis(0)) }},
		{"argmin", []int{4}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Cast[float64](expr.ArgMin[float64](x, expr.Axis(1)))
		}},
		{"layer norm", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Div(expr.Sub[float64](x, expr.Mean[float64](x, expr.Axis(1), expr.KeepDims())),
				expr.Sqrt(expr.Add(expr.Var[float64](x, expr.Axis(1), expr.KeepDims()), expr.Scalar(1e-5))))
		}},
		{"softmax", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] { return expr.Softmax[float64](x, 1) }},
		{"product with epilogue", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Tanh(expr.Add(expr.MatMul[float64](x, y), expr.Scalar(1.0)))
		}},
		{"cumsum", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] { return expr.CumSum[float64](x, 1) }},
		{"concatenate", []int{10, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Concatenate[float64](0, x, expr.Neg[float64](y))
		}},
		{"cast", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Cast[float64](expr.Cast[float32](x))
		}},
		{"transposed", []int{6, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Sub[float64](y.T(), y)
		}},
		{"destination read reversed", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Add[float64](d.Slice(1, tensor.None, tensor.None, -1), x)
		}},
		{"in place", []int{4, 6}, func(x, y, d *tensor.Tensor[float64]) expr.Exp[float64] {
			return expr.Mul(expr.Add[float64](d, x), expr.Scalar(0.5))
		}},
	}
}

// TestProgramRunsWhatAssignWrites compiles each case, then three times
// gives x, y and the destination new contents and runs the program: the
// destination must hold the bits Assign writes into a copy of it.
func TestProgramRunsWhatAssignWrites(t *testing.T) {
	for _, tc := range programCases() {
		t.Run(tc.name, func(t *testing.T) {
			x, y := tensor.Zeros[float64](4, 6), tensor.Zeros[float64](6, 6)
			d := tensor.Zeros[float64](tc.dims...)
			e := tc.tree(x, y, d)
			prog, err := Compile(d, e)
			if err != nil {
				t.Fatal(err)
			}
			defer prog.Release()
			r := rand.New(rand.NewPCG(1, 2))
			for run := range 3 {
				for _, u := range []*tensor.Tensor[float64]{x, y, d} {
					for i := range u.Data() {
						u.Data()[i] = r.NormFloat64()
					}
				}
				want := d.Clone()
				we := tc.tree(x, y, want) // the same tree, over the copy where it reads d
				if err := Assign(want, we); err != nil {
					t.Fatal(err)
				}
				if err := prog.Run(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(bitsOf(want.Data()), bitsOf(d.Data())); diff != "" {
					t.Fatalf("run %d: (-Assign +Program.Run):\n%s", run, diff)
				}
			}
		})
	}
}

func bitsOf(v []float64) []uint64 {
	b := make([]uint64, len(v))
	for i, x := range v {
		b[i] = math.Float64bits(x)
	}
	return b
}

// TestCompileAllRunsWhatAssignAllWrites checks CompileAll on a fused pair
// (one pass, two destinations) and an unfused one (a reduction beside an
// elementwise tree), over new contents at each run.
func TestCompileAllRunsWhatAssignAllWrites(t *testing.T) {
	x := tensor.Zeros[float64](5, 7)
	for _, tc := range []struct {
		name string
		dims [][]int
		es   []expr.Exp[float64]
	}{
		{"fused", [][]int{{5, 7}, {5, 7}}, []expr.Exp[float64]{expr.Exponential[float64](x), expr.Mul[float64](x, x)}},
		{"unfused", [][]int{{5}, {5, 7}}, []expr.Exp[float64]{expr.Sum[float64](x, expr.Axis(1)), expr.Neg[float64](x)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsts := []*tensor.Tensor[float64]{tensor.Zeros[float64](tc.dims[0]...), tensor.Zeros[float64](tc.dims[1]...)}
			prog, err := CompileAll(dsts, tc.es)
			if err != nil {
				t.Fatal(err)
			}
			defer prog.Release()
			for run := range 3 {
				for i := range x.Data() {
					x.Data()[i] = float64(run*100+i) / 17
				}
				wants := []*tensor.Tensor[float64]{tensor.Zeros[float64](tc.dims[0]...), tensor.Zeros[float64](tc.dims[1]...)}
				if err := AssignAll(wants, tc.es); err != nil {
					t.Fatal(err)
				}
				if err := prog.Run(); err != nil {
					t.Fatal(err)
				}
				for i := range dsts {
					if diff := cmp.Diff(bitsOf(wants[i].Data()), bitsOf(dsts[i].Data())); diff != "" {
						t.Fatalf("run %d, destination %d (-AssignAll +Program.Run):\n%s", run, i, diff)
					}
				}
			}
		})
	}
}

// TestProgramStale checks that a tensor resized since Compile (another
// shape, or new storage) makes Run fail with a StaleError naming it, and
// write nothing.
func TestProgramStale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		resize func(x, d *tensor.Tensor[float64])
		what   string
	}{
		{"operand reshaped in its storage", func(x, d *tensor.Tensor[float64]) { x.Resize(3, 2) }, "operand tensor(2,3)"},
		{"operand given new storage", func(x, d *tensor.Tensor[float64]) { x.Resize(4, 3) }, "operand tensor(2,3)"},
		{"destination reshaped", func(x, d *tensor.Tensor[float64]) { d.Resize(3, 2) }, "the destination"},
		{"operand released, then resized to its shape", func(x, d *tensor.Tensor[float64]) {
			_ = x.Release()
			x.Resize(2, 3) // new storage, perhaps over the very block the cache had back
		}, "operand tensor(2,3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tensor.Full[float64](2, 2, 3)
			d := tensor.Zeros[float64](2, 3)
			prog, err := Compile(d, expr.Add[float64](x, expr.Scalar(1.0)))
			if err != nil {
				t.Fatal(err)
			}
			defer prog.Release()
			tc.resize(x, d)
			before := d.Clone()
			err = prog.Run()
			var stale *shape.StaleError
			if !errors.Is(err, shape.ErrStale) || !errors.As(err, &stale) || stale.Tensor != tc.what {
				t.Fatalf("Run after Resize: %v, want a StaleError naming %s", err, tc.what)
			}
			if diff := cmp.Diff(before.Storage(), d.Storage()); diff != "" {
				t.Errorf("a stale Run wrote the destination (-before +after):\n%s", diff)
			}
		})
	}
}

// TestProgramNegativeExponent checks that Run checks an integer power's
// exponent values again: a negative one, written after Compile, fails the
// run as it fails Assign, and leaves the destination as it was.
func TestProgramNegativeExponent(t *testing.T) {
	x := tensor.Full[int64](3, 4)
	y := tensor.Full[int64](2, 4)
	d := tensor.Zeros[int64](4)
	prog, err := Compile(d, expr.Pow[int64](x, y))
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Release()
	if err := prog.Run(); err != nil || d.At(3) != 9 {
		t.Fatalf("first run: %v, d = %v", err, d)
	}
	y.Set(-1, 2)
	d.Fill(7)
	err = prog.Run()
	if !errors.Is(err, shape.ErrInvalid) {
		t.Fatalf("run with a negative exponent: %v, want an ArgumentError", err)
	}
	if !strings.Contains(err.Error(), "Program.Run") || strings.Contains(err.Error(), "Compile") {
		t.Errorf("the run's error names %q, want Program.Run, not Compile", err)
	}
	if got := d.Data(); !cmp.Equal(got, []int64{7, 7, 7, 7}) {
		t.Errorf("the failed run wrote %v", got)
	}
}

// TestProgramIndexOutOfRange checks that Run checks a gather's indices
// again: one made out of range after Compile fails the run with a
// NodeError named Program.Run around the IndexError (axis, index, size),
// and leaves the destination as it was.
func TestProgramIndexOutOfRange(t *testing.T) {
	x := tensor.Arange[float64](0, 5, 1)
	idx := tensor.Zeros[int64](3)
	d := tensor.Full[float64](7, 3)
	prog, err := Compile(d, expr.Take[float64](x, idx, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Release()
	idx.Set(5, 1)
	err = prog.Run()
	var ne *shape.NodeError
	var ie *shape.IndexError
	if !errors.As(err, &ne) || ne.Op != "Program.Run" || !errors.As(err, &ie) || ie.Index != 5 || ie.Size != 5 || ie.Dim != 0 {
		t.Fatalf("run with index 5 of 5: %v, want a NodeError of Program.Run around index 5 of axis 0, size 5", err)
	}
	if got := d.Data(); !cmp.Equal(got, []float64{7, 7, 7}) {
		t.Errorf("the failed run wrote %v", got)
	}
}

// TestProgramReleased checks Release's rules: Run after Release panics
// with a ReleaseError, a second Release is one, and Run after one of its
// tensors was released panics as Assign does.
func TestProgramReleased(t *testing.T) {
	x := tensor.Full[float64](1, 3)
	d := tensor.Zeros[float64](3)
	prog, err := Compile(d, expr.Neg[float64](x))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Release(); err != nil {
		t.Fatal(err)
	}
	panicsWith(t, "Run after the operand's Release", shape.ErrReleased, func() { _ = prog.Run() })
	if err := prog.Release(); err != nil {
		t.Fatal(err)
	}
	if err := prog.Release(); !errors.Is(err, shape.ErrReleased) {
		t.Errorf("second Release: %v, want a ReleaseError", err)
	}
	panicsWith(t, "Run after Release", shape.ErrReleased, func() { _ = prog.Run() })
}

func panicsWith(t *testing.T, what string, kind error, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if err, ok := r.(error); !ok || !errors.Is(err, kind) {
			t.Errorf("%s: panic %v, want %v", what, r, kind)
		}
	}()
	f()
}

// TestCompileRefuses checks that Compile returns Assign's errors (here a
// shape mismatch, named for Compile) and CompileAll names the pair.
func TestCompileRefuses(t *testing.T) {
	x := tensor.Zeros[float64](2, 3)
	if _, err := Compile(tensor.Zeros[float64](3, 2), expr.Of(x)); !errors.Is(err, shape.ErrShape) {
		t.Errorf("Compile into another shape: %v, want a ShapeError", err)
	}
	_, err := CompileAll([]*tensor.Tensor[float64]{tensor.Zeros[float64](2, 3), tensor.Zeros[float64](2)}, []expr.Exp[float64]{x, x})
	if !errors.Is(err, shape.ErrShape) || err.Error()[:7] != "pair 1:" {
		t.Errorf("CompileAll with pair 1 mismatched: %v, want pair 1's ShapeError", err)
	}
}

// TestProgramRunAllocatesNothing checks that running a compiled poly4
// allocates nothing.
func TestProgramRunAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items at random: allocation counts are meaningless")
	}
	x := tensor.Randn[float64](1, 1000)
	d := tensor.Zeros[float64](1000)
	e := expr.Of(x).MulScalar(0.5).AddScalar(0.25).Mul(x).AddScalar(2).Mul(x).AddScalar(1)
	prog, err := Compile(d, e)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Release()
	if n := testing.AllocsPerRun(50, func() { _ = prog.Run() }); n != 0 {
		t.Errorf("Program.Run allocates %v times per run", n)
	}
}

// TestProgramConcurrentRuns runs one Program from several goroutines at
// once (run it with -race): the runs are serialised, each complete.
func TestProgramConcurrentRuns(t *testing.T) {
	x := tensor.Randn[float64](3, 64, 100)
	d := tensor.Zeros[float64](64, 100)
	prog, err := Compile(d, expr.Softmax[float64](x, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Release()
	want := tensor.Zeros[float64](64, 100)
	if err := Assign(want, expr.Softmax[float64](x, 1)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				if err := prog.Run(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if diff := cmp.Diff(bitsOf(want.Data()), bitsOf(d.Data())); diff != "" {
		t.Errorf("(-Assign +Program.Run):\n%s", diff)
	}
}
