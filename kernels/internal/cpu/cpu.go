package cpu

import (
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
	"gonum.org/v1/gonum/blas"
)

// Execute runs an assignment's pass over its whole destination: the
// product written into the destination first, if the pass has one, then
// the pass; or the two at once, the pass run tile by tile from the
// product's epilogue, where that is safe and pays (epilogue.go).
func Execute[T tensor.Number](p *ir.Pass[T]) { (*pass[T])(p).execute() }

// Reduce runs a reduction's pass, folding its values into the main
// accumulators, and finishes them into the result: by rows where the rows
// fold apart, else by blocks, each goroutine into accumulators of its own
// that are merged at the end.
func Reduce[T tensor.Number](p *ir.Pass[T]) {
	q := (*pass[T])(p)
	if q.runRowsApart() {
		return
	}
	q.run()
	q.red().finish()
}

// KeepWorkers gives p a pool of workers of its own, as the plan cache's
// passes have, so that a compiled Program's runs reuse them.
func KeepWorkers[T tensor.Number](p *ir.Pass[T]) { (*pass[T])(p).keepWorkers() }

// NewAccumulator returns r's main accumulators over vals and idx (idx nil
// unless r is an arg reduction), set to its identity; what vals and idx do
// not provide is allocated.
func NewAccumulator[T tensor.Number](r *ir.Reduction[T], vals []T, idx []int64) *ir.Accumulator[T] {
	return (*reduction[T])(r).newAccumulator(vals, idx)
}

// Rewind sets r's main accumulators to its identity again, for a compiled
// Program's next run.
func Rewind[T tensor.Number](r *ir.Reduction[T]) { (*reduction[T])(r).rewind() }

// Multiply computes a @ b into c, whose shape is the product's, batch by
// batch, broadcasting the batch dimensions; c must not overlap a or b.
func Multiply[T tensor.Number](c, a, b *tensor.Tensor[T]) { multiply(c, a, b) }

// PackedGemm reports whether float32 or float64 products of element type T
// run on kernels/internal/gemm's kernels, which call an epilogue tile by
// tile: they run on this machine and no BLAS is plugged for T.
func PackedGemm[T tensor.Number]() bool { return packedGemm[T]() }

// BLASLayout says how BLAS takes a rows × cols matrix whose elements are
// rs apart along its rows and cs along its columns: as it lies (NoTrans),
// transposed (Trans), or, ok false, not at all (it is copied first).
func BLASLayout(rows, cols, rs, cs int) (trans bool, ok bool) {
	_, t, ok := matrix[float64]{rows: rows, cols: cols, rs: rs, cs: cs}.layout()
	return t == blas.Trans, ok
}

// Walk is how the executor walks a pass, for Explain: its block length,
// the rows of a tile (1 when not tiling) and its work (elements times the
// cost per element), against ParallelThreshold.
type Walk struct {
	Block, TileRows, Work int
	Shared                bool // every row has the same values: a tile's block is computed once
}

// WalkOf returns how p is walked.
func WalkOf[T tensor.Number](p *ir.Pass[T]) Walk {
	q := (*pass[T])(p)
	w := q.walkShape()
	return Walk{Block: w.block, TileRows: w.groupRows, Work: w.planes * w.rows * p.Shape[len(p.Shape)-1] * q.cost(), Shared: w.shared}
}
