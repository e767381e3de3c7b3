//go:build goexperiment.simd && amd64

package loops

import "simd/archsimd"

// simdBuild reports whether this is the SIMD build (GOEXPERIMENT=simd on
// amd64), whose float32/float64 blocks go through the lane loops of
// loops_simd_gen.go.
const simdBuild = true

// simdWidth is the vector width in bits the lane loops use, chosen once at
// start-up from the CPU: 512 with AVX-512, 256 with AVX2, 0 (the scalar
// loops) otherwise. Tests set it to run each width.
var simdWidth = detectSIMDWidth()

func detectSIMDWidth() int {
	switch {
	case archsimd.X86.AVX512():
		return 512
	case archsimd.X86.AVX2():
		return 256
	}
	return 0
}
