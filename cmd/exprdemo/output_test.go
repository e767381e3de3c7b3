package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// errDiskFull stands for a write that fails part-way.
var errDiskFull = errors.New("disk full (test)")

// dirNames returns the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteFileKeepsTheOldFile makes each step of writeFile fail after
// the new bytes have started to go out: the existing file must keep its
// bytes and no temporary file may remain.
func TestWriteFileKeepsTheOldFile(t *testing.T) {
	old := []byte("the old contents, which must survive")
	tests := []struct {
		name   string
		write  func(io.Writer) error
		rename func(string, string) error
	}{
		{"write fails mid-way", func(w io.Writer) error {
			if _, err := w.Write([]byte("\x93NUMPY half")); err != nil {
				return err
			}
			return errDiskFull
		}, os.Rename},
		{"write fails at once", func(io.Writer) error { return errDiskFull }, os.Rename},
		{"rename fails", func(w io.Writer) error {
			_, err := w.Write([]byte("all of the new bytes"))
			return err
		}, func(string, string) error { return errDiskFull }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.npy")
			if err := os.WriteFile(path, old, 0o640); err != nil {
				t.Fatal(err)
			}
			rename = tt.rename
			defer func() { rename = os.Rename }()
			if err := writeFile(path, tt.write); !errors.Is(err, errDiskFull) {
				t.Errorf("writeFile = %v, want the write's error", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, old) {
				t.Errorf("the file holds %q, want its old bytes %q", got, old)
			}
			if diff := cmp.Diff([]string{"out.npy"}, dirNames(t, dir)); diff != "" {
				t.Errorf("files left in the folder (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteFileReplaces checks a successful write: the new bytes, the old
// file's permissions (or os.Create's for a new file), a symbolic link
// followed and kept, no temporary file left.
func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	write := func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }

	existing := filepath.Join(dir, "existing.npy")
	if err := os.WriteFile(existing, []byte("old bytes"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(existing, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.npy")
	if err := os.Symlink("existing.npy", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(link, write); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	fi, err := os.Stat(existing)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(existing); string(got) != "new" || fi.Mode().Perm() != 0o640 {
		t.Errorf("the file holds %q with mode %v; want \"new\" with mode 0640", got, fi.Mode().Perm())
	}

	fresh := filepath.Join(dir, "fresh.npy")
	if err := writeFile(fresh, write); err != nil {
		t.Fatal(err)
	}
	created := filepath.Join(dir, "created")
	f, err := os.Create(created)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, err = os.Stat(fresh)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(created)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != want.Mode() {
		t.Errorf("a new file has mode %v; os.Create gives %v", fi.Mode(), want.Mode())
	}
	if diff := cmp.Diff([]string{"created", "existing.npy", "fresh.npy", "link.npy"}, dirNames(t, dir)); diff != "" {
		t.Errorf("files in the folder (-want +got):\n%s", diff)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if err := writeFile("/dev/full", write); !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("writeFile(/dev/full) = %v, want ENOSPC (written in place, not renamed over)", err)
		}
	}
}

// runBinary runs the built command in dir with stdout going to the given
// file (standard error collected) and returns standard error and the exit
// status, -1 when a signal ended it.
func runBinary(t *testing.T, dir string, stdout *os.File, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return stderr.String(), cmd.ProcessState.ExitCode()
}

// TestCLIOutputFile runs -o cases that fail, through the built command:
// each exits 1 with one line on standard error and leaves the existing
// file's bytes as they were, with no temporary file beside it.
func TestCLIOutputFile(t *testing.T) {
	old := []byte("\x93NUMPY an existing file the command must not lose")
	tests := []struct {
		name  string
		shell string // run through sh -c with the command as $0
		args  []string
		says  string
	}{
		// ulimit -f makes the write fail with EFBIG after the first 512
		// bytes: a real failure mid-way through the result.
		{"file size limit", "ulimit -f 1 && exec \"$0\" \"$@\"", []string{"eval", "-rand", "x=1000", "-o", "out.npy", "x * 2"}, "-o out.npy: write out.npy: file too large"},
		{"evaluation fails", "", []string{"eval", "-rand", "x=3", "-o", "out.npy", "x @ x[:2]"}, "column"},
		{"a folder", "", []string{"eval", "-o", "sub", "1 + 1"}, "-o sub: "},
		{"a missing folder", "", []string{"eval", "-o", "missing/out.npy", "1 + 1"}, "-o missing/out.npy: cannot create a file in missing: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "out.npy"), old, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			name, args := exprdemo, tt.args
			if tt.shell != "" {
				name, args = "sh", append([]string{"-c", tt.shell, exprdemo}, tt.args...)
			}
			stderr, code := runBinary(t, dir, nil, name, args...)
			if code != exitEval || !strings.HasPrefix(stderr, "exprdemo: ") || !strings.Contains(stderr, tt.says) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit status %d, stderr %q; want 1 and one line saying %q", code, stderr, tt.says)
			}
			got, err := os.ReadFile(filepath.Join(dir, "out.npy"))
			if err != nil || !bytes.Equal(got, old) {
				t.Errorf("out.npy holds %q (%v), want its old bytes", got, err)
			}
			if diff := cmp.Diff([]string{"out.npy", "sub"}, dirNames(t, dir)); diff != "" {
				t.Errorf("files left in the folder (-want +got):\n%s", diff)
			}
			if sub := dirNames(t, filepath.Join(dir, "sub")); len(sub) != 0 {
				t.Errorf("files left in sub: %v", sub)
			}
		})
	}
}

// TestCLIOutputFileRenameFails makes the last step, the rename, fail in
// the command's run function: the existing file keeps its bytes.
func TestCLIOutputFileRenameFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.npy")
	old := []byte("old")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	rename = func(string, string) error { return errDiskFull }
	defer func() { rename = os.Rename }()
	var stdout, stderr bytes.Buffer
	code := run([]string{"eval", "-o", path, "-rand", "x=2x3", "x + 1"}, &stdout, &stderr)
	if code != exitEval || !strings.Contains(stderr.String(), "disk full (test)") {
		t.Errorf("exit status %d, stderr %q; want 1 naming the failure", code, stderr.String())
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Errorf("out.npy holds %q, want %q", got, old)
	}
	if diff := cmp.Diff([]string{"out.npy"}, dirNames(t, dir)); diff != "" {
		t.Errorf("files left in the folder (-want +got):\n%s", diff)
	}
}

// failingWriter fails every write, as a full disk or a closed file does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// panickingWriter panics with its value on the first write, standing for a
// panic anywhere in the command.
type panickingWriter struct{ v any }

func (w panickingWriter) Write([]byte) (int, error) { panic(w.v) }

// TestRunChecksItsWrites runs every command that prints a result with a
// standard output that fails: each must exit 1 and say so on standard
// error, and a panic reaching run must be one line.
func TestRunChecksItsWrites(t *testing.T) {
	closed, err := os.Create(filepath.Join(t.TempDir(), "closed"))
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	tests := []struct {
		name   string
		stdout io.Writer
		args   []string
		says   string
	}{
		{"tour", failingWriter{}, nil, "exprdemo: writing the tour: disk full (test)\n"},
		{"help", failingWriter{}, []string{"-h"}, "exprdemo: writing the help: disk full (test)\n"},
		{"eval help", failingWriter{}, []string{"eval", "-h"}, "exprdemo: writing the help: disk full (test)\n"},
		{"result", failingWriter{}, []string{"eval", "1 + 1"}, "exprdemo: writing the result: disk full (test)\n"},
		{"explain", failingWriter{}, []string{"eval", "-explain", "-rand", "x=3", "x + 1"}, "exprdemo: writing the explanation: disk full (test)\n"},
		{"closed file", closed, []string{"eval", "-rand", "x=3", "x + 1"}, "exprdemo: writing the result: write " + closed.Name() + ": file already closed\n"},
		{"laze error panic", panickingWriter{&shape.OverflowError{Op: "Empty", Shape: shape.Of(1<<30, 1<<30, 1<<30), What: "element count"}}, []string{"eval", "1"},
			"exprdemo: laze: Empty: element count of shape (1073741824,1073741824,1073741824) overflows int\n"},
		{"other panic", panickingWriter{"a bug"}, []string{"eval", "1"}, "exprdemo: internal error (please report it): a bug\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(tt.args, tt.stdout, &stderr)
			if code != exitEval || stderr.String() != tt.says {
				t.Errorf("exit status %d, stderr %q; want 1, %q", code, stderr.String(), tt.says)
			}
		})
	}
}

// TestCLIFullStdout runs the built command with its standard output on
// /dev/full, where every write fails with ENOSPC.
func TestCLIFullStdout(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"eval", "-rand", "x=2x3", "x * 2"},
		{"eval", "-explain", "-rand", "x=2x3", "x.sum()"},
		{},
		{"-h"},
	} {
		stderr, code := runBinary(t, t.TempDir(), full, exprdemo, args...)
		if code != exitEval || !strings.HasPrefix(stderr, "exprdemo: writing the ") || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("exprdemo %q > /dev/full: exit status %d, stderr %q; want 1 and the write's error", args, code, stderr)
		}
	}
}

