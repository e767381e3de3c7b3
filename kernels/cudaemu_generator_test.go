package kernels

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// genCases are trees of generator leaves (expr.Arange, Linspace, Full,
// Eye, Tri) over T for the emulated GPU: each kind alone and fused with
// operands in memory, under views (flip, transpose, reshape, a slice with
// a step, a diagonal, a broadcast), in the vectorised, scalar and tiled
// elementwise kernels, and folded by reductions in several strategies
// (arg reductions included). Every generator value is computed in the
// kernel from its position with the CPU's formula, so the results are
// compared bit for bit (the reductions fold values whose sums are exact
// in any order); and the call allocates no device memory the size of a
// generator (allocBelow): on a device a generator holds none.
func genCases[T tensor.Number](seed uint64) []emuCase[T, T] {
	isFloat := tensor.IsFloat[T]()
	m := emuTensor(emuRandom[T](seed, 4), 37, 29)
	mt := emuTensor(emuRandom[T](seed+1, 4), 29, 37)
	v := emuTensor(emuRandom[T](seed+2, 4), 1003)
	size := tensor.ItemSize[T]()
	// the arguments: float steps that round (floats), whole ones (integers)
	num := func(f float64) T { return T(f) } // T of a value that fits (T of a constant must fit every T)
	start, stop, step, dt := num(-3), num(400), num(3), num(2)
	if isFloat {
		step, dt = num(0.37), num(0.01)
	}
	ls0, ls1 := -2.5, 7.3 // an integer T takes the floor
	// ar is arange's first n values from start by step
	ar := func(n int) expr.Exp[T] {
		return expr.Slice(expr.Arange(start, start+num(float64(n+2))*step, step), 0, 0, n, 1)
	}
	whole := expr.Arange(start, stop, step/2)
	gen := func(name, key string, operands []*tensor.Tensor[T], dst []int, launches, genBytes int, f func(x []*tensor.Tensor[T]) expr.Exp[T]) emuCase[T, T] {
		return emuCase[T, T]{name: name, operands: operands, dst: dst, key: key, launches: launches, allocBelow: max(genBytes, 1), build: into(f)}
	}
	none := 1 // allocBelow: nothing at all
	cases := []emuCase[T, T]{
		// each kind alone, as the whole tree
		gen("arange", "/arange", nil, whole.Shape(), 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return whole
		}),
		gen("linspace", "/linspace", nil, []int{1003}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Linspace[T](ls0, ls1, 1003, true)
		}),
		gen("linspace_no_endpoint", "/linspace", nil, []int{999}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Linspace[T](ls1, ls0, 999, false)
		}),
		gen("full", "/full", nil, []int{37, 29}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Full(num(7), 37, 29)
		}),
		gen("eye", "/eye", nil, []int{37, 29}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Eye[T](37, 29, 3)
		}),
		gen("tri", "/tri", nil, []int{37, 29}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Tri[T](37, 29, -2)
		}),
		gen("eye_past_the_edge", "/eye", nil, []int{5, 4}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Add(expr.Eye[T](5, 4, 9), expr.Tri[T](5, 4, -8))
		}),
		// fused with operands in memory: one kernel, vectorised where the
		// operands allow it
		withTol(gen("fused_vectorised", "vec=", tensors(v), []int{1003}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			a := expr.Of(expr.Arange(num(0), num(1003), num(1))).MulScalar(-dt)
			if isFloat {
				return a.Exp().Mul(x[0])
			}
			return a.Mul(x[0]).Add(expr.Linspace[T](ls0, ls1, 1003, true))
		}), expTol[T]()),
		gen("fused_vectorised_exact", "vec=", tensors(v), []int{1003}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(expr.Arange(num(0), num(1003), num(1))).MulScalar(-dt).Mul(x[0]).Add(expr.Linspace[T](ls0, ls1, 1003, true))
		}),
		gen("fused_misaligned", "flat=true", tensors(v), []int{1002}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(x[0].Narrow(0, 1, 1002)).Sub(expr.Linspace[T](ls0, ls1, 1002, true)).Mul(expr.Full(num(3), 1002))
		}),
		gen("tril", "/tri", tensors(m), []int{37, 29}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(x[0]).Mul(expr.Tri[T](37, 29, 1)).Add(expr.Eye[T](37, 29, -1))
		}),
		// views of generators: their positions, walked by the kernel
		gen("flip", "/arange", tensors(v), []int{1003}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(expr.Flip(ar(1003))).Add(x[0])
		}),
		gen("transposed", "/eye", tensors(m), []int{37, 29}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(expr.T(expr.Eye[T](29, 37, 2))).Add(x[0])
		}),
		// a transposed operand in memory goes through a tile, the
		// transposed generator beside it is computed where it lies
		gen("transposed_beside_a_tile", "tiled=4", tensors(mt), []int{37, 29}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Of(expr.T(expr.Tri[T](29, 37, 4))).Mul(x[0].T())
		}),
		gen("reshape_and_step", "/arange", tensors(m), []int{37, 10}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			r := expr.Reshape(expr.Arange(num(0), num(37*30), num(1)), 37, 30)
			return expr.Of(expr.Slice(r, 1, 1, 30, 3)).Add(x[0].Slice(1, 0, 29, 3))
		}),
		gen("slice_with_step", "/linspace", nil, []int{334}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			return expr.Slice(expr.Linspace[T](ls0, ls1, 1003, true), 0, 1003, 0, -3)
		}),
		gen("diagonal", "/arange", nil, []int{28}, 1, none, func([]*tensor.Tensor[T]) expr.Exp[T] {
			r := expr.Reshape(ar(900), 30, 30)
			return expr.Add(expr.Diagonal(r, 2, 0, 1), expr.Diagonal(expr.Tri[T](30, 28, 0), -1, 0, 1))
		}),
		gen("broadcast", "/linspace", tensors(m), []int{37, 29}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			col := expr.Reshape(expr.Linspace[T](ls0, ls1, 37, true), 37, 1)
			return expr.Of(x[0]).Mul(col).Add(expr.BroadcastTo(ar(29), 37, 29))
		}),
		gen("shared", "/arange", tensors(v), []int{1003}, 1, none, func(x []*tensor.Tensor[T]) expr.Exp[T] {
			a := expr.Of(ar(1003)) // one node, read thrice
			return a.Mul(a).Add(x[0]).Sub(a)
		}),
	}
	// reductions over generator trees (the values fold exactly: 0s and 1s,
	// multiples of 1/128 in linspace's case)
	red := func(name, key string, dst []int, genBytes int, f func() expr.Exp[T]) emuCase[T, T] {
		return gen(name, key, nil, dst, 0, genBytes, func([]*tensor.Tensor[T]) expr.Exp[T] { return f() })
	}
	cases = append(cases,
		red("sum_of_eye", "sum/", []int{}, 37*29*size, func() expr.Exp[T] { return expr.Sum(expr.Eye[T](37, 29, 1)) }),
		red("sum_of_tri_split", "sum/split", []int{}, 300*200*size, func() expr.Exp[T] { return expr.Sum(expr.Tri[T](300, 200, 5)) }),
		red("sum_of_tri_rows", "sum/warp", []int{300}, 300*40*size, func() expr.Exp[T] {
			return expr.Sum(expr.Tri[T](300, 40, 5), expr.Axis(1))
		}),
		red("sum_of_eye_columns", "sum/", []int{200}, 300*200*size, func() expr.Exp[T] {
			return expr.Sum(expr.Mul(expr.Eye[T](300, 200, -7), expr.Full(num(3), 300, 200)), expr.Axis(0))
		}),
		red("max_of_flipped_linspace", "max/", []int{}, 1025*size, func() expr.Exp[T] {
			return expr.Max(expr.Flip(expr.Linspace[T](-4, 4, 1025, true)))
		}),
	)
	return cases
}

