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
// Get opens only regular files, and reads only what a header declares: an
// entry that is a symbolic link is not followed, one that is a FIFO or a
// device is neither waited on nor read (O_NOFOLLOW and O_NONBLOCK where
// the system has them, a check of the opened file everywhere), and a file
// longer than its header says, or declaring more than MaxPayload, is
// refused unread.
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
	"io"
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
// cache is disabled, the file is absent or unreadable, is not a regular
// file (a symbolic link, a FIFO, a device: none is followed, opened in a way
// that blocks, or read), or fails its checks (magic, key, length, checksum);
// a regular file that fails them is removed, on a best-effort basis, so that
// the next Put replaces it (Put's rename replaces any other entry too). It
// reads at most the header and the length the header declares, which may
// not exceed MaxPayload: an oversized file is refused unread.
func (c *Cache) Get(k Key) ([]byte, bool) {
	if !c.Enabled() {
		return nil, false
	}
	p := c.path(k)
	payload, err := read(p, k)
	if errors.Is(err, ErrCorrupt) {
		_ = os.Remove(p)
	}
	if err != nil {
		return nil, false
	}
	return payload, true
}

// MaxPayload is the largest payload the cache stores and reads, far above
// any kernel's CUBIN or PTX (a few megabytes): a file that declares more is
// corrupt, and is not read.
const MaxPayload = 256 << 20

// errNotRegular is the cause of an entry that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// read returns the payload of the file at path, checked against k. The
// file must be a regular file (checked on the opened file, so that it
// cannot be swapped after a check), and its size the header's plus the
// length the header declares, at most MaxPayload; only then is the
// payload read, that many bytes and no more.
func read(path string, k Key) ([]byte, error) {
	f, err := openEntry(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%v)", path, errNotRegular, fi.Mode().Type())
	}
	header := make([]byte, headerSize)
	if _, err := io.ReadFull(f, header); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrCorrupt, err)
	}
	n, err := checkHeader(k, header)
	if err != nil {
		return nil, err
	}
	if fi.Size() != int64(headerSize)+int64(n) {
		return nil, fmt.Errorf("%s: %w: %d bytes, where the header declares %d and a payload of %d", path, ErrCorrupt, fi.Size(), headerSize, n)
	}
	data := make([]byte, headerSize+int(n))
	copy(data, header)
	if _, err := io.ReadFull(io.LimitReader(f, int64(n)), data[headerSize:]); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrCorrupt, err)
	}
	return decode(k, data)
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
	if len(payload) > MaxPayload {
		return &Error{Op: "Put", Dir: c.dir, Key: k, Err: fmt.Errorf("%w: a payload of %d bytes, more than MaxPayload (%d)", ErrTooLarge, len(payload), MaxPayload)}
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

// checkHeader checks a file's header against k and returns the payload's
// length it declares, at most MaxPayload.
func checkHeader(k Key, h []byte) (uint64, error) {
	if len(h) < headerSize || string(h[:len(magic)]) != magic {
		return 0, ErrCorrupt
	}
	h = h[len(magic):]
	if !bytes.Equal(h[:sha256.Size], k[:]) {
		return 0, ErrCorrupt
	}
	n := binary.LittleEndian.Uint64(h[sha256.Size:][:8])
	if n > MaxPayload {
		return 0, fmt.Errorf("%w: the header declares a payload of %d bytes, more than MaxPayload (%d)", ErrCorrupt, n, MaxPayload)
	}
	return n, nil
}

// decode checks a file against k and returns its payload.
func decode(k Key, data []byte) ([]byte, error) {
	n, err := checkHeader(k, data)
	if err != nil {
		return nil, err
	}
	payload := data[headerSize:]
	if uint64(len(payload)) != n {
		return nil, ErrCorrupt
	}
	sum := data[len(magic)+sha256.Size+8 : headerSize]
	if got := sha256.Sum256(payload); !bytes.Equal(sum, got[:]) {
		return nil, ErrCorrupt
	}
	return payload, nil
}

var (
	// ErrDisabled is the cause of a Put on a disabled cache.
	ErrDisabled = errors.New("the disk cache is disabled")
	// ErrCorrupt is the cause of a file that fails its checks.
	ErrCorrupt = errors.New("cache file is corrupt, truncated or for another key")
	// ErrTooLarge is the cause of a Put of more than MaxPayload bytes.
	ErrTooLarge = errors.New("payload too large for the disk cache")
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
