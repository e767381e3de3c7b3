package kernels

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/tensor"
)

// TestEmulatedScenesMatchReference runs the random differential scenes of
// TestFusedMatchesReference on the emulated device: every pool base is
// copied to the device, the tree and the destination are rebuilt over the
// copies (the same offsets and strides: views, overlaps and shared nodes
// as on the CPU), Assign runs there, and every base, copied back, must
// hold the oracle's values. Integers compare exactly; floats within
// closeEnough's tolerance, since the device's transcendental functions
// are not Go's (the emulator's are the C library's). Scenes with a leaf
// read as another element type (a cast of a float base's bits) stay on
// the CPU: the device has no view of one type's memory as another's.
func TestEmulatedScenesMatchReference(t *testing.T) {
	b := emulator(t)
	t.Run("int32", func(t *testing.T) { runEmulatedScenes[int32](t, b, 40, sameNumber[int32]) })
	t.Run("float64", func(t *testing.T) { runEmulatedScenes[float64](t, b, 40, closeEnough[float64]) })
}

func runEmulatedScenes[T tensor.Number](t *testing.T, b *emuBackend, count int, same func(a, b T) bool) {
	r := rand.New(rand.NewPCG(29, uint64(tensor.ItemSize[T]())))
	ran, foreign := 0, 0
	for range count {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		switch checkEmulatedScene(t, newSceneWith[T](&byteSource{data: data}, r.Uint64(), false), same) {
		case sceneRan:
			ran++
		case sceneForeign:
			foreign++
		}
	}
	t.Logf("%d scenes ran on the emulated device, %d with a leaf of another type's memory stayed on the CPU", ran, foreign)
	if ran < count/2 {
		t.Errorf("only %d of %d scenes ran on the emulated device", ran, count)
	}
}

// FuzzAssignEmulated drives the emulated device's comparison from fuzz
// input, as FuzzAssign drives the CPU's: the first byte picks the element
// type (int32, compared exactly, or float64, within closeEnough), the
// rest the scene. Its seeds run in make test; fuzzing it compiles each
// new kernel with g++, a fraction of a second each.
func FuzzAssignEmulated(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 2, 3, 3, 3, 1, 2, 5, 7, 11, 13, 1, 1, 1, 1})
	f.Add([]byte{0, 0, 4, 5, 5, 2, 1, 3, 0, 0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		emulator(t)
		src, seed := &byteSource{data: data[1:]}, uint64(len(data))
		if data[0]%2 == 0 {
			checkEmulatedScene(t, newScene[int32](src, seed), sameNumber[int32])
		} else {
			checkEmulatedScene(t, newScene[float64](src, seed), closeEnough[float64])
		}
	})
}

// The outcomes of checkEmulatedScene.
const (
	sceneRan     = iota // Assign ran on the device and matched the oracle
	sceneRefused        // the oracle refuses the tree (a negative integer power)
	sceneForeign        // a leaf reads another element type's memory: not run
)

// checkEmulatedScene runs sc on the emulated device and compares every
// pool base with the oracle's values.
func checkEmulatedScene[T tensor.Number](t *testing.T, sc *scene[T], same func(a, b T) bool) int {
	t.Helper()
	if refRefused(sc.tree) {
		return sceneRefused
	}
	want := sc.expected()
	dev := newDeviceScene(t, sc)
	dst, okDst := dev.leaf(sc.dst)
	tree, okTree := dev.tree(sc.tree)
	if !okDst || !okTree {
		return sceneForeign
	}
	if err := Assign(dst, tree.(expr.Exp[T])); err != nil {
		t.Fatalf("Assign on the emulated device: %v\ntree %v\n%v", err, sc.tree, sc.desc)
	}
	for i, base := range sc.pool {
		if got := dev.back(t, base); !slices.EqualFunc(want[i], got, same) {
			t.Fatalf("pool %d differs from the oracle on the emulated device\ntree %v\n%v\n got %v\nwant %v",
				i, sc.tree, sc.desc, got, want[i])
		}
	}
	return sceneRan
}

// deviceScene holds a scene's pool bases copied to the emulated device, by
// the address of their memory (a twin maps to its base's copy).
type deviceScene[T tensor.Number] struct {
	bases map[*T]*tensor.Tensor[T]
	nodes map[expr.Node]expr.Node
}

func newDeviceScene[T tensor.Number](t *testing.T, sc *scene[T]) *deviceScene[T] {
	d := &deviceScene[T]{bases: map[*T]*tensor.Tensor[T]{}, nodes: map[expr.Node]expr.Node{}}
	for _, base := range sc.pool {
		p := unsafe.SliceData(base.Storage())
		if d.bases[p] != nil {
			continue
		}
		c, err := base.To(emuDevice)
		if err != nil {
			t.Fatal(err)
		}
		d.bases[p] = c
	}
	return d
}

// leaf returns the device view of n, a tensor over a pool base: the same
// offset, shape and strides over the base's copy; false for a tensor of
// another element type.
func (d *deviceScene[T]) leaf(n expr.Node) (*tensor.Tensor[T], bool) {
	x, ok := n.(*tensor.Tensor[T])
	if !ok {
		return nil, false
	}
	base := d.bases[unsafe.SliceData(x.Storage())]
	if base == nil {
		return nil, false
	}
	return base.Strided(friend.K, x.Offset(), x.Shape(), x.Strides()), true
}

// tree rebuilds n over the device's leaves: each node copied with its
// operands rebuilt (withOperands), a node shared by pointer rebuilt once.
func (d *deviceScene[T]) tree(n expr.Node) (expr.Node, bool) {
	if isTensor(n) {
		return d.leaf(n)
	}
	if _, ok := n.(expr.Parent); !ok {
		return n, true // a constant or a generator
	}
	if !isPointer(n) { // only pointers are keys: a value node may not be comparable
		return withOperands(n, d.tree)
	}
	if out, ok := d.nodes[n]; ok {
		return out, true
	}
	out, ok := withOperands(n, d.tree)
	if ok {
		d.nodes[n] = out
	}
	return out, ok
}

// back copies base's device copy to the host and returns its elements.
func (d *deviceScene[T]) back(t *testing.T, base *tensor.Tensor[T]) []T {
	c, err := d.bases[unsafe.SliceData(base.Storage())].To(alloc.CPU)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Collect(c.Values())
}

// isTensor reports whether n is a *tensor.Tensor of any element type.
func isTensor(n expr.Node) bool {
	return strings.HasPrefix(reflect.TypeOf(n).String(), "*tensor.Tensor[")
}
