// Package gonum bridges laze tensors and gonum's matrices without copying:
// a *mat.Dense viewed as a 2-D Tensor[float64], and a 2-D Tensor[float64]
// whose rows are contiguous viewed as a *mat.Dense. Both share memory with
// their source, so a write through either is seen by the other.
//
// The bridge is its own package so that package tensor does not import
// gonum.
package gonum