// TestCLIClosedPipe runs the built command with its standard output on a
// pipe whose reader has gone: it must not report success. (The Go runtime
// ends a program that writes to such a standard output with SIGPIPE, as
// most Unix tools end; were SIGPIPE ignored, the write's EPIPE would be
// reported as an error.)
func TestCLIClosedPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	cmd := exec.Command(exprdemo, "eval", "-rand", "x=100", "x + 1")
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil || cmd.ProcessState.Success() || strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("writing to a closed pipe: %v, stderr %q; want a failure without a trace", err, stderr.String())
	}
}

// TestCLIResultTooLarge evaluates results whose size no machine holds:
// each must be one line of error and exit status 1, never a Go trace.
func TestCLIResultTooLarge(t *testing.T) {
	for _, expr := range []string{
		"x[:,None] * x",                       // 9e12 float32: 36 TB
		"x[:,None,None] * x[:,None] * x[:10]", // 9e13 float32: past Go's largest allocation
		"x[:,None,None] * x[:,None] * x",      // 2.7e19 elements: overflows int
	} {
		t.Run(expr, func(t *testing.T) {
			// The address-space limit keeps a command that does try to
			// allocate from taking the machine's memory. A cuda-tagged
			// binary runs without it: the CUDA driver reserves more
			// address space than that at start, and cuInit's failure
			// ends the process before laze runs. Each size here is past
			// alloc.PhysicalMemory, which laze refuses before allocating.
			limit := "ulimit -v 4000000 && "
			if openCUDA != nil {
				limit = ""
			}
			stderr, code := runBinary(t, t.TempDir(), nil, "sh", "-c", limit+"exec \"$0\" \"$@\"",
				exprdemo, "eval", "-rand", "x=3000000:float32", expr)
			if code != exitEval || !strings.HasPrefix(stderr, "exprdemo: ") || strings.Contains(stderr, "goroutine") ||
				strings.Contains(stderr, "internal error") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit status %d, stderr:\n%s\nwant 1 and one line naming laze's error", code, stderr)
			}
		})
	}
}

