package dag

import "testing"

func TestMemo(t *testing.T) {
	for _, n := range []int{0, 1, smallMemo, smallMemo + 1, 5 * smallMemo} {
		var m Memo[*int, int]
		keys := make([]*int, n)
		for i := range keys {
			keys[i] = new(int)
			if _, ok := m.Get(keys[i]); ok {
				t.Fatalf("n=%d: key %d found before it was stored", n, i)
			}
			m.Put(keys[i], i)
		}
		if m.Len() != n {
			t.Errorf("n=%d: Len = %d", n, m.Len())
		}
		for i, k := range keys {
			if v, ok := m.Get(k); !ok || v != i {
				t.Errorf("n=%d: Get(key %d) = %d, %v; want %d, true", n, i, v, ok, i)
			}
		}
		if _, ok := m.Get(new(int)); ok {
			t.Errorf("n=%d: a key never stored was found", n)
		}
		m.Reset()
		if m.Len() != 0 {
			t.Errorf("n=%d: Len after Reset = %d", n, m.Len())
		}
		if n > 0 {
			if _, ok := m.Get(keys[0]); ok {
				t.Errorf("n=%d: a key was found after Reset", n)
			}
		}
	}
}
