// Package ir holds the lowered form of an evaluation: what package
// kernels' lowering produces from an expression tree and what every
// executor runs. A Pass is one walk over an iteration shape: its operands
// (storage, offset and coalesced strides each), its value slots and
// registers, the instructions that compute them block by block, and, for a
// reduction, the accumulators its values fold into. The CPU executor
// (kernels/internal/cpu) runs a Pass directly; the device executor
// (kernels/internal/device) describes the same Pass to
// kernels/internal/cudasrc, which generates its kernel.
//
// The package holds data and the index arithmetic over it (ForEachMatrix),
// nothing that runs a pass: it knows tensors and ops, not trees, caches or
// executors (a Pass's Workers is a slot the CPU executor fills).
package ir
