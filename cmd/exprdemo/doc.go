// Command exprdemo shows laze's tensors on built-in example data: it prints a
// few tensors and views of them (transpose, slice with a step, index,
// permute, reshape, broadcast) the way NumPy prints them, and shows that a
// view shares memory with its base.
//
// Usage:
//
//	go run ./cmd/exprdemo
//
// A later version evaluates NumPy-style expressions over .npy files.
package main
