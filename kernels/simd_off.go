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

// computeSIMD is the SIMD build's lane dispatcher; here it hands the
// blocks of the transcendental ops to internal/vmath's vector kernels
// where the CPU has them (computeVMath, loops_vmath_gen.go), with results
// bit-identical to the scalar loops'.
func computeSIMD[T tensor.Number](op ops.Op, pat uint8, d []T, args *[3]value[T]) bool {
	return computeVMath(op, pat, d, args)
}

// computeFusedSIMD is the SIMD build's fused-pair dispatcher; here it never
// handles a block.
func computeFusedSIMD[T tensor.Number](uint8, uint8, []T, *[3]value[T]) bool { return false }

// computeTripleSIMD is the SIMD build's fused-triple dispatcher; here it
// never handles a block.
func computeTripleSIMD[T tensor.Number](uint8, []T, []T, []T, []T, []T) bool { return false }
