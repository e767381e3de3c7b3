//go:build linux || darwin || freebsd

package diskcache

import (
	"os"
	"syscall"
	"testing"
)

// TestEntriesThatNeverEnd checks that Get returns a miss at once for an
// entry that is a FIFO with no writer (opening it plainly waits for one
// for ever) and for a symbolic link to /dev/zero (reading it never ends).
func TestEntriesThatNeverEnd(t *testing.T) {
	k := KeyOf("kernel")
	tests := []struct {
		name string
		make func(entry string) error
	}{
		{"a FIFO", func(entry string) error { return syscall.Mkfifo(entry, 0o644) }},
		{"a symbolic link to /dev/zero", func(entry string) error { return os.Symlink("/dev/zero", entry) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(t.TempDir())
			if err := tt.make(c.path(k)); err != nil {
				t.Fatal(err)
			}
			if got, ok := getWithin(t, c, k); ok {
				t.Errorf("Get = %d bytes, a hit; want a miss", len(got))
			}
		})
	}
}
