// Package kernels evaluates expression trees of package expr: Assign and
// its compound forms write a tree into a tensor or a strided view, Eval
// returns it as a new tensor, Fill sets every element.
//
// Evaluation is fused: Assign checks the whole tree, lowers it to a flat
// program of instructions over block-sized registers, coalesces the
// dimensions of the destination and every leaf, and walks the destination
// once, the innermost dimension in blocks; each instruction is a tight typed
// loop over its block (kernels/internal/loops/loops_gen.go, generated from the op table).
// Above a size threshold the blocks are shared among GOMAXPROCS goroutines.
// No full-size temporary is made, except a copy of an operand whose memory
// overlaps the destination's in a way one pass could read after writing.
//
// The package is the front and the lowering: the entry points, the checks,
// the alias analysis, the plan cache, and the steps a call performs. The
// lowered passes (kernels/internal/ir) are run by the CPU executor
// (kernels/internal/cpu) or, on a device, by the device executor
// (kernels/internal/device), which launches the CUDA kernels
// kernels/internal/cudasrc writes through the device's registered Backend.
//
// See docs/design.md for the program, the aliasing rule and how to add an op.
package kernels
