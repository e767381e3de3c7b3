package loops

import (
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// The vector dispatchers the scalar loops call first (compute,
// computeFused, computeTriple). A float32 or float64 block goes, in this
// order, to kernels/internal/vmath's kernels for the transcendental ops
// (computeVMath, loops_vmath_gen.go), to the AVX-512 lane loops of the
// GOEXPERIMENT=simd build where the selected level is avx512 (computeWide,
// loops_simd_gen.go; never in the default build), then to the AVX2 lane
// assembly (computeLanes, lanes_amd64.go), each where the selected ISA
// level has it; the scalar loop computes the tail after the lane loops'
// last whole vector. Each reports whether it computed the block.

// computeSIMD computes a block of op, operands args in pattern pat, with
// the vector code the selected level has; false leaves it to the scalar
// loop.
func computeSIMD[T tensor.Number](op ops.Op, pat uint8, d []T, args *[3]Value[T]) bool {
	if computeVMath(op, pat, d, args) || (wideOn() && computeWide(op, pat, d, args)) {
		return true
	}
	n := computeLanes(laneOp, int(op), pat, d, args, nil)
	if n == 0 {
		return false
	}
	if n < len(d) {
		tail := laneTail(pat, args, n)
		compute(op, pat, d[n:], &tail)
	}
	return true
}

// computeFusedSIMD is computeSIMD for a fused pair.
func computeFusedSIMD[T tensor.Number](pair, pat uint8, d []T, args *[3]Value[T]) bool {
	if wideOn() && computeFusedWide(pair, pat, d, args) {
		return true
	}
	n := computeLanes(lanePair, int(pair), pat, d, args, nil)
	if n == 0 {
		return false
	}
	if n < len(d) {
		tail := laneTail(pat, args, n)
		computeFused(pair, pat, d[n:], &tail)
	}
	return true
}

// computeTripleSIMD is computeSIMD for a fused triple, four vector
// operands.
func computeTripleSIMD[T tensor.Number](triple uint8, d, x, y, z, w []T) bool {
	if wideOn() && computeTripleWide(triple, d, x, y, z, w) {
		return true
	}
	operands := [3]Value[T]{{Vec: x}, {Vec: y}, {Vec: z}}
	n := computeLanes(laneTriple, int(triple), 0, d, &operands, w)
	if n == 0 {
		return false
	}
	if n < len(d) {
		computeTriple(triple, d[n:], x[n:], y[n:], z[n:], w[n:])
	}
	return true
}

// wideOn reports whether the AVX-512 lane loops may run: in the SIMD build,
// at the avx512 level (so LAZE_CPU=avx2 turns them off).
func wideOn() bool { return simdBuild && isa.Selected() == isa.AVX512 }
