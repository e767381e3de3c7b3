package kernels

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/tensor"
)

// The tests of compiling before queuing (docs/design.md, The CUDA backend
// and Errors): a backend that is a Compiler is asked for every kernel of a
// call before the first is queued, so a call whose k-th kernel does not
// compile, for every k, queues nothing and changes nothing.

// errNoCompile is the failure of failingCompiler.
var errNoCompile = errors.New("failingCompiler: the kernel does not compile")

// failingCompiler is the recorder as a Compiler that fails the failAt-th
// distinct kernel (by Key) it meets (none when 0), in Compile and in
// Launch alike, as a backend fails a kernel that does not compile or
// load; keys are the distinct kernels met, in order.
type failingCompiler struct {
	*recorder
	mu     sync.Mutex
	keys   []string
	failAt int
}

// Compile fails the failAt-th distinct kernel.
func (f *failingCompiler) Compile(_ Queue, k *Kernel) error { return f.check(k) }

// Launch fails the failAt-th distinct kernel, else records k.
func (f *failingCompiler) Launch(q Queue, k *Kernel) error {
	if err := f.check(k); err != nil {
		return err
	}
	return f.recorder.Launch(q, k)
}

// check meets k: errNoCompile when it is the failAt-th distinct kernel.
func (f *failingCompiler) check(k *Kernel) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.Index(f.keys, k.Key)
	if i < 0 {
		f.keys = append(f.keys, k.Key)
		i = len(f.keys) - 1
	}
	if i+1 == f.failAt {
		return errNoCompile
	}
	return nil
}

// reset forgets the kernels met, makes the backend fail the k-th distinct
// kernel from now on, and returns how many distinct kernels were met.
func (f *failingCompiler) reset(k int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.keys)
	f.keys, f.failAt = nil, k
	f.launches, f.gemms = nil, nil
	return n
}

// compileFailureScenes are deviceFailureScenes (every kind of step: a
// copy aside, a split reduction, a product with copies and a pass after
// it, a scan, a concatenation at the root, a stack under Name, AssignAll
// with crossed pairs, AssignOn) and a product of integers, which runs the
// generated tiled kernel.
func compileFailureScenes(t *testing.T, r *recorder) []failureScene {
	ia := onGPU(t, tensor.Arange[int32](0, 12, 1))
	ib := onGPU(t, tensor.Arange[int32](5, 17, 1))
	idst := onGPU(t, tensor.Zeros[int32](3, 3))
	ia3, _ := ia.View(3, 4)
	ib3, _ := ib.View(4, 3)
	ints := func() any {
		out := [][]byte{}
		for _, m := range []*tensor.Tensor[int32]{ia, ib, idst} {
			out = append(out, slices.Clone(fakeGPU.Bytes(m.Mem(friend.K))))
		}
		return out
	}
	return append(deviceFailureScenes(t, r), failureScene{
		"product of integers: the generated tiled kernel, then a pass", "Assign",
		func() error { return Assign(idst.T(), expr.Of(expr.MatMul[int32](ia3, ib3)).AddScalar(1)) }, ints, nil,
	})
}

// TestFailedCompilesQueueNothing fails each distinct kernel of each
// scene's call in turn (the backend refusing to compile its k-th) and
// checks that nothing was queued (the recorder saw no kernel and no
// product), no tensor changed, and the error names the call and the node,
// wrapping the backend's error.
func TestFailedCompilesQueueNothing(t *testing.T) {
	r := withRecorder(t)
	f := &failingCompiler{recorder: r}
	RegisterBackend(fakeGPU.Device().Kind(), f)
	for _, sc := range compileFailureScenes(t, r) {
		t.Run(sc.name, func(t *testing.T) {
			f.reset(0)
			if err := sc.run(); err != nil {
				t.Fatalf("without a failure: %v", err)
			}
			_ = r.Wait()
			n := f.reset(0)
			if n < 2 {
				t.Fatalf("the call launches %d distinct kernels: no failure after work queued to test", n)
			}
			t.Logf("%d distinct kernels, each failed in turn", n)
			for k := 1; k <= n; k++ {
				want := sc.state()
				f.reset(k)
				err := sc.run()
				_ = r.Wait()
				if diff := cmp.Diff(want, sc.state()); diff != "" {
					t.Errorf("kernel %d of %d failed: a tensor changed (-before +after):\n%s", k, n, diff)
				}
				if len(r.launches) != 0 || len(r.gemms) != 0 {
					t.Errorf("kernel %d of %d failed after %d kernels and %d products were queued", k, n, len(r.launches), len(r.gemms))
				}
				checkNamed(t, sc.call, err, errNoCompile)
			}
		})
	}
}
