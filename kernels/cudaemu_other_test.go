//go:build !unix

package kernels

import (
	"errors"
	"os"
)

// haveMapShared says whether mapShared works here: not on this system, so
// the CUDA emulator tests skip.
const haveMapShared = false

func mapShared(*os.File, int) ([]byte, error) {
	return nil, errors.New("no mmap(MAP_SHARED) on this system")
}