// withTol returns c comparing within the relative tolerance tol.
func withTol[T, R tensor.Number](c emuCase[T, R], tol float64) emuCase[T, R] {
	c.tol = tol
	return c
}

// expTol is the tolerance of a tree through exp: the CPU's vectorised exp
// and the device's libm one may differ in the last bit (the generator's
// values are exact; the exact cases check them).
func expTol[T tensor.Number]() float64 {
	switch tensor.DTypeOf[T]() {
	case tensor.Float32:
		return 4e-7
	case tensor.Float64:
		return 1e-15
	}
	return 0
}

// genMean is the mean of a generator tree (multiples of 1/128: sums
// exact in any order) and of its rows.
func genMean[T tensor.Float]() []emuCase[T, T] {
	size := tensor.ItemSize[T]()
	return []emuCase[T, T]{
		{name: "mean_of_linspace", dst: []int{}, key: "mean/", allocBelow: 1025 * size,
			build: into(func([]*tensor.Tensor[T]) expr.Exp[T] { return expr.Mean(expr.Linspace[T](-4, 4, 1025, true)) })},
		{name: "mean_of_rows", dst: []int{40}, key: "mean/", allocBelow: 40 * 128 * size,
			build: into(func([]*tensor.Tensor[T]) expr.Exp[T] {
				rows := expr.Reshape(expr.Linspace[T](-20, 20, 40*128, false), 40, 128)
				return expr.Mean(expr.Add(rows, expr.Tri[T](40, 128, 60)), expr.Axis(1))
			})},
	}
}

