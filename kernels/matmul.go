package kernels

import (
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	packed "github.com/laze-go/laze/kernels/internal/gemm"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/par"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
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
	m := matrix[T]{rows: dims[len(dims)-2], cols: dims[len(dims)-1], rs: strides[len(dims)-2], cs: strides[len(dims)-1]}
	_, _, ok := m.layout()
	return ok
}

// matrix is one matrix of a batch: element (i, j) is data[off + i·rs + j·cs].
type matrix[T tensor.Number] struct {
	data            []T
	off, rows, cols int
	rs, cs          int
}

func (m matrix[T]) at(i, j int) T { return m.data[m.off+i*m.rs+j*m.cs] }

// layout describes m as BLAS sees a row-major matrix: m itself (NoTrans)
// when its columns are adjacent, or the transpose of a row-major matrix
// (Trans) when its rows are, with the stride between the rows of that
// row-major matrix; ok is false for any other layout (steps in both
// dimensions, negative or zero strides), which must be copied first.
func (m matrix[T]) layout() (stride int, trans blas.Transpose, ok bool) {
	rowStride, colStride := m.rs, m.cs
	if m.rows <= 1 {
		rowStride = max(m.cols, 1)
	}
	if m.cols <= 1 {
		colStride = max(m.rows, 1)
	}
	switch {
	case (m.cs == 1 || m.cols <= 1) && rowStride >= max(m.cols, 1):
		return rowStride, blas.NoTrans, true
	case (m.rs == 1 || m.rows <= 1) && colStride >= max(m.rows, 1):
		return colStride, blas.Trans, true
	}
	return 0, blas.NoTrans, false
}

// packed returns m copied into a new row-major matrix.
func (m matrix[T]) packed() matrix[T] {
	out := matrix[T]{data: make([]T, m.rows*m.cols), rows: m.rows, cols: m.cols, rs: m.cols, cs: 1}
	for i := range m.rows {
		for j := range m.cols {
			out.data[i*m.cols+j] = m.at(i, j)
		}
	}
	return out
}

// copyTo copies m into dst, of the same size.
func (m matrix[T]) copyTo(dst matrix[T]) {
	for i := range m.rows {
		for j := range m.cols {
			dst.data[dst.off+i*dst.rs+j*dst.cs] = m.at(i, j)
		}
	}
}

// multiplyInto computes a @ b into c, whose shape is the product's, batch by
// batch, broadcasting the batch dimensions; c must not overlap a or b.
func multiplyInto[T tensor.Number](c, a, b *tensor.Tensor[T]) {
	g, _ := expr.ProductShape(a.ShapeView(friend.K), b.ShapeView(friend.K))
	forEachMatrix(g, c, a, b, func(off []int, operands []*tensor.Tensor[T]) {
		m := make([]matrix[T], 3)
		for k, t := range operands {
			m[k] = matrixAt(t, off[k])
		}
		gemm(m[0], m[1], m[2], nil)
	})
}

// matrixAt is the matrix of t's last two dimensions at offset off.
func matrixAt[T tensor.Number](t *tensor.Tensor[T], off int) matrix[T] {
	s, st := t.ShapeView(friend.K), t.StridesView(friend.K)
	r := len(s) - 2
	return matrix[T]{data: t.Elems(friend.K), off: off, rows: s[r], cols: s[r+1], rs: st[r], cs: st[r+1]}
}

// forEachMatrix calls fn with the offsets of c's, a's and b's matrices
// (in that order) at each index of the product's broadcast batch, and with
// the operands as matrices (a 1-D a as a row, a 1-D b as a column, c
// widened to match).
func forEachMatrix[T tensor.Number](g expr.ProductGeometry, c, a, b *tensor.Tensor[T], fn func(off []int, operands []*tensor.Tensor[T])) {
	if a.NDim() == 1 {
		a, c = a.Unsqueeze(0), c.Unsqueeze(len(g.Batch))
	}
	if b.NDim() == 1 {
		b, c = b.Unsqueeze(1), c.Unsqueeze(c.NDim())
	}
	operands := []*tensor.Tensor[T]{c, a, b}
	strides := make([][]int, 3)
	offsets := make([]int, 3)
	for k, t := range operands {
		s, st := t.ShapeView(friend.K), t.StridesView(friend.K)
		strides[k], _ = shape.BroadcastStrides(s[:len(s)-2], st[:len(st)-2], g.Batch)
		offsets[k] = t.Offset()
	}
	forEachOffset(g.Batch, offsets, strides, func(off []int) { fn(off, operands) })
}

// forEachOffset calls fn with the offsets of every operand at each index of
// dims, in row-major order (once for a scalar shape, never for an empty one).
func forEachOffset(dims shape.Shape, base []int, strides [][]int, fn func(off []int)) {
	off := slices.Clone(base)
	for o := shape.NewOdometer(dims); !o.Done(); {
		fn(off)
		d := o.Next()
		for k := range off {
			off[k] += o.Step(strides[k], d)
		}
	}
}

