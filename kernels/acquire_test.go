package kernels

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The tests of the rule "acquire before writing" (docs/design.md, The
// evaluator and Errors): every allocation a call makes comes before its
// first write, so a call whose k-th allocation fails, for every k, leaves
// every tensor bit for bit as it was (on a device: has queued nothing),
// and returns a NodeError naming the call and the node, wrapping the
// MemoryError.

// failureScene is one call whose allocations are failed one by one: run
// makes the call, state snapshots every tensor it reads or writes.
type failureScene struct {
	name  string
	call  string // the call the error must name
	run   func() error
	state func() any
	dsts  []*tensor.Tensor[float64] // set to -1 before each failing call, so that any write shows
}

// cpuFailureScenes are calls of every kind of step, at the root of an
// Assign, under Name, nested in other nodes, through the compound forms,
// AssignAll, Eval and MaskedSelect.
func cpuFailureScenes() []failureScene {
	x := tensor.Rand[float64](1, 4, 8)
	y := tensor.Rand[float64](2, 8, 4)
	sq := tensor.Rand[float64](3, 4, 4)
	v := tensor.Rand[float64](4, 4)
	w := tensor.Rand[float64](5, 3)
	m := tensor.Rand[float64](6, 4, 8)
	col := tensor.Rand[float64](8, 8, 1)
	v2 := tensor.Rand[float64](7, 4)
	sm := tensor.Rand[float64](9, 4, 8)
	sum := expr.Sum[float64](x, expr.Axis(1))
	return []failureScene{
		{"assign: an operand overlapping dst copied aside", "Assign",
			func() error { return Assign(sq, expr.Of[float64](sq.T()).AddScalar(1)) }, ts(sq), dsts(sq)},
		{"reduce: two reductions", "Assign",
			func() error { return Assign(v, expr.Add(sum, expr.Max[float64](x, expr.Axis(1)))) }, ts(v, x), dsts(v)},
		{"product: into a temporary (dst read by the tree)", "Assign",
			func() error { return Assign(sq, expr.Add(expr.MatMul[float64](x, y), expr.Of[float64](sq.T()))) }, ts(sq, x, y), dsts(sq)},
		{"scan: of a tree, and of a strided operand", "Assign",
			func() error {
				return Assign(x, expr.Add(expr.CumSum(expr.Of[float64](x).AddScalar(1), 1), expr.CumProd[float64](y.T(), 0)))
			}, ts(x, y), dsts(x)},
		{"concat at the root: parts written before a later part's temporary", "Assign",
			func() error {
				return Assign(v, expr.Concatenate(0, expr.Of[float64](w).AddScalar(10), expr.Sum[float64](col, expr.Axis(0))))
			}, ts(v, w, col), dsts(v)},
		{"stack under Name", "Assign",
			func() error {
				return Assign(sq, expr.Name("s", expr.Stack(0, expr.Of[float64](v).AddScalar(1), sum, expr.Max[float64](x, expr.Axis(1)), expr.Of[float64](sq.T()).Sum(expr.Axis(0)))))
			}, ts(sq, v, x), dsts(sq)},
		{"concat nested in a tree", "Assign",
			func() error {
				return Assign(v, expr.Of(expr.Concatenate(0, expr.Of[float64](w).AddScalar(1), expr.Of(expr.Sum[float64](x)).Reshape(1))).MulScalar(2))
			}, ts(v, w, x), dsts(v)},
		{"compound: AddAssign of a concatenation reading dst", "AddAssign",
			func() error {
				return AddAssign(v, expr.Concatenate(0, expr.Of[float64](v.Slice(0, 1, 4, 1)), expr.Of(sum).Sum(expr.KeepDims())))
			}, ts(v, x), dsts(v)},
		{"AssignAll: pairs reading each other's destinations", "AssignAll",
			func() error {
				return AssignAll([]*tensor.Tensor[float64]{v, w}, []expr.Exp[float64]{
					expr.Concatenate(0, expr.Of[float64](w), expr.Of(expr.Sum[float64](x, expr.Axis(1))).Slice(0, 1, 2, 1)), expr.Of[float64](v.Slice(0, 0, 3, 1)).Add(expr.Sum[float64](y)),
				})
			}, ts(v, w, x, y), dsts(v, w)},
		{"AssignAll: one fused program over a reduction", "AssignAll",
			func() error {
				return AssignAll([]*tensor.Tensor[float64]{v, v2}, []expr.Exp[float64]{expr.Of[float64](sum).AddScalar(1), expr.Of[float64](sum).Neg()})
			}, ts(v, v2, x), dsts(v, v2)},
		{"spill: softmax, exp stored into dst by the sum's pass", "Assign",
			func() error { return Assign(sm, expr.Softmax[float64](x, 1)) }, ts(sm, x), dsts(sm)},
		{"spill across AssignAll: logsumexp's sum stores exp into the other pair's dst", "AssignAll",
			func() error {
				e := expr.Exponential(expr.Sub[float64](x, expr.Max[float64](x, expr.Axis(1), expr.KeepDims())))
				s := expr.Sum(e, expr.Axis(1), expr.KeepDims())
				return AssignAll([]*tensor.Tensor[float64]{v, sm}, []expr.Exp[float64]{expr.Of(expr.Log(s)).Reshape(4), expr.Div(e, s)})
			}, ts(v, sm, x), dsts(v, sm)},
		{"Eval: the result and a concatenation's temporaries", "Eval",
			func() error { _, err := Eval(expr.Of(expr.Concatenate(0, expr.Of[float64](w), sum)).Exp()); return err }, ts(w, x), nil},
		{"mask: MaskedSelect of trees", "MaskedSelect",
			func() error {
				_, err := MaskedSelect(expr.Of[float64](x).MulScalar(2), expr.Of[float64](m).SubScalar(0.5).Sign().AddScalar(1))
				return err
			}, ts(x, m), nil},
	}
}

// ts snapshots host tensors: every element of each, as bits (NaN-exact).
func ts(watched ...*tensor.Tensor[float64]) func() any {
	return func() any {
		out := make([][]uint64, len(watched))
		for i, t := range watched {
			for v := range t.Values() {
				out[i] = append(out[i], math.Float64bits(v))
			}
		}
		return out
	}
}

// dsts lists the destinations a scene sets to -1 before each failing call.
func dsts(dsts ...*tensor.Tensor[float64]) []*tensor.Tensor[float64] { return dsts }

// onFakeGPU snapshots tensors of the fake GPU: the bytes of their blocks.
func onFakeGPU(watched ...*tensor.Tensor[float32]) func() any {
	return func() any {
		out := make([][]byte, len(watched))
		for i, t := range watched {
			out[i] = slices.Clone(fakeGPU.Bytes(t.Mem(friend.K)))
		}
		return out
	}
}

// settle runs the collector until the default allocator's bytes in use
// stop falling, so that the blocks of earlier tests' unreachable tensors
// are back before a limit is computed from them. The blocks come back from
// cleanups, which run after a collection on goroutines of their own, late
// on a loaded machine: only a count unchanged over several collections is
// taken as settled.
func settle() int64 {
	const rounds = 3 // collections in a row that must give nothing back
	c := alloc.Default()
	last, unchanged := c.Stats().BytesInUse, 0
	for range 100 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		now := c.Stats().BytesInUse
		if now != last {
			last, unchanged = now, 0
			continue
		}
		if unchanged++; unchanged == rounds {
			break
		}
	}
	return last
}

