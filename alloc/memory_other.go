//go:build !linux

package alloc

// PhysicalMemory returns the machine's memory in bytes where laze can read
// it (Linux: RAM plus swap); elsewhere it returns 0, which DefaultLimit
// reads as no limit.
func PhysicalMemory() int64 { return 0 }

// adviseHugePages does nothing where laze knows no way to ask for huge
// pages.
func adviseHugePages([]byte) {}