// TestEmulatedGenerators runs genCases for float64, float32 and integer
// types in the emulator against the CPU evaluator, and argmax of a
// generator tree (the index operand beside a generator leaf).
func TestEmulatedGenerators(t *testing.T) {
	planCacheOff.Store(true)
	defer planCacheOff.Store(false)
	b := emulator(t)
	defer emuTuning()()
	for _, c := range append(genCases[float64](80), genMean[float64]()...) {
		c.name = "float64/" + c.name
		c.run(t, b)
	}
	for _, c := range append(genCases[float32](81), genMean[float32]()...) {
		c.name = "float32/" + c.name
		c.run(t, b)
	}
	for _, c := range genCases[int32](82) {
		c.name = "int32/" + c.name
		c.run(t, b)
	}
	// int8: arange's products wrap in the element type
	emuCase[int8, int8]{name: "int8/arange_wraps", dst: []int{200}, key: "/arange", launches: 1, allocBelow: 1,
		build: into(func([]*tensor.Tensor[int8]) expr.Exp[int8] {
			return expr.Add(expr.Reshape(expr.Arange[int8](-100, 100, 1), 200), expr.Arange[int8](120, -80, -1))
		})}.run(t, b)
	emuCase[float64, int64]{name: "float64/argmax_of_tri_times_linspace", dst: []int{31}, key: "argmax/", allocBelow: 31 * 40 * 8,
		build: func(_ []*tensor.Tensor[float64], d *tensor.Tensor[int64]) (*tensor.Tensor[int64], expr.Exp[int64]) {
			row := expr.Linspace[float64](1, 0.3, 40, true)
			return d, expr.ArgMax[float64](expr.Mul(expr.Tri[float64](31, 40, 3), row), expr.Axis(1))
		}}.run(t, b)
}

// TestGeneratorKernelSource checks the source of a kernel with generator
// leaves: no pointer parameter for them, their own arguments instead,
// and a key per generator kind.
func TestGeneratorKernelSource(t *testing.T) {
	x := tensor.Rand[float32](1, 1003)
	src, err := CUDASource(tensor.Zeros[float32](1003),
		expr.Of(expr.MulScalar[float32](expr.Arange[float32](0, 1003, 1), -0.01)).Exp().Mul(x).Add(expr.Linspace[float32](0, 1, 1003, true)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"long long g1o, double g1_first, double g1_second, double g1_delta, const float* o2",
		"long long g3o, double g3_start, double g3_step, double g3_stop, long long g3_last",
		"laze_arange<T>((long long)g1o + (long long)(w * 4 + e), g1_first, g1_second, g1_delta)", "/arange", "/linspace"} {
		if !strings.Contains(src, want) {
			t.Errorf("the source has no %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "o1[") || strings.Contains(src, "o3[") {
		t.Errorf("a generator operand is read from memory:\n%s", src)
	}
	keys := map[string]bool{}
	for _, g := range []expr.Exp[float32]{expr.Eye[float32](3, 4, 0), expr.Tri[float32](3, 4, 0), expr.Full[float32](1, 3, 4)} {
		src, err := CUDASource(tensor.Zeros[float32](3, 4), g)
		if err != nil {
			t.Fatal(err)
		}
		keys[src[:strings.Index(src, "\n")]] = true
	}
	if len(keys) != 3 {
		t.Errorf("eye, tri and full share a kernel: %v", keys)
	}
}

// TestGeneratorExplainOnDevice checks that Explain on a device lists a
// generator as computed in the kernel, with no temporary for it.
func TestGeneratorExplainOnDevice(t *testing.T) {
	x := onGPU(t, tensor.Rand[float32](1, 6))
	dst := onGPU(t, tensor.Zeros[float32](6))
	text, err := Explain(dst, expr.Of(expr.Name("x", x)).Mul(expr.Arange[float32](0, 6, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"np.arange(0, 6, 1) (no memory: computed from the index) strides (1,) offset 0, computed from the index in the kernel"} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain has no %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "t1") {
		t.Errorf("Explain lists a temporary:\n%s", text)
	}
}
