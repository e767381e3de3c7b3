package kernels

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/kernels/internal/device"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden CUDA sources in testdata/cuda")

// virtualGPU hands out device tensors with no memory behind them, for
// kernels too large to allocate.
var virtualGPU = fakedev.NewVirtual(alloc.CUDA(6))

// goldenCases are representative trees whose generated source is kept in
// testdata/cuda: one per path of the generator.
func goldenCases() []cudaCase {
	a := tensor.Arange[float32](0, 12, 1)
	a34, _ := a.View(3, 4)
	b34 := tensor.Ones[float32](3, 4)
	row := tensor.Ones[float32](4)
	d34 := tensor.Zeros[float32](3, 4)
	x := expr.Of[float32](a34)
	huge := tensor.Empty[int8](shape.Shape{1 << 16, 1 << 15}, tensor.WithAllocator(virtualGPU))
	hugeT := tensor.Empty[int8](shape.Shape{1 << 15, 1 << 16}, tensor.WithAllocator(virtualGPU))
	i64 := tensor.Arange[int64](0, 12, 1)
	cases := []cudaCase{
		{"contiguous", func() (string, error) {
			// poly4: a*a*a*a + 2a*a*a - 3a + 1, every scalar a parameter
			return CUDASource(d34, x.Mul(a34).Mul(a34).Mul(a34).Add(x.MulScalar(2).Mul(a34).Mul(a34)).Sub(x.MulScalar(3)).AddScalar(1))
		}},
		{"broadcast", func() (string, error) { return CUDASource(d34, x.Mul(row).Add(expr.Scalar[float32](0.5))) }},
		{"transposed", func() (string, error) {
			return CUDASource(d34.T(), expr.Of[float32](b34.T()).Sub(d34.T()).Maximum(a34.T()))
		}},
		{"view_of_expression", func() (string, error) {
			// (x + row).T: both operands read through views, row expanded
			return CUDASource(tensor.Zeros[float32](4, 3), x.Add(row).T())
		}},
		{"reduction", func() (string, error) {
			return CUDASource(tensor.Zeros[float32](3), expr.Of[float32](expr.Sum[float32](x.Mul(row), expr.Axis(1))))
		}},
		{"argmin", func() (string, error) {
			return CUDASource(tensor.Zeros[int64](4), expr.Of[int64](expr.ArgMin[float32](x.Neg(), expr.Axis(0))))
		}},
		{"cast", func() (string, error) {
			return CUDASource(tensor.Zeros[float64](12), expr.Of[float64](expr.Sqrt[float64](expr.Cast[float64](i64))))
		}},
		{"cumsum", func() (string, error) {
			return CUDASource(d34, expr.Of(expr.CumSum[float32](a34, 0)).MulScalar(2))
		}},
		{"gradient", func() (string, error) {
			// d/da sum(tanh(a*row) * b): the backward pass of a chain, one kernel
			gs, err := grad.Of(expr.Sum(expr.Of(expr.Tanh(expr.Mul(a34, row))).Mul(b34)), a34)
			if err != nil {
				return "", err
			}
			return CUDASource(d34, gs[0])
		}},
		{"generators", func() (string, error) {
			// exp(-arange·0.5)·x + eye.T: generator leaves computed from the index
			e := expr.Of(expr.Reshape(expr.Arange[float32](0, 12, 1), 3, 4)).MulScalar(-0.5).Exp().Mul(a34)
			return CUDASource(d34, e.Add(expr.T(expr.Eye[float32](4, 3, 1))))
		}},
		{"int64_indexing", func() (string, error) {
			return CUDASource(huge, expr.Of[int8](expr.Add[int8](hugeT.T(), expr.Scalar[int8](1))))
		}},
	}
	golden := map[string]string{
		"float32/vectorised": "vectorised", "float32/sum/full_split": "full_split", "float32/sum/rows_block": "rows_block",
		"float32/sum/rows_warp": "rows_warp", "float32/sum/columns_split": "columns_split", "float32/sum/columns": "columns",
		"float32/argmax/full_split": "argmax_split", "float32/mean/rows_warp": "mean_warp",
	}
	for _, c := range strategyCases[float32]() {
		if name, ok := golden[c.name]; ok {
			cases = append(cases, cudaCase{name, c.src})
		}
	}
	for _, c := range strategyCases[int32]() {
		if c.name == "int32/gemm" {
			cases = append(cases, cudaCase{"gemm_int32", c.src})
		}
	}
	return cases
}

