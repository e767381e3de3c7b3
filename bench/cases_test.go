package bench

import (
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// impl is one implementation of a case, ready to run on prepared data.
type impl struct {
	name string
	run  func()
}

// prepared is a case's data at one size, with every implementation.
type prepared struct {
	n      int              // the case's size as named (transpose rounds to a square)
	bytes  int64            // bytes read and written by one run
	result func() []float64 // the destination after a run, as float64
	impls  []impl
}

// benchCase makes a case's data and implementations for size n.
type benchCase struct {
	name    string
	prepare func(n int) prepared
}

var cases = []benchCase{
	{"add", prepareAdd},
	{"axpy", prepareAxpy},
	{"poly4", preparePoly4},
	{"poly4f32", preparePoly4F32},
	{"long8", prepareLong8},
	{"bcast", prepareBcast},
	{"transpose", prepareTranspose},
	{"cmp", prepareCmp},
}

var sizes = []int{1000, 10000, 100000, 1000000, 10000000}

// inputs returns k random float64 tensors of shape dims, seeded by position.
func inputs(k int, dims ...int) []*tensor.Tensor[float64] {
	out := make([]*tensor.Tensor[float64], k)
	for i := range out {
		out[i] = tensor.Rand[float64](uint64(i+1), dims...)
	}
	return out
}

// lazeAndNaive returns the laze and naive implementations of tree e into
// dst: laze through Assign, laze-program through a Program compiled once
// (kernels.Compile) and run each time, and the naive evaluator.
func lazeAndNaive[T tensor.Number](dst *tensor.Tensor[T], e expr.Exp[T]) []impl {
	naive := toNaive(e, dst.Shape())
	prog, err := kernels.Compile(dst, e)
	if err != nil {
		panic(err)
	}
	return []impl{
		{"laze", func() {
			if err := kernels.Assign(dst, e); err != nil {
				panic(err)
			}
		}},
		{"laze-program", func() {
			if err := prog.Run(); err != nil {
				panic(err)
			}
		}},
		{"naive", func() { naiveAssign(dst, naive) }},
	}
}

func asFloat64[T tensor.Number](t *tensor.Tensor[T]) func() []float64 {
	return func() []float64 {
		out := make([]float64, 0, t.Numel())
		for v := range t.Values() {
			out = append(out, float64(v))
		}
		return out
	}
}

func prepareAdd(n int) prepared {
	in := inputs(2, n)
	dst := tensor.Zeros[float64](n)
	d, a, b := dst.Data(), in[0].Data(), in[1].Data()
	impls := append(lazeAndNaive(dst, expr.Add(in[0], in[1])),
		impl{"handloop", func() {
			a, b := a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] + b[i]
			}
		}},
		impl{"gonum", func() { floats.AddTo(d, a, b) }},
	)
	return prepared{n, int64(3 * 8 * n), asFloat64(dst), impls}
}

const alpha = 2.5

func prepareAxpy(n int) prepared {
	in := inputs(2, n)
	dst := tensor.Zeros[float64](n)
	d, x, y := dst.Data(), in[0].Data(), in[1].Data()
	impls := append(lazeAndNaive(dst, expr.Of(in[0]).MulScalar(alpha).Add(in[1])),
		impl{"handloop", func() {
			x, y := x[:len(d)], y[:len(d)]
			for i := range d {
				d[i] = alpha*x[i] + y[i]
			}
		}},
		impl{"gonum", func() { floats.AddScaledTo(d, y, alpha, x) }},
	)
	return prepared{n, int64(3 * 8 * n), asFloat64(dst), impls}
}

func preparePoly4(n int) prepared {
	in := inputs(4, n)
	dst := tensor.Zeros[float64](n)
	d, a, b, c, e := dst.Data(), in[0].Data(), in[1].Data(), in[2].Data(), in[3].Data()
	impls := append(lazeAndNaive(dst, expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3])),
		impl{"handloop", func() { poly4Loop(d, a, b, c, e) }},
		impl{"gonum", func() {
			floats.MulTo(d, a, b)
			floats.Add(d, c)
			floats.Sub(d, e)
		}},
	)
	return prepared{n, int64(5 * 8 * n), asFloat64(dst), impls}
}

// preparePoly4F32 is poly4 in float32; gonum's floats has no float32
// vectors, so it has no gonum implementation.
func preparePoly4F32(n int) prepared {
	in := make([]*tensor.Tensor[float32], 4)
	for i := range in {
		in[i] = tensor.Rand[float32](uint64(i+1), n)
	}
	dst := tensor.Zeros[float32](n)
	d, a, b, c, e := dst.Data(), in[0].Data(), in[1].Data(), in[2].Data(), in[3].Data()
	impls := append(lazeAndNaive(dst, expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3])),
		impl{"handloop", func() { poly4Loop(d, a, b, c, e) }},
	)
	return prepared{n, int64(5 * 4 * n), asFloat64(dst), impls}
}

