//go:build linux

package alloc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePageAdvice checks that a block of hugePageThreshold bytes or more
// carries the kernel's huge-page advice (VmFlags "hg" in /proc/self/smaps
// on the mapping that holds its middle) and that a small block does not ask
// for it. make test-arm64 sets LAZE_TEST_EMULATOR, under which it skips.
func TestHugePageAdvice(t *testing.T) {
	if emu := os.Getenv("LAZE_TEST_EMULATOR"); emu != "" {
		t.Skipf("under %s (LAZE_TEST_EMULATOR): a user-mode emulator takes madvise as a hint and drops it, and its /proc/self/smaps shows no advice", emu)
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("this kernel has no transparent huge pages: nothing to advise")
	}
	big, err := newBlock(3 * hugePageThreshold)
	if err != nil {
		t.Fatal(err)
	}
	middle := uintptr(unsafe.Pointer(&big[len(big)/2]))
	if flags := vmFlagsAt(t, middle); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("a %d-byte block's mapping has VmFlags %q, want the huge-page advice (hg)", len(big), flags)
	}
	small, err := newBlock(64 << 10)
	if err != nil {
		t.Fatal(err)
	}
	if flags := vmFlagsAt(t, uintptr(unsafe.Pointer(&small[0]))); strings.Contains(" "+flags+" ", " hg ") && !sameMapping(t, middle, uintptr(unsafe.Pointer(&small[0]))) {
		t.Errorf("a %d-byte block's mapping has VmFlags %q: advised though under the threshold", len(small), flags)
	}
}

// mapping is one /proc/self/smaps entry: its address range and VmFlags.
type mapping struct {
	lo, hi uintptr
	flags  string
}

func mappings(t *testing.T) []mapping {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("cannot read /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var out []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(out) > 0 {
			out[len(out)-1].flags = strings.TrimSpace(flags)
			continue
		}
		lohi, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(lohi, "-")
		if !ok {
			continue
		}
		l, err1 := strconv.ParseUint(lo, 16, 64)
		h, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			out = append(out, mapping{lo: uintptr(l), hi: uintptr(h)})
		}
	}
	return out
}

func mappingAt(t *testing.T, addr uintptr) mapping {
	t.Helper()
	for _, m := range mappings(t) {
		if m.lo <= addr && addr < m.hi {
			return m
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return mapping{}
}

func vmFlagsAt(t *testing.T, addr uintptr) string { return mappingAt(t, addr).flags }

func sameMapping(t *testing.T, a, b uintptr) bool { return mappingAt(t, a) == mappingAt(t, b) }

// BenchmarkHugePages times a contiguous add of 1e7 float64s over blocks
// from the Go heap as they come (4 KiB pages where the system's THP setting
// is "madvise") and over blocks advised as newBlock advises them. Run with
// -cpu 1; docs/performance.md, "Huge pages", has the figures.
func BenchmarkHugePages(b *testing.B) {
	const n = 10_000_000
	for _, advised := range []bool{false, true} {
		block := func() []float64 {
			words := make([]uint64, n)
			if advised {
				adviseHugePages(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 8*n))
			}
			s := unsafe.Slice((*float64)(unsafe.Pointer(&words[0])), n)
			for i := range s {
				s[i] = float64(i % 13)
			}
			return s
		}
		x, y, d := block(), block(), block()
		name := "4KiB"
		if advised {
			name = "advised"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(3 * 8 * n)
			for b.Loop() {
				addTo(d, x, y)
			}
		})
	}
}

func addTo(d, x, y []float64) {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] + y[i]
	}
}