// checkFailure checks a failed call's error: a MemoryError, wrapped in a
// NodeError naming the call; it returns the MemoryError, nil when there
// is none.
func checkFailure(t *testing.T, call string, err error) *shape.MemoryError {
	t.Helper()
	var me *shape.MemoryError
	if !checkNamed(t, call, err, shape.ErrMemory) || !errors.As(err, &me) {
		t.Errorf("error %v (%T); want a NodeError wrapping a MemoryError", err, err)
	}
	return me
}

// checkNamed checks a failed call's error: a NodeError naming the call
// and a node, wrapping cause (errors.Is); it reports whether the error is
// a NodeError wrapping cause.
func checkNamed(t *testing.T, call string, err, cause error) bool {
	t.Helper()
	var ne *shape.NodeError
	if !errors.Is(err, cause) || !errors.As(err, &ne) {
		t.Errorf("error %v (%T); want a NodeError wrapping %v", err, err, cause)
		return false
	}
	if prefix := "laze: " + call + ": at node "; ne.Op != call || !strings.HasPrefix(err.Error(), prefix) || ne.Node == "" {
		t.Errorf("error %q; want it to start %q and name the node", err, prefix)
	}
	return true
}

// TestFailedAllocationsChangeNothing fails each allocation of each scene's
// call in turn, from the first to the last (the default allocator's limit
// set to the bytes in use plus those of the allocations before it), and
// checks that every watched tensor is bit for bit unchanged and the error
// names the call and the node; with the limit that admits them all, the
// call succeeds.
func TestFailedAllocationsChangeNothing(t *testing.T) {
	c := alloc.Default()
	defer c.SetLimit(c.Limit())
	for _, sc := range cpuFailureScenes() {
		t.Run(sc.name, func(t *testing.T) {
			settle()
			before := c.Stats().Allocations
			if err := sc.run(); err != nil {
				t.Fatalf("without a limit: %v", err)
			}
			n := int(c.Stats().Allocations - before)
			if n == 0 {
				t.Fatal("the call allocates nothing: no failure to test")
			}
			t.Logf("%d allocations, each failed in turn", n)
			var granted int64 // bytes of the allocations the next call may make
			for k := 1; k <= n+1; k++ {
				for _, d := range sc.dsts {
					if err := Fill(d, -1); err != nil {
						t.Fatal(err)
					}
				}
				want := sc.state()
				c.SetLimit(max(settle()+granted, 1))
				start := c.Stats().Allocations
				err := sc.run()
				made := int(c.Stats().Allocations - start)
				c.SetLimit(0)
				if k == n+1 {
					if err != nil || made != n {
						t.Errorf("with room for all %d allocations: %d made, error %v", n, made, err)
					}
					return
				}
				if made != k-1 {
					t.Errorf("allocation %d was to fail; %d were made", k, made)
				}
				if diff := cmp.Diff(want, sc.state()); diff != "" {
					t.Errorf("allocation %d of %d failed: a tensor changed (-before +after):\n%s", k, n, diff)
				}
				me := checkFailure(t, sc.call, err)
				if me == nil {
					t.FailNow()
				}
				granted += int64(alloc.SizeClass(int(me.Bytes)))
			}
		})
	}
}

