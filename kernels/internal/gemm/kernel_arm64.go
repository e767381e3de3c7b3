package gemm

import "github.com/laze-go/laze/internal/isa"

// The NEON kernels (neon_arm64.s, written by neongen) are the isa.NEON
// level's: every arm64 CPU has Advanced SIMD, and isa selects NEON unless
// LAZE_CPU or isa.Use chose generic.
func init() {
	table[isa.NEON] = row{
		k64: kernel[float64]{mr: neonKernel64MR, nr: neonKernel64NR, fn: neonKernel64},
		k32: kernel[float32]{mr: neonKernel32MR, nr: neonKernel32NR, fn: neonKernel32},
	}
}