// gemm computes c = a·b for one matrix of each: for float32 and float64 a
// BLAS (the one plugged with UseBLAS64/UseBLAS32, else kernels/internal/gemm's
// packed kernels where they run, else gonum's), a blocked loop for the other
// types. ep, if not nil, is called on tiles of c (in c's own coordinates)
// that together cover it once, each when its values are final: tile by tile
// during the product with kernels/internal/gemm, on the whole of c after it
// otherwise.
func gemm[T tensor.Number](c, a, b matrix[T], ep packed.Epilogue) {
	if c.rows == 0 || c.cols == 0 {
		return
	}
	if a.cols == 0 {
		for i := range c.rows {
			for j := range c.cols {
				c.data[c.off+i*c.rs+j*c.cs] = 0
			}
		}
		whole(ep, c)
		return
	}
	switch any(c.data).(type) {
	case []float64:
		gemmWith(any(c).(matrix[float64]), any(a).(matrix[float64]), any(b).(matrix[float64]), gemm64, ep)
	case []float32:
		gemmWith(any(c).(matrix[float32]), any(a).(matrix[float32]), any(b).(matrix[float32]), gemm32, ep)
	default:
		gemmLoop(c, a, b)
		whole(ep, c)
	}
}

// whole calls ep, if not nil, on the whole of c.
func whole[T tensor.Number](ep packed.Epilogue, c matrix[T]) {
	if ep != nil {
		ep(0, 0, c.rows, c.cols)
	}
}

// The BLAS plugged by UseBLAS64 and UseBLAS32, or nil for the built-in one.
var (
	userBLAS64 atomic.Pointer[float64BLAS]
	userBLAS32 atomic.Pointer[float32BLAS]
)

type (
	float64BLAS struct{ blas.Float64Level3 }
	float32BLAS struct{ blas.Float32Level3 }
)

// UseBLAS64 makes every float64 matrix product call impl's Dgemm, for
// example an OpenBLAS through gonum.org/v1/netlib/blas/netlib:
//
//	kernels.UseBLAS64(netlib.Implementation{})
//
// UseBLAS64(nil) restores the built-in one: kernels/internal/gemm's packed GEMM
// where it has kernels of its own for the instruction-set level in use (on
// amd64 with AVX2 and FMA and on arm64 with NEON, in every build;
// LAZE_CPU=generic turns it off), else gonum's pure-Go Gemm (as blas64.Use
// configures it). A
// plugged BLAS computes the product alone: an elementwise rest of the
// assignment then runs as a second pass over the destination. Safe for
// concurrent use; a product that has begun finishes with the BLAS it began
// with.
func UseBLAS64(impl blas.Float64Level3) {
	if impl == nil {
		userBLAS64.Store(nil)
		return
	}
	userBLAS64.Store(&float64BLAS{impl})
}

// UseBLAS32 is UseBLAS64 for float32 products (impl's Sgemm).
func UseBLAS32(impl blas.Float32Level3) {
	if impl == nil {
		userBLAS32.Store(nil)
		return
	}
	userBLAS32.Store(&float32BLAS{impl})
}

// packedGemm reports whether float32 or float64 products of element type T
// run on kernels/internal/gemm's kernels, which call an epilogue tile by tile: they
// run on this machine and no BLAS is plugged for T.
func packedGemm[T tensor.Number]() bool {
	if !packed.Available() {
		return false
	}
	switch any(*new(T)).(type) {
	case float64:
		return userBLAS64.Load() == nil
	case float32:
		return userBLAS32.Load() == nil
	}
	return false
}

// general is a row-major matrix as BLAS takes it.
type general[T tensor.Number] struct {
	rows, cols, stride int
	data               []T
}

// blasGemm computes c = op(a)·op(b) through a BLAS of element type T,
// calling ep, if not nil, on tiles of c covering it once as they are final.
type blasGemm[T tensor.Number] func(tA, tB blas.Transpose, a, b, c general[T], ep packed.Epilogue)

// depth is the inner dimension of op(a)·op(b).
func depth[T tensor.Number](tA blas.Transpose, a general[T]) int {
	if tA == blas.NoTrans {
		return a.cols
	}
	return a.rows
}

func gemm64(tA, tB blas.Transpose, a, b, c general[float64], ep packed.Epilogue) {
	k := depth(tA, a)
	switch u := userBLAS64.Load(); {
	case u != nil:
		u.Dgemm(tA, tB, c.rows, c.cols, k, 1, a.data, a.stride, b.data, b.stride, 0, c.data, c.stride)
	case packed.Available():
		packed.Gemm(tA == blas.Trans, tB == blas.Trans, c.rows, c.cols, k, a.data, a.stride, b.data, b.stride, c.data, c.stride, ep)
		return
	default:
		g := func(m general[float64]) blas64.General {
			return blas64.General{Rows: m.rows, Cols: m.cols, Stride: m.stride, Data: m.data}
		}
		blas64.Gemm(tA, tB, 1, g(a), g(b), 0, g(c))
	}
	if ep != nil {
		ep(0, 0, c.rows, c.cols)
	}
}