// poly4Loop is poly4's hand-written fused loop.
func poly4Loop[T float32 | float64](d, a, b, c, e []T) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	for i := range d {
		d[i] = a[i]*b[i] + c[i] - e[i]
	}
}

// prepareLong8 is tanh(a*b + c) - exp(e*0.5)*a + b: eight ops, two of them
// transcendental. gonum's floats has no exp or tanh, so its implementation
// runs a plain loop for those two ops, one pass each like its other calls.
func prepareLong8(n int) prepared {
	in := inputs(4, n)
	dst := tensor.Zeros[float64](n)
	d, a, b, c, e := dst.Data(), in[0].Data(), in[1].Data(), in[2].Data(), in[3].Data()
	t1, t2 := make([]float64, n), make([]float64, n)
	tree := expr.Of(in[0]).Mul(in[1]).Add(in[2]).Tanh().Sub(expr.Of(in[3]).MulScalar(0.5).Exp().Mul(in[0])).Add(in[1])
	impls := append(lazeAndNaive(dst, tree),
		impl{"handloop", func() {
			a, b, c, e := a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
			for i := range d {
				d[i] = math.Tanh(a[i]*b[i]+c[i]) - math.Exp(e[i]*0.5)*a[i] + b[i]
			}
		}},
		impl{"gonum", func() {
			floats.MulTo(t1, a, b)
			floats.Add(t1, c)
			for i, v := range t1 {
				t1[i] = math.Tanh(v)
			}
			floats.ScaleTo(t2, 0.5, e)
			for i, v := range t2 {
				t2[i] = math.Exp(v)
			}
			floats.Mul(t2, a)
			floats.SubTo(d, t1, t2)
			floats.Add(d, b)
		}},
	)
	return prepared{n, int64(5 * 8 * n), asFloat64(dst), impls}
}

// prepareBcast adds a row vector of 1000 to a [n/1000, 1000] matrix.
func prepareBcast(n int) prepared {
	const cols = 1000
	rows := max(n/cols, 1)
	in := inputs(1, rows, cols)
	row := tensor.Rand[float64](9, cols)
	dst := tensor.Zeros[float64](rows, cols)
	d, a, r := dst.Data(), in[0].Data(), row.Data()
	impls := append(lazeAndNaive(dst, expr.Add(in[0], row)),
		impl{"handloop", func() {
			for i := 0; i < len(d); i += cols {
				dr, ar := d[i:i+cols], a[i:i+cols]
				for j := range dr {
					dr[j] = ar[j] + r[j]
				}
			}
		}},
		impl{"gonum", func() {
			for i := 0; i < len(d); i += cols {
				floats.AddTo(d[i:i+cols], a[i:i+cols], r)
			}
		}},
	)
	return prepared{n, int64(2 * 8 * rows * cols), asFloat64(dst), impls}
}

// prepareTranspose computes a.T + b for square a and b of about n elements.
func prepareTranspose(n int) prepared {
	m := int(math.Round(math.Sqrt(float64(n))))
	in := inputs(2, m, m)
	dst := tensor.Zeros[float64](m, m)
	d, a, b := dst.Data(), in[0].Data(), in[1].Data()
	ga, gb, gd := mat.NewDense(m, m, a), mat.NewDense(m, m, b), mat.NewDense(m, m, d)
	impls := append(lazeAndNaive(dst, expr.Add(in[0].T(), in[1])),
		impl{"handloop", func() {
			for i := range m {
				row := d[i*m : (i+1)*m]
				for j := range row {
					row[j] = a[j*m+i] + b[i*m+j]
				}
			}
		}},
		impl{"gonum", func() { gd.Add(ga.T(), gb) }},
	)
	return prepared{n, int64(3 * 8 * m * m), asFloat64(dst), impls}
}

// prepareCmp is numexpr's headline expression, a*b - 4.1*a > 2.5*b, on
// standard normal inputs (so that a little under half the results are 1),
// written as 1 or 0 in float64: laze's comparisons give 1 or 0 in the
// operands' type, as NumPy's bool result cast to float64 does. gonum's
// floats has no comparison, so it has no gonum implementation.
func prepareCmp(n int) prepared {
	a, b := tensor.Randn[float64](1, n), tensor.Randn[float64](2, n)
	dst := tensor.Zeros[float64](n)
	d, x, y := dst.Data(), a.Data(), b.Data()
	tree := expr.Of(a).Mul(b).Sub(expr.Of(a).MulScalar(4.1)).Gt(expr.Of(b).MulScalar(2.5))
	impls := append(lazeAndNaive(dst, tree),
		impl{"handloop", func() {
			x, y := x[:len(d)], y[:len(d)]
			for i := range d {
				v := 0.0
				if x[i]*y[i]-4.1*x[i] > 2.5*y[i] {
					v = 1
				}
				d[i] = v
			}
		}},
	)
	return prepared{n, int64(3 * 8 * n), asFloat64(dst), impls}
}
