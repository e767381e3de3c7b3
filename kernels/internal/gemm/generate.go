package gemm

// The arm64 NEON micro-kernels (neon_arm64.s, neon_arm64.go) are written by
// neongen from its description of each kernel.
//go:generate go run ./neongen