func gemm32(tA, tB blas.Transpose, a, b, c general[float32], ep packed.Epilogue) {
	k := depth(tA, a)
	switch u := userBLAS32.Load(); {
	case u != nil:
		u.Sgemm(tA, tB, c.rows, c.cols, k, 1, a.data, a.stride, b.data, b.stride, 0, c.data, c.stride)
	case packed.Available():
		packed.Gemm(tA == blas.Trans, tB == blas.Trans, c.rows, c.cols, k, a.data, a.stride, b.data, b.stride, c.data, c.stride, ep)
		return
	default:
		g := func(m general[float32]) blas32.General {
			return blas32.General{Rows: m.rows, Cols: m.cols, Stride: m.stride, Data: m.data}
		}
		blas32.Gemm(tA, tB, 1, g(a), g(b), 0, g(c))
	}
	if ep != nil {
		ep(0, 0, c.rows, c.cols)
	}
}

// gemmWith computes c = a·b with a BLAS Gemm, passing transposed operands
// as they are (a.T() costs no copy) and copying only those whose layout BLAS
// cannot take. A column-major c is computed as cᵀ = bᵀ·aᵀ (ep's tiles turned
// back into c's coordinates); any other c through a temporary (ep called on
// the whole of c once it is copied).
func gemmWith[T tensor.Number](c, a, b matrix[T], call blasGemm[T], ep packed.Epilogue) {
	ga, tA := asGeneral(a)
	gb, tB := asGeneral(b)
	out := c
	if _, _, ok := c.layout(); !ok {
		out = matrix[T]{data: make([]T, c.rows*c.cols), rows: c.rows, cols: c.cols, rs: c.cols, cs: 1}
	}
	copied := out.data != nil && &out.data[0] != &c.data[0]
	tileEp := ep
	if copied {
		tileEp = nil
	}
	gc, tC := asGeneral(out)
	if tC == blas.NoTrans {
		call(tA, tB, ga, gb, gc, tileEp)
	} else {
		if tileEp != nil {
			tileEp = func(i0, j0, rows, cols int) { ep(j0, i0, cols, rows) }
		}
		call(flip(tB), flip(tA), gb, ga, gc, tileEp)
	}
	if copied {
		out.copyTo(c)
		whole(ep, c)
	}
}

// asGeneral describes m for BLAS, copying it first when BLAS cannot take its
// layout.
func asGeneral[T tensor.Number](m matrix[T]) (general[T], blas.Transpose) {
	stride, trans, ok := m.layout()
	if !ok {
		m = m.packed()
		stride, trans, _ = m.layout()
	}
	g := general[T]{rows: m.rows, cols: m.cols, stride: stride, data: m.data[m.off:]}
	if trans == blas.Trans {
		g.rows, g.cols = m.cols, m.rows
	}
	return g, trans
}

func flip(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.Trans
	}
	return blas.NoTrans
}

// The blocked integer loop computes gemmRowBlock rows of c at a time, over
// gemmDepthBlock rows of b at a time, so that those rows of b stay in cache
// while every row of the block uses them.
const (
	gemmRowBlock   = 64
	gemmDepthBlock = 256
)

// gemmLoop computes c = a·b with a blocked loop, its row blocks shared among
// goroutines when the product is large.
func gemmLoop[T tensor.Number](c, a, b matrix[T]) {
	bp := b
	if b.cs != 1 || b.rs != b.cols {
		bp = b.packed()
	}
	blocks := (c.rows + gemmRowBlock - 1) / gemmRowBlock
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if c.rows*c.cols*a.cols < parallelThreshold {
		workers = 1
	}
	par.Do(workers, func(w int) {
		for blk := w; blk < blocks; blk += workers {
			gemmBlock(c, a, bp, blk*gemmRowBlock)
		}
	})
}

// gemmBlock computes the rows of c from i0 (up to gemmRowBlock of them); b is
// row-major and contiguous.
func gemmBlock[T tensor.Number](c, a, b matrix[T], i0 int) {
	rows, n, depth := min(gemmRowBlock, c.rows-i0), c.cols, a.cols
	buf := make([]T, rows*n)
	for k0 := 0; k0 < depth; k0 += gemmDepthBlock {
		for i := range rows {
			crow := buf[i*n : (i+1)*n]
			for k := k0; k < min(k0+gemmDepthBlock, depth); k++ {
				aik := a.at(i0+i, k)
				brow := b.data[b.off+k*n : b.off+(k+1)*n]
				for j, v := range brow {
					crow[j] += aik * v
				}
			}
		}
	}
	block := matrix[T]{data: buf, rows: rows, cols: n, rs: n, cs: 1}
	block.copyTo(matrix[T]{data: c.data, off: c.off + i0*c.rs, rows: rows, cols: n, rs: c.rs, cs: c.cs})
}
