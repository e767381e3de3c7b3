package par

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSpin is how long a pool goroutine, or a caller waiting for its
// pieces, polls before it sleeps, unless SetSpin changes it.
const DefaultSpin = 200 * time.Microsecond

var spin atomic.Int64 // nanoseconds

func init() { spin.Store(int64(DefaultSpin)) }

// SetSpin sets how long a pool goroutine, or a caller waiting for its
// pieces, polls before it sleeps, and returns the previous value. Zero
// makes every wait sleep at once, as plain goroutines and a WaitGroup do.
// It takes effect from each goroutine's next wait.
func SetSpin(d time.Duration) time.Duration {
	return time.Duration(spin.Swap(int64(max(d, 0))))
}

// spinDeadline is when a wait that starts now stops polling.
func spinDeadline() time.Time { return time.Now().Add(time.Duration(spin.Load())) }

// Do calls fn(0), …, fn(n-1), each once, fn(0) on the calling goroutine and
// the others concurrently on pool goroutines (fresh ones when the pool is
// busy, as when several goroutines run Do at once), and returns when all
// have returned. A panic in a piece run off the calling goroutine is
// re-raised by Do on the calling goroutine once every piece has finished;
// a panic in fn(0) goes on once the others have finished. A piece that
// calls runtime.Goexit ends its goroutine (a pool goroutine is lost to the
// pool) and Do panics with errGoexit's message.
func Do(n int, fn func(k int)) {
	if n <= 1 {
		if n == 1 {
			fn(0)
		}
		return
	}
	s := getStep(n - 1)
	for k := 1; k < n; k++ {
		t := piece{fn: fn, k: k, step: s}
		if w := claim(); w != nil {
			w.give(t)
		} else {
			go t.run()
		}
	}
	callerDone := false
	defer func() {
		if !callerDone {
			// fn(0) panicked: the other pieces may use what the caller's
			// deferred calls free, so they finish before the panic goes on.
			s.wait()
		}
	}()
	fn(0)
	callerDone = true
	s.wait()
	if p := s.panicked; p != nil {
		putStep(s)
		panic(p)
	}
	putStep(s)
}

// errGoexit is what Do re-raises for a piece that called runtime.Goexit
// (t.FailNow from a test, say) off the calling goroutine.
var errGoexit = errors.New("par: a piece called runtime.Goexit on a pool goroutine")

// step counts the pieces of one Do still running.
type step struct {
	left     atomic.Int64
	wg       sync.WaitGroup
	mu       sync.Mutex
	panicked any
}

var steps = sync.Pool{New: func() any { return new(step) }}

func getStep(pieces int) *step {
	s := steps.Get().(*step)
	s.left.Store(int64(pieces))
	s.wg.Add(pieces)
	return s
}

func putStep(s *step) {
	s.panicked = nil
	steps.Put(s)
}

// wait returns when every piece has finished: it polls for the spin time, then
// sleeps on the WaitGroup.
func (s *step) wait() {
	deadline := spinDeadline()
	for i := 0; s.left.Load() > 0; i++ {
		if i%64 == 63 && time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	s.wg.Wait()
}

// piece is one call fn(k) of a Do.
type piece struct {
	fn   func(int)
	k    int
	step *step
}

// run is a piece on a goroutine of its own.
func (t piece) run() {
	t.call()
	t.finish()
}

// call calls the piece's function, recording a panic for Do to re-raise.
// If the function calls runtime.Goexit, call records that, marks the
// piece finished and lets the goroutine end.
func (t piece) call() {
	returned := false
	defer func() {
		p := recover()
		exiting := p == nil && !returned
		if exiting {
			p = errGoexit
		}
		if p != nil {
			t.step.mu.Lock()
			if t.step.panicked == nil {
				t.step.panicked = p
			}
			t.step.mu.Unlock()
		}
		if exiting {
			t.finish()
		}
	}()
	t.fn(t.k)
	returned = true
}

// finish marks the piece finished.
func (t piece) finish() {
	t.step.left.Add(-1)
	t.step.wg.Done()
}
