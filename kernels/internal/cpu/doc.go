// Package cpu is laze's CPU executor: it runs the passes that package
// kernels lowers (kernels/internal/ir) on the calling goroutine and the
// worker pool, and knows nothing of expression trees, the plan cache or
// devices.
//
// A pass (a lowered program) is run by walking its iteration shape: the
// innermost dimension in blocks, rows grouped into tiles when an operand is
// read across them, work items shared among goroutines above
// ParallelThreshold (run.go). Each instruction over a block is
// kernels/internal/loops' business; this package gathers the leaves,
// stores or folds the result (reduce.go: accumulators, their merge and
// finish), runs consecutive steps band by band where the rule of bands.go
// allows, computes matrix products (product.go: BLAS, kernels/internal/gemm
// or a blocked loop) and runs a pass from a product's epilogue
// (epilogue.go).
//
// The exported variables (BlockSize, ParallelThreshold, TileRows,
// TileBlock, StreamBlock, LaneStreamBlock, PassBlock, BandBytes, BandOff,
// FusionOff, LastLevelCache) are the executor's tuning; docs/performance.md
// has the measurement behind each. Only tests and benchmarks change them.
package cpu
