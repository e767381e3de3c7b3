//go:build linux

package alloc

import (
	"syscall"
	"unsafe"
)

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

// hugePage is the size of an x86-64 or arm64 transparent huge page.
const hugePage = 2 << 20

// adviseHugePages asks Linux to back the whole huge pages inside block with
// transparent huge pages (madvise(MADV_HUGEPAGE)), where the system's
// setting is "madvise"; it must come before the block is first written,
// which a fresh block from the Go runtime is not. The advice is only a
// hint: an error (an older kernel, THP off) changes nothing but speed, so it
// is ignored.
func adviseHugePages(block []byte) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	skip := int((hugePage - start%hugePage) % hugePage)
	if skip >= len(block) {
		return
	}
	inner := block[skip:]
	inner = inner[:len(inner)/hugePage*hugePage]
	if len(inner) > 0 {
		_ = syscall.Madvise(inner, syscall.MADV_HUGEPAGE)
	}
}
