package kernels

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/kernels/internal/cpu"
	packed "github.com/laze-go/laze/kernels/internal/gemm"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// epilogueScene is an assignment whose product is written into the
// destination with an elementwise rest over it: the shape the epilogue
// fusion takes.
type epilogueScene[T tensor.Number] struct {
	name string
	dst  *tensor.Tensor[T]
	e    expr.Exp[T]
	fuse bool // whether runFused takes it (where kernels/internal/gemm runs)
	any  bool // a vector (m or n is 1): whether it fuses depends on how its layout coalesces
}

// epilogueScenes are the scenes at sizes from 1×1 to, with large, ones that
// cross kernels/internal/gemm's blocks (several kc steps, mc row blocks and epilogue
// tiles) and run it on several goroutines.
func epilogueScenes[T tensor.Number](large bool) []epilogueScene[T] {
	var out []epilogueScene[T]
	sizes := [][3]int{{1, 1, 1}, {1, 7, 3}, {6, 1, 2}, {3, 5, 7}, {4, 16, 1}, {17, 33, 9}, {70, 90, 130}}
	if large {
		sizes = append(sizes, [3]int{200, 150, 80}, [3]int{40, 270, 300})
	}
	for _, s := range sizes {
		m, n, k := s[0], s[1], s[2]
		fuse := m*n > 1 // a 1×1 pass has no dimension left to walk
		name := shape.Shape{m, n, k}.String()
		a, b := seq[T](m, k), seq[T](k, n)
		bias, col := seq[T](n), seq[T](m, 1)
		ab := expr.MatMul[T](a, b)
		out = append(out,
			epilogueScene[T]{name + "/relu(a@b+bias)", tensor.New[T](shape.Shape{m, n}), expr.ReLU(expr.Add(ab, expr.Of[T](bias))), fuse, m == 1 || n == 1},
			epilogueScene[T]{name + "/(a@b)*(a@b)-col", tensor.New[T](shape.Shape{m, n}), expr.Sub(expr.Mul(ab, ab), expr.Of[T](col)), fuse, m == 1 || n == 1},
			epilogueScene[T]{name + "/a@b*2+3", tensor.New[T](shape.Shape{m, n}), expr.Of(ab).MulScalar(2).AddScalar(3), fuse, m == 1 || n == 1},
			epilogueScene[T]{name + "/padded rows", tensor.New[T](shape.Shape{m, n + 3}).Slice(1, 0, n, 1), expr.ReLU(expr.Add(ab, expr.Of[T](bias))), fuse, m == 1 || n == 1},
			epilogueScene[T]{name + "/a.T@b.T", tensor.New[T](shape.Shape{m, n}), expr.ReLU(expr.Add(expr.MatMul[T](seq[T](k, m).T(), seq[T](n, k).T()), expr.Of[T](bias))), fuse, m == 1 || n == 1},
			// Not fused: a column-major destination, a batch.
			epilogueScene[T]{name + "/column-major dst", tensor.New[T](shape.Shape{n, m}).T(), expr.ReLU(expr.Add(ab, expr.Of[T](bias))), false, m == 1 || n == 1},
			epilogueScene[T]{name + "/batch", tensor.New[T](shape.Shape{2, m, n}), expr.ReLU(expr.Add(expr.MatMul[T](seq[T](2, m, k), b), expr.Of[T](bias))), false, m == 1 || n == 1},
		)
	}
	return out
}

