package vmath

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// BenchmarkVMath times each function at every level this CPU runs
// (isa.Supported(): generic is the scalar loops over the references) and
// the hand-written scalar loop a caller would write, at n = 1e5, and
// reports ns/elem. Compare from one run:
//
//	go test -run '^$' -bench VMath -cpu 1 -count 3 ./kernels/internal/vmath
func BenchmarkVMath(b *testing.B) {
	const n = 100000
	r := rand.New(rand.NewPCG(7, 8))
	x := make([]float64, n)
	y := make([]float64, n)
	x32 := make([]float32, n)
	d := make([]float64, n)
	d32 := make([]float32, n)
	for i := range x {
		x[i] = r.NormFloat64() * 4
		y[i] = r.NormFloat64() * 3
		x32[i] = float32(x[i])
	}
	pos := make([]float64, n)
	pos32 := make([]float32, n)
	for i := range pos {
		pos[i] = math.Abs(x[i]) + 1e-3
		pos32[i] = float32(pos[i])
	}
	y32 := make([]float32, n)
	for i := range y {
		y32[i] = float32(y[i])
	}
	ge1 := make([]float64, n) // above 1, for acosh
	ge1_32 := make([]float32, n)
	for i := range ge1 {
		ge1[i] = 1 + pos[i]
		ge1_32[i] = float32(ge1[i])
	}
	unit := make([]float64, n) // in [-1, 1], for asin and acos
	unit32 := make([]float32, n)
	for i := range unit {
		unit[i] = math.Sin(x[i])
		unit32[i] = float32(unit[i])
	}
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/elem")
		})
	}
	levelRuns := func(name string, f func()) {
		for _, l := range isa.Supported() {
			run(name+"/"+l.String(), func() {
				old, err := isa.Use(l)
				if err != nil {
					b.Fatal(err)
				}
				f()
				isa.Use(old)
			})
		}
	}
	for _, fn := range unaryFuncs {
		in, in32 := x, x32
		switch {
		case strings.HasPrefix(fn.name, "log"):
			in, in32 = pos, pos32
		case fn.name == "asin" || fn.name == "acos" || fn.name == "atanh":
			in, in32 = unit, unit32
		case fn.name == "acosh":
			in, in32 = ge1, ge1_32
		}
		stem := fn.name // log10_64, as the functions are named
		if c := stem[len(stem)-1]; c >= '0' && c <= '9' {
			stem += "_"
		}
		levelRuns(stem+"64", func() { fn.f64(d, in) })
		run(stem+"64/hand", func() { scalarLoop64(d, in, fn.name) })
		levelRuns(stem+"32", func() { fn.f32(d32, in32) })
		run(stem+"32/hand", func() { scalarLoop32(d32, in32, fn.name) })
	}
	levelRuns("pow64", func() { Pow64(d, pos, y) })
	run("pow64/hand", func() {
		for i := range d {
			d[i] = math.Pow(pos[i], y[i])
		}
	})
	levelRuns("pow32", func() { Pow32(d32, pos32, y32) })
	run("pow32/hand", func() {
		for i := range d32 {
			d32[i] = float32(math.Pow(float64(pos32[i]), float64(y32[i])))
		}
	})
	levelRuns("powscalar64-square", func() { PowScalar64(d, x, 2) }) // a loop of its own (powSpecialExponent)
	levelRuns("powscalar64-int", func() { PowScalar64(d, x, 3) })
	run("powscalar64-int/hand", func() {
		for i := range d {
			d[i] = math.Pow(x[i], 3)
		}
	})
	levelRuns("powscalar32", func() { PowScalar32(d32, x32, 2.5) })
	run("powscalar32/hand", func() {
		for i := range d32 {
			d32[i] = float32(math.Pow(float64(x32[i]), 2.5))
		}
	})
}

// scalarLoop64 is the hand-written loop a caller would write, with the
// math call inlined in the loop (no function value).
func scalarLoop64(d, x []float64, name string) {
	x = x[:len(d)]
	switch name {
	case "exp":
		for i, v := range x {
			d[i] = math.Exp(v)
		}
	case "log":
		for i, v := range x {
			d[i] = math.Log(v)
		}
	case "tanh":
		for i, v := range x {
			d[i] = math.Tanh(v)
		}
	case "sigmoid":
		for i, v := range x {
			d[i] = 1 / (1 + math.Exp(-v))
		}
	case "sin":
		for i, v := range x {
			d[i] = math.Sin(v)
		}
	case "cos":
		for i, v := range x {
			d[i] = math.Cos(v)
		}
	case "log10":
		for i, v := range x {
			d[i] = math.Log10(v)
		}
	case "log2":
		for i, v := range x {
			d[i] = math.Log2(v)
		}
	case "cosh":
		for i, v := range x {
			d[i] = math.Cosh(v)
		}
	case "sinh":
		for i, v := range x {
			d[i] = math.Sinh(v)
		}
	case "exp2":
		for i, v := range x {
			d[i] = math.Exp2(v)
		}
	case "expm1":
		for i, v := range x {
			d[i] = math.Expm1(v)
		}
	case "log1p":
		for i, v := range x {
			d[i] = math.Log1p(v)
		}
	case "tan":
		for i, v := range x {
			d[i] = math.Tan(v)
		}
	case "atan":
		for i, v := range x {
			d[i] = math.Atan(v)
		}
	case "asin":
		for i, v := range x {
			d[i] = math.Asin(v)
		}
	case "acos":
		for i, v := range x {
			d[i] = math.Acos(v)
		}
	case "asinh":
		for i, v := range x {
			d[i] = math.Asinh(v)
		}
	case "acosh":
		for i, v := range x {
			d[i] = math.Acosh(v)
		}
	case "atanh":
		for i, v := range x {
			d[i] = math.Atanh(v)
		}
	case "cbrt":
		for i, v := range x {
			d[i] = math.Cbrt(v)
		}
	case "erf":
		for i, v := range x {
			d[i] = math.Erf(v)
		}
	case "erfc":
		for i, v := range x {
			d[i] = math.Erfc(v)
		}
	}
}