// TestCUDAGolden compares the generated source of representative trees with
// testdata/cuda (rewrite with go test ./kernels -run TestCUDAGolden -update).
func TestCUDAGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.src()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(got, ops.Prelude) != strings.Count(got, "__global__") {
				t.Fatalf("each kernel must start with the prelude:\n%s", got)
			}
			got = strings.ReplaceAll(got, ops.Prelude, "#include <laze prelude: ops.Prelude>\n") // kept once, in internal/ops
			path := filepath.Join("testdata", "cuda", c.name+".cu")
			if *updateGolden {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("source of %s (-want +got):\n%s", c.name, diff)
			}
		})
	}
}

// TestCUDAPaths checks what each golden case's source must show: the flat
// loop only for contiguous operands, 64-bit indices only when needed, one
// warp per short row and one thread per column for reductions.
func TestCUDAPaths(t *testing.T) {
	want := map[string][]string{
		"contiguous":     {"typedef int I;", "const I p1 = i;", "double k0, double k1, double k2, long long n"},
		"broadcast":      {"rest % (I)d1", "p0 += c * (I)s0_0;", "(T)(v0 * v1)"},
		"transposed":     {"rest % (I)d1"},
		"reduction":      {"laze_shfl_down(acc, d)", "for (I j = (I)lane; j < folded; j += 32)", "acc = (T)(acc + v"},
		"argmin":         {"long long* oi", "laze_better(false, ", "oi[b0] = acc_i;", "for (I j = start; j < end; ++j)"},
		"cast":           {"const long long* o1", "sqrt("},
		"int64_indexing": {"typedef long long I;", "const signed char* o1"},
		"generators": {"#define LAZE_GENERATOR_HELPERS", "long long g1o, double g1_first, double g1_second, double g1_delta, const float* o2",
			"laze_arange<T>((long long)g1o + (long long)(p1)", "(T)laze_diagonal((long long)g3o + (long long)(p3), g3_cols, g3_diag, false)"},
	}
	for _, c := range goldenCases() {
		src, err := c.src()
		if err != nil {
			t.Fatal(err)
		}
		src, _, _ = strings.Cut(src, "\n// step 2:") // the first kernel; a reduction's second copies its result
		if _, ok := want[c.name]; !ok {
			continue // the strategy cases: TestStrategyChoice
		}
		for _, w := range want[c.name] {
			if !strings.Contains(src, w) {
				t.Errorf("%s: the source lacks %q", c.name, w)
			}
		}
		if flat := c.name == "contiguous" || c.name == "cast"; flat != strings.Contains(src, "const I p1 = i;") {
			t.Errorf("%s: flat path %t; want %t", c.name, !flat, flat)
		}
		if gen := c.name == "generators"; gen != strings.Contains(src, "LAZE_GENERATOR_HELPERS") {
			t.Errorf("%s: generator helpers %t; want %t", c.name, !gen, gen)
		}
		if c.name != "int64_indexing" && strings.Contains(src, "typedef long long I;") {
			t.Errorf("%s: 64-bit indices for a small tensor", c.name)
		}
	}
}

