// Package gemm is a packed matrix product for float32 and float64 on SIMD
// micro-kernels (NEON assembly on arm64; simd/archsimd's AVX-512 vectors in
// the GOEXPERIMENT=simd build on amd64): C = op(A)·op(B), row-major operands
// with leading dimensions, transposes as flags, beta = 0, with an optional
// epilogue called on each finished tile of C.
//
// # Availability
//
// Each instruction-set level of package internal/isa may have micro-kernels
// of its own; Gemm uses those of isa.Selected() (the CPU's best level unless
// LAZE_CPU or isa.Use chose another), and Available reports whether that
// level has them. The NEON kernels (neon_arm64.s) are built on every arm64
// and selected by default. The AVX-512 kernels are built only with
// GOEXPERIMENT=simd on amd64 (kernel_simd.go, //go:build goexperiment.simd
// && amd64) and registered only where the CPU has AVX-512. Where the selected
// level has none (LAZE_CPU=generic included), Gemm still computes the product
// on a portable Go micro-kernel, but callers (package kernels) should use
// another Gemm (gonum's).
//
// # arm64: NEON micro-kernels, 6 × 8 (float64), 8 × 12 (float32)
//
// The NEON kernels are Go assembly written by neongen (go generate), a
// generator of this package's own (avo emits amd64 only), from one
// description per kernel: element type, tile, unrolling. The tiles fill the
// 32 128-bit registers: 6 × 8 float64 is 24 accumulators of 2 lanes, with a k
// step's B row in 4 registers and its A column in 3 (31 registers); 8 × 12
// float32 is 24 accumulators of 4 lanes, 3 B and 2 A registers (29). A k step
// is one post-indexed LD1 of B and one of A, then one FMLA by element per
// accumulator (row i's accumulators += B's vectors · lane i of A); the k loop
// is unrolled four times, a one-step loop does the rest. At the end, when
// accumulating, each row of C is loaded and added (FADD), and the rows are
// stored with ST1 post-indexed by ldc. Go's assembler lacks FMLA by element
// and vector FADD, so neongen encodes them as WORDs (the instruction in the
// comment). Each element of a tile is thus a chain of fused multiply-adds
// in k order, then added to C, which the tests check bit for bit. They run
// under qemu-aarch64 (make test-arm64): that shows the kernels correct, not
// fast; their speed on arm64 hardware has not been measured.
//
// # Algorithm and blocking
//
// Gemm follows BLIS's five loops. op(B) is taken nc columns at a time
// (nc = 4096) and kc steps deep (kc = 256), packed into panels of nr columns
// (kc × nr each, step-major); op(A) is taken mc rows at a time (mc = 96 for
// float64, 192 for float32) over the same kc steps, packed into panels of mr
// rows (kc × mr each). The micro-kernel then computes each mr × nr tile of C
// from one A panel and one B panel, adding into C for every kc step after
// the first. Sizes (bytes per element 8 or 4): an A block mc·kc is 192 KiB,
// resident in L2 (1 MiB on the EPYC and most AVX-512 Xeons) while the B
// panels are reused across it; one B panel kc·nr is 32 KiB (float64) or
// 32 KiB (float32) and is walked by every A panel of the block; one A panel
// kc·mr is 8 KiB (float64) or 4 KiB (float32), in L1 for the length of a
// kernel call. The packed B block (kc·nc) lives in L3. Edges need no
// special kernels: panels are zero-padded to mr rows and nr columns, and a
// tile that sticks out of C is computed into a scratch tile and copied.
// k = 0 writes zeros; m or n = 0 does nothing.
//
// # Micro-kernel: 4 × 16 (float64), 4 × 32 (float32)
//
// A tile is 4 rows × 2 vectors: 8 zmm accumulators, 2 B vectors loaded per
// step and one A element broadcast per row, 8 FMAs per step. The shape is
// what the Go compiler's register allocator allows, measured rather than
// assumed: although 512-bit operations may use Z16–Z31, values that live
// across a loop (the accumulators, as phis) and loads are allocated in
// X0–X14 only, and MulAdd's result overwrites its receiver (VFMADD213PD), so
// a broadcast used twice is copied first. Larger tiles (6×16, 8×8, 12×8,
// 4×24) spill accumulators to the stack on every step and run at 10–14
// GFLOP/s against 50–55 for 4×16 (float64, one core, K = 256). The loop is
// unrolled twice, which lets the allocator alternate registers instead of
// copying every accumulator back at the loop's end (+10%). The broadcasts
// are LoadFloat64x2(...).Broadcast1To8() (a 16-byte load, hence the packing
// buffers' slack), written in this package so that the scheduler keeps each
// next to its FMAs. On one core of the EPYC this package was measured on,
// Gemm runs at about 45 GFLOP/s (float64) and 90 (float32) at n = 256 to
// 1024, 6–7.5× gonum's pure-Go Gemm.
//
// # Epilogue contract
//
// An Epilogue is called with a tile (i0, j0, rows, cols) of C: mc rows (or
// fewer at the bottom) by epCols columns (128 float64, 256 float32; fewer at
// the right), as soon as the last kc step of the whole tile is written, so
// that a per-element operation over C (bias, activation, any elementwise
// tree) reads the tile from cache instead of making a second pass over
// memory. The tiles partition C: every element is in exactly one call, after
// its final value is stored, and the callback may rewrite it. With
// GOMAXPROCS > 1 and a large product, ranges of C's longer dimension are
// computed on different goroutines, so calls for disjoint tiles may run
// concurrently; the callback must touch nothing of C outside its tile (and
// must not read another tile, which may be unfinished). When k = 0, C is
// zeroed and the epilogue called once on the whole of C.
package gemm
