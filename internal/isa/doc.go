// Package isa names the instruction-set levels laze's hand-written kernels
// are built for (the packed GEMM micro-kernels, the vector math) and says
// which one runs.
//
// The level is detected once from the CPU's features (golang.org/x/sys/cpu)
// and can be lowered, for tests and benchmarks, by the LAZE_CPU environment
// variable (generic, avx2, avx512, neon) or by Use. A level the CPU cannot
// run, or a name that is not a level, is refused: LAZE_CPU set to one makes
// the package's initialisation panic with the value at fault and what the CPU
// has, so that a run never reports figures or passes tests for a path it did
// not take.
package isa
