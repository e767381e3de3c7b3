package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxTrackedBytes bounds the size of a file kept in git: the largest today
// is the raw benchmark output (docs/bench/cpu.txt, under 400 kB).
const maxTrackedBytes = 1 << 20

// executableMagic are the first bytes of compiled programs (ELF, Mach-O in
// both byte orders and 64-bit, PE).
var executableMagic = [][]byte{
	[]byte("\x7fELF"), {0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe},
	{0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe}, []byte("MZ"),
}

// TestNoBuildOutputsTracked fails when git tracks a compiled program or a
// file over maxTrackedBytes (a binary from go build committed by mistake).
func TestNoBuildOutputsTracked(t *testing.T) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout, or no git: %v", err)
	}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		path := filepath.Join(root, name)
		info, err := os.Stat(path)
		if err != nil {
			continue // deleted in the work tree
		}
		if info.Size() > maxTrackedBytes {
			t.Errorf("%s: %d bytes tracked in git (limit %d): a build output or data that belongs elsewhere", name, info.Size(), maxTrackedBytes)
		}
		head := make([]byte, 4)
		if f, err := os.Open(path); err == nil {
			n, _ := f.Read(head)
			f.Close()
			head = head[:n]
		}
		for _, magic := range executableMagic {
			if bytes.HasPrefix(head, magic) && !strings.HasSuffix(name, ".npy") {
				t.Errorf("%s is a compiled program tracked in git; remove it and ignore it in .gitignore", name)
			}
		}
	}
}

// TestCUDADepsNamesNoHost fails when the CUDA install script writes a
// mirror's address instead of taking it from the machine's own sources.
func TestCUDADepsNamesNoHost(t *testing.T) {
	script := read(t, ".ci/cuda-deps.sh")
	if i := strings.Index(script, "://"); i >= 0 {
		line := script[strings.LastIndex(script[:i], "\n")+1:]
		line, _, _ = strings.Cut(line, "\n")
		t.Errorf(".ci/cuda-deps.sh names an address: %q; take the URIs from the machine's Debian sources entry", line)
	}
}

// conversionToExp matches a conversion to the expression interface,
// "expr.Exp[float64](x)": it compiles, computes nothing, and reads as the
// exponential (which is expr.Exponential, or Chain.Exp). A mention quoted
// in a string or a Markdown code span is not code.
var conversionToExp = regexp.MustCompile("(^|[^\"`])\\bexpr\\.Exp\\[[^\\]\\s]+\\]\\(")

// TestNoConversionToExp is the project's vet-style check for that trap: no
// Go file or document in the repository converts to expr.Exp[T]. Code that
// needs an Exp[T] from a tensor passes the tensor itself (it satisfies
// Exp[T]), or expr.Of(t).
func TestNoConversionToExp(t *testing.T) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "*.go", "*.md").Output()
	if err != nil {
		t.Skipf("not a git checkout, or no git: %v", err)
	}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue // deleted in the work tree
		}
		for i, line := range strings.Split(string(src), "\n") {
			if conversionToExp.MatchString(line) {
				t.Errorf("%s:%d converts to the interface expr.Exp[T], which computes nothing: use expr.Exponential for e**x, or pass the operand itself (or expr.Of(x)): %s",
					name, i+1, strings.TrimSpace(line))
			}
		}
	}
}
