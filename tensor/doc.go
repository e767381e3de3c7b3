// Package tensor provides Tensor[T]: a strided, n-dimensional view of shared
// storage, in the model of NumPy's ndarray and PyTorch's Tensor (data,
// offset, shape, strides).
//
// A tensor is a storage (one block of elements from an allocator, or a Go
// slice it wraps), an offset into it, a shape and a stride per dimension, and
// the device the storage lives on. Element (i0, i1, …) lives at
// offset + Σ ik·strides[k]. Views — Transpose, Permute, View, Index, Slice,
// Expand, Squeeze and the rest — build a new header over the same storage in
// O(1) time and allocations, whatever the tensor's size; writes through one
// view are seen through every other.
//
// Errors follow the project's rule (docs/design.md): a call returns an error
// when its success depends on sizes the caller may not know in advance (View,
// Reshape, Expand, CopyFrom, FromSlice, Make), and panics for programming
// errors (a dimension number past the rank, an element index out of range, a
// zero step, a nil tensor), always with one of the typed errors of package
// shape, so recover and errors.As work on both. Constructors panic with an
// OverflowError for a shape whose size does not fit in an int and with a
// MemoryError when the allocator cannot serve it; Make returns these.
package tensor
