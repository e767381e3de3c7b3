package kernels

import (
	"os"
	"testing"
)

// TestMain runs the package's tests, then removes the emulated device's
// memory file, if a test made one.
func TestMain(m *testing.M) {
	code := m.Run()
	if emuMem != nil {
		_ = os.Remove(emuMem.path)
	}
	os.Exit(code)
}
