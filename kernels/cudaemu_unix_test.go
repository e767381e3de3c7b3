//go:build unix

package kernels

import (
	"os"
	"syscall"
)

// haveMapShared says whether mapShared works here.
const haveMapShared = true

// mapShared maps size bytes of f read-write and shared, so that the kernels
// the CUDA emulator tests run in g++-built processes see the same memory.
func mapShared(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}
