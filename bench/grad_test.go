package bench

import (
	"fmt"
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// gradSizes are the sizes of BenchmarkGradLong8.
var gradSizes = []int{1000, 10000, 100000, 1000000}

// gradCase is the gradient of sum(long8) with respect to its four inputs
// at one size: the forward pass for reference, the four gradient trees and
// their implementations, each writing the four gradients into grads.
type gradCase struct {
	forward impl
	grads   []*tensor.Tensor[float64] // ∂/∂a, ∂/∂b, ∂/∂c, ∂/∂e after a run
	impls   []impl
}

// long8Tree is long8's tree, tanh(a*b + c) - exp(e*0.5)*a + b, as in
// prepareLong8.
func long8Tree(in []*tensor.Tensor[float64]) expr.Exp[float64] {
	return expr.Of(in[0]).Mul(in[1]).Add(in[2]).Tanh().Sub(expr.Of(in[3]).MulScalar(0.5).Exp().Mul(in[0])).Add(in[1])
}

// prepareGradLong8 makes long8's data at size n, the gradient trees of
// sum(long8) with grad.Of, and the implementations: fused (one
// kernels.Assign per gradient), unfused (every op node of the four trees
// into a temporary of its own, each shared node once, as NumPy computes)
// and handloop (the four gradients in one hand-written pass: the limit).
func prepareGradLong8(n int) gradCase {
	in := inputs(4, n)
	tree := long8Tree(in)
	gs, err := grad.Of(expr.Sum(tree), in...)
	if err != nil {
		panic(err)
	}
	dst := tensor.Zeros[float64](n)
	dsts := make([]*tensor.Tensor[float64], len(in))
	for i := range dsts {
		dsts[i] = tensor.Zeros[float64](n)
	}
	a, b, c, e := in[0].Data(), in[1].Data(), in[2].Data(), in[3].Data()
	da, db, dc, de := dsts[0].Data(), dsts[1].Data(), dsts[2].Data(), dsts[3].Data()
	return gradCase{
		forward: impl{"forward", func() {
			if err := kernels.Assign(dst, tree); err != nil {
				panic(err)
			}
		}},
		grads: dsts,
		impls: []impl{
			{"fused", func() {
				for i, g := range gs {
					if err := kernels.Assign(dsts[i], g); err != nil {
						panic(err)
					}
				}
			}},
			{"fusedAll", func() {
				if err := kernels.AssignAll(dsts, gs); err != nil {
					panic(err)
				}
			}},
			{"unfused", func() { unfusedAssign(dsts, gs) }},
			{"handloop", func() {
				a, b, c, e := a[:len(da)], b[:len(da)], c[:len(da)], e[:len(da)]
				db, dc, de := db[:len(da)], dc[:len(da)], de[:len(da)]
				for i := range da {
					t := math.Tanh(a[i]*b[i] + c[i])
					s := 1 - t*t
					x := math.Exp(e[i] * 0.5)
					da[i] = s*b[i] - x
					db[i] = s*a[i] + 1
					dc[i] = s
					de[i] = -0.5 * x * a[i]
				}
			}},
		},
	}
}

// unfusedAssign evaluates the trees es into dsts node by node, as an
// array library without fusion does: every Unary, Binary, Ternary and
// Reduction node is computed into a new tensor (kernels.Eval) from its
// operands' tensors, each node once however many trees read it; each
// tree's root is computed straight into its destination. Views, constants
// and tensors are not materialised.
func unfusedAssign(dsts []*tensor.Tensor[float64], es []expr.Exp[float64]) {
	memo := map[expr.Node]expr.Exp[float64]{}
	for i, e := range es {
		if err := kernels.Assign(dsts[i], withOperands(e, memo)); err != nil {
			panic(err)
		}
	}
}

// materialise returns e computed into a tensor of its own (or e itself for
// a tensor, a constant or a view of one), by way of memo.
func materialise(e expr.Exp[float64], memo map[expr.Node]expr.Exp[float64]) expr.Exp[float64] {
	if r, ok := memo[e]; ok {
		return r
	}
	var r expr.Exp[float64]
	switch n := e.(type) {
	case *tensor.Tensor[float64], *expr.Const[float64]:
		return e
	case *expr.Named[float64]:
		r = materialise(n.X, memo)
	case expr.Chain[float64]:
		return materialise(n.E, memo)
	case *expr.View[float64]:
		r = withOperands(n, memo)
	default:
		t, err := kernels.Eval(withOperands(e, memo))
		if err != nil {
			panic(err)
		}
		r = t
	}
	memo[e] = r
	return r
}

// withOperands returns a copy of node e whose operands are materialised.
func withOperands(e expr.Exp[float64], memo map[expr.Node]expr.Exp[float64]) expr.Exp[float64] {
	m := func(x expr.Exp[float64]) expr.Exp[float64] { return materialise(x, memo) }
	switch n := e.(type) {
	case *expr.Unary[float64]:
		return &expr.Unary[float64]{Op: n.Op, X: m(n.X)}
	case *expr.Binary[float64]:
		return &expr.Binary[float64]{Op: n.Op, X: m(n.X), Y: m(n.Y)}
	case *expr.Ternary[float64]:
		return &expr.Ternary[float64]{Op: n.Op, X: m(n.X), Y: m(n.Y), Z: m(n.Z)}
	case *expr.Reduction[float64]:
		return &expr.Reduction[float64]{Op: n.Op, X: m(n.X), Axes: n.Axes, KeepDims: n.KeepDims}
	case *expr.View[float64]:
		return &expr.View[float64]{Kind: n.Kind, Args: n.Args, X: m(n.X)}
	case *tensor.Tensor[float64], *expr.Const[float64], *expr.Named[float64], expr.Chain[float64]:
		return m(e)
	}
	panic(fmt.Sprintf("unfusedAssign: no rule for %T", e))
}

// BenchmarkGradLong8 runs the gradient of sum(long8) with respect to its
// four inputs with each implementation, beside the forward pass (one
// kernels.Assign of long8) for reference.
func BenchmarkGradLong8(b *testing.B) {
	for _, n := range gradSizes {
		p := prepareGradLong8(n)
		for _, im := range append([]impl{p.forward}, p.impls...) {
			b.Run(fmt.Sprintf("%s/%d", im.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					im.run()
				}
			})
		}
	}
}

