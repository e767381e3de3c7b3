package kernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// multiScene is a random AssignAll: several destinations, views of one
// scene's pool, and trees over that pool that share nodes (the scene's
// built nodes) and read other pairs' destinations.
type multiScene[T tensor.Number] struct {
	sc    *scene[T]
	dsts  []*tensor.Tensor[T]
	trees []expr.Exp[T]
}

func newMultiScene[T tensor.Number](src *byteSource, seed uint64) *multiScene[T] {
	sc := newScene[T](src, seed)
	m := &multiScene[T]{sc: sc, dsts: []*tensor.Tensor[T]{sc.dst}, trees: []expr.Exp[T]{sc.tree}}
	dims := sc.dst.Shape()
	for range 1 + src.next(3) {
		d := dims
		if src.next(4) == 0 { // another shape: the pairs are not fused
			d = shape.Shape{1 + src.next(4), 1 + src.next(4)}
		}
		var dst *tensor.Tensor[T]
		switch src.next(6) {
		case 0: // a destination another pair writes too
			if prev := m.dsts[src.next(len(m.dsts))]; prev.Shape().Equal(d) {
				dst = prev
			}
		}
		if dst == nil {
			dst = sc.view(src, d, "dst")
		}
		// The leaves that read "the destination" read this pair's, or
		// another's.
		sc.dst = dst
		if src.next(2) == 0 {
			sc.dst = m.dsts[src.next(len(m.dsts))]
		}
		m.trees = append(m.trees, sc.node(src, d, 1+src.next(4), true))
		m.dsts = append(m.dsts, dst)
	}
	sc.dst = m.dsts[0]
	return m
}

// expected computes with the oracle, before anything is written, what
// every pool base must hold after AssignAll: every tree's value as of
// before the call, written pair by pair in order.
func (m *multiScene[T]) expected() [][]T {
	values := make([][]T, len(m.trees))
	for i, e := range m.trees {
		values[i] = refEval(e, m.dsts[i].Shape())
	}
	out := make([][]T, len(m.sc.pool))
	for b, base := range m.sc.pool {
		out[b] = slices.Collect(base.Values())
		for i, dst := range m.dsts {
			if unsafe.SliceData(base.Storage()) != unsafe.SliceData(dst.Storage()) {
				continue
			}
			k := 0
			forEachIndex(dst.Shape(), func(idx []int) {
				off := dst.Offset()
				for d, x := range idx {
					off += x * dst.Strides()[d]
				}
				out[b][off] = values[i][k]
				k++
			})
		}
	}
	return out
}

func checkMultiScene[T tensor.Number](t *testing.T, m *multiScene[T]) {
	t.Helper()
	for _, e := range m.trees {
		if refRefused(e) {
			checkRefused(t, m.trees, m.sc.pool, func() error { return AssignAll(m.dsts, m.trees) })
			return
		}
	}
	want := m.expected()
	if err := AssignAll(m.dsts, m.trees); err != nil {
		t.Fatalf("AssignAll(%v): %v\n%v", m.trees, err, m.sc.desc)
	}
	same := sameNumber[T]
	for _, tree := range m.trees {
		if vmathApprox(tree) {
			same = vmathClose[T]
		}
	}
	for i, base := range m.sc.pool {
		got := slices.Collect(base.Values())
		if slices.EqualFunc(want[i], got, same) {
			continue
		}
		if diff := cmp.Diff(want[i], got, cmp.Comparer(same)); diff != "" {
			t.Fatalf("trees %v, dtype %s, fused %v\n%v\npool %d (-oracle +AssignAll):\n%s",
				m.trees, tensor.DTypeOf[T]().String(), fusable(m.dsts, m.trees), m.sc.desc, i, diff)
		}
	}
}

func runMultiScenes[T tensor.Number](t *testing.T, count int) (fused, crossing int) {
	r := rand.New(rand.NewPCG(19, uint64(tensor.ItemSize[T]())))
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			for range count {
				data := make([]byte, 96)
				for i := range data {
					data[i] = byte(r.IntN(256))
				}
				m := newMultiScene[T](&byteSource{data: data}, r.Uint64())
				if fusable(m.dsts, m.trees) {
					fused++
				}
				if slices.Contains(crossed(m.dsts, m.trees), true) {
					crossing++
				}
				checkMultiScene(t, m)
			}
		})
	}
	return fused, crossing
}

