// Package isatest selects an instruction-set level for the length of a
// test, as LAZE_CPU would for a process.
package isatest

import (
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// Use selects level l until tb and its subtests end, then restores the
// level selected before; a level this CPU cannot run fails tb.
func Use(tb testing.TB, l isa.Level) {
	tb.Helper()
	prev, err := isa.Use(l)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { isa.Use(prev) })
}
