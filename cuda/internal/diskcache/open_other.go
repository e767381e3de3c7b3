//go:build !unix

package diskcache

import (
	"fmt"
	"os"
)

// openEntry opens the file at path for reading, refusing a symbolic link
// or any other file that is not a regular file before opening it: where
// there is no O_NOFOLLOW and O_NONBLOCK (Windows), the check comes first.
// The caller checks again what it opened.
func openEntry(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%v)", path, errNotRegular, fi.Mode().Type())
	}
	return os.Open(path)
}
