//go:build !(goexperiment.simd && amd64)

package loops

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// simdBuild reports whether this is the SIMD build; this, the default
// build, has no archsimd loops (vector.go says what computes a block).
const simdBuild = false

// simdWidth is the lane loops' vector width; the scalar build has none.
var simdWidth = 0

func detectSIMDWidth() int { return 0 }

// computeWide, computeFusedWide and computeTripleWide are the SIMD
// build's AVX-512 lane loops (loops_simd_gen.go); this build has none.
func computeWide[T tensor.Number](ops.Op, uint8, []T, *[3]Value[T]) bool { return false }
func computeFusedWide[T tensor.Number](uint8, uint8, []T, *[3]Value[T]) bool {
	return false
}
func computeTripleWide[T tensor.Number](uint8, []T, []T, []T, []T, []T) bool { return false }
