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
// for it.
func TestHugePageAdvice(t *testing.T) {
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
