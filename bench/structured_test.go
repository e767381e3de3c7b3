package bench

import (
	"slices"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// structuredCase is one of BenchmarkStructured's trees: the structured
// function of x inside y = f(x)·2 + 1, and the shapes of x and y.
type structuredCase struct {
	name string
	in   []int
	f    func(x expr.Exp[float64]) expr.Exp[float64]
}

// structuredCases are BenchmarkStructured's functions, each giving about
// 1e6 float64 elements; bench/peers/structured.py runs the same in NumPy.
var structuredCases = []structuredCase{
	{"pad-constant", []int{998, 998}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Pad(x, [][2]int{{1, 1}}, expr.PadConstant, 0) // np.pad(x, 1)
	}},
	{"pad-reflect", []int{996, 996}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Pad(x, [][2]int{{2, 2}}, expr.PadReflect, 0) // np.pad(x, 2, mode='reflect')
	}},
	{"tile", []int{500, 1000}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Tile(x, 2, 1) // np.tile(x, (2, 1))
	}},
	{"repeat", []int{1000, 500}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Repeat(x, 2, 1) // np.repeat(x, 2, axis=1)
	}},
	{"roll", []int{1000, 1000}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Roll(x, 3, 1) // np.roll(x, 3, axis=1)
	}},
	{"diff", []int{1000, 1001}, func(x expr.Exp[float64]) expr.Exp[float64] {
		return expr.Diff(x, 1, 1) // np.diff(x, axis=1)
	}},
}

// structuredTree is y = f(x)·2 + 1, the small fused tree around each case.
func structuredTree(x expr.Exp[float64], f func(expr.Exp[float64]) expr.Exp[float64]) expr.Exp[float64] {
	return expr.Of(f(x)).MulScalar(2).AddScalar(1).E
}

// BenchmarkStructured measures the structured functions inside a small
// fused tree, y = f(x)·2 + 1 at about 1e6 float64 elements, into a
// preallocated destination: BenchmarkStructured/<f>/laze, and
// BenchmarkStructured/<f>/tensors, the same tree (x·2 + 1) over a plain
// tensor of y's shape, the elementwise loop alone. bench/peers/structured.py
// prints BenchmarkStructured/<f>/numpy for NumPy's f(x) * 2 + 1. One core:
//
//	go test ./bench -run '^$' -bench Structured -cpu 1 -count 5
//	OPENBLAS_NUM_THREADS=1 python3 bench/peers/structured.py
func BenchmarkStructured(b *testing.B) {
	for i, c := range structuredCases {
		x := tensor.Rand[float64](uint64(10+i), c.in...)
		e := structuredTree(x, c.f)
		info, err := expr.Check(e)
		if err != nil {
			b.Fatal(err)
		}
		dst := tensor.Zeros[float64](info.Shape...)
		plain := tensor.Rand[float64](uint64(20+i), info.Shape...)
		run := func(b *testing.B, e expr.Exp[float64]) {
			b.SetBytes(int64(8 * dst.Numel()))
			for b.Loop() {
				if err := kernels.Assign(dst, e); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(c.name+"/laze", func(b *testing.B) { run(b, e) })
		b.Run(c.name+"/tensors", func(b *testing.B) {
			run(b, structuredTree(plain, func(x expr.Exp[float64]) expr.Exp[float64] { return x }))
		})
	}
}

// TestStructuredBenchAgree checks that BenchmarkStructured's trees give
// their At's values, on small inputs, so that the figures measure correct
// work.
func TestStructuredBenchAgree(t *testing.T) {
	for i, c := range structuredCases {
		in := slices.Clone(c.in)
		for d := range in {
			in[d] = 3 + d + i%2 // small: At checks the tree per element
		}
		x := tensor.Rand[float64](uint64(i), in...)
		e := structuredTree(x, c.f)
		out, err := kernels.Eval(e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for idx, v := range out.All() {
			if w := e.At(idx...); v != w {
				t.Fatalf("%s: element %v is %v, At gives %v", c.name, idx, v, w)
			}
		}
	}
}