// TestGradLong8ImplementationsAgree runs each implementation of
// BenchmarkGradLong8 once and compares its four gradients with the hand
// loop's, so that the benchmark compares the same computation; the sizes
// cover laze's serial and parallel paths. The hand loop itself is checked
// against central differences of long8 at a few elements.
func TestGradLong8ImplementationsAgree(t *testing.T) {
	for _, n := range []int{1000, 200000} {
		p := prepareGradLong8(n)
		got := map[string][][]float64{}
		for _, im := range p.impls {
			for _, g := range p.grads {
				kernels.Fill(g, math.NaN())
			}
			im.run()
			for _, g := range p.grads {
				got[im.name] = append(got[im.name], asFloat64(g)())
			}
		}
		ref := got["handloop"]
		for name, gs := range got {
			for k, g := range gs {
				for i := range ref[k] {
					if d := math.Abs(g[i] - ref[k][i]); !(d <= 1e-12*math.Max(1, math.Abs(ref[k][i]))) {
						t.Fatalf("%s/%d: gradient %d, element %d = %v, hand loop %v", name, n, k, i, g[i], ref[k][i])
					}
				}
			}
		}
		in := inputs(4, n)
		f := func(v [4]float64) float64 {
			return math.Tanh(v[0]*v[1]+v[2]) - math.Exp(v[3]*0.5)*v[0] + v[1]
		}
		for _, i := range []int{0, n / 3, n - 1} {
			var v [4]float64
			for k := range v {
				v[k] = in[k].Data()[i]
			}
			for k := range v {
				const h = 1e-6
				up, down := v, v
				up[k] += h
				down[k] -= h
				num := (f(up) - f(down)) / (2 * h)
				if math.Abs(num-ref[k][i]) > 1e-6 {
					t.Errorf("handloop/%d: gradient %d, element %d = %v, central difference %v", n, k, i, ref[k][i], num)
				}
			}
		}
	}
}
