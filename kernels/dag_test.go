package kernels

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// squarePlus returns x(levels) where x(k+1) = x(k)*x(k) + x(k), every
// level reading the one below three times through the same pointer: a DAG
// of levels+1 nodes whose tree expansion has 3^levels paths.
func squarePlus(x0 expr.Exp[float64], levels int) expr.Exp[float64] {
	x := x0
	for range levels {
		x = expr.Add(expr.Mul(x, x), x)
	}
	return x
}

// TestAssignDeepDAG checks that a DAG whose tree expansion is exponential
// is evaluated once per distinct node (Assign, Eval, the plan cache's path
// and the full path, and Explain), with the values of the recurrence
// computed element by element with the op table.
func TestAssignDeepDAG(t *testing.T) {
	const n, levels = 1000, 30
	x0 := tensor.Zeros[float64](n)
	want := make([]float64, n)
	for i := range n {
		v := 0.05 * (float64(i)/n - 0.5) // |x| ≤ 0.025: the recurrence stays small
		x0.Set(v, i)
		for range levels {
			v = ops.Apply(ops.Add, ops.Apply(ops.Mul, v, v, 0), v, 0)
		}
		want[i] = v
	}
	e := squarePlus(x0, levels)
	for _, cache := range []bool{true, false} {
		planCacheOff.Store(!cache)
		for call := range 2 { // the second call of the cached path runs the cached plan
			start := time.Now()
			dst := tensor.Zeros[float64](n)
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, dst.Data()); diff != "" {
				t.Errorf("cache=%v call %d (-want +got):\n%s", cache, call, diff)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("cache=%v call %d took %v: the shared nodes were not computed once", cache, call, d)
			}
		}
	}
	planCacheOff.Store(false)
	got, err := Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got.Data()); diff != "" {
		t.Errorf("Eval (-want +got):\n%s", diff)
	}
	// The program holds one instruction per distinct op node: x*x + x and
	// v*v + v, each a fused multiply-add (a tree would hold x*x + x thrice).
	ex, err := Explain(tensor.Zeros[float64](n), squarePlus(expr.Name("x", x0), 2))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(ex, "= add(multiply("); got != 2 {
		t.Errorf("Explain of a 2-level DAG lists %d instructions, want 2:\n%s", got, ex)
	}
}

// TestSharedNodesMatchReference checks DAGs of every kind of node against
// the oracle: op nodes, reductions, views and casts shared by pointer,
// under views pushed through them, in destinations that overlap their
// operands.
func TestSharedNodesMatchReference(t *testing.T) {
	a := tensor.Zeros[float64](4, 3)
	b := tensor.Zeros[float64](3)
	for i := range 12 {
		a.Set(float64(i%5)-1.5, i/3, i%3)
	}
	for i := range 3 {
		b.Set(float64(i)+0.5, i)
	}
	u := expr.Sin(expr.Add[float64](a, b))
	s := expr.Sum[float64](u, expr.Axis(0))
	v := expr.T[float64](expr.Mul(u, u))
	tests := []struct {
		name string
		dst  func() *tensor.Tensor[float64]
		e    expr.Exp[float64]
	}{
		{"op", func() *tensor.Tensor[float64] { return tensor.Zeros[float64](4, 3) }, expr.Add(expr.Mul(u, u), u)},
		{"reduction", func() *tensor.Tensor[float64] { return tensor.Zeros[float64](4, 3) }, expr.Sub(expr.Mul(u, s), s)},
		{"view", func() *tensor.Tensor[float64] { return tensor.Zeros[float64](3, 4) }, expr.Add(v, expr.Neg(v))},
		{"view pushed through a shared node", func() *tensor.Tensor[float64] { return tensor.Zeros[float64](3, 4) }, expr.T(expr.Add(u, expr.Mul(u, u)))},
		{"cast", func() *tensor.Tensor[float64] { return tensor.Zeros[float64](4, 3) },
			expr.Add(expr.Cast[float64](expr.Cast[float32](u)), expr.Cast[float64](expr.Cast[float32](u)))},
		{"destination read", func() *tensor.Tensor[float64] { return a.Clone() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, cache := range []bool{true, false} {
				planCacheOff.Store(!cache)
				dst := tt.dst()
				e := tt.e
				if e == nil { // the destination, read through a shared node, as a.T.T... : dst = w*w + w, w = dst - 1
					w := expr.Sub[float64](dst, expr.Scalar(1.0))
					e = expr.Add(expr.Mul(w, w), expr.Slice(w, 0, 3, -5, -1)) // w and its rows reversed
				}
				want := refEval(e, dst.Shape())
				if err := Assign(dst, e); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, slices.Collect(dst.Values()), cmp.Comparer(closeEnough[float64])); diff != "" {
					t.Errorf("cache=%v: %v (-oracle +got):\n%s", cache, e, diff)
				}
			}
			planCacheOff.Store(false)
		})
	}
}