// TestAllocationErrorsNameTheNode checks the node a failed allocation
// names: the node whose value (or copy) the temporary was for.
func TestAllocationErrorsNameTheNode(t *testing.T) {
	c := alloc.Default()
	defer c.SetLimit(c.Limit())
	x := tensor.Rand[float64](1, 64, 64)
	sq := tensor.Rand[float64](2, 64, 64)
	dst := tensor.Zeros[float64](65)
	sum := expr.Sum[float64](x, expr.Axis(1))
	tests := []struct {
		name string
		run  func() error
		want shape.NodeError // Op and Node
	}{
		{"a reduction's accumulators", func() error {
			return Assign(dst, expr.Concatenate(0, sum, expr.Of(expr.Sum[float64](sq)).Reshape(1)))
		}, shape.NodeError{Op: "Assign", Node: "sum(tensor(64,64), axis=1)"}},
		{"a copy of an operand overlapping dst", func() error {
			return SubAssign(sq, expr.Of[float64](sq.T()))
		}, shape.NodeError{Op: "SubAssign", Node: "tensor(64,64)"}},
		{"Eval's result", func() error {
			_, err := Eval(expr.Of[float64](x).Exp())
			return err
		}, shape.NodeError{Op: "Eval", Node: "exp(tensor(64,64))"}},
		{"a product's temporary", func() error {
			return Assign(sq, expr.Of(expr.MatMul[float64](x, x)).Add(expr.Of[float64](sq.T())))
		}, shape.NodeError{Op: "Assign", Node: "(tensor(64,64) @ tensor(64,64))"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.SetLimit(max(settle(), 1)) // no room for anything more
			err := tt.run()
			c.SetLimit(0)
			checkFailure(t, tt.want.Op, err)
			var ne *shape.NodeError
			errors.As(err, &ne)
			if diff := cmp.Diff(tt.want, *ne, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Err" }, cmp.Ignore())); diff != "" {
				t.Errorf("NodeError (-want +got):\n%s", diff)
			}
			if !strings.Contains(err.Error(), "unable to allocate") {
				t.Errorf("error %q does not say what failed", err)
			}
		})
	}
}

// errDeviceFull is the failure of failingDevice.
var errDeviceFull = errors.New("failingDevice: out of memory")

// failingDevice is the fake GPU's allocator, failing its failAt-th
// allocation (none when 0); count counts the allocations asked for.
type failingDevice struct {
	*fakedev.Allocator
	mu            sync.Mutex
	count, failAt int
}

func (f *failingDevice) Alloc(nbytes int) (*alloc.Allocation, error) {
	f.mu.Lock()
	f.count++
	fail := f.count == f.failAt
	f.mu.Unlock()
	if fail {
		return nil, errDeviceFull
	}
	return f.Allocator.Alloc(nbytes)
}

