//go:build linux

package alloc

import "syscall"

// PhysicalMemory returns the machine's memory in bytes: RAM plus swap, as
// sysinfo(2) reports them (the most one process can commit, and the bound
// beyond which Linux refuses a single mapping), or 0 when it cannot be read.
// It does not see a container's cgroup limit.
func PhysicalMemory() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	unit := uint64(max(info.Unit, 1))
	total := (uint64(info.Totalram) + uint64(info.Totalswap)) * unit
	if total > 1<<62 {
		return 1 << 62
	}
	return int64(total)
}
