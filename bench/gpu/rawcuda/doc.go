// Package rawcuda is the GPU suite's measuring kit (bench/cuda_test.go,
// build tag cuda): CUDA events, a copy with cuMemcpyDtoDAsync, a
// vectorised copy kernel and an empty kernel, called through the CUDA
// driver directly, in the context laze's cuda.Device created. It is the
// reference laze is measured against, so it goes around laze's own
// launch path on purpose.
//
// laze's context is current only on the device's own goroutine, so each
// function here makes it current on the calling thread first (a CUDA
// context may be current on several threads at once). Work is queued on
// the context's NULL stream, the stream laze's default stream is, so
// events recorded here order with laze's kernels.
//
// Everything but this comment carries the build tag cuda.
package rawcuda
