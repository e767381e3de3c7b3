package par

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDoRunsEachPieceOnce checks that Do calls every piece exactly once and
// returns only after all have returned, with and without spinning.
func TestDoRunsEachPieceOnce(t *testing.T) {
	for _, spin := range []time.Duration{0, time.Millisecond} {
		for _, n := range []int{0, 1, 2, 3, 8, 100} {
			t.Run(fmt.Sprintf("spin=%v/n=%d", spin, n), func(t *testing.T) {
				withSpin(t, spin)
				for range 20 {
					calls := make([]atomic.Int32, n)
					Do(n, func(k int) {
						if k%3 == 1 {
							time.Sleep(50 * time.Microsecond) // finish after the caller's piece
						}
						calls[k].Add(1)
					})
					got := make([]int32, n)
					for k := range calls {
						got[k] = calls[k].Load()
					}
					want := make([]int32, n)
					for k := range want {
						want[k] = 1
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("calls per piece (-want +got):\n%s", diff)
					}
				}
			})
		}
	}
}

// TestDoConcurrentCallers runs Do from many goroutines at once: pieces of
// every call run once each, pool goroutines are never given two pieces at
// a time (the race detector watches the sums), and callers that find the
// pool busy fall back to fresh goroutines.
func TestDoConcurrentCallers(t *testing.T) {
	withSpin(t, 100*time.Microsecond)
	before := 0
	if ws := pool.workers.Load(); ws != nil {
		before = len(*ws)
	}
	const callers, rounds, pieces = 8, 50, 5
	var wg sync.WaitGroup
	sums := make([]int, callers)
	for c := range callers {
		wg.Go(func() {
			for range rounds {
				parts := make([]int, pieces)
				Do(pieces, func(k int) { parts[k] = k + 1 })
				for _, v := range parts {
					sums[c] += v
				}
			}
		})
	}
	wg.Wait()
	want := make([]int, callers)
	for c := range want {
		want[c] = rounds * pieces * (pieces + 1) / 2
	}
	if diff := cmp.Diff(want, sums); diff != "" {
		t.Fatalf("sums per caller (-want +got):\n%s", diff)
	}
	// The pool never shrinks (a test before may have raised GOMAXPROCS);
	// it grows only up to GOMAXPROCS-1.
	if ws := pool.workers.Load(); ws != nil && len(*ws) > max(before, runtime.GOMAXPROCS(0)-1) {
		t.Errorf("pool has %d goroutines, more than GOMAXPROCS-1 = %d", len(*ws), runtime.GOMAXPROCS(0)-1)
	}
}

// TestDoReraisesPanics checks that a panic in a piece off the calling
// goroutine reaches Do's caller, after the other pieces have finished, and
// that the pool still works afterwards.
func TestDoReraisesPanics(t *testing.T) {
	withSpin(t, 100*time.Microsecond)
	var finished atomic.Int32
	got := func() (p any) {
		defer func() { p = recover() }()
		Do(4, func(k int) {
			if k == 2 {
				panic(fmt.Sprintf("piece %d failed", k))
			}
			time.Sleep(100 * time.Microsecond)
			finished.Add(1)
		})
		return nil
	}()
	if got != "piece 2 failed" {
		t.Fatalf("Do re-raised %v, want %q", got, "piece 2 failed")
	}
	if n := finished.Load(); n != 3 {
		t.Fatalf("%d other pieces had finished when Do panicked, want 3", n)
	}
	var after atomic.Int32
	Do(4, func(int) { after.Add(1) })
	if n := after.Load(); n != 4 {
		t.Fatalf("after a panic, Do ran %d of 4 pieces", n)
	}
}

// TestDoWaitsWhenTheCallerPanics checks that a panic in fn(0) leaves Do
// only after the other pieces have finished.
func TestDoWaitsWhenTheCallerPanics(t *testing.T) {
	withSpin(t, 50*time.Microsecond)
	var finished atomic.Int32
	func() {
		defer func() { _ = recover() }()
		Do(3, func(k int) {
			if k == 0 {
				panic("caller's piece")
			}
			time.Sleep(2 * time.Millisecond)
			finished.Add(1)
		})
	}()
	if n := finished.Load(); n != 2 {
		t.Fatalf("%d of 2 other pieces had finished when the caller's panic went on", n)
	}
}

// TestDoGoexit checks that a piece calling runtime.Goexit off the calling
// goroutine makes Do panic instead of waiting forever.
func TestDoGoexit(t *testing.T) {
	withSpin(t, 50*time.Microsecond)
	got := func() (p any) {
		defer func() { p = recover() }()
		Do(2, func(k int) {
			if k == 1 {
				runtime.Goexit()
			}
		})
		return nil
	}()
	if got != errGoexit {
		t.Fatalf("Do re-raised %v, want %v", got, errGoexit)
	}
}

// TestSleepingWorkerWakes lets the pool go to sleep and checks that the
// next Do still runs every piece.
func TestSleepingWorkerWakes(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS is 1: Do never uses the pool")
	}
	withSpin(t, 10*time.Microsecond)
	for range 20 {
		var n atomic.Int32
		Do(2, func(int) { n.Add(1) })
		time.Sleep(time.Millisecond) // past Spin: the pool goroutine sleeps
		Do(2, func(int) { n.Add(1) })
		if got := n.Load(); got != 4 {
			t.Fatalf("two Do(2) ran %d pieces, want 4", got)
		}
	}
}

func withSpin(t *testing.T, d time.Duration) {
	old := SetSpin(d)
	t.Cleanup(func() { SetSpin(old) })
}

// BenchmarkStart measures one Do of two pieces of 100 µs of work each
// after 100 µs of serial work, as in a program's consecutive parallel steps:
// ns/Do is 100 µs when both pieces start at once. "pool" runs with the
// pool's spinning goroutines, "fresh" with the spin set to zero (a goroutine
// woken per piece, as before the pool).
func BenchmarkStart(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("GOMAXPROCS is 1")
	}
	for _, c := range []struct {
		name string
		spin time.Duration
	}{{"pool", 500 * time.Microsecond}, {"fresh", 0}} {
		b.Run(c.name, func(b *testing.B) {
			defer SetSpin(SetSpin(c.spin))
			var sink atomic.Int64
			var elapsed time.Duration
			for b.Loop() {
				pause := time.Now()
				for time.Since(pause) < 100*time.Microsecond {
				}
				t0 := time.Now()
				Do(2, func(k int) {
					start := time.Now()
					for time.Since(start) < 100*time.Microsecond {
						sink.Add(1)
					}
				})
				elapsed += time.Since(t0)
			}
			b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N), "ns/Do")
		})
	}
}