// TestAssignAllMatchesReference compares AssignAll with the oracle on
// random sets of trees that share nodes, read other pairs' destinations
// and write overlapping destinations, and checks that both the fused
// program and the pair-by-pair path took part.
func TestAssignAllMatchesReference(t *testing.T) {
	const count = 150
	var fused, crossing int
	add := func(f, c int) { fused, crossing = fused+f, crossing+c }
	t.Run("float64", func(t *testing.T) { add(runMultiScenes[float64](t, count)) })
	t.Run("float32", func(t *testing.T) { add(runMultiScenes[float32](t, count)) })
	t.Run("int64", func(t *testing.T) { add(runMultiScenes[int64](t, count)) })
	t.Run("uint8", func(t *testing.T) { add(runMultiScenes[uint8](t, count)) })
	if fused < 40 || crossing < 100 {
		t.Errorf("%d sets of trees were fused and %d read another pair's destination, want at least 40 and 100", fused, crossing)
	}
}

// gradientTrees returns the gradients of sum(tanh(w*x + b) * y) with
// respect to w, x, b and y, written by hand as a gradient package would
// build them: one tree per input, sharing the forward nodes by pointer.
func gradientTrees(w, x, b, y *tensor.Tensor[float64]) []expr.Exp[float64] {
	z := expr.Add(expr.Mul[float64](w, x), b)
	h := expr.Tanh(z)
	dz := expr.Mul(expr.Sub(expr.Scalar(1.0), expr.Mul(h, h)), y) // dL/dz = (1 - h²)·y
	return []expr.Exp[float64]{expr.Mul[float64](dz, x), expr.Mul[float64](dz, w), dz, h}
}

// TestAssignAllFusesSharedNodes checks that elementwise trees sharing
// nodes are lowered into one program computing each shared node once, and
// that its result is every tree's.
func TestAssignAllFusesSharedNodes(t *testing.T) {
	const n = 3000
	in := make([]*tensor.Tensor[float64], 4)
	for k := range in {
		in[k] = tensor.Zeros[float64](n)
		for i := range n {
			in[k].Set(float64((i*(k+3))%17)/8-1, i)
		}
	}
	trees := gradientTrees(in[0], in[1], in[2], in[3])
	dsts := make([]*tensor.Tensor[float64], len(trees))
	for i := range dsts {
		dsts[i] = tensor.Zeros[float64](n)
	}
	if !fusable(dsts, trees) {
		t.Fatal("the gradient trees are not fused")
	}
	ev := newEvaluation("test")
	p, err := lowerAll(ev, dsts, trees)
	if err != nil {
		t.Fatal(err)
	}
	ev.release()
	// w*x + b, tanh, h*h, 1 - ·, · * y, then dz*x and dz*w: eight ops
	// (a fused pair counted as its two), against 7+7+6+3 in the trees.
	ops := 0
	for _, in := range p.Code {
		ops += len(in.Chain())
	}
	if ops != 8 {
		t.Errorf("the program computes %d ops, want 8 (each shared node once): %+v", ops, p.Code)
	}
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			for _, d := range dsts {
				if err := Fill(d, -7); err != nil {
					t.Fatal(err)
				}
			}
			if err := AssignAll(dsts, trees); err != nil {
				t.Fatal(err)
			}
			for i, e := range trees {
				want := refEval(e, shape.Shape{n})
				if diff := cmp.Diff(want, dsts[i].Data(), cmp.Comparer(closeEnough[float64])); diff != "" {
					t.Errorf("%s: tree %d %v (-oracle +AssignAll):\n%s", cfg.name, i, e, diff)
				}
			}
		})
	}
}

