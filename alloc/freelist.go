package alloc

import "sync"

// FreeLists is the bookkeeping of a caching allocator, shared by the CPU's
// (Caching) and the GPU's (package cuda): released blocks kept by size
// class, and the Stats counters, under one mutex. B is the block (host
// bytes, a device address). The zero FreeLists is ready to use and safe for
// concurrent use.
type FreeLists[B any] struct {
	mu    sync.Mutex
	free  map[int][]cachedBlock[B] // oldest release first in each class
	seq   uint64                   // releases numbered, for the eviction order
	stats Stats
	// peakBefore is PeakInUse before the last Take, so that Untake can
	// take a failed allocation out of the peak again.
	peakBefore int64
}

// cachedBlock is a block in a free list, with the number of its release.
type cachedBlock[B any] struct {
	block B
	seq   uint64
}

// Take counts an allocation of class bytes and pops a cached block of that
// class; ok is false when there is none (the caller makes one).
func (f *FreeLists[B]) Take(class int) (block B, ok bool) {
	block, ok, _, _ = f.TakeWithin(class, 0)
	return block, ok
}

// TakeWithin is Take under a limit on the bytes in use: when limit > 0 and
// the block would take BytesInUse beyond it, it counts nothing and returns
// admitted=false. inUse is BytesInUse as it found it.
func (f *FreeLists[B]) TakeWithin(class int, limit int64) (block B, reused bool, inUse int64, admitted bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	inUse = f.stats.BytesInUse
	if limit > 0 && int64(class) > limit-inUse {
		return block, false, inUse, false
	}
	block, reused = f.take(class)
	return block, reused, inUse, true
}

// take is Take with f.mu held.
func (f *FreeLists[B]) take(class int) (block B, ok bool) {
	f.stats.Allocations++
	f.stats.BytesInUse += int64(class)
	f.peakBefore = f.stats.PeakInUse
	f.stats.PeakInUse = max(f.stats.PeakInUse, f.stats.BytesInUse)
	list := f.free[class]
	if len(list) == 0 {
		return block, false
	}
	block = list[len(list)-1].block
	list[len(list)-1] = cachedBlock[B]{}
	f.free[class] = list[:len(list)-1]
	f.stats.Reuses++
	f.stats.BytesCached -= int64(class)
	return block, true
}

// Untake undoes Take's counting for an allocation that then failed, the
// peak included when that allocation raised it (exactly when no other Take
// came in between).
func (f *FreeLists[B]) Untake(class int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stats.Allocations--
	if f.stats.PeakInUse == f.stats.BytesInUse {
		f.stats.PeakInUse = max(f.peakBefore, f.stats.BytesInUse-int64(class))
	}
	f.stats.BytesInUse -= int64(class)
}

// Put counts the release of a block of class bytes and caches it when
// keep, given the bytes cached so far, says so; it reports whether it did.
func (f *FreeLists[B]) Put(class int, block B, keep func(cached int64) bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stats.Releases++
	f.stats.BytesInUse -= int64(class)
	if !keep(f.stats.BytesCached) {
		return false
	}
	f.cache(class, block)
	return true
}

// PutWithin counts the release of a block of class bytes and, when keep is
// set and the block fits in capacity bytes of cache, caches it, first
// dropping the blocks released longest ago (of any class) until the cache
// holds at most capacity bytes with it: the block just released is the
// likeliest to be asked for again (a loop's next step asks for the
// temporaries its last one released), not the ones an earlier phase of
// the program left behind. It reports whether it kept the block; the
// dropped blocks are left to the garbage collector (Stats.Evictions
// counts them).
func (f *FreeLists[B]) PutWithin(class int, block B, keep bool, capacity int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stats.Releases++
	f.stats.BytesInUse -= int64(class)
	if !keep || int64(class) > capacity {
		return false
	}
	for f.stats.BytesCached+int64(class) > capacity {
		f.evictOldest()
	}
	f.cache(class, block)
	return true
}

// cache adds a released block to its class's list, with f.mu held.
func (f *FreeLists[B]) cache(class int, block B) {
	if f.free == nil {
		f.free = map[int][]cachedBlock[B]{}
	}
	f.seq++
	f.free[class] = append(f.free[class], cachedBlock[B]{block: block, seq: f.seq})
	f.stats.BytesCached += int64(class)
}

// evictOldest drops the cached block released longest ago, with f.mu held
// and at least one block cached.
func (f *FreeLists[B]) evictOldest() {
	oldest, at := uint64(0), -1
	for class, list := range f.free {
		if len(list) > 0 && (at < 0 || list[0].seq < oldest) {
			oldest, at = list[0].seq, class
		}
	}
	list := f.free[at]
	copy(list, list[1:])
	list[len(list)-1] = cachedBlock[B]{}
	f.free[at] = list[:len(list)-1]
	f.stats.BytesCached -= int64(at)
	f.stats.Evictions++
}

// Stats returns a snapshot of the counters.
func (f *FreeLists[B]) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// Drain empties the cache and returns the blocks it held.
func (f *FreeLists[B]) Drain() []B {
	f.mu.Lock()
	defer f.mu.Unlock()
	var all []B
	for _, list := range f.free {
		for _, c := range list {
			all = append(all, c.block)
		}
	}
	clear(f.free)
	f.stats.BytesCached = 0
	return all
}