// checkEpilogueFusion runs each scene fused (runFused) and in two passes,
// and compares both with the oracle.
func checkEpilogueFusion[T tensor.Number](t *testing.T, large bool) {
	for _, sc := range epilogueScenes[T](large) {
		t.Run(sc.name, func(t *testing.T) {
			want := refEval(sc.e, sc.dst.Shape())
			for _, fused := range []bool{true, false} {
				zero := tensor.New[T](sc.dst.Shape())
				if err := Assign(sc.dst, expr.Of[T](zero)); err != nil {
					t.Fatal(err)
				}
				ev := newEvaluation("Assign")
				p, err := lower(ev, assignTo(sc.dst), sc.e, nil)
				if err != nil {
					t.Fatal(err)
				}
				if p.first == nil {
					t.Fatal("the product is not written into the destination")
				}
				runHost(ev.copies, ev.pending) // the steps before the pass: a second product's temporary
				cpu.FusionOff.Store(!fused)
				before := cpu.FusedRuns.Load()
				cpu.Execute(&p.Pass)
				cpu.FusionOff.Store(false)
				ran := cpu.FusedRuns.Load() > before
				if wantFused := fused && sc.fuse && cpu.PackedGemm[T](); ran != wantFused && !(fused && sc.any) {
					t.Errorf("fused=%v: the pass ran from the product's epilogue: %v, want %v", fused, ran, wantFused)
				}
				ev.release()
				if got := values(sc.dst); !slices.EqualFunc(want, got, closeEnough[T]) {
					t.Errorf("fused=%v (-want +got):\n%s", fused, cmp.Diff(want, got))
				}
			}
			// And through Assign, which picks.
			if err := Assign(sc.dst, sc.e); err != nil {
				t.Fatal(err)
			}
			if got := values(sc.dst); !slices.EqualFunc(want, got, closeEnough[T]) {
				t.Errorf("Assign (-want +got):\n%s", cmp.Diff(want, got))
			}
		})
	}
}

func TestProductEpilogueFusion(t *testing.T) {
	t.Logf("kernels/internal/gemm kernels: %v", packed.Available())
	configs := evaluatorConfigs
	if testing.Short() { // make test-arm64, under qemu: the tiny blocks' splitting does not depend on the machine
		configs = configs[:1]
	}
	for _, cfg := range configs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			// The tiny blocks are slow at large sizes; -short (make test-arm64, under
			// qemu, where the large scenes take minutes) leaves them out everywhere,
			// and so does the race detector (four minutes of make test's race run;
			// make test's run without -race has them).
			large := cfg.block >= 1024 && !testing.Short() && !raceEnabled
			t.Run(cfg.name+"/float64", func(t *testing.T) { checkEpilogueFusion[float64](t, large) })
			t.Run(cfg.name+"/float32", func(t *testing.T) { checkEpilogueFusion[float32](t, large) })
			t.Run(cfg.name+"/int64", func(t *testing.T) { checkEpilogueFusion[int64](t, false) })
		})
	}
}

// TestProductAtEveryLevel runs the products and their fused epilogues at
// each instruction-set level this CPU runs (isa.Use, as LAZE_CPU would set
// it): kernels/internal/gemm's kernels where it has kernels of its own for the level
// (the AVX2 assembly on amd64), gonum's Gemm and a second pass at Generic.
func TestProductAtEveryLevel(t *testing.T) {
	prev := isa.Selected()
	t.Cleanup(func() { isa.Use(prev) })
	levels := isa.Supported()
	if raceEnabled {
		// The levels differ in the micro-kernels' arithmetic, not in how
		// goroutines share the product: under the race detector (make
		// test's -race pass, whose run without it covers every level) one
		// level is enough, and saves a sixth of the pass.
		levels = []isa.Level{prev}
	}
	for _, l := range levels {
		if _, err := isa.Use(l); err != nil {
			t.Fatal(err)
		}
		t.Run(l.String(), func(t *testing.T) {
			if l == isa.Generic && cpu.PackedGemm[float64]() {
				t.Error("kernels/internal/gemm's portable kernels are used at the generic level (gonum's Gemm is faster)")
			}
			if cpu.PackedGemm[float32]() != packed.Available() {
				t.Errorf("packedGemm = %v, kernels/internal/gemm's Available = %v", cpu.PackedGemm[float32](), packed.Available())
			}
			t.Run("float64", func(t *testing.T) { checkEpilogueFusion[float64](t, false) })
			// float32 takes the same paths through the driver and epilogue; its micro-kernels are
			// checked directly by kernels/internal/gemm's tests (under qemu too). The race detector and
			// -short (make test-arm64, where this test took 72 s under qemu) leave it out; make
			// test's run without -race has it.
			if raceEnabled || testing.Short() {
				return
			}
			t.Run("float32", func(t *testing.T) { checkEpilogueFusion[float32](t, false) })
		})
	}
}

