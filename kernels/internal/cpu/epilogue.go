package cpu

import (
	"sync/atomic"

	"github.com/laze-go/laze/internal/friend"
)

// FusionOff turns the product's epilogue off, for the tests that compare
// both ways: the product and the pass then run one after the other.
var FusionOff atomic.Bool

// FusedRuns counts the passes run from a product's epilogue, for the tests.
var FusedRuns atomic.Int64

// runFused computes the program's product straight into the destination and
// runs the elementwise pass tile by tile from the product's epilogue, each
// tile right after its last k-panel, while it is still in cache, instead of
// as a second pass over the whole destination: dst = relu(a@b + bias) costs
// one walk over dst's memory, not two. It reports false, having done
// nothing, where that is not safe or would not pay, and the caller runs the
// two steps.
//
// Safe: the pass reads the destination only through the product's leaf, at
// the element it writes (canWriteProduct already ruled out any other operand
// sharing memory with the destination, and a reduction), so running it over
// a finished tile while other tiles are still being summed reads nothing
// unfinished. Pays: the product runs on kernels/internal/gemm's kernels (a plugged
// BLAS or gonum's has no epilogue), a single matrix (no batch) of float32 or
// float64 into a destination whose rows are contiguous.
func (p *pass[T]) runFused() bool {
	s := p.First
	if s == nil || p.Noop || p.Red != nil || !packedGemm[T]() || FusionOff.Load() {
		return false
	}
	if s.C.NDim() != 2 || s.A.NDim() != 2 || s.B.NDim() != 2 {
		return false
	}
	dims := s.C.ShapeView(friend.K)
	m, n := dims[0], dims[1]
	if m == 0 || n == 0 || s.A.ShapeView(friend.K)[1] == 0 {
		return false
	}
	rs, cs, ok := p.tileStrides(m, n)
	if !ok || cs[0] != 1 {
		return false
	}
	for i, leaf := range p.Leaves {
		if leaf == s.C && (p.Offsets[1+i] != p.Offsets[0] || rs[1+i] != rs[0] || cs[1+i] != cs[0]) {
			return false // the product read elsewhere than where it is written
		}
	}
	ep := func(i0, j0, rows, cols int) { p.runTile(rs, cs, i0, j0, rows, cols) }
	FusedRuns.Add(1)
	gemm(matrixAt(s.C, s.C.Offset()), matrixAt(s.A, s.A.Offset()), matrixAt(s.B, s.B.Offset()), ep)
	return true
}

// tileStrides returns, per operand, its strides along the rows and the
// columns of the rank-2 destination (m × n) from the program's coalesced
// iteration space: the same two dimensions, or the two merged into one (all
// operands walking both as one run, or a dimension of size 1 dropped); ok is
// false for any other shape.
func (p *pass[T]) tileStrides(m, n int) (rs, cs []int, ok bool) {
	rs, cs = make([]int, len(p.Strides)), make([]int, len(p.Strides))
	switch {
	case len(p.Shape) == 2 && p.Shape[0] == m && p.Shape[1] == n:
		for k, st := range p.Strides {
			rs[k], cs[k] = st[0], st[1]
		}
	case len(p.Shape) == 1 && p.Shape[0] == m*n:
		for k, st := range p.Strides {
			rs[k], cs[k] = st[0]*n, st[0]
		}
	default:
		return nil, nil, false
	}
	return rs, cs, true
}

// runTile runs the program's pass over rows [i0, i0+rows) × columns [j0,
// j0+cols) of its rank-2 iteration space, operand k's element (i, j) at
// p.Offsets[k] + i·rs[k] + j·cs[k]: row by row, in blocks of at most
// BlockSize. Each call takes a worker of its own, so tiles may run
// concurrently.
func (p *pass[T]) runTile(rs, cs []int, i0, j0, rows, cols int) {
	w := getWorker[T](p)
	defer putWorker(w)
	for i := i0; i < i0+rows; i++ {
		for j := j0; j < j0+cols; j += BlockSize {
			for k := range w.blockOffsets {
				w.blockOffsets[k] = p.Offsets[k] + i*rs[k] + j*cs[k]
			}
			p.block(w, min(BlockSize, j0+cols-j))
		}
	}
}
