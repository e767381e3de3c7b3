//go:build unix

package gemm

import "syscall"

// cpuSeconds returns the CPU time this process has used (user and system),
// and true. On a shared machine a benchmark's wall time counts the time
// other processes hold its core; its CPU time does not.
func cpuSeconds() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}