// TestPlanCacheSeesSharing checks that the plan cache tells a tree that
// shares a node from one that holds two equal copies of it: the lowering
// computes a shared node once, with one slot per constant under it, so a
// plan built for one is not the other's. Each order of the two is run on
// a fresh cache, each tree twice (the second runs its cached plan).
func TestPlanCacheSeesSharing(t *testing.T) {
	x := tensor.Zeros[float64](7)
	y := tensor.Zeros[float64](7)
	for i := range 7 {
		x.Set(float64(i)-3, i)
		y.Set(float64(2*i)+1, i)
	}
	shared := func() expr.Exp[float64] {
		u := expr.Add[float64](x, expr.Scalar(1.0))
		return expr.Mul(u, u)
	}
	copies := func() expr.Exp[float64] { // the same structure, another constant
		return expr.Mul(expr.Add[float64](x, expr.Scalar(1.0)), expr.Add[float64](x, expr.Scalar(2.0)))
	}
	otherLeaf := func() expr.Exp[float64] { // the same structure over another tensor
		return expr.Mul(expr.Add[float64](x, expr.Scalar(1.0)), expr.Add[float64](y, expr.Scalar(1.0)))
	}
	for _, order := range [][]func() expr.Exp[float64]{{shared, copies}, {copies, shared}, {shared, otherLeaf}, {otherLeaf, shared}} {
		resetPlanCache()
		for range 2 {
			for _, build := range order {
				e := build()
				want := refEval(e, x.Shape())
				dst := tensor.Zeros[float64](7)
				if err := Assign(dst, e); err != nil {
					t.Fatalf("Assign(%v): %v", e, err)
				}
				if diff := cmp.Diff(want, dst.Data()); diff != "" {
					t.Errorf("%v (-oracle +got):\n%s", e, diff)
				}
			}
		}
	}
}

// resetPlanCache empties the plan cache.
func resetPlanCache() {
	planCache.mu.Lock()
	planCache.by = nil
	planCache.mu.Unlock()
}

// TestCUDASourceDAG checks that the generated kernel of a tree with a
// shared node computes it once (one variable) and reads it where it is
// used: exp appears as often as in a kernel of a tree that uses it once
// (once per loop of the kernel).
func TestCUDASourceDAG(t *testing.T) {
	x := tensor.Zeros[float32](100)
	u := expr.Exponential[float32](x)
	src, err := CUDASource(tensor.Zeros[float32](100), expr.Add(expr.Mul(u, u), u))
	if err != nil {
		t.Fatal(err)
	}
	once, err := CUDASource(tensor.Zeros[float32](100), expr.Add(expr.Mul[float32](u, x), x))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Count(src, "(T)(exp("), strings.Count(once, "(T)(exp("); got != want || want == 0 {
		t.Errorf("the source computes exp %d times, want %d (as a tree using it once):\n%s", got, want, src)
	}
}
