package diskcache

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// getWithin runs c.Get(k) in a goroutine and fails the test if it has not
// returned within a few seconds: an entry that blocks (a FIFO) or never
// ends (/dev/zero) must not hang the test.
func getWithin(t *testing.T, c *Cache, k Key) ([]byte, bool) {
	t.Helper()
	type result struct {
		payload []byte
		ok      bool
	}
	done := make(chan result, 1)
	go func() {
		p, ok := c.Get(k)
		done <- result{p, ok}
	}()
	select {
	case r := <-done:
		return r.payload, r.ok
	case <-time.After(5 * time.Second):
		t.Fatalf("Get of %s has not returned after 5 s", c.path(k))
		return nil, false
	}
}

// symlink makes a symbolic link, skipping the test where the system does
// not let this process make one (Windows without the privilege).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("no symbolic links here: %v", err)
		}
		t.Fatal(err)
	}
}

// TestEntriesThatAreNotRegularFiles checks that Get opens only regular
// files: a symbolic link, even to a valid entry, misses (none is
// followed), as does a folder; neither is removed, and a Put replaces the
// link.
func TestEntriesThatAreNotRegularFiles(t *testing.T) {
	k := KeyOf("kernel")
	payload := []byte("a valid payload")
	tests := []struct {
		name string
		make func(t *testing.T, entry string)
	}{
		{"a symbolic link to a valid entry", func(t *testing.T, entry string) {
			valid := filepath.Join(t.TempDir(), "valid.bin")
			if err := os.WriteFile(valid, encode(k, payload), 0o644); err != nil {
				t.Fatal(err)
			}
			symlink(t, valid, entry)
		}},
		{"a folder", func(t *testing.T, entry string) {
			if err := os.Mkdir(entry, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(t.TempDir())
			tt.make(t, c.path(k))
			if got, ok := getWithin(t, c, k); ok {
				t.Errorf("Get = %q, a hit; want a miss", got)
			}
			if _, err := os.Lstat(c.path(k)); err != nil {
				t.Errorf("the entry was removed: %v", err)
			}
			if tt.name == "a folder" {
				return // a rename cannot replace a folder; Put fails, and Get goes on missing
			}
			if err := c.Put(k, payload); err != nil {
				t.Fatalf("Put over it: %v", err)
			}
			if got, ok := c.Get(k); !ok || !bytes.Equal(got, payload) {
				t.Errorf("after Put: %q, %v; want the payload", got, ok)
			}
		})
	}
}

// TestOversizedEntries checks that Get refuses, without reading it, a
// file larger than its header says or whose header declares more than
// MaxPayload (sparse files: no disk space is used), and that Put refuses
// a payload over MaxPayload.
func TestOversizedEntries(t *testing.T) {
	k := KeyOf("kernel")
	small := encode(k, []byte("small"))
	huge := bytes.Clone(small)
	binary.LittleEndian.PutUint64(huge[len(magic)+len(k):], MaxPayload+1)
	tests := []struct {
		name   string
		header []byte
		size   int64
	}{
		{"longer than its header says", small, 1 << 32},
		{"a header declaring more than MaxPayload", huge, int64(headerSize) + MaxPayload + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(t.TempDir())
			if err := os.WriteFile(c.path(k), tt.header, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(c.path(k), tt.size); err != nil {
				t.Skipf("no sparse file of %d bytes here: %v", tt.size, err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, ok := getWithin(t, c, k)
			runtime.ReadMemStats(&after)
			if ok {
				t.Errorf("an oversized file was loaded")
			}
			if read := after.TotalAlloc - before.TotalAlloc; read > 1<<20 {
				t.Errorf("Get allocated %d bytes for a refused file", read)
			}
		})
	}
	c := New(t.TempDir())
	if err := c.Put(k, make([]byte, MaxPayload+1)); err == nil {
		t.Errorf("Put of MaxPayload+1 bytes succeeded")
	}
}
