package kernels

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// arange returns 0, 1, 2… in the given shape, plus start.
func arange(start float64, dims ...int) *tensor.Tensor[float64] {
	n := 1
	for _, d := range dims {
		n *= d
	}
	t, err := tensor.Arange(start, start+float64(n), 1).View(dims...)
	if err != nil {
		panic(err)
	}
	return t
}

// TestViewsOfExpressions evaluates views of expressions and compares them
// with values worked out by hand (NumPy's results for the same
// expressions), and with the oracle, which maps indices through the view
// nodes (View.At) without the push-down.
func TestViewsOfExpressions(t *testing.T) {
	a23 := arange(0, 2, 3)  // [[0 1 2] [3 4 5]]
	b23 := arange(10, 2, 3) // [[10 11 12] [13 14 15]]
	col := arange(0, 3, 1)  // [[0] [1] [2]]
	row := arange(10, 4)    // [10 11 12 13]
	m := expr.Mean[float64](a23, expr.Axis(0))
	tests := []struct {
		name string
		e    expr.Exp[float64]
		want []float64
		dims shape.Shape
	}{
		{"(a + b).T", expr.Of[float64](a23).Add(b23).T(),
			[]float64{10, 16, 12, 18, 14, 20}, shape.Of(3, 2)},
		{"(col + row).T, broadcast operands", expr.T[float64](expr.Add[float64](col, row)),
			// (col+row)[i][j] = i + 10 + j; transposed: [j][i]
			[]float64{10, 11, 12, 11, 12, 13, 12, 13, 14, 13, 14, 15}, shape.Of(4, 3)},
		{"(col + row).reshape(2, 6): a broadcast operand is expanded then reshaped (copied)",
			expr.Reshape[float64](expr.Add[float64](col, row), 2, 6),
			[]float64{10, 11, 12, 13, 11, 12, 13, 14, 12, 13, 14, 15}, shape.Of(2, 6)},
		{"(a.T * 2).reshape(6): the transposed operand is copied",
			expr.Of[float64](a23.T()).MulScalar(2).Reshape(-1),
			[]float64{0, 6, 2, 8, 4, 10}, shape.Of(6)},
		{"(a - 1)[:, ::-2]", expr.Of[float64](a23).SubScalar(1).Slice(1, tensor.None, tensor.None, -2),
			[]float64{1, -1, 4, 2}, shape.Of(2, 2)},
		{"(a + b)[1]", expr.Index[float64](expr.Add[float64](a23, b23), 0, 1),
			[]float64{16, 18, 20}, shape.Of(3)},
		{"(a + b)[:, -1]", expr.Index[float64](expr.Add[float64](a23, b23), 1, -1),
			[]float64{14, 20}, shape.Of(2)},
		{"(row * 2).expand(2, 4)", expr.Of[float64](row).MulScalar(2).Expand(2, -1),
			[]float64{20, 22, 24, 26, 20, 22, 24, 26}, shape.Of(2, 4)},
		{"(col + 1).squeeze()", expr.Of[float64](col).AddScalar(1).Squeeze(),
			[]float64{1, 2, 3}, shape.Of(3)},
		{"(row + 1).unsqueeze(1)", expr.Of[float64](row).AddScalar(1).Unsqueeze(1),
			[]float64{11, 12, 13, 14}, shape.Of(4, 1)},
		{"(a + b).transpose(1, 0)", expr.Permute[float64](expr.Add[float64](a23, b23), 1, 0),
			[]float64{10, 16, 12, 18, 14, 20}, shape.Of(3, 2)},
		{"swapaxes(a + b, 0, -1)", expr.Transpose[float64](expr.Add[float64](a23, b23), 0, -1),
			[]float64{10, 16, 12, 18, 14, 20}, shape.Of(3, 2)},
		{"(a - mean(a, 0)).T @ (a - mean(a, 0))",
			expr.MatMul[float64](expr.Of[float64](a23).Sub(m).T(), expr.Sub[float64](a23, m)),
			// a - mean = [[-1.5 -1.5 -1.5] [1.5 1.5 1.5]]; every entry 2·2.25
			[]float64{4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5}, shape.Of(3, 3)},
		{"(a @ b.T).T, a view of a product", expr.T[float64](expr.MatMul[float64](a23, b23.T())),
			// a@b.T = [[35 44] [134 170]]
			[]float64{35, 134, 44, 170}, shape.Of(2, 2)},
		{"sum(a, 0).reshape(3, 1)", expr.Reshape[float64](expr.Sum[float64](a23, expr.Axis(0)), 3, 1),
			[]float64{3, 5, 7}, shape.Of(3, 1)},
		{"views of views: (a + b).T[1:, :].reshape(4)",
			expr.Of[float64](a23).Add(b23).T().Slice(0, 1, tensor.None, 1).Reshape(4),
			[]float64{12, 18, 14, 20}, shape.Of(4)},
		{"a cast of a view: float64(((int)a + 1).T)",
			expr.Cast[float64](expr.Of[int](tensor.Arange[int](0, 6, 1)).AddScalar(1).Reshape(2, 3).T()),
			[]float64{1, 4, 2, 5, 3, 6}, shape.Of(3, 2)},
		{"a view of a scalar expression: (2 + 3).reshape(1, 1)",
			expr.Reshape[float64](expr.Add[float64](expr.Scalar(2.0), expr.Scalar(3.0)), 1, 1),
			[]float64{5}, shape.Of(1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s := tt.e.Shape(); !s.Equal(tt.dims) {
				t.Fatalf("shape %v, want %v", s, tt.dims)
			}
			if diff := cmp.Diff(tt.want, refEval(tt.e, tt.dims)); diff != "" {
				t.Errorf("oracle (-want +got):\n%s", diff)
			}
			got, err := Eval(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Data()); diff != "" {
				t.Errorf("Eval (-want +got):\n%s", diff)
			}
			dst := tensor.Zeros[float64](tt.dims...)
			if err := Assign(dst, tt.e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, dst.Data()); diff != "" {
				t.Errorf("Assign (-want +got):\n%s", diff)
			}
		})
	}
}