// TestKernelIdentity checks that a kernel's name and key follow its
// structure only: scalars, sizes and addresses are parameters.
func TestKernelIdentity(t *testing.T) {
	small, big := tensor.Ones[float32](3, 4), tensor.Ones[float32](50, 70)
	dSmall, dBig := tensor.Zeros[float32](3, 4), tensor.Zeros[float32](50, 70)
	row := tensor.Ones[float32](4)
	key := func(dst *tensor.Tensor[float32], e expr.Exp[float32]) *Kernel {
		t.Helper()
		if err := checkAssign("test", dst, e); err != nil {
			t.Fatal(err)
		}
		ev := newEvaluation("test")
		defer ev.release()
		p, err := lower(ev, assignTo(dst), e, nil)
		if err != nil {
			t.Fatal(err)
		}
		return device.KernelFor(&p.Pass)
	}
	times2 := key(dSmall, expr.Of[float32](small).MulScalar(2))
	times3 := key(dBig, expr.Of[float32](big).MulScalar(3))
	if times2.Name != times3.Name || times2.Key != times3.Key {
		t.Errorf("a*2 on 3x4 and a*3 on 50x70 must share a kernel: %s and %s", times2.Key, times3.Key)
	}
	if times2.Params[len(times2.Params)-2] == times3.Params[len(times3.Params)-2] {
		t.Error("the scalar must be a parameter, and differ")
	}
	if _, kernel, _ := strings.Cut(times2.Source(), "__global__"); strings.Contains(kernel, "(T)2") || strings.Contains(kernel, "2.0") {
		t.Error("the scalar 2 appears in the source")
	}
	different := []*Kernel{
		key(dSmall, expr.Of[float32](small).AddScalar(2)),          // another op
		key(dSmall.T(), expr.Of[float32](small.T()).MulScalar(2)),  // strided: rank 2
		key(dSmall, expr.Of[float32](small).Mul(row).MulScalar(2)), // broadcast
	}
	seen := map[string]string{times2.Name: "a*2"}
	for i, k := range different {
		if prev, ok := seen[k.Name]; ok {
			t.Errorf("case %d shares kernel %s with %s: %s", i, k.Name, prev, k.Key)
		}
		seen[k.Name] = k.Key
	}
	if got := cudasrc.KernelName(times2.Key); got != times2.Name || !strings.HasPrefix(got, "laze_") || len(got) != len("laze_")+16 {
		t.Errorf("name %q", got)
	}
}

// virtual returns a tensor of dims on the virtual GPU (256-byte aligned
// addresses, no memory).
func virtual[T tensor.Number](dims ...int) *tensor.Tensor[T] {
	return tensor.Empty[T](shape.Shape(dims), tensor.WithAllocator(virtualGPU))
}

// strategyCases are, for T, a tree per kernel shape whose choice depends on
// sizes and addresses: the vectorised elementwise loop, each reduction
// strategy for each reducer (the sizes are issue 16's: 2^26 elements,
// 8192×8192), the split reductions' finishing kernels, and the generated
// matrix product. The tensors are virtual, so the sizes cost nothing.
func strategyCases[T tensor.Number]() []cudaCase {
	dt := tensor.DTypeOf[T]().String()
	dtype := tensor.DTypeOf[T]()
	big, big2 := virtual[T](1<<26), virtual[T](1<<26)
	sq := virtual[T](8192, 8192)
	short, wide := virtual[T](16384, 64), virtual[T](16, 1<<20)
	cases := []cudaCase{
		{dt + "/vectorised", func() (string, error) {
			return CUDASource(virtual[T](1<<26), expr.Of[T](expr.Of(big).Mul(big2).Add(expr.Of(big).MulScalar(2)).Sub(big2)))
		}},
		{dt + "/gemm", func() (string, error) { return device.GemmKernel(dtype).Source(), nil }},
		{dt + "/tiled", func() (string, error) {
			return CUDASource(virtual[T](8192, 8192), expr.Of[T](expr.Of(sq.T()).Add(virtual[T](8192, 8192)).Mul(sq)))
		}},
	}
	reducers := []ops.Reducer{ops.Sum, ops.Prod, ops.Max, ops.Min}
	if tensor.IsFloat[T]() {
		reducers = append(reducers, ops.Mean)
	}
	for _, op := range reducers {
		red := func(x expr.Exp[T], dims []int, axes ...int) func() (string, error) {
			return func() (string, error) {
				return CUDASource(virtual[T](dims...), expr.Of[T](&expr.Reduction[T]{Op: op, X: x, Axes: axes}))
			}
		}
		name := dt + "/" + op.Def().Name
		cases = append(cases,
			cudaCase{name + "/full_split", red(expr.Mul[T](big, big2), nil)},
			cudaCase{name + "/rows_block", red(sq, []int{8192}, 1)},
			cudaCase{name + "/rows_warp", red(short, []int{16384}, 1)},
			cudaCase{name + "/columns_split", red(sq, []int{8192}, 0)},
			cudaCase{name + "/columns", red(wide, []int{1 << 20}, 0)},
		)
	}
	for _, op := range []ops.Reducer{ops.ArgMax, ops.ArgMin} {
		arg := func(x *tensor.Tensor[T], dims []int, axes ...int) func() (string, error) {
			return func() (string, error) {
				return CUDASource(virtual[int64](dims...), expr.Of[int64](&expr.ArgReduction[T]{Op: op, X: x, Axes: axes}))
			}
		}
		name := dt + "/" + op.Def().Name
		cases = append(cases,
			cudaCase{name + "/full_split", arg(big, nil)},
			cudaCase{name + "/rows_block", arg(sq, []int{8192}, 1)},
			cudaCase{name + "/rows_warp", arg(short, []int{16384}, 1)},
			cudaCase{name + "/columns_split", arg(sq, []int{8192}, 0)},
			cudaCase{name + "/columns", arg(wide, []int{1 << 20}, 0)},
		)
	}
	return cases
}

