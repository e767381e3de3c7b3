// Package diskcache is a directory of compiled artefacts keyed by the
// sha256 of what they were built from: laze's persistent CUDA kernel cache
// (as CuPy's ~/.cupy/kernel_cache and PyTorch's jiterator cache), so that a
// kernel compiled by one process loads in the next without NVRTC.
//
// Every file holds a header (a magic, the key, the payload's length and its
// sha256) before the payload, so that a truncated, corrupt or misplaced file
// is detected, ignored and later replaced: it is never returned. Files are
// written to a temporary file in the same directory and renamed into place,
// so concurrent writers (goroutines or processes) never expose a partial
// file; the last rename wins, and every candidate is complete.
//
// The cache never fails its user: a directory that cannot be read or written
// makes Get miss and Put return an error the caller may ignore, which
// degrades to compiling every time.
package diskcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvVar is the environment variable that moves the cache (a directory
// path) or disables it ("off").
const EnvVar = "LAZE_CUDA_CACHE"

// Off is the value of EnvVar that disables the cache.
const Off = "off"

// magic starts every cache file; its last byte is the format's version.
const magic = "LAZEKC\x00\x01"

// headerSize is the magic, the key, the payload's length and its sha256.
const headerSize = len(magic) + sha256.Size + 8 + sha256.Size

// Key identifies an entry: the sha256 of what the payload was built from.
type Key [sha256.Size]byte

// KeyOf returns the key of the parts (for a kernel: its source, the GPU
// architecture, the compiler's version, the compiler's options). Each part
// is hashed with its length, so that ("ab", "c") and ("a", "bc") differ.
func KeyOf(parts ...string) Key {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// String returns the key in hexadecimal, which is also its file's name.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Cache is one cache directory, or a disabled cache. The zero value is
// disabled. Safe for concurrent use, by goroutines and by processes.
type Cache struct {
	dir    string
	reason string // why the cache is disabled, when dir is ""
}

// New returns the cache in dir, which is created on the first Put. An
// empty dir gives a disabled cache.
func New(dir string) *Cache {
	if dir == "" {
		return &Cache{reason: "no directory"}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return &Cache{dir: dir}
}

// FromEnv returns the cache EnvVar selects: disabled when it is "off",
// the directory it names when it is set, and otherwise sub (such as
// "laze/cuda") under os.UserCacheDir; disabled when there is no user cache
// directory either.
func FromEnv(sub string) *Cache {
	v := strings.TrimSpace(os.Getenv(EnvVar))
	switch {
	case strings.EqualFold(v, Off):
		return &Cache{reason: EnvVar + "=" + v}
	case v != "":
		return New(v)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return &Cache{reason: fmt.Sprintf("no user cache directory (%v); set %s", err, EnvVar)}
	}
	return New(filepath.Join(base, sub))
}

// Enabled reports whether the cache has a directory.
func (c *Cache) Enabled() bool { return c != nil && c.dir != "" }

// Dir returns the cache's directory ("" when disabled).
func (c *Cache) Dir() string {
	if c == nil {
		return ""
	}
	return c.dir
}

// String describes the cache: its directory, or why it is disabled.
func (c *Cache) String() string {
	switch {
	case c == nil:
		return "disabled"
	case c.dir == "":
		return "disabled: " + c.reason
	}
	return c.dir
}

// path returns the file of key k.
func (c *Cache) path(k Key) string { return filepath.Join(c.dir, k.String()+".bin") }

// Get returns the payload stored under k. It misses (nil, false) when the
// cache is disabled, the file is absent or unreadable, or the file fails its
// checks (magic, key, length, checksum); a file that fails them is removed,
// on a best-effort basis, so that the next Put replaces it.
func (c *Cache) Get(k Key) ([]byte, bool) {
	if !c.Enabled() {
		return nil, false
	}
	p := c.path(k)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	payload, err := decode(k, data)
	if err != nil {
		_ = os.Remove(p)
		return nil, false
	}
	return payload, true
}

// Put stores payload under k: it writes a temporary file in the cache's
// directory (creating the directory) and renames it over k's file, so that
// readers see the old file or the new one, never a part. It returns a
// *Error when the cache is disabled or the directory cannot be written;
// callers that only want speed may ignore it.
func (c *Cache) Put(k Key, payload []byte) error {
	if !c.Enabled() {
		return &Error{Op: "Put", Dir: c.Dir(), Key: k, Err: ErrDisabled}
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return &Error{Op: "Put", Dir: c.dir, Key: k, Err: err}
	}
	f, err := os.CreateTemp(c.dir, k.String()+".tmp*")
	if err != nil {
		return &Error{Op: "Put", Dir: c.dir, Key: k, Err: err}
	}
	_, err = f.Write(encode(k, payload))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.path(k))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return &Error{Op: "Put", Dir: c.dir, Key: k, Err: err}
	}
	return nil
}

// encode returns the file of payload under k: the header, then the payload.
func encode(k Key, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	b := make([]byte, 0, headerSize+len(payload))
	b = append(b, magic...)
	b = append(b, k[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, sum[:]...)
	return append(b, payload...)
}

// decode checks a file against k and returns its payload.
func decode(k Key, data []byte) ([]byte, error) {
	if len(data) < headerSize {
		return nil, ErrCorrupt
	}
	h := data[:headerSize]
	if string(h[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	h = h[len(magic):]
	if !bytes.Equal(h[:sha256.Size], k[:]) {
		return nil, ErrCorrupt
	}
	h = h[sha256.Size:]
	n := binary.LittleEndian.Uint64(h[:8])
	payload := data[headerSize:]
	if uint64(len(payload)) != n {
		return nil, ErrCorrupt
	}
	if sum := sha256.Sum256(payload); !bytes.Equal(h[8:], sum[:]) {
		return nil, ErrCorrupt
	}
	return payload, nil
}

var (
	// ErrDisabled is the cause of a Put on a disabled cache.
	ErrDisabled = errors.New("the disk cache is disabled")
	// ErrCorrupt is the cause of a file that fails its checks.
	ErrCorrupt = errors.New("cache file is corrupt, truncated or for another key")
)

// Error is a failure to store an entry: the operation, the directory, the
// key and the cause (ErrDisabled, or the file system's error, which
// errors.Is matches with fs.ErrPermission and the like).
type Error struct {
	Op  string
	Dir string
	Key Key
	Err error
}

// Error names the directory and the key.
func (e *Error) Error() string {
	return fmt.Sprintf("laze: diskcache.%s: %s in %q: %v", e.Op, e.Key, e.Dir, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
