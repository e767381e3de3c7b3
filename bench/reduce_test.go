package bench

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkReduce measures reductions: summul is Sum(a*b) over 1e7 float64,
// fused (laze) against materialising a*b first (materialize); axis0 and
// axis1 sum a [1000, 10000] float64 along each axis, laze against a hand
// loop. Run with -cpu 1,2 to see the scaling; MB/s counts the bytes read.
func BenchmarkReduce(b *testing.B) {
	for _, c := range reduceCases() {
		for _, im := range c.impls {
			b.Run(c.name+"/"+im.name, func(b *testing.B) {
				b.SetBytes(c.bytes)
				b.ReportAllocs()
				for b.Loop() {
					im.run()
				}
			})
		}
	}
}

// reduceCase is one reduction with its implementations; result returns the
// last run's values.
type reduceCase struct {
	name   string
	bytes  int64
	result func() []float64
	impls  []impl
}

func reduceCases() []reduceCase {
	return []reduceCase{prepareSumMul(10_000_000), prepareAxis(0, 1000, 10000), prepareAxis(1, 1000, 10000)}
}

func prepareSumMul(n int) reduceCase {
	in := inputs(2, n)
	var out float64
	e := expr.Sum[float64](expr.Mul[float64](in[0], in[1]))
	return reduceCase{name: "summul", bytes: int64(16 * n), result: func() []float64 { return []float64{out} }, impls: []impl{
		{"laze", func() {
			s, err := kernels.Eval[float64](e)
			if err != nil {
				panic(err)
			}
			out = s.Item()
			_ = s.Release()
		}},
		{"materialize", func() {
			prod, err := kernels.Eval(expr.Mul[float64](in[0], in[1]))
			if err != nil {
				panic(err)
			}
			s, err := kernels.Eval[float64](expr.Sum[float64](prod))
			if err != nil {
				panic(err)
			}
			out = s.Item()
			_ = prod.Release()
			_ = s.Release()
		}},
	}}
}

func prepareAxis(axis, rows, cols int) reduceCase {
	a := tensor.Rand[float64](1, rows, cols)
	n := cols
	if axis == 1 {
		n = rows
	}
	out := tensor.New[float64]([]int{n})
	e := expr.Sum[float64](a, expr.Axis(axis))
	data, d := a.Data(), out.Data()
	hand := func() {
		clear(d)
		for i := range rows {
			row := data[i*cols : (i+1)*cols]
			for j, v := range row {
				d[j] += v
			}
		}
	}
	if axis == 1 {
		hand = func() {
			for i := range rows {
				s := 0.0
				for _, v := range data[i*cols : (i+1)*cols] {
					s += v
				}
				d[i] = s
			}
		}
	}
	name := "axis0"
	if axis == 1 {
		name = "axis1"
	}
	return reduceCase{name: name, bytes: int64(8 * rows * cols), result: asFloat64(out), impls: []impl{
		{"laze", func() {
			if err := kernels.Assign(out, e); err != nil {
				panic(err)
			}
		}},
		{"handloop", hand},
	}}
}

// TestReduceImplementationsAgree checks that each reduction's
// implementations compute the same values (within rounding: they sum in
// different orders).
func TestReduceImplementationsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("reduces 1e7 elements")
	}
	for _, c := range reduceCases() {
		checkAgree(t, c.name, c.impls, c.result)
	}
}