// TestCLIBoolBytes reads a bool .npy whose bytes are 0, 1, 2 and 255:
// every non-zero byte is True, in printing, arithmetic and the file
// written back.
func TestCLIBoolBytes(t *testing.T) {
	dir := t.TempDir()
	dict := "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }"
	dict += strings.Repeat(" ", 128-10-len(dict)-1) + "\n" // the data starts at byte 128
	file := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), 0)
	file = append(append(file, dict...), 0, 1, 2, 255)
	if err := os.WriteFile(filepath.Join(dir, "b.npy"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ expr, want string }{
		{"b", "[False  True  True  True]\n"},
		{"b + 0", "[0 1 1 1]\n"},
		{"sum(b)", "3\n"},
		{"b == True", "[False  True  True  True]\n"},
		{"b * b", "[False  True  True  True]\n"},
		{"int8(b) * 2", "[0 2 2 2]\n"},
		{"where(b, 5, 7)", "[7 5 5 5]\n"},
	}
	for _, tt := range tests {
		out, err := exec.Command(exprdemo, "eval", "-i", "b="+filepath.Join(dir, "b.npy"), tt.expr).Output()
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
		}
		if diff := cmp.Diff(tt.want, string(out)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.expr, diff)
		}
	}
	out := filepath.Join(dir, "out.npy")
	if msg, err := exec.Command(exprdemo, "eval", "-i", "b="+filepath.Join(dir, "b.npy"), "-o", out, "b").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := written[len(written)-4:]; !slices.Equal(got, []byte{0, 1, 1, 1}) {
		t.Errorf("the bools written back are the bytes %v, want [0 1 1 1]", got)
	}
}
