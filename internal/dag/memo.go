// Package dag holds what the packages that walk expression trees share to
// treat a tree as the graph it is: a node reached along several paths (the
// same pointer used as an operand more than once) is handled once.
package dag

import "sync/atomic"

// smallMemo is how many entries a Memo keeps in a slice, searched in turn,
// before it moves them into a map: most trees are small, and a slice costs
// no allocation once its backing array is reused.
const smallMemo = 16

// Memo maps nodes (by identity) to what was computed for them. Its zero
// value is empty and ready to use. Keys must be comparable at run time:
// callers store pointer nodes only.
type Memo[K comparable, V any] struct {
	keys []K
	vals []V
	m    map[K]V
}

// Get returns the value stored for k.
func (m *Memo[K, V]) Get(k K) (V, bool) {
	if m.m != nil {
		v, ok := m.m[k]
		return v, ok
	}
	for i, x := range m.keys {
		if x == k {
			return m.vals[i], true
		}
	}
	var zero V
	return zero, false
}

// Put stores v for k, which must not be stored already.
func (m *Memo[K, V]) Put(k K, v V) {
	puts.Add(1)
	if m.m == nil && len(m.keys) < smallMemo {
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, v)
		return
	}
	if m.m == nil {
		m.m = make(map[K]V, 2*smallMemo)
		for i, x := range m.keys {
			m.m[x] = m.vals[i]
		}
	}
	m.m[k] = v
}

// Len returns the number of entries.
func (m *Memo[K, V]) Len() int {
	if m.m != nil {
		return len(m.m)
	}
	return len(m.keys)
}

// Reset empties the memo, keeping its memory for reuse.
func (m *Memo[K, V]) Reset() {
	clear(m.keys)
	clear(m.vals)
	m.keys, m.vals = m.keys[:0], m.vals[:0]
	m.m = nil
}

// puts counts the calls of Put in the process.
var puts atomic.Int64

// Puts returns how many entries every Memo of the process has stored so
// far: the number of node visits of the walks that use one (Check, the
// lowering, PushViews…). Tests compare it between trees of two sizes to
// catch a walk whose cost grows faster than the tree, without timing.
func Puts() int64 { return puts.Load() }
