//go:build !unix

package gemm

// cpuSeconds reports that this platform's CPU time is not read.
func cpuSeconds() (float64, bool) { return 0, false }
