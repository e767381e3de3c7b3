// Package shape describes the geometry of strided tensors: shapes, strides,
// offsets, broadcasting and dimension coalescing.
//
// It is the root of laze's dependency graph (shape → alloc → tensor → expr →
// kernels → cuda) and imports nothing from the project. That is why it is also
// the one place where every typed error of the project lives (errors.go): each
// layer above returns or panics with these values, so callers test them with
// errors.Is against the sentinel kinds (ErrShape, ErrIndex, …) and with
// errors.As against the struct types that carry the values at fault.
//
// A Shape lists the size of each dimension, outermost first, as NumPy and
// PyTorch do. Strides are counted in elements unless a name says bytes.
package shape
