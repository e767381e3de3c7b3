// Package loops is the innermost part of kernels' CPU executor, everything
// over one block: one op, a fused pair or a fused triple over a block of
// operands, a reduction's fold of a block (pairwise sums, the lane folds,
// arg folds) and a block's gather from and store to strided memory. The
// ops run by the scalar loops generated from the op table (internal/ops),
// the vector math of kernels/internal/vmath, the AVX2 lane assembly and, in
// the GOEXPERIMENT=simd build, the AVX-512 lane loops, whichever the
// selected ISA level (internal/isa, LAZE_CPU) has. It knows nothing of
// tensors or trees: kernels lowers a tree into instructions and walks the
// destination in blocks; this package computes each instruction over a
// block. See docs/design.md, "Layers".
package loops
