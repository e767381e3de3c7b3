package cuda

// The pure-Go half of the differential tests (cuda_test.go, tag cuda): the
// random leaves and trees, and the shape of the destination they are
// assigned to. Untagged, so that the generator is tested on machines
// without a GPU (TestRandomTreeShapes); the GPU tests move the leaves to
// the device with toDev.

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// leafSet is the leaves of a differential trial, on the host and (the same
// values, the same views) on the device. The first fullLeaves of them have
// the trial's shape (rows, cols); the others broadcast to it.
type leafSet[T tensor.Number] struct {
	host, dev []*tensor.Tensor[T]
}

// fullLeaves is how many of a leafSet's leaves have the full shape.
const fullLeaves = 2

// makeLeaves returns leaves of shape (rows, cols) in several layouts: a
// contiguous tensor and a transpose of a stepped slice (both full), a row
// (cols,) and a scalar tensor, which broadcast. toDev copies a host base
// tensor to the device; each view is taken of the host base and of its
// device copy alike.
func makeLeaves[T tensor.Number](r *rand.Rand, rows, cols int, toDev func(*tensor.Tensor[T]) *tensor.Tensor[T]) leafSet[T] {
	vals := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(r.IntN(19) - 9)
			if tensor.IsFloat[T]() {
				v[i] = T(r.Float64()*4 - 2)
			}
		}
		return v
	}
	plain, _ := tensor.FromSlice(vals(rows*cols), shape.Shape{rows, cols})
	wide, _ := tensor.FromSlice(vals(rows*cols*2), shape.Shape{cols, rows * 2})
	row, _ := tensor.FromSlice(vals(cols), shape.Shape{cols})
	bases := []*tensor.Tensor[T]{plain, wide, row, tensor.Scalar(vals(1)[0])}
	same := func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x }
	views := []func(*tensor.Tensor[T]) *tensor.Tensor[T]{
		same,
		func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x.Slice(1, 0, rows*2, 2).T() },
		same,
		same,
	}
	var ls leafSet[T]
	for i, b := range bases {
		ls.host = append(ls.host, views[i](b))
		ls.dev = append(ls.dev, views[i](toDev(b)))
	}
	return ls
}

// randomTree builds a random elementwise tree of depth at most depth over
// the leaves and small constants, returning the host tree and the same tree
// over the device leaves. When full is set the tree has the full shape
// (rows, cols): the operand at a random position of every node along one
// path is full, down to a full-shape leaf. Without that rule a tree of rows
// and scalars alone has shape (cols,) or (), smaller than a (rows, cols)
// destination, which Assign refuses (issue 16: "(39,17), (17,): the
// destination's shape must equal the expression's").
func randomTree[T tensor.Number](r *rand.Rand, depth int, full bool, ls leafSet[T]) (expr.Exp[T], expr.Exp[T]) {
	if depth == 0 || r.IntN(4) == 0 {
		if !full && r.IntN(5) == 0 {
			v := expr.Scalar(T(r.IntN(5) + 1))
			return v, v
		}
		i := r.IntN(len(ls.host))
		if full {
			i = r.IntN(fullLeaves)
		}
		return ls.host[i], ls.dev[i]
	}
	var candidates []ops.Op
	for _, op := range ops.All() {
		if op.Def().Domain.Accepts(tensor.IsFloat[T]()) && op != ops.Pow {
			candidates = append(candidates, op)
		}
	}
	op := candidates[r.IntN(len(candidates))]
	fullAt := r.IntN(op.Arity()) // the operand that carries the full shape
	var hs, ds [3]expr.Exp[T]
	for k := range op.Arity() {
		hs[k], ds[k] = randomTree(r, depth-1, full && k == fullAt, ls)
	}
	return node(op, hs), node(op, ds)
}

// node makes op's node over its first op.Arity() operands.
func node[T tensor.Number](op ops.Op, x [3]expr.Exp[T]) expr.Exp[T] {
	switch op.Arity() {
	case 1:
		return &expr.Unary[T]{Op: op, X: x[0]}
	case 2:
		return &expr.Binary[T]{Op: op, X: x[0], Y: x[1]}
	}
	return &expr.Ternary[T]{Op: op, X: x[0], Y: x[1], Z: x[2]}
}

// trialDims draws a trial's shape as the GPU tests do.
func trialDims(r *rand.Rand) (rows, cols int) { return 1 + r.IntN(70), 1 + r.IntN(90) }

// checkTreeShapes runs the generator as differential does, on the host
// only (the "device" leaves are clones), and checks that every tree has the
// trial's shape, that the destination made from it is accepted by Assign,
// and that the two trees are the same tree over equal leaves.
func checkTreeShapes[T tensor.Number](t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	clone := func(x *tensor.Tensor[T]) *tensor.Tensor[T] { return x.Clone() }
	for trial := range 100 {
		rows, cols := trialDims(r)
		ls := makeLeaves(r, rows, cols, clone)
		he, de := randomTree(r, 4, true, ls)
		if diff := cmp.Diff(shape.Shape{rows, cols}, he.Shape()); diff != "" {
			t.Fatalf("trial %d: tree %v: shape (-want +got):\n%s", trial, he, diff)
		}
		want := tensor.New[T](he.Shape())
		if err := kernels.Assign(want, he); err != nil {
			t.Fatalf("trial %d: %v: %v", trial, he, err)
		}
		got := tensor.New[T](de.Shape())
		if err := kernels.Assign(got, de); err != nil {
			t.Fatalf("trial %d: the twin tree: %v", trial, err)
		}
		same := cmp.Comparer(func(a, b T) bool { return a == b || (a != a && b != b) })
		if diff := cmp.Diff(want.Data(), got.Data(), same); diff != "" {
			t.Fatalf("trial %d: the host and twin trees differ (-host +twin):\n%s", trial, diff)
		}
	}
}

// TestRandomTreeShapes checks the differential generator on the CPU, for
// the element types the GPU tests use.
func TestRandomTreeShapes(t *testing.T) {
	tests := []struct {
		name string
		run  func(*testing.T, uint64)
	}{
		{"float32", checkTreeShapes[float32]},
		{"float64", checkTreeShapes[float64]},
		{"int32", checkTreeShapes[int32]},
		{"int64", checkTreeShapes[int64]},
		{"uint8", checkTreeShapes[uint8]},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, uint64(i+1)) })
	}
}

// TestUnconstrainedTreesCanBeSmaller shows the failure of issue 16: without
// the full rule, some trees are smaller than the trial's shape, so a
// destination must not be made from (rows, cols) alone.
func TestUnconstrainedTreesCanBeSmaller(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	smaller := 0
	for range 200 {
		rows, cols := trialDims(r)
		ls := makeLeaves(r, rows, cols, func(x *tensor.Tensor[int32]) *tensor.Tensor[int32] { return x })
		he, _ := randomTree(r, 4, false, ls)
		if !he.Shape().Equal(shape.Shape{rows, cols}) {
			smaller++
		}
	}
	if smaller == 0 {
		t.Error("no unconstrained tree smaller than its trial's shape in 200: the generator no longer exercises broadcasting leaves alone")
	}
}