// TestStrategyChoice checks which kernel each size gets: the issue's
// shapes must take the kernels meant to reach memory speed.
func TestStrategyChoice(t *testing.T) {
	want := map[string]string{
		"float32/vectorised":           "vec=4",
		"float32/sum/full_split":       "sum/split",
		"float32/sum/rows_block":       "sum/block",
		"float32/sum/rows_warp":        "sum/warp",
		"float32/sum/columns_split":    "sum/split",
		"float32/sum/columns":          "sum/column",
		"float32/argmax/full_split":    "argmax/split",
		"float32/argmin/columns_split": "argmin/split",
		"float32/gemm":                 "gemm float32",
		"float32/mean/full_split":      "finish mean float32",
		"float32/max/columns_split":    "finish max float32",
		"float32/argmax/columns_split": "finish argmax float32",
		"float32/prod/rows_warp":       "prod/warp",
		"float32/min/rows_block":       "min/block",
		"float32/argmin/columns":       "argmin/column",
		"float32/argmax/rows_warp":     "argmax/warp",
		"float32/argmax/rows_block":    "argmax/block",
		"float32/max/full_split":       "max/split",
		"float32/min/columns":          "min/column",
	}
	seen := 0
	for _, c := range strategyCases[float32]() {
		w, ok := want[c.name]
		if !ok {
			continue
		}
		seen++
		src, err := c.src()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(src, w) {
			t.Errorf("%s: the source lacks %q:\n%s", c.name, w, firstLines(src, 3))
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d cases; want %d", seen, len(want))
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestManyOperandsVectorised checks that a pass reading more operands than
// a word has bits (70 float32 tensors added together) still takes the
// vectorised kernel: the alignment of every operand is one fact of the
// pass's geometry, not a bit per operand.
func TestManyOperandsVectorised(t *testing.T) {
	const n = 70
	var e expr.Exp[float32] = tensor.Ones[float32](1024)
	for range n - 1 {
		e = expr.Add(e, tensor.Ones[float32](1024))
	}
	src, err := CUDASource(tensor.Zeros[float32](1024), e)
	if err != nil {
		t.Fatal(err)
	}
	_, key, _ := strings.Cut(src, "from the structure: ")
	key, _, _ = strings.Cut(key, "\n")
	if !strings.Contains(key, "vec=4") {
		t.Errorf("%d operands: the kernel is not vectorised: %q", n, key)
	}
}
