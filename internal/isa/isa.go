package isa

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// EnvVar is the environment variable that selects a level at start-up.
const EnvVar = "LAZE_CPU"

// Level is an instruction-set level with kernels of its own.
type Level uint8

const (
	// Generic is portable Go: every platform runs it.
	Generic Level = iota
	// AVX2 is amd64 with AVX2 and FMA (256-bit vectors, 16 registers).
	AVX2
	// AVX512 is amd64 with AVX-512 F, DQ, BW and VL besides AVX2 and FMA
	// (512-bit vectors, 32 registers, mask registers).
	AVX512
	// NEON is arm64's Advanced SIMD (128-bit vectors, 32 registers), which
	// every arm64 CPU has.
	NEON
)

var names = [...]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512", NEON: "neon"}

// String returns the level's name as LAZE_CPU spells it.
func (l Level) String() string {
	if int(l) < len(names) {
		return names[l]
	}
	return fmt.Sprintf("isa.Level(%d)", uint8(l))
}

// Parse returns the level named s (generic, avx2, avx512, neon; case does
// not matter).
func Parse(s string) (Level, error) {
	for l, name := range names {
		if strings.EqualFold(s, name) {
			return Level(l), nil
		}
	}
	return Generic, fmt.Errorf("isa: unknown level %q (want one of %s)", s, strings.Join(names[:], ", "))
}

// Detected returns the best level this CPU runs.
func Detected() Level { return detected }

// Supported returns the levels this CPU runs, Generic first and Detected
// last: the levels a test should try.
func Supported() []Level {
	switch detected {
	case AVX512:
		return []Level{Generic, AVX2, AVX512}
	case AVX2:
		return []Level{Generic, AVX2}
	case NEON:
		return []Level{Generic, NEON}
	}
	return []Level{Generic}
}

// Runs reports whether this CPU runs level l.
func Runs(l Level) bool {
	for _, s := range Supported() {
		if s == l {
			return true
		}
	}
	return false
}

// Selected returns the level the kernels use now: Detected, unless LAZE_CPU
// or Use chose another.
func Selected() Level { return Level(selected.Load()) }

// Use makes the kernels use level l from now on and returns the level used
// before, or an error naming l and the CPU's best level if the CPU cannot run
// l (the selection is then unchanged). Calls that are running keep the level
// they started with; tests use it to run every path on one machine.
func Use(l Level) (Level, error) {
	if !Runs(l) {
		return Selected(), fmt.Errorf("isa: this CPU cannot run %v (%s; best level %v)", l, runtime.GOARCH, detected)
	}
	return Level(selected.Swap(uint32(l))), nil
}

var (
	detected = detect()
	selected atomic.Uint32
)

func init() {
	l, err := fromEnv(os.Getenv(EnvVar))
	if err != nil {
		panic(err)
	}
	selected.Store(uint32(l))
}

// fromEnv returns the level LAZE_CPU=v asks for (Detected when v is empty).
func fromEnv(v string) (Level, error) {
	if v == "" {
		return detected, nil
	}
	l, err := Parse(v)
	if err != nil {
		return Generic, fmt.Errorf("%s=%s: %w", EnvVar, v, err)
	}
	if !Runs(l) {
		return Generic, fmt.Errorf("%s=%s: this CPU cannot run %v (%s; best level %v)", EnvVar, v, l, runtime.GOARCH, detected)
	}
	return l, nil
}

func detect() Level {
	switch runtime.GOARCH {
	case "amd64":
		x := cpu.X86
		if !x.HasAVX2 || !x.HasFMA {
			return Generic
		}
		if x.HasAVX512F && x.HasAVX512DQ && x.HasAVX512BW && x.HasAVX512VL {
			return AVX512
		}
		return AVX2
	case "arm64":
		if cpu.ARM64.HasASIMD {
			return NEON
		}
	}
	return Generic
}
