package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDoStress runs Do from several goroutines with spins short enough
// that the pool goroutines go to sleep and are woken all the time, while
// GOMAXPROCS changes: every piece must run exactly once.
func TestDoStress(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, spin := range []time.Duration{0, time.Microsecond, 20 * time.Microsecond} {
		withSpin(t, spin)
		var wg sync.WaitGroup
		var total atomic.Int64
		for c := range 6 {
			wg.Go(func() {
				for i := range 300 {
					if c == 0 && i%50 == 0 {
						runtime.GOMAXPROCS(2 + i/50%3)
					}
					n := 1 + (c+i)%5
					Do(n, func(int) { total.Add(1) })
					total.Add(-int64(n))
				}
			})
		}
		wg.Wait()
		if got := total.Load(); got != 0 {
			t.Fatalf("spin %v: pieces run minus pieces asked: %d", spin, got)
		}
	}
}