// reset makes the allocator fail its k-th allocation from now on.
func (f *failingDevice) reset(k int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.count
	f.count, f.failAt = 0, k
	return n
}

// deviceFailureScenes are device calls of every kind of step, on tensors
// of the fake GPU (made before the failing allocator replaces its own).
func deviceFailureScenes(t *testing.T, r *recorder) []failureScene {
	a := onGPU(t, tensor.Rand[float32](1, 64, 32))
	w := onGPU(t, tensor.Rand[float32](2, 32, 32))
	b := onGPU(t, tensor.Rand[float32](3, 32))
	dst := onGPU(t, tensor.Rand[float32](4, 64, 32))
	sq := onGPU(t, tensor.Rand[float32](5, 32, 32))
	v := onGPU(t, tensor.Rand[float32](6, 32))
	mean := expr.Mean[float32](a, expr.Axis(0))
	all := onFakeGPU(a, w, b, dst, sq, v)
	return []failureScene{
		{"assign: an operand overlapping dst copied aside", "Assign",
			func() error { return Assign(sq, expr.Of[float32](sq.T()).AddScalar(1)) }, all, nil},
		{"reduce: split into partials", "Assign",
			func() error { return Assign(dst, expr.Of[float32](a).Sub(mean)) }, all, nil},
		{"product: operand and result not contiguous", "Assign",
			func() error { return Assign(sq.T(), expr.Of(expr.MatMul[float32](a.T(), a)).Add(b).ReLU()) }, all, nil},
		{"scan", "Assign",
			func() error { return Assign(dst, expr.Add(expr.CumSum[float32](a, 1), expr.Of[float32](b))) }, all, nil},
		{"concat at the root", "Assign",
			func() error {
				return Assign(v, expr.Concatenate(0, expr.Of[float32](b.Slice(0, 0, 16, 1)).AddScalar(1), expr.Of(expr.Sum[float32](w, expr.Axis(0))).Slice(0, 0, 16, 1)))
			}, all, nil},
		{"stack under Name", "Assign",
			func() error {
				return Assign(dst.Slice(0, 0, 2, 1), expr.Name("s", expr.Stack(0, mean, expr.Of[float32](b).AddScalar(1))))
			}, all, nil},
		{"AssignAll: pairs reading each other's destinations", "AssignAll",
			func() error {
				return AssignAll([]*tensor.Tensor[float32]{v, sq}, []expr.Exp[float32]{expr.Sum[float32](sq, expr.Axis(1)), expr.Of[float32](v).Add(expr.MatMul[float32](w, w))})
			}, all, nil},
		{"AssignOn", "AssignOn",
			func() error { return AssignOn[float32](r, dst, expr.Of[float32](a).Sub(mean)) }, all, nil},
	}
}

// TestFailedDeviceAllocationsQueueNothing fails each device allocation of
// each scene's call in turn (the fake GPU's allocator failing its k-th) and
// checks that nothing was queued (no kernel, no product: the recorder
// saw none) and no tensor changed, and the error names the call and the
// node, wrapping the allocator's error.
func TestFailedDeviceAllocationsQueueNothing(t *testing.T) {
	r := withRecorder(t)
	scenes := deviceFailureScenes(t, r)
	dev := &failingDevice{Allocator: fakeGPU}
	alloc.Register(dev)
	t.Cleanup(func() { alloc.Register(fakeGPU) })
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			dev.reset(0)
			if err := sc.run(); err != nil {
				t.Fatalf("without a failure: %v", err)
			}
			_ = r.Wait()
			n := dev.reset(0)
			if n == 0 {
				t.Fatal("the call allocates nothing on the device: no failure to test")
			}
			t.Logf("%d device allocations, each failed in turn", n)
			for k := 1; k <= n; k++ {
				r.launches, r.gemms = nil, nil
				want := sc.state()
				dev.reset(k)
				err := sc.run()
				_ = r.Wait()
				if diff := cmp.Diff(want, sc.state()); diff != "" {
					t.Errorf("allocation %d of %d failed: a tensor changed (-before +after):\n%s", k, n, diff)
				}
				if len(r.launches) != 0 || len(r.gemms) != 0 {
					t.Errorf("allocation %d of %d failed after %d kernels and %d products were queued", k, n, len(r.launches), len(r.gemms))
				}
				checkFailure(t, sc.call, err)
				if !errors.Is(err, errDeviceFull) {
					t.Errorf("error %v does not wrap the allocator's", err)
				}
			}
		})
	}
}
