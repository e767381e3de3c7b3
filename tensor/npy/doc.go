// Package npy reads and writes NumPy's .npy files as laze tensors.
//
// Every element type NumPy and laze share is supported: bool (read as
// uint8 0 or 1: any non-zero byte is True, as in NumPy), int8 to int64,
// uint8 to uint64, float32 and float64, in either byte order. A
// Fortran-order file becomes a tensor with column-major strides over the
// data as read, without a transposing copy; a column-major tensor is
// written as a Fortran-order file, also without a copy. A shape too large
// for an int is a FormatError wrapping a shape.OverflowError. Header
// versions 1.0, 2.0 and 3.0 are read; files are written in version 1.0
// (2.0 when the header is too long for it), as NumPy does.
//
// The format is described in NumPy's numpy.lib.format module and NEP 1.
// docs/design.md says why this package does not use github.com/sbinet/npyio.
package npy
