package diskcache

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	c := New(filepath.Join(t.TempDir(), "nested", "cache"))
	cases := []struct {
		name    string
		parts   []string
		payload []byte
	}{
		{"empty payload", []string{"a"}, []byte{}},
		{"ptx text", []string{"src", "sm_90"}, []byte(".version 7.8\n.target sm_90\n")},
		{"binary with NULs", []string{"src", "sm_80", "11.8"}, []byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 0}},
		{"a megabyte", []string{"big"}, bytes.Repeat([]byte{1, 2, 3, 0}, 1<<18)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := KeyOf(tc.parts...)
			if _, ok := c.Get(k); ok {
				t.Fatal("hit before Put")
			}
			if err := c.Put(k, tc.payload); err != nil {
				t.Fatal(err)
			}
			got, ok := c.Get(k)
			if !ok {
				t.Fatal("miss after Put")
			}
			if diff := cmp.Diff(tc.payload, got); diff != "" {
				t.Errorf("payload (-put +got):\n%s", diff)
			}
		})
	}
	left, _ := filepath.Glob(filepath.Join(c.Dir(), "*.tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestKeyOf(t *testing.T) {
	cases := []struct {
		name  string
		a, b  []string
		equal bool
	}{
		{"same parts", []string{"src", "sm_90", "11.8"}, []string{"src", "sm_90", "11.8"}, true},
		{"other arch", []string{"src", "sm_90"}, []string{"src", "sm_80"}, false},
		{"parts split elsewhere", []string{"ab", "c"}, []string{"a", "bc"}, false},
		{"an empty part", []string{"a"}, []string{"a", ""}, false},
	}
	for _, tc := range cases {
		if got := KeyOf(tc.a...) == KeyOf(tc.b...); got != tc.equal {
			t.Errorf("%s: KeyOf(%q) == KeyOf(%q) is %v; want %v", tc.name, tc.a, tc.b, got, tc.equal)
		}
	}
	if s := KeyOf("x").String(); len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "" {
		t.Errorf("Key.String() = %q; want 64 hex digits", s)
	}
}

// TestCorruption damages a stored file in each way and checks that Get
// ignores it, removes it, and that the next Put replaces it.
func TestCorruption(t *testing.T) {
	payload := []byte("the payload of a kernel, long enough to damage")
	k := KeyOf("kernel")
	other := KeyOf("another kernel")
	cases := []struct {
		name   string
		damage func(file []byte) []byte
	}{
		{"empty file", func(b []byte) []byte { return nil }},
		{"truncated header", func(b []byte) []byte { return b[:headerSize-1] }},
		{"header only", func(b []byte) []byte { return b[:headerSize] }},
		{"truncated payload", func(b []byte) []byte { return b[:len(b)-1] }},
		{"extra byte", func(b []byte) []byte { return append(b, 0) }},
		{"flipped payload byte", func(b []byte) []byte { b[headerSize+3] ^= 0x10; return b }},
		{"flipped magic byte", func(b []byte) []byte { b[0] ^= 1; return b }},
		{"flipped checksum byte", func(b []byte) []byte { b[headerSize-1] ^= 0x80; return b }},
		{"flipped length byte", func(b []byte) []byte { b[len(magic)+len(k)] ^= 1; return b }},
		{"another key's file", func([]byte) []byte { return encode(other, payload) }},
		{"another version", func(b []byte) []byte { b[len(magic)-1]++; return b }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(t.TempDir())
			if err := c.Put(k, payload); err != nil {
				t.Fatal(err)
			}
			p := c.path(k)
			good, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.damage(bytes.Clone(good)), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Get(k); ok {
				t.Fatalf("a damaged file was loaded: %q", got)
			}
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the damaged file was not removed: %v", err)
			}
			if err := c.Put(k, payload); err != nil {
				t.Fatal(err)
			}
			got, ok := c.Get(k)
			if !ok || !bytes.Equal(got, payload) {
				t.Errorf("after a new Put: %q, %v; want the payload", got, ok)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	home := t.TempDir()
	moved := t.TempDir()
	cases := []struct {
		name        string
		env, xdg    string
		home        string
		wantEnabled bool
		wantDir     string
		wantReason  string
	}{
		{"default under the user cache directory", "", filepath.Join(home, "xdg"), home, true, filepath.Join(home, "xdg", "laze", "cuda"), ""},
		{"moved", moved, filepath.Join(home, "xdg"), home, true, moved, ""},
		{"moved, spaces trimmed", " " + moved + " ", "", home, true, moved, ""},
		{"off", "off", "", home, false, "", "LAZE_CUDA_CACHE=off"},
		{"OFF", "OFF", "", home, false, "", "LAZE_CUDA_CACHE=OFF"},
		{"no user cache directory", "", "", "", false, "", "no user cache directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvVar, tc.env)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			c := FromEnv(filepath.Join("laze", "cuda"))
			type view struct {
				Enabled bool
				Dir     string
			}
			if diff := cmp.Diff(view{tc.wantEnabled, tc.wantDir}, view{c.Enabled(), c.Dir()}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.Contains(c.String(), tc.wantReason) {
				t.Errorf("String() = %q; want it to contain %q", c.String(), tc.wantReason)
			}
		})
	}
}

func TestDisabled(t *testing.T) {
	for _, c := range []*Cache{nil, {}, New(""), FromEnvOff(t)} {
		k := KeyOf("x")
		err := c.Put(k, []byte("p"))
		var e *Error
		if !errors.Is(err, ErrDisabled) || !errors.As(err, &e) || e.Key != k {
			t.Errorf("Put on %v: %v; want an *Error for ErrDisabled naming the key", c, err)
		}
		if _, ok := c.Get(k); ok {
			t.Errorf("Get on %v hit", c)
		}
	}
}

func FromEnvOff(t *testing.T) *Cache {
	t.Setenv(EnvVar, "off")
	return FromEnv("laze/cuda")
}

// TestUnusableDirectory: a cache whose directory cannot be created (a file
// is in its place) misses and reports the failure to store, which callers
// ignore; so does a key whose file cannot be read (a directory is in its
// place).
func TestUnusableDirectory(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := New(filepath.Join(blocker, "cache"))
	k := KeyOf("x")
	err := c.Put(k, []byte("p"))
	var e *Error
	if !errors.As(err, &e) || e.Dir != c.Dir() || !strings.Contains(err.Error(), k.String()) {
		t.Errorf("Put under a file: %v; want an *Error naming the directory and key", err)
	}
	if _, ok := c.Get(k); ok {
		t.Error("Get hit in an unusable directory")
	}

	d := New(t.TempDir())
	if err := os.Mkdir(d.path(k), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Get(k); ok {
		t.Error("Get hit on a directory")
	}
	if err := d.Put(k, []byte("p")); err == nil {
		t.Error("Put over a directory succeeded")
	}
}

// payloadOf is what writer w stores under key i: its length and contents
// depend on both, so a mixture of two writes cannot pass for either.
func payloadOf(w, i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("w%d-k%d;", w, i)), 100+37*w+i)
}

// validPayload reports whether p is some writer's payload for key i.
func validPayload(p []byte, i int) bool {
	s := string(p)
	head, _, ok := strings.Cut(s, ";")
	if !ok {
		return false
	}
	var w, k int
	if _, err := fmt.Sscanf(head, "w%d-k%d", &w, &k); err != nil || k != i {
		return false
	}
	return bytes.Equal(p, payloadOf(w, i))
}

const keysPerWriter = 20

// write stores every key as writer w, reading back as it goes; it returns
// the first inconsistency.
func write(c *Cache, w int) error {
	for round := range 3 {
		for i := range keysPerWriter {
			k := KeyOf("key", strconv.Itoa(i))
			if err := c.Put(k, payloadOf(w, i)); err != nil {
				return err
			}
			if p, ok := c.Get(KeyOf("key", strconv.Itoa((i+round)%keysPerWriter))); ok && !validPayload(p, (i+round)%keysPerWriter) {
				return fmt.Errorf("writer %d read a payload no writer stored for key %d (%d bytes)", w, (i+round)%keysPerWriter, len(p))
			}
		}
	}
	return nil
}

func checkAll(t *testing.T, c *Cache) {
	t.Helper()
	for i := range keysPerWriter {
		p, ok := c.Get(KeyOf("key", strconv.Itoa(i)))
		if !ok || !validPayload(p, i) {
			t.Errorf("key %d: %d bytes, %v; want a complete payload of some writer", i, len(p), ok)
		}
	}
	left, _ := filepath.Glob(filepath.Join(c.Dir(), "*.tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestConcurrentWriters(t *testing.T) {
	c := New(t.TempDir())
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			if err := write(c, w); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	checkAll(t, c)
}

const helperEnv = "DISKCACHE_TEST_WRITER"

// TestHelperWriter is the body of the other processes of
// TestConcurrentProcesses; it does nothing unless started by it.
func TestHelperWriter(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("started only by TestConcurrentProcesses")
	}
	dir, wstr, _ := strings.Cut(spec, "|")
	w, err := strconv.Atoi(wstr)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(New(dir), w); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentProcesses runs two other processes (this test binary, again)
// and goroutines of this one, all writing the same keys of one directory.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	c := New(t.TempDir())
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for w := 100; w < 102; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", helperEnv, c.Dir(), w))
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			if err := write(c, w); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer process %d: %v\n%s", i, err, outs[i])
		}
	}
	checkAll(t, c)
}
