// Package device is laze's device executor: it turns the passes that
// package kernels lowers (kernels/internal/ir) into kernel launches for a
// device's Backend — the kernel's structure described to
// kernels/internal/cudasrc, which writes its CUDA C, its variant and launch
// shape chosen there, its parameters packed from the pass's memory — and
// queues them, and matrix products, on a Queue. It holds the Backend,
// Queue, Kernel and Gemm types (package kernels exports them) and the
// registry of backends by device kind. It knows nothing of expression
// trees, the plan cache or temporaries: package kernels' steps decide what
// runs and allocate, this package says how it launches.
package device
