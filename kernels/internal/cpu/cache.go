package cpu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// defaultLastLevelCache is the last-level cache size assumed where the
// operating system does not say: 32 MiB, a server CPU's L3.
const defaultLastLevelCache = 32 << 20

// LastLevelCache returns the size in bytes of the CPU's largest cache, read
// once from Linux's sysfs, or defaultLastLevelCache where it cannot be read.
var LastLevelCache = sync.OnceValue(func() int {
	return readLastLevelCache("/sys/devices/system/cpu/cpu0/cache")
})

// readLastLevelCache returns the size of the highest-level cache that dir
// (a sysfs cpuN/cache folder) lists, or defaultLastLevelCache.
func readLastLevelCache(dir string) int {
	best, bestLevel := 0, 0
	indexes, _ := filepath.Glob(filepath.Join(dir, "index*"))
	for _, index := range indexes {
		level, err := readInt(filepath.Join(index, "level"))
		if err != nil || level < bestLevel {
			continue
		}
		size, err := readCacheSize(filepath.Join(index, "size"))
		if err != nil || size <= 0 {
			continue
		}
		best, bestLevel = size, level
	}
	if best == 0 {
		return defaultLastLevelCache
	}
	return best
}

func readInt(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// readCacheSize parses sysfs's cache size, such as "32768K" or "32M".
func readCacheSize(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	unit := 1
	switch {
	case strings.HasSuffix(s, "K"):
		unit, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		unit, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		unit, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.Atoi(s)
	return n * unit, err
}
