package kernels

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
)

// product lowers a matrix product: computed once into a temporary, read as a
// leaf; or, when it has the destination's shape and nothing in the tree
// reads the destination's storage, computed straight into the destination
// before the pass, which then reads it in place (relu(a@b + bias) writes the
// product into dst and fuses the rest over it). The result's shape comes
// from the operands once they are tensors, without checking the tree again.
func (l *lowering[T]) product(n *expr.MatProduct[T]) (int, error) {
	if t, ok := l.ev.done[n]; ok {
		return l.leaf(t.(*tensor.Tensor[T]))
	}
	a, err := materialize(l.ev, n.X)
	if err != nil {
		return 0, err
	}
	b, err := materialize(l.ev, n.Y)
	if err != nil {
		return 0, err
	}
	g, _ := expr.ProductShape(a.ShapeView(friend.K), b.ShapeView(friend.K)) // checked with the tree
	if l.canWriteProduct(g.Result) {
		l.p.writeFirst(&productStep[T]{n: n, Product: ir.Product[T]{C: l.dst, A: a, B: b}})
		return l.leaf(l.dst)
	}
	c := temp[T](l.ev, n, g.Result)
	l.ev.perform(&productStep[T]{n: n, Product: ir.Product[T]{C: c, A: a, B: b}})
	l.ev.done[n] = c
	return l.leaf(c)
}

// canWriteProduct reports whether a product of shape result can be computed
// straight into the destination: the first such product of an assignment,
// of the destination's shape, into a destination BLAS can write, in a tree
// no tensor of which (under any node, of any element type) may share memory
// with the destination, and a destination that does not hold a subtree a
// reduction's pass stored there for this pass to read (spill.go).
func (l *lowering[T]) canWriteProduct(result shape.Shape) bool {
	return !l.multi && l.p.red == nil && l.p.first == nil && !l.holdsSpill() && result.Equal(l.dims) &&
		productWritable(l.dst) && !treeMayOverlap(l.root, l.target)
}

// productWritable reports whether each matrix of dst (its last two
// dimensions) is laid out so that a product can be written into it directly:
// one of its dimensions has stride 1 and the other a stride that keeps rows
// (or columns) apart.
func productWritable[T tensor.Number](dst *tensor.Tensor[T]) bool {
	dims, strides := dst.ShapeView(friend.K), dst.StridesView(friend.K)
	if len(dims) < 2 {
		return len(dims) == 1 && (dims[0] <= 1 || strides[0] == 1)
	}
	_, ok := cpu.BLASLayout(dims[len(dims)-2], dims[len(dims)-1], strides[len(dims)-2], strides[len(dims)-1])
	return ok
}

// UseBLAS64 makes every float64 matrix product call impl's Dgemm, for
// example an OpenBLAS through gonum.org/v1/netlib/blas/netlib:
//
//	kernels.UseBLAS64(netlib.Implementation{})
//
// UseBLAS64(nil) restores the built-in one: kernels/internal/gemm's packed GEMM
// where it has kernels of its own for the instruction-set level in use (on
// amd64 with AVX2 and FMA and on arm64 with NEON, in every build;
// LAZE_CPU=generic turns it off), else gonum's pure-Go Gemm (as blas64.Use
// configures it). A plugged BLAS computes the product alone: an elementwise rest of the
// assignment then runs as a second pass over the destination. Safe for
// concurrent use; a product that has begun finishes with the BLAS it began
// with.
func UseBLAS64(impl blas.Float64Level3) { cpu.UseBLAS64(impl) }

// UseBLAS32 is UseBLAS64 for float32 products (impl's Sgemm).
func UseBLAS32(impl blas.Float32Level3) { cpu.UseBLAS32(impl) }