// TestProductEpilogueNotFused: a tree that reads the destination elsewhere
// keeps the product in a temporary, so there is nothing to fuse.
func TestProductEpilogueNotFused(t *testing.T) {
	a, b := seq[float64](5, 4), seq[float64](4, 5)
	dst := seq[float64](5, 5)
	e := expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](dst.T()))
	want := refEval[float64](expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](dst.Clone().T())), shape.Shape{5, 5})
	ev := newEvaluation("Assign")
	p, err := lower(ev, assignTo(dst), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.first != nil {
		t.Fatal("product written into a destination the tree reads")
	}
	ev.release()
	if err := Assign(dst, e); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, values(dst)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// countingBLAS is gonum's BLAS, counting its Gemm calls.
type countingBLAS struct {
	gonum.Implementation
	dgemm, sgemm atomic.Int64
}

func (c *countingBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	c.dgemm.Add(1)
	c.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func (c *countingBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	c.sgemm.Add(1)
	c.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func TestUseBLAS(t *testing.T) {
	impl := &countingBLAS{}
	UseBLAS64(impl)
	UseBLAS32(impl)
	t.Cleanup(func() { UseBLAS64(nil); UseBLAS32(nil) })
	check64 := func(e expr.Exp[float64], dims shape.Shape) {
		t.Helper()
		dst := tensor.New[float64](dims)
		if err := Assign(dst, e); err != nil {
			t.Fatal(err)
		}
		if got, want := values(dst), refEval(e, dims); !slices.EqualFunc(want, got, closeEnough[float64]) {
			t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
		}
	}
	a, b, bias := seq[float64](30, 20), seq[float64](20, 40), seq[float64](40)
	check64(expr.MatMul[float64](a, b), shape.Shape{30, 40})
	check64(expr.ReLU(expr.Add(expr.MatMul[float64](a, b), expr.Of[float64](bias))), shape.Shape{30, 40})
	check64(expr.MatMul[float64](a.T().T(), seq[float64](40, 20).T()), shape.Shape{30, 40})
	if got := impl.dgemm.Load(); got != 3 {
		t.Errorf("plugged Dgemm called %d times, want 3", got)
	}
	if cpu.PackedGemm[float64]() {
		t.Error("the packed kernels (and their epilogue) are used with a plugged BLAS")
	}
	a32, b32 := seq[float32](9, 7), seq[float32](7, 5)
	e32 := expr.MatMul[float32](a32, b32)
	got32, err := Eval(e32)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(refEval[float32](e32, shape.Shape{9, 5}), values(got32)); diff != "" || impl.sgemm.Load() != 1 {
		t.Errorf("float32 through the plug: Sgemm called %d times, want 1; (-want +got):\n%s", impl.sgemm.Load(), diff)
	}

	UseBLAS64(nil)
	UseBLAS32(nil)
	check64(expr.MatMul[float64](a, b), shape.Shape{30, 40})
	if _, err := Eval(e32); err != nil {
		t.Fatal(err)
	}
	if impl.dgemm.Load() != 3 || impl.sgemm.Load() != 1 {
		t.Errorf("after UseBLAS(nil): Dgemm %d, Sgemm %d calls, want 3 and 1", impl.dgemm.Load(), impl.sgemm.Load())
	}
	if cpu.PackedGemm[float64]() != packed.Available() {
		t.Error("UseBLAS64(nil) did not restore the built-in kernels")
	}
}

// TestUseBLASConcurrent plugs and unplugs while products run (for -race).
func TestUseBLASConcurrent(t *testing.T) {
	t.Cleanup(func() { UseBLAS64(nil) })
	a, b := seq[float64](20, 30), seq[float64](30, 10)
	e := expr.MatMul[float64](a, b)
	want := refEval[float64](e, shape.Shape{20, 10})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			if i%2 == 0 {
				UseBLAS64(&countingBLAS{})
			} else {
				UseBLAS64(nil)
			}
		}
	}()
	for range 50 {
		got, err := Eval(e)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, values(got)); diff != "" {
			t.Fatal(diff)
		}
	}
	<-done
}