// scalarLoop32 is scalarLoop64 for float32.
func scalarLoop32(d, x []float32, name string) {
	x = x[:len(d)]
	switch name {
	case "exp":
		for i, v := range x {
			d[i] = float32(math.Exp(float64(v)))
		}
	case "log":
		for i, v := range x {
			d[i] = float32(math.Log(float64(v)))
		}
	case "tanh":
		for i, v := range x {
			d[i] = float32(math.Tanh(float64(v)))
		}
	case "sigmoid":
		for i, v := range x {
			d[i] = float32(1 / (1 + math.Exp(-float64(v))))
		}
	case "sin":
		for i, v := range x {
			d[i] = float32(math.Sin(float64(v)))
		}
	case "cos":
		for i, v := range x {
			d[i] = float32(math.Cos(float64(v)))
		}
	case "log10":
		for i, v := range x {
			d[i] = float32(math.Log10(float64(v)))
		}
	case "log2":
		for i, v := range x {
			d[i] = float32(math.Log2(float64(v)))
		}
	case "cosh":
		for i, v := range x {
			d[i] = float32(math.Cosh(float64(v)))
		}
	case "sinh":
		for i, v := range x {
			d[i] = float32(math.Sinh(float64(v)))
		}
	case "exp2":
		for i, v := range x {
			d[i] = float32(math.Exp2(float64(v)))
		}
	case "expm1":
		for i, v := range x {
			d[i] = float32(math.Expm1(float64(v)))
		}
	case "log1p":
		for i, v := range x {
			d[i] = float32(math.Log1p(float64(v)))
		}
	case "tan":
		for i, v := range x {
			d[i] = float32(math.Tan(float64(v)))
		}
	case "atan":
		for i, v := range x {
			d[i] = float32(math.Atan(float64(v)))
		}
	case "asin":
		for i, v := range x {
			d[i] = float32(math.Asin(float64(v)))
		}
	case "acos":
		for i, v := range x {
			d[i] = float32(math.Acos(float64(v)))
		}
	case "asinh":
		for i, v := range x {
			d[i] = float32(math.Asinh(float64(v)))
		}
	case "acosh":
		for i, v := range x {
			d[i] = float32(math.Acosh(float64(v)))
		}
	case "atanh":
		for i, v := range x {
			d[i] = float32(math.Atanh(float64(v)))
		}
	case "cbrt":
		for i, v := range x {
			d[i] = float32(math.Cbrt(float64(v)))
		}
	case "erf":
		for i, v := range x {
			d[i] = float32(math.Erf(float64(v)))
		}
	case "erfc":
		for i, v := range x {
			d[i] = float32(math.Erfc(float64(v)))
		}
	}
}

// BenchmarkTree is the consumer's target: tanh(a*b+c) - exp(0.5*e)*a + b
// over float64 at n = 1e6, with vmath (two temporaries, blocked by 4096)
// against the scalar hand loop.
func BenchmarkTree(b *testing.B) {
	const n = 1000000
	r := rand.New(rand.NewPCG(9, 10))
	a, bb, c, e, d := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range a {
		a[i], bb[i], c[i], e[i] = r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
	}
	b.Run("vmath", func(b *testing.B) {
		const blk = 4096
		t1, t2 := make([]float64, blk), make([]float64, blk)
		for b.Loop() {
			for lo := 0; lo < n; lo += blk {
				hi := min(lo+blk, n)
				m := hi - lo
				t1, t2 := t1[:m], t2[:m]
				aa, bv, cv, ev := a[lo:hi], bb[lo:hi], c[lo:hi], e[lo:hi]
				for i := range t1 {
					t1[i] = aa[i]*bv[i] + cv[i]
					t2[i] = 0.5 * ev[i]
				}
				Tanh64(t1, t1)
				Exp64(t2, t2)
				dv := d[lo:hi]
				for i := range dv {
					dv[i] = t1[i] - t2[i]*aa[i] + bv[i]
				}
			}
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for i := range d {
				d[i] = math.Tanh(a[i]*bb[i]+c[i]) - math.Exp(0.5*e[i])*a[i] + bb[i]
			}
		}
	})
}