// TestViewAliasing assigns views of expressions that read the destination
// through the pushed-down views, and compares the whole storage with NumPy's
// result (the right side computed in full first), worked out by hand, and
// the destination with the oracle evaluated before it is written; with and
// without the plan cache.
func TestViewAliasing(t *testing.T) {
	type scene struct {
		base, dst *tensor.Tensor[float64]
		e         expr.Exp[float64]
	}
	tests := []struct {
		name string
		make func() scene
		want []float64 // base's elements afterwards
	}{
		{"a = (a + 1).T", func() scene {
			a := arange(0, 3, 3)
			return scene{a, a, expr.Of[float64](a).AddScalar(1).T()}
		}, []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}},
		{"a = (a * a.T).T[::-1]", func() scene {
			a := arange(0, 2, 2) // a*a.T = [[0 2] [2 9]]; .T the same; rows reversed
			return scene{a, a, expr.Of[float64](a).Mul(a.T()).T().Slice(0, tensor.None, tensor.None, -1)}
		}, []float64{2, 9, 0, 2}},
		{"a[0] = (a + 1).reshape(4)[1:3]", func() scene {
			a := arange(0, 2, 2)
			return scene{a, a.Index(0, 0), expr.Of[float64](a).AddScalar(1).Reshape(4).Slice(0, 1, 3, 1)}
		}, []float64{2, 3, 2, 3}},
		{"a = (a.T + 0).reshape(2, 2), the copied operand overlaps", func() scene {
			a := arange(0, 2, 2)
			return scene{a, a, expr.Of[float64](a.T()).AddScalar(0).Reshape(2, 2)}
		}, []float64{0, 2, 1, 3}},
		{"a.T = a[::-1] + 0", func() scene {
			a := arange(0, 2, 2) // a[::-1] = [[2 3] [0 1]], written transposed
			return scene{a, a.T(), expr.Of[float64](a).AddScalar(0).Slice(0, tensor.None, tensor.None, -1)}
		}, []float64{2, 0, 3, 1}},
	}
	for _, tt := range tests {
		for _, cached := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				defer planCacheOff.Store(planCacheOff.Load())
				planCacheOff.Store(!cached)
				sc := tt.make()
				oracle := refEval(sc.e, sc.e.Shape())
				if err := Assign(sc.dst, sc.e); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(oracle, sc.dst.Contiguous().Data()); diff != "" {
					t.Errorf("against the oracle (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.want, sc.base.Data()); diff != "" {
					t.Errorf("storage (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestExplainViews checks that Explain says where views went: pushed down to
// the tensors, taken of a computed value, or, for a reshape the strides
// cannot express, of a copy.
func TestExplainViews(t *testing.T) {
	x := expr.Name("x", arange(0, 2, 3))
	c := expr.Name("c", arange(0, 2, 1))
	tests := []struct {
		name  string
		dst   *tensor.Tensor[float64]
		e     expr.Exp[float64]
		steps int
		want  []string // substrings, in order
	}{
		{"pushed down", tensor.Zeros[float64](3, 2), expr.Of[float64](x).Add(c).T(), 1, []string{
			"views pushed down to the tensors: (x + c).T is read as (x.T + c.expand(2, 3).T)",
			"in0  x.T strides (1,3)", "in1  c.expand(2, 3).T strides (0,1)"}},
		{"a copy for a reshape", tensor.Zeros[float64](6), expr.Of[float64](x).AddScalar(1).T().Reshape(-1), 2, []string{
			"step 1: t1 (3,2) float64 = x.T", "in0  x.T strides (1,3)", "step 2: dst",
			"(x + 1).T.reshape(-1) is read as (x.T.reshape(-1) + 1)",
			"materialised: x.T.reshape(-1) needs a copy (strides (1,3) cannot be read as shape (6,)), so x.T was copied into t1",
			"in0  t1 strides (1,)"}},
		{"of a product", tensor.Zeros[float64](3, 3), expr.T[float64](expr.MatMul[float64](expr.T(x), x)), 2, []string{
			"step 1: t1 (3,3) float64 = (x.T @ x)", "x.T read as stored, transposed", "step 2: dst",
			"view (x.T @ x).T taken of t1, the value of (x.T @ x) (computed anyway), without a copy", "in0  t1 strides (1,3)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Explain(tt.dst, tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(got, "step "); n != tt.steps {
				t.Errorf("%d steps, want %d:\n%s", n, tt.steps, got)
			}
			rest := got
			for _, w := range tt.want {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[k+len(w):]
			}
		})
	}
}

// TestPlanCacheViews checks that a tree with views pushed down to its
// tensors runs a cached plan on a repeat over other tensors of the same
// geometry, with the right values, and that the same signature with the
// destination read through a view takes the full path (a copy) and gives
// NumPy's result.
func TestPlanCacheViews(t *testing.T) {
	build := func(a, b *tensor.Tensor[float64]) expr.Exp[float64] {
		return expr.Of[float64](a).Add(b).T().Slice(0, tensor.None, tensor.None, -1)
	}
	run := func(dst, a, b *tensor.Tensor[float64]) []float64 {
		t.Helper()
		if err := Assign(dst, build(a, b)); err != nil {
			t.Fatal(err)
		}
		return dst.Data()
	}
	// (a + b).T[::-1] for a = arange(4).reshape(2, 2) + start, b = [10, 20]:
	// (a+b) = [[s+10, s+21] [s+12, s+23]], .T = [[s+10, s+12] [s+21, s+23]],
	// rows reversed.
	want := func(s float64) []float64 { return []float64{s + 21, s + 23, s + 10, s + 12} }
	b := tensor.Arange[float64](10, 30, 10)
	run(tensor.Zeros[float64](2, 2), arange(0, 2, 2), b)
	hits0, _, bypass0 := PlanCacheStats()
	if diff := cmp.Diff(want(100), run(tensor.Zeros[float64](2, 2), arange(100, 2, 2), b)); diff != "" {
		t.Errorf("replay (-want +got):\n%s", diff)
	}
	if hits1, _, _ := PlanCacheStats(); hits1 == hits0 {
		t.Error("the replay did not run the cached plan")
	}
	a := arange(0, 2, 2)
	if diff := cmp.Diff(want(0), run(a, a, b)); diff != "" {
		t.Errorf("a = (a + b).T[::-1] (-want +got):\n%s", diff)
	}
	if _, _, bypass1 := PlanCacheStats(); bypass1 == bypass0 {
		t.Error("the overlapping call did not bypass the cached plan")
	}
}
