package kernels

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestReleaseWhileHeld checks the rule for a Release during an evaluation:
// the storage ends at once for new accesses, and its block goes back to the
// allocator only when the evaluation lets it go, so it cannot be handed to
// another tensor while it is still read.
func TestReleaseWhileHeld(t *testing.T) {
	c := alloc.NewCaching(1 << 20)
	a := tensor.New[float64](shape.Of(64), tensor.WithAllocator(c))
	h := a.Hold(friend.K, "Assign")
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().Releases; got != 0 {
		t.Fatalf("the block went back while held: %d releases", got)
	}
	func() {
		defer func() {
			if e, ok := recover().(error); !ok || !errors.Is(e, shape.ErrReleased) {
				t.Errorf("access after Release: panic %v, want a ReleaseError", e)
			}
		}()
		a.At(0)
	}()
	if err := a.Release(); !errors.Is(err, shape.ErrReleased) {
		t.Errorf("second Release: %v, want a ReleaseError", err)
	}
	h.Drop()
	if got := c.Stats().Releases; got != 1 {
		t.Errorf("after the last Drop: %d releases, want 1", got)
	}
}

// TestReleaseDuringAssign releases an operand while other goroutines
// evaluate trees that read it. Under -race this must report no race; every
// Assign either finishes with the right values (it held the storage before
// the Release) or panics with a ReleaseError (it started after), and the
// released block is never reused while an evaluation reads it.
func TestReleaseDuringAssign(t *testing.T) {
	const n, workers = 1 << 14, 4
	for trial := range 20 {
		a := tensor.Arange[float64](0, n, 1)
		want := make([]float64, n)
		for i := range want {
			want[i] = 2*float64(i) + 1
		}
		var wg sync.WaitGroup
		results := make([]*tensor.Tensor[float64], workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						if e, ok := r.(error); !ok || !errors.Is(e, shape.ErrReleased) {
							t.Errorf("trial %d: panic %v, want a ReleaseError", trial, r)
						}
					}
				}()
				dst := tensor.Zeros[float64](n)
				if err := Assign(dst, expr.Add(expr.Mul(a, expr.Scalar(2.0)), expr.Scalar(1.0))); err != nil {
					t.Errorf("trial %d: %v", trial, err)
					return
				}
				results[w] = dst
			}()
		}
		if err := a.Release(); err != nil {
			t.Fatal(err)
		}
		// Whatever reuses the block now must not disturb an evaluation
		// still reading it.
		reuse := tensor.Full[float64](-1, n)
		wg.Wait()
		for w, dst := range results {
			if dst == nil {
				continue
			}
			if diff := cmp.Diff(want, dst.Data()); diff != "" {
				t.Fatalf("trial %d, worker %d: (-want +got):\n%s", trial, w, diff)
			}
		}
		_ = reuse.Release()
	}
}

// TestReleasedOperandLetsGoOfEveryHold: a call that meets a released
// operand panics with a ReleaseError, and the holds it took before (the
// earlier pairs of AssignAll, the destination of an Assign, a queued
// AssignOn's) all end: the tensors' blocks go back when they are released.
func TestReleasedOperandLetsGoOfEveryHold(t *testing.T) {
	c := alloc.NewCaching(1 << 20)
	newT := func() *tensor.Tensor[float64] { return tensor.New[float64](shape.Of(64), tensor.WithAllocator(c)) }
	mustPanicReleased := func(name string, f func()) {
		t.Helper()
		defer func() {
			if e, ok := recover().(error); !ok || !errors.Is(e, shape.ErrReleased) {
				t.Errorf("%s: panic %v, want a ReleaseError", name, e)
			}
		}()
		f()
	}
	for _, cache := range []bool{true, false} {
		planCacheOff.Store(!cache)
		a, x, d, gone := newT(), newT(), newT(), newT()
		if err := gone.Release(); err != nil {
			t.Fatal(err)
		}
		mustPanicReleased("AssignAll", func() {
			_ = AssignAll([]*tensor.Tensor[float64]{a, d}, []expr.Exp[float64]{expr.Add[float64](a, x), expr.Of(gone).AddScalar(1)})
		})
		mustPanicReleased("Assign", func() { _ = Assign(d, expr.Add[float64](x, gone)) })
		before := c.Stats().Releases
		for _, u := range []*tensor.Tensor[float64]{a, x, d} {
			if err := u.Release(); err != nil {
				t.Fatal(err)
			}
		}
		if got := c.Stats().Releases - before; got != 3 {
			t.Errorf("cache=%t: %d of 3 blocks went back on Release: a failed call still holds the others", cache, got)
		}
	}
	planCacheOff.Store(false)
}
