package kernels

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestEmulatedPrograms compiles trees of every step kind for the emulated
// GPU (Compile on device tensors), runs each Program, writes new values
// into its operands in place and runs it again: both runs must equal the
// CPU's Assign over the same values, and the kernels must be compiled by
// Compile, not by Run.
func TestEmulatedPrograms(t *testing.T) {
	b := emulator(t)
	f := func(seed uint64, dims ...int) *tensor.Tensor[float64] {
		return emuTensor(emuRandom[float64](seed, 2), dims...)
	}
	i := func(seed uint64, dims ...int) *tensor.Tensor[int32] {
		return emuTensor(emuSmall[int32](seed, 50), dims...)
	}
	for _, c := range []emuProgramCase[float64]{
		{"elementwise", tensors(f(1, 300), f(2, 300)), []int{300},
			func(x []*tensor.Tensor[float64]) expr.Exp[float64] { return expr.Of(x[0]).Mul(x[1]).AddScalar(1) }},
		{"reduction_rows", tensors(f(3, 40, 50)), []int{40},
			func(x []*tensor.Tensor[float64]) expr.Exp[float64] { return expr.Sum[float64](x[0], expr.Axis(1)) }},
		{"centred_by_mean", tensors(f(7, 30, 20)), []int{30, 20},
			func(x []*tensor.Tensor[float64]) expr.Exp[float64] {
				return expr.Of(x[0]).Sub(expr.Mean[float64](x[0], expr.Axis(0)))
			}},
		{"scan", tensors(f(8, 12, 70)), []int{12, 70},
			func(x []*tensor.Tensor[float64]) expr.Exp[float64] { return expr.CumSum[float64](x[0], 1) }},
	} {
		c.run(t, b, f)
	}
	// The emulator has no cuBLAS: products of an integer type run the
	// generated kernel.
	emuProgramCase[int32]{"product_then_bias", tensors(i(4, 17, 23), i(5, 23, 9), i(6, 9)), []int{17, 9},
		func(x []*tensor.Tensor[int32]) expr.Exp[int32] {
			return expr.Of(expr.MatMul[int32](x[0], x[1])).Add(x[2])
		}}.run(t, b, i)
}

// emuProgramCase is a tree compiled for the emulated GPU.
type emuProgramCase[T tensor.Number] struct {
	name     string
	operands []*tensor.Tensor[T]
	dst      []int
	build    func(x []*tensor.Tensor[T]) expr.Exp[T]
}

func (c emuProgramCase[T]) run(t *testing.T, b *emuBackend, values func(seed uint64, dims ...int) *tensor.Tensor[T]) {
	t.Run(c.name, func(t *testing.T) {
		dev := make([]*tensor.Tensor[T], len(c.operands))
		for i, x := range c.operands {
			d, err := x.To(emuDevice)
			if err != nil {
				t.Fatal(err)
			}
			dev[i] = d
		}
		dd, err := tensor.Zeros[T](c.dst...).To(emuDevice)
		if err != nil {
			t.Fatal(err)
		}
		b.launches = nil
		p, err := Compile(dd, c.build(dev))
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		defer p.Release()
		if len(b.launches) != 0 {
			t.Fatalf("Compile launched %d kernels; want none before Run", len(b.launches))
		}
		for run := range 2 {
			if run == 1 { // new values, written in place
				for i, x := range c.operands {
					fresh := values(uint64(1000+i), x.Shape()...)
					if err := Assign(x, expr.Of(fresh)); err != nil {
						t.Fatal(err)
					}
					fd, err := fresh.To(emuDevice)
					if err != nil {
						t.Fatal(err)
					}
					if err := Assign(dev[i], expr.Of(fd)); err != nil {
						t.Fatal(err)
					}
				}
			}
			b.launches = nil
			if err := p.Run(); err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			if len(b.launches) == 0 {
				t.Fatalf("run %d launched nothing", run)
			}
			want := tensor.Zeros[T](c.dst...)
			if err := Assign(want, c.build(c.operands)); err != nil {
				t.Fatal(err)
			}
			got, err := dd.To(alloc.CPU)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Data(), got.Data(), cmpopts.EquateApprox(1e-12, 1e-12)); diff != "" {
				t.Errorf("run %d: emulated GPU Program vs CPU Assign (-cpu +gpu):\n%s", run, diff)
			}
		}
		dd.Resize(2, 2)
		if err := p.Run(); !errors.Is(err, shape.ErrStale) {
			t.Errorf("Run after the destination was resized: %v; want ErrStale", err)
		}
	})
}
