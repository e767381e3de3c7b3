// Package cudasrc is the CUDA backend's code generation: it decides how a
// lowered pass runs on a GPU (launch.go: the variant, the reduction
// strategy and the launch shape, from the pass's Geometry) and writes the
// CUDA C source. It turns a kernel's structure (Spec) into the source of one
// extern "C" __global__ function: elementwise programs (plain or
// vectorised), reductions in each strategy (block, warp, column, split and
// the split's finishing kernel), cumulative scans and the tiled matrix
// product. The source depends only on the structure, which Spec.Key
// encodes: the ops, the element types, the rank, which operands walk which
// dimensions, which leaves are generators (Operand.Gen: no memory, each
// element computed from the position walked with expr.Generator's
// formula, GeneratorHelpers), the index width. Scalars, shapes, strides
// and addresses are kernel parameters (Spec.Params), a generator's
// arguments included, so that a*2 and a*3 on tensors of any size share
// one compiled kernel.
//
// Each op's CUDA text comes from the op table (internal/ops), the same
// definition the CPU loops are generated from. The device executor
// (kernels/internal/device) describes a lowered pass as a Geometry and a
// Spec and launches the kernels; this package knows nothing of passes or
// tensors' memory.
package cudasrc
