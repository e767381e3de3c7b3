//go:build !(goexperiment.simd && amd64)

package kernels

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// simdBuild reports whether this is the SIMD build; in this, the scalar
// build, blocks go through the generic loops of loops_gen.go, but for the
// transcendental ops' (computeSIMD below).
const simdBuild = false

// simdWidth is the lane loops' vector width; the scalar build has none.
var simdWidth = 0

func detectSIMDWidth() int { return 0 }

// computeSIMD is the vector dispatcher the scalar loops call first: it
// hands the blocks of the transcendental ops to internal/vmath's vector
// kernels (computeVMath, loops_vmath_gen.go) and those of the ops with a
// lane definition to the lane loops (lanes_amd64.go), where the selected
// ISA level has them; the scalar loop computes the tail after the last
// whole vector. It reports whether it computed the block.
func computeSIMD[T tensor.Number](op ops.Op, pat uint8, d []T, args *[3]value[T]) bool {
	if computeVMath(op, pat, d, args) {
		return true
	}
	operands := [4]value[T]{args[0], args[1], args[2]}
	n := computeLanes(laneOp, int(op), pat, d, &operands)
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
func computeFusedSIMD[T tensor.Number](pair, pat uint8, d []T, args *[3]value[T]) bool {
	operands := [4]value[T]{args[0], args[1], args[2]}
	n := computeLanes(lanePair, int(pair), pat, d, &operands)
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
	operands := [4]value[T]{{vec: x}, {vec: y}, {vec: z}, {vec: w}}
	n := computeLanes(laneTriple, int(triple), 0, d, &operands)
	if n == 0 {
		return false
	}
	if n < len(d) {
		computeTriple(triple, d[n:], x[n:], y[n:], z[n:], w[n:])
	}
	return true
}