// TestAssignAllSwap checks NumPy's rule across pairs: a, b = b, a.
func TestAssignAllSwap(t *testing.T) {
	a, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, []int{3})
	if err := AssignAll([]*tensor.Tensor[float64]{a, b}, []expr.Exp[float64]{expr.Neg[float64](b), expr.Neg[float64](a)}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float64{{-10, -20, -30}, {-1, -2, -3}}, [][]float64{a.Data(), b.Data()}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAssignAllErrors checks that a faulty pair is named by its index, the
// error is Assign's (errors.As sees it), and no destination is written.
func TestAssignAllErrors(t *testing.T) {
	x := tensor.Full[float64](1, 3)
	tests := []struct {
		name  string
		dsts  []*tensor.Tensor[float64]
		es    []expr.Exp[float64]
		index string
		as    any
	}{
		{"lengths", []*tensor.Tensor[float64]{tensor.Zeros[float64](3)}, nil, "", new(*shape.ArgumentError)},
		{"nil destination", []*tensor.Tensor[float64]{tensor.Zeros[float64](3), nil}, []expr.Exp[float64]{x, x}, "pair 1:", new(*shape.ArgumentError)},
		{"nil tree", []*tensor.Tensor[float64]{tensor.Zeros[float64](3), tensor.Zeros[float64](3)}, []expr.Exp[float64]{x, nil}, "pair 1:", new(*shape.ArgumentError)},
		{"shape", []*tensor.Tensor[float64]{tensor.Zeros[float64](3), tensor.Zeros[float64](3), tensor.Zeros[float64](4)},
			[]expr.Exp[float64]{expr.Neg[float64](x), x, expr.Neg[float64](x)}, "pair 2:", new(*shape.ShapeError)},
		{"broadcast", []*tensor.Tensor[float64]{tensor.Zeros[float64](3), tensor.Zeros[float64](3)},
			[]expr.Exp[float64]{x, expr.Add[float64](x, tensor.Zeros[float64](2))}, "pair 1:", new(*shape.BroadcastError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := AssignAll(tt.dsts, tt.es)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.index != "" && !startsWith(err.Error(), tt.index) {
				t.Errorf("error %q does not start with %q", err, tt.index)
			}
			if !errors.As(err, tt.as) {
				t.Errorf("error %v is not a %T", err, tt.as)
			}
			for i, d := range tt.dsts {
				if d != nil && slices.ContainsFunc(d.Data(), func(v float64) bool { return v != 0 }) {
					t.Errorf("destination %d was written: %v", i, d.Data())
				}
			}
		})
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// TestAssignAllConcurrent runs AssignAll from several goroutines over
// shared operands (run with -race).
func TestAssignAllConcurrent(t *testing.T) {
	const n = 5000
	in := make([]*tensor.Tensor[float64], 4)
	for k := range in {
		in[k] = tensor.Full[float64](float64(k)/4, n)
	}
	trees := gradientTrees(in[0], in[1], in[2], in[3])
	want := make([][]float64, len(trees))
	for i, e := range trees {
		want[i] = refEval(e, shape.Shape{n})
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for range 5 {
				dsts := make([]*tensor.Tensor[float64], len(trees))
				for i := range dsts {
					dsts[i] = tensor.Zeros[float64](n)
				}
				if err := AssignAll(dsts, trees); err != nil {
					t.Error(err)
					return
				}
				for i := range dsts {
					if !slices.EqualFunc(want[i], dsts[i].Data(), closeEnough[float64]) {
						t.Errorf("goroutine %d: tree %d differs from the oracle", g, i)
					}
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkAssignAll compares the gradient trees of four inputs assigned
// by one AssignAll (one pass) with four Assigns.
func BenchmarkAssignAll(b *testing.B) {
	for _, n := range []int{1e4, 1e6} {
		in := make([]*tensor.Tensor[float64], 4)
		dsts := make([]*tensor.Tensor[float64], 4)
		for k := range in {
			in[k] = tensor.Full[float64](float64(k)/4, n)
			dsts[k] = tensor.Zeros[float64](n)
		}
		trees := gradientTrees(in[0], in[1], in[2], in[3])
		b.Run(fmt.Sprintf("AssignAll/%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := AssignAll(dsts, trees); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Assigns/%d", n), func(b *testing.B) {
			for b.Loop() {
				for i, e := range trees {
					if err := Assign(dsts[i], e); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestEmulatedAssignAll runs AssignAll on device tensors (the CUDA
// emulator): the pair-by-pair path, with NumPy's rule across pairs (a
// swap) and a node shared by both trees.
func TestEmulatedAssignAll(t *testing.T) {
	emulator(t)
	const n = 1003
	a := emuTensor(emuRandom[float32](11, 4), n)
	b := emuTensor(emuRandom[float32](12, 4), n)
	trees := func(x, y *tensor.Tensor[float32]) []expr.Exp[float32] {
		u := expr.Mul[float32](x, y)
		return []expr.Exp[float32]{expr.Add[float32](u, y), expr.Sub[float32](u, x)}
	}
	want := make([][]float32, 2)
	for i, e := range trees(a, b) {
		want[i] = refEval(e, shape.Shape{n})
	}
	da, err := a.To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	db, err := b.To(emuDevice)
	if err != nil {
		t.Fatal(err)
	}
	// a, b = a*b + b, a*b - a: each destination is read by the other tree.
	if err := AssignAll([]*tensor.Tensor[float32]{da, db}, trees(da, db)); err != nil {
		t.Fatal(err)
	}
	for i, d := range []*tensor.Tensor[float32]{da, db} {
		back, err := d.To(alloc.CPU)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[i], back.Data(), cmp.Comparer(closeEnough[float32])); diff != "" {
			t.Errorf("destination %d (-oracle +device):\n%s", i, diff)
		}
	}
}

// FuzzAssignAll drives the comparison of AssignAll with the oracle from
// fuzz input: the first byte picks the dtype and the evaluator
// configuration, the rest the set of trees.
func FuzzAssignAll(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{1, 5, 5, 5, 5, 0, 1, 5, 5, 2, 3, 5, 5, 5, 1, 0, 4, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		cfg := evaluatorConfigs[int(data[0]/2)%len(evaluatorConfigs)]
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			src := &byteSource{data: data[1:]}
			if data[0]%2 == 0 {
				checkMultiScene(t, newMultiScene[float64](src, uint64(len(data))))
			} else {
				checkMultiScene(t, newMultiScene[int32](src, uint64(len(data))))
			}
		})
	})
}
