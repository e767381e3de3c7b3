package grad_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// in is a leaf tensor of a worked case: its elements and shape.
type in struct {
	data []float64
	dims []int
}

func vec(data ...float64) in { return in{data: data, dims: []int{len(data)}} }

func arange(n int, from float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = from + float64(i)
	}
	return v
}

// nodeCase is a worked gradient of sum(w * f(x...)) with respect to each
// leaf x, worked out by hand (the matmul and permute ones with NumPy's
// formulas written in the comments).
type nodeCase struct {
	name string
	in   []in
	f    func(x []expr.Exp[float64]) expr.Exp[float64]
	w    []float64 // in f's shape
	want [][]float64
}

var x23 = in{data: arange(6, 1), dims: []int{2, 3}}

var nodeCases = []nodeCase{
	// Reductions: the gradient broadcast back (divided by the count for
	// mean); prod's is the product of the others; max and min share it
	// among the tied extrema; argmax passes none.
	{name: "sum axis 1", in: []in{x23}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(x[0], expr.Axis(1)) },
		want: [][]float64{{1, 1, 1, 2, 2, 2}}},
	{name: "sum all", in: []in{x23}, w: []float64{3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(x[0]) },
		want: [][]float64{{3, 3, 3, 3, 3, 3}}},
	{name: "sum keepdims", in: []in{x23}, w: []float64{5},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Sum(x[0], expr.Axis(0, -1), expr.KeepDims())
		},
		want: [][]float64{{5, 5, 5, 5, 5, 5}}},
	{name: "mean axis 0", in: []in{x23}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Mean(x[0], expr.Axis(0)) },
		want: [][]float64{{0.5, 1, 1.5, 0.5, 1, 1.5}}},
	{name: "mean axis -1 keepdims", in: []in{x23}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Mean(x[0], expr.Axis(-1), expr.KeepDims()) },
		want: [][]float64{{1. / 3, 1. / 3, 1. / 3, 2. / 3, 2. / 3, 2. / 3}}},
	// Rows without a zero, with one, with two.
	{name: "prod axis 1 zeros", in: []in{{data: []float64{2, 3, 4, 1, 0, 5, 0, 2, 0}, dims: []int{3, 3}}}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Prod(x[0], expr.Axis(1)) },
		want: [][]float64{{12, 8, 6, 0, 10, 0, 0, 0, 0}}},
	{name: "prod all one zero", in: []in{vec(2, 0, 3, 4)}, w: []float64{1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Prod(x[0]) },
		want: [][]float64{{0, 24, 0, 0}}},
	{name: "prod axis 0 columns", in: []in{{data: []float64{2, 0, 3, 0, 4, 5}, dims: []int{3, 2}}}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Prod(x[0], expr.Axis(0)) },
		want: [][]float64{{12, 0, 8, 0, 6, 0}}},
	{name: "max axis 1 ties", in: []in{{data: []float64{1, 3, 2, 4, 4, 1, 5, 5, 5}, dims: []int{3, 3}}}, w: []float64{1, 2, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Max(x[0], expr.Axis(1)) },
		want: [][]float64{{0, 1, 0, 1, 1, 0, 2, 2, 2}}},
	{name: "min axis 0 ties", in: []in{{data: []float64{1, 3, 1, 2, 4, 2}, dims: []int{3, 2}}}, w: []float64{1, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Min(x[0], expr.Axis(0)) },
		want: [][]float64{{0.5, 0, 0.5, 2, 0, 2}}},
	{name: "max all tie", in: []in{vec(1, 7, 7, 3)}, w: []float64{1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Max(x[0]) },
		want: [][]float64{{0, 0.5, 0.5, 0}}},
	{name: "min keepdims tie", in: []in{{data: []float64{3, -1, -1, 0}, dims: []int{1, 4}}}, w: []float64{4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Min(x[0], expr.Axis(1), expr.KeepDims()) },
		want: [][]float64{{0, 2, 2, 0}}},
	{name: "argmax argmin", in: []in{x23}, w: arange(6, 1),
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			am := expr.Cast[float64](expr.ArgMax(x[0], expr.Axis(1), expr.KeepDims()))
			return expr.Add(expr.Mul(x[0], am), expr.Cast[float64](expr.ArgMin(x[0])))
		},
		want: [][]float64{{2, 4, 6, 8, 10, 12}}},

	// Matrix products: g @ yᵀ and xᵀ @ g.
	{name: "matmul 2-D", in: []in{x23, {data: []float64{1, -1, 2, 0, 0, 3}, dims: []int{3, 2}}}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{-1, 2, 6, -1, 6, 12}, {13, 18, 17, 24, 21, 30}}},
	// y @ w and outer(x, w).
	{name: "matmul 1-D @ 2-D", in: []in{vec(1, 2, 3), {data: []float64{1, -1, 2, 0, 0, 3}, dims: []int{3, 2}}}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{-1, 2, 6}, {1, 2, 2, 4, 3, 6}}},
	// outer(w, y) and xᵀ @ w.
	{name: "matmul 2-D @ 1-D", in: []in{x23, vec(1, -1, 2)}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{1, -1, 2, 2, -2, 4}, {9, 12, 15}}},
	{name: "matmul 1-D @ 1-D", in: []in{vec(1, 2, 3), vec(4, 5, 6)}, w: []float64{2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{8, 10, 12}, {2, 4, 6}}},
	// x (2,2,3) @ y (3,2): gx = W @ yᵀ, gy = Σ_b x[b]ᵀ @ W[b].
	{name: "matmul batched @ 2-D", in: []in{{data: arange(12, 0), dims: []int{2, 2, 3}}, {data: []float64{1, -1, 2, 0, 0, 3}, dims: []int{3, 2}}},
		w:    arange(8, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{-1, 2, 6, -1, 6, 12, -1, 10, 18, -1, 14, 24}, {102, 120, 118, 140, 134, 160}}},
	// x (1,2,3) @ y (2,3,2), the batch dimension broadcast: gx = Σ_b W[b] @
	// y[b]ᵀ, gy[b] = x[0]ᵀ @ W[b].
	{name: "matmul broadcast batch", in: []in{{data: arange(6, 0), dims: []int{1, 2, 3}}, {data: arange(12, -5), dims: []int{2, 3, 2}}},
		w:    arange(8, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{4, 32, 60, -8, 36, 80}, {9, 12, 13, 18, 17, 24, 21, 24, 33, 38, 45, 52}}},
	// x (2,3) @ y (2,3,2): the same sums, x's missing batch dimension summed.
	{name: "matmul 2-D @ batched", in: []in{{data: arange(6, 0), dims: []int{2, 3}}, {data: arange(12, -5), dims: []int{2, 3, 2}}},
		w:    arange(8, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.MatMul(x[0], x[1]) },
		want: [][]float64{{4, 32, 60, -8, 36, 80}, {9, 12, 13, 18, 17, 24, 21, 24, 33, 38, 45, 52}}},

	// Views: each weight goes back to the element the view took it from.
	{name: "T", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.T(x[0]) },
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	{name: "Transpose negative", in: []in{{data: arange(6, 0), dims: []int{2, 1, 3}}}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Transpose(x[0], 0, -1) },
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	// out[a,b,c] = x[b,c,a]: grad = w.transpose(1, 2, 0).
	{name: "Permute negative", in: []in{{data: arange(24, 0), dims: []int{2, 3, 4}}}, w: arange(24, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Permute(x[0], -1, 0, 1) },
		want: [][]float64{{1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23, 6, 12, 18, 24}}},
	{name: "Reshape", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Reshape(x[0], 3, -1) },
		want: [][]float64{arange(6, 1)}},
	{name: "Reshape of T", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Reshape(expr.T(x[0]), 6) },
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	{name: "Slice step 1", in: []in{vec(arange(5, 0)...)}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x[0], 0, 1, 4, 1) },
		want: [][]float64{{0, 1, 2, 3, 0}}},
	{name: "Slice step 2", in: []in{vec(arange(5, 0)...)}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x[0], 0, 0, 5, 2) },
		want: [][]float64{{1, 0, 2, 0, 3}}},
	{name: "Slice step 3", in: []in{vec(arange(7, 0)...)}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x[0], 0, 1, tensor.None, 3) },
		want: [][]float64{{0, 1, 0, 0, 2, 0, 0}}},
	{name: "Slice step 2 dim 1", in: []in{{data: arange(10, 0), dims: []int{2, 5}}}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x[0], 1, 1, tensor.None, 2) },
		want: [][]float64{{0, 1, 0, 2, 0, 0, 3, 0, 4, 0}}},
	{name: "Slice step -1", in: []in{vec(arange(5, 0)...)}, w: arange(5, 1),
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Slice(x[0], 0, tensor.None, tensor.None, -1)
		},
		want: [][]float64{{5, 4, 3, 2, 1}}},
	{name: "Slice step -2", in: []in{vec(arange(6, 0)...)}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Slice(x[0], 0, 4, 0, -2) },
		want: [][]float64{{0, 0, 2, 0, 1, 0}}},
	{name: "Slice step -3", in: []in{vec(arange(7, 0)...)}, w: []float64{1, 2, 3},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Slice(x[0], 0, tensor.None, tensor.None, -3)
		},
		want: [][]float64{{3, 0, 0, 2, 0, 0, 1}}},
	{name: "Slice step -2 dim -1", in: []in{{data: arange(8, 0), dims: []int{2, 4}}}, w: []float64{1, 2, 3, 4},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Slice(x[0], -1, tensor.None, tensor.None, -2)
		},
		want: [][]float64{{0, 2, 0, 1, 0, 4, 0, 3}}},
	{name: "Slice empty", in: []in{vec(1, 2, 3)}, w: []float64{1, 2, 3},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Add(x[0], expr.Sum(expr.Slice(x[0], 0, 2, 2, 1)))
		},
		want: [][]float64{{1, 2, 3}}},
	{name: "Index negative", in: []in{{data: arange(6, 0), dims: []int{3, 2}}}, w: []float64{1, 2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Index(x[0], 0, -1) },
		want: [][]float64{{0, 0, 0, 0, 1, 2}}},
	{name: "Index negative dim", in: []in{{data: arange(6, 0), dims: []int{3, 2}}}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Index(x[0], -1, 0) },
		want: [][]float64{{1, 0, 2, 0, 3, 0}}},
	// (1,3) to (2,2,3): each x[0,k] is read 4 times: 1+4+7+10, 2+5+8+11, …
	{name: "Expand new leading dim", in: []in{{data: []float64{1, 2, 3}, dims: []int{1, 3}}}, w: arange(12, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Expand(x[0], 2, 2, 3) },
		want: [][]float64{{22, 26, 30}}},
	{name: "Expand size-1 dim", in: []in{{data: []float64{1, 2, 3}, dims: []int{3, 1}}}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Expand(x[0], -1, 2) },
		want: [][]float64{{3, 7, 11}}},
	{name: "Squeeze all", in: []in{{data: []float64{1, 2, 3}, dims: []int{1, 3, 1}}}, w: []float64{4, 5, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Squeeze(x[0]) },
		want: [][]float64{{4, 5, 6}}},
	{name: "Squeeze dim", in: []in{{data: []float64{1, 2, 3}, dims: []int{1, 3, 1}}}, w: []float64{4, 5, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Squeeze(x[0], 0) },
		want: [][]float64{{4, 5, 6}}},
	{name: "Unsqueeze", in: []in{vec(1, 2, 3)}, w: []float64{4, 5, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Unsqueeze(x[0], 0) },
		want: [][]float64{{4, 5, 6}}},
	{name: "Unsqueeze -1", in: []in{vec(1, 2, 3)}, w: []float64{4, 5, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Unsqueeze(x[0], -1) },
		want: [][]float64{{4, 5, 6}}},

	// NumPy's views: each weight goes back to the element it read.
	{name: "Flip 0", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Flip(x[0], 0) },
		want: [][]float64{{4, 5, 6, 1, 2, 3}}},
	{name: "Flip all", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Flip(x[0]) },
		want: [][]float64{{6, 5, 4, 3, 2, 1}}},
	// np.moveaxis(x(2,3,1), 0, -1) has shape (3,1,2): w[j,0,i] goes to x[i,j,0].
	{name: "MoveAxis 0 to -1", in: []in{{data: arange(6, 1), dims: []int{2, 3, 1}}}, w: arange(6, 1),
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.MoveAxis(x[0], []int{0}, []int{-1})
		},
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	{name: "MoveAxis two", in: []in{{data: arange(6, 1), dims: []int{1, 2, 3}}}, w: arange(6, 1),
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.MoveAxis(x[0], []int{2, 0}, []int{0, 1}) // shape (3,1,2)
		},
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	{name: "ExpandDims", in: []in{vec(1, 2, 3)}, w: []float64{4, 5, 6},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.ExpandDims(x[0], 0, -1) },
		want: [][]float64{{4, 5, 6}}},
	{name: "Ravel of a transpose", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Ravel(expr.T(x[0])) },
		want: [][]float64{{1, 3, 5, 2, 4, 6}}},
	{name: "BroadcastTo", in: []in{{data: []float64{1, 2, 3}, dims: []int{3, 1}}}, w: arange(12, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.BroadcastTo(x[0], 2, 3, 2) },
		want: [][]float64{{1 + 2 + 7 + 8, 3 + 4 + 9 + 10, 5 + 6 + 11 + 12}}},
	{name: "Diagonal", in: []in{{data: arange(12, 0), dims: []int{3, 4}}}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x[0], 0, 0, 1) },
		want: [][]float64{{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0}}},
	{name: "Diagonal offset 1", in: []in{{data: arange(12, 0), dims: []int{3, 4}}}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x[0], 1, 0, 1) },
		want: [][]float64{{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3}}},
	{name: "Diagonal offset -1 axes swapped", in: []in{{data: arange(12, 0), dims: []int{3, 4}}}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x[0], -1, 1, 0) }, // x[i, i-1]... of x.T: x[0,1], x[1,2], x[2,3]
		want: [][]float64{{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3}}},
	{name: "Diagonal of a stack", in: []in{{data: arange(8, 0), dims: []int{2, 2, 2}}}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x[0], 0, 0, 2) }, // shape (2 [axis 1], 2)
		want: [][]float64{{1, 0, 3, 0, 0, 2, 0, 4}}},
	{name: "Diagonal empty", in: []in{x23}, w: []float64{},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diagonal(x[0], 5, 0, 1) },
		want: [][]float64{{0, 0, 0, 0, 0, 0}}},

	// Structured functions: the gradient of their views, generators and joins.
	{name: "Tril", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Tril(x[0], 0) },
		want: [][]float64{{1, 0, 0, 4, 5, 0}}},
	{name: "Trace offset 1", in: []in{x23}, w: []float64{2},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Trace(x[0], 1, 0, 1) },
		want: [][]float64{{0, 2, 0, 0, 0, 2}}},
	{name: "Roll", in: []in{vec(1, 2, 3)}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Roll(x[0], 1, 0) },
		want: [][]float64{{2, 3, 1}}},
	{name: "Repeat", in: []in{vec(1, 2)}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Repeat(x[0], 2, 0) },
		want: [][]float64{{3, 7}}},
	{name: "Diff", in: []in{vec(1, 4, 9)}, w: []float64{1, 10},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Diff(x[0], 1, 0) },
		want: [][]float64{{-1, -9, 10}}},

	// Scans: cumsum's gradient is the reversed cumulative sum of w;
	// cumprod's element i gets Σ_{j≥i} w_j Π_{k≤j, k≠i} x_k.
	{name: "cumsum", in: []in{vec(1, 2, 3, 4)}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumSum(x[0], 0) },
		want: [][]float64{{10, 9, 7, 4}}},
	{name: "cumsum axis 1", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumSum(x[0], 1) },
		want: [][]float64{{6, 5, 3, 15, 11, 6}}},
	{name: "cumsum axis -2", in: []in{x23}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumSum(x[0], -2) },
		want: [][]float64{{5, 7, 9, 4, 5, 6}}},
	// 1 + 2·3 + 3·3·4, 2·2 + 3·2·4, 3·2·3.
	{name: "cumprod", in: []in{vec(2, 3, 4)}, w: []float64{1, 2, 3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumProd(x[0], 0) },
		want: [][]float64{{43, 28, 18}}},
	// 1 + 0, 2·2 + 3·2·4 + 4·2·4·5 = 188, then 0 (x1 = 0 in every product).
	{name: "cumprod one zero", in: []in{vec(2, 0, 4, 5)}, w: []float64{1, 2, 3, 4},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumProd(x[0], 0) },
		want: [][]float64{{1, 188, 0, 0}}},
	// 1, 2 + 2·3 (the products past the second zero vanish), then 0.
	{name: "cumprod two zeros", in: []in{vec(2, 0, 3, 0, 5)}, w: []float64{1, 1, 1, 1, 1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumProd(x[0], 0) },
		want: [][]float64{{1, 8, 0, 0, 0}}},
	{name: "cumprod zero first", in: []in{vec(0, 2, 3)}, w: []float64{1, 1, 1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumProd(x[0], 0) },
		want: [][]float64{{9, 0, 0}}},
	{name: "cumprod axis 0", in: []in{{data: []float64{2, 0, 3, 5}, dims: []int{2, 2}}}, w: []float64{1, 1, 1, 1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.CumProd(x[0], 0) },
		want: [][]float64{{4, 6, 2, 0}}},

	// Concatenation and stacking: each part gets its slice.
	{name: "concatenate", in: []in{vec(1, 2), vec(3, 4, 5)}, w: arange(5, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Concatenate(0, x[0], x[1]) },
		want: [][]float64{{1, 2}, {3, 4, 5}}},
	{name: "concatenate axis -1", in: []in{{data: []float64{1, 2}, dims: []int{2, 1}}, {data: arange(4, 0), dims: []int{2, 2}}}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Concatenate(-1, x[0], x[1]) },
		want: [][]float64{{1, 4}, {2, 3, 5, 6}}},
	{name: "concatenate a part twice", in: []in{vec(1, 2), vec(3)}, w: arange(5, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Concatenate(0, x[0], x[1], x[0]) },
		want: [][]float64{{5, 7}, {3}}},
	{name: "stack axis 0", in: []in{vec(1, 2), vec(3, 4)}, w: arange(4, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Stack(0, x[0], x[1]) },
		want: [][]float64{{1, 2}, {3, 4}}},
	{name: "stack axis 1", in: []in{vec(1, 2), vec(3, 4)}, w: arange(4, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Stack(1, x[0], x[1]) },
		want: [][]float64{{1, 3}, {2, 4}}},
	{name: "stack axis -1", in: []in{{data: arange(4, 0), dims: []int{2, 2}}, {data: arange(4, 0), dims: []int{2, 2}}}, w: arange(8, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Stack(-1, x[0], x[1]) },
		want: [][]float64{{1, 3, 5, 7}, {2, 4, 6, 8}}},

	// Casts: float32 and back passes the gradient (2x, exact for these
	// values); a cast from integers passes none, so d/dx x·int(x) = int(x)
	// (truncated toward zero).
	{name: "cast float32 round trip", in: []in{vec(0.5, -1.5, 3)}, w: []float64{1, 2, 3},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Cast[float64](expr.Square(expr.Cast[float32](x[0])))
		},
		want: [][]float64{{1, -6, 18}}},
	{name: "cast from int", in: []in{vec(1.5, -2.7, 3.2)}, w: []float64{1, 1, 1},
		f: func(x []expr.Exp[float64]) expr.Exp[float64] {
			return expr.Mul(x[0], expr.Cast[float64](expr.Cast[int64](x[0])))
		},
		want: [][]float64{{1, -2, 3}}},

	// Broadcasting: each operand's gradient summed over the dimensions it
	// was broadcast along. x (2,3) * y (3): gx = w*y, gy = Σ_rows w*x.
	{name: "broadcast row", in: []in{x23, vec(1, -1, 2)}, w: arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Mul(x[0], x[1]) },
		want: [][]float64{{1, -2, 6, 4, -5, 12}, {17, 29, 45}}},
	// x (2,1) * y (1,3) + z (): gx_i = Σ_j w_ij y_j, gy_j = Σ_i w_ij x_i,
	// gz = Σ w.
	{name: "broadcast outer and scalar", in: []in{{data: []float64{1, 2}, dims: []int{2, 1}}, {data: []float64{3, 4, 5}, dims: []int{1, 3}}, {data: []float64{7}}},
		w:    arange(6, 1),
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Add(expr.Mul(x[0], x[1]), x[2]) },
		want: [][]float64{{26, 62}, {9, 12, 15}, {21}}},
	// The gradient flowing from a sum is constant along x's broadcast
	// dimension, yet each element of c (shape (1,)) was read twice:
	// d/dc Σ_i (x_i + sin c) = 2 cos c.
	{name: "broadcast under a sum", in: []in{vec(1, 2), vec(0.5)}, w: []float64{1},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Add(x[0], expr.Sin(x[1]))) },
		want: [][]float64{{1, 1}, {2 * math.Cos(0.5)}}},
	{name: "broadcast under a sum keepdims", in: []in{vec(1, 2, 3), vec(4)}, w: []float64{3},
		f:    func(x []expr.Exp[float64]) expr.Exp[float64] { return expr.Sum(expr.Add(x[0], x[1]), expr.KeepDims()) },
		want: [][]float64{{3, 3, 3}, {9}}},
}

// TestNodeWorkedValues checks the gradients of the reductions, products,
// views, scans, concatenations, casts and broadcasts against worked
// values.
func TestNodeWorkedValues(t *testing.T) {
	for _, c := range nodeCases {
		t.Run(c.name, func(t *testing.T) {
			xs := make([]*tensor.Tensor[float64], len(c.in))
			es := make([]expr.Exp[float64], len(c.in))
			for i, v := range c.in {
				xs[i] = tens(t, v.data, v.dims...)
				es[i] = xs[i]
			}
			got := gradValues(t, weighted(t, c.f(es), c.w), xs...)
			if diff := cmp.Diff(c.want, got, closeTo); diff != "" {
				t.Errorf("gradients (-want +got):\n%s", diff)
			}
		})
	}
}
