package cpu

import (
	"runtime"
	"sync/atomic"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	packed "github.com/laze-go/laze/kernels/internal/gemm"
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/kernels/internal/par"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

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

// multiply computes a @ b into c, whose shape is the product's, batch by
// batch, broadcasting the batch dimensions; c must not overlap a or b.
func multiply[T tensor.Number](c, a, b *tensor.Tensor[T]) {
	g, _ := expr.ProductShape(a.ShapeView(friend.K), b.ShapeView(friend.K))
	ir.ForEachMatrix(g, c, a, b, func(off []int, operands []*tensor.Tensor[T]) {
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

// UseBLAS64 plugs impl for every float64 product, nil restoring the
// built-in one (kernels.UseBLAS64 documents the choice).
func UseBLAS64(impl blas.Float64Level3) {
	if impl == nil {
		userBLAS64.Store(nil)
		return
	}
	userBLAS64.Store(&float64BLAS{impl})
}

// UseBLAS32 is UseBLAS64 for float32 products.
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

// gemmLoop computes c = a·b with a blocked loop, its row blocks shared among
// goroutines when the product is large.
func gemmLoop[T tensor.Number](c, a, b matrix[T]) {
	bp := b
	if b.cs != 1 || b.rs != b.cols {
		bp = b.packed()
	}
	blocks := (c.rows + gemmRowBlock - 1) / gemmRowBlock
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if c.rows*c.cols*a.cols < ParallelThreshold {
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

// The BLAS plugged by UseBLAS64 and UseBLAS32, or nil for the built-in one.
var (
	userBLAS64 atomic.Pointer[float64BLAS]
	userBLAS32 atomic.Pointer[float32BLAS]
)

type (
	float64BLAS struct{ blas.Float64Level3 }
	float32BLAS struct{ blas.Float32Level3 }
)

// general is a row-major matrix as BLAS takes it.
type general[T tensor.Number] struct {
	rows, cols, stride int
	data               []T
}

// blasGemm computes c = op(a)·op(b) through a BLAS of element type T,
// calling ep, if not nil, on tiles of c covering it once as they are final.
type blasGemm[T tensor.Number] func(tA, tB blas.Transpose, a, b, c general[T], ep packed.Epilogue)

// The blocked integer loop computes gemmRowBlock rows of c at a time, over
// gemmDepthBlock rows of b at a time, so that those rows of b stay in cache
// while every row of the block uses them.
const (
	gemmRowBlock   = 64
	gemmDepthBlock = 256
)
