//go:build unix

package diskcache

import (
	"os"
	"syscall"
)

// openEntry opens the file at path for reading without following a
// symbolic link (O_NOFOLLOW: a link fails to open) and without blocking
// (O_NONBLOCK: a FIFO with no writer opens at once, where a plain open
// would wait for one for ever). The caller checks that what it opened is a
// regular file.
func openEntry(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
