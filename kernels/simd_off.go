//go:build !(goexperiment.simd && amd64)

package kernels

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// simdBuild reports whether this is the SIMD build; in this, the scalar
// build, every block goes through the generic loops of loops_gen.go.
const simdBuild = false

// simdWidth is the lane loops' vector width; the scalar build has none.
var simdWidth = 0

func detectSIMDWidth() int { return 0 }

// computeSIMD is the SIMD build's lane dispatcher; here it never handles a
// block.
func computeSIMD[T tensor.Number](ops.Op, uint8, []T, *[3]value[T]) bool { return false }

// computeFusedSIMD is the SIMD build's fused-pair dispatcher; here it never
// handles a block.
func computeFusedSIMD[T tensor.Number](uint8, uint8, []T, *[3]value[T]) bool { return false }

// computeTripleSIMD is the SIMD build's fused-triple dispatcher; here it
// never handles a block.
func computeTripleSIMD[T tensor.Number](uint8, []T, []T, []T, []T, []T) bool { return false }
