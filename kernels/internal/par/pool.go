package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// worker is one pool goroutine. A Do claims it (busy), stores a piece in
// its slot and, if it sleeps, wakes it.
type worker struct {
	busy     atomic.Bool
	slot     atomic.Pointer[piece]
	sleeping atomic.Bool
	wake     chan struct{} // one token per wake-up
}

var pool struct {
	mu      sync.Mutex
	workers atomic.Pointer[[]*worker]
}

// claim returns a free pool goroutine, starting one when every goroutine of
// the pool is busy and the pool is smaller than GOMAXPROCS - 1, or nil.
func claim() *worker {
	if ws := pool.workers.Load(); ws != nil {
		for _, w := range *ws {
			if !w.busy.Load() && w.busy.CompareAndSwap(false, true) {
				return w
			}
		}
	}
	return grow()
}

// grow starts a pool goroutine, already claimed, unless the pool has
// GOMAXPROCS - 1 of them.
func grow() *worker {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	var ws []*worker
	if p := pool.workers.Load(); p != nil {
		ws = *p
	}
	if len(ws) >= runtime.GOMAXPROCS(0)-1 {
		return nil
	}
	w := &worker{wake: make(chan struct{}, 1)}
	w.busy.Store(true)
	grown := append(ws[:len(ws):len(ws)], w)
	pool.workers.Store(&grown)
	go w.loop()
	return w
}

// give hands a claimed worker its piece.
func (w *worker) give(t piece) {
	w.slot.Store(&t)
	if w.sleeping.CompareAndSwap(true, false) {
		w.wake <- struct{}{}
	}
}

// loop runs pieces as they come, forever. The worker is free again (busy
// cleared) before its piece is marked finished, so the Do that waits for it
// finds it free for its next step.
func (w *worker) loop() {
	for {
		t := w.next()
		t.call()
		w.busy.Store(false)
		t.finish()
	}
}

// next waits for a piece: it polls the slot for the spin time, then sleeps
// until give wakes it. A wake-up can find the slot empty: a give preempted
// between storing its piece and seeing the worker asleep can wake a later
// sleep, after this goroutine took that piece while polling. Each sleep is
// woken at most once (give wakes only the sleep whose flag it clears), so
// next sleeps again.
func (w *worker) next() *piece {
	deadline := spinDeadline()
	for i := 0; ; i++ {
		if t := w.slot.Swap(nil); t != nil {
			return t
		}
		if i%64 == 63 && time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	for {
		w.sleeping.Store(true)
		if t := w.slot.Swap(nil); t != nil {
			if !w.sleeping.CompareAndSwap(true, false) {
				<-w.wake // a give cleared the flag and sends a token: take it
			}
			return t
		}
		<-w.wake
		if t := w.slot.Swap(nil); t != nil {
			return t
		}
	}
}
