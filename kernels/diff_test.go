package kernels

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// byteSource hands out small numbers from fuzz input (or random bytes);
// past the end it gives 0, so every input makes some tree.
type byteSource struct {
	data []byte
	pos  int
}

func (b *byteSource) next(n int) int {
	if n <= 0 || b.pos >= len(b.data) {
		return 0
	}
	v := int(b.data[b.pos])
	b.pos++
	return v % n
}

const poolLen = 4096

// scene is one randomly made Assign: a pool of 1-D base tensors, a
// destination that is a view of one of them, and a tree whose tensor leaves
// are views (steps, negative steps, permutations, broadcasting) of them, so
// the destination often overlaps its operands.
type scene[T tensor.Number] struct {
	pool []*tensor.Tensor[T]
	dst  *tensor.Tensor[T]
	tree expr.Exp[T]
	desc []string
	// rounding lets float trees hold the nodes whose float results depend on
	// the order of operations (sums, means, products, matrix products); such
	// trees keep to continuous elementwise ops and compare within a
	// tolerance. Integer trees hold every node and compare exactly.
	rounding bool
	nested   int // reductions and products around the subtree being made
	// built is the nodes made so far (not leaves): node sometimes returns
	// one of them again, so that trees share subtrees by pointer, as
	// gradient trees do, and the lowering's and the plan cache's handling of
	// shared nodes takes part in the comparison.
	built []expr.Exp[T]
}

func newScene[T tensor.Number](src *byteSource, seed uint64) *scene[T] {
	return newSceneWith[T](src, seed, false)
}

func newSceneWith[T tensor.Number](src *byteSource, seed uint64, rounding bool) *scene[T] {
	r := rand.New(rand.NewPCG(seed, 7))
	sc := &scene[T]{rounding: rounding && tensor.IsFloat[T]()}
	for range 1 + src.next(3) {
		base := tensor.Empty[T](shape.Shape{poolLen})
		for i := range poolLen {
			v := randomValue[T](r)
			if sc.rounding && !isFinite(v) {
				v = 1 // BLAS skips zeros, so 0·NaN may be 0 in a product: see docs/design.md
			}
			base.Set(v, i)
		}
		sc.pool = append(sc.pool, base)
		if src.next(3) == 0 {
			// A twin: the same memory wrapped a second time, another storage
			// object, which only the memory-based overlap rule sees.
			twin, err := tensor.Wrap(base.Data(), shape.Shape{poolLen})
			if err != nil {
				panic(err)
			}
			sc.pool = append(sc.pool, twin)
		}
	}
	dims := make(shape.Shape, src.next(5))
	for d := range dims {
		dims[d] = 1 + src.next(5)
		if src.next(40) == 0 {
			dims[d] = 0
		}
	}
	sc.dst = sc.view(src, dims, "dst")
	sc.tree = sc.node(src, dims, 1+src.next(5), true)
	return sc
}

// randomValue draws an element: small integers (so that division, modulo and
// powers meet zeros, negatives and signs), floats with a spread of
// magnitudes and an occasional NaN or infinity.
func randomValue[T tensor.Number](r *rand.Rand) T {
	if !tensor.IsFloat[T]() {
		return T(r.IntN(11) - 5)
	}
	switch r.IntN(50) {
	case 0:
		return T(math.NaN())
	case 1:
		return T(math.Inf(1 - 2*r.IntN(2)))
	case 2:
		return 0
	}
	return T(r.NormFloat64() * 3)
}

// node makes a random subtree whose shape broadcasts to dims, or is dims
// when full is set (the result must have the destination's shape): now and
// then a node made before whose shape fits, shared by pointer.
func (sc *scene[T]) node(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	// 5, not 0: past the end of the input, the source gives 0.
	if len(sc.built) > 0 && src.next(6) == 5 {
		if again := sc.built[src.next(len(sc.built))]; fits(again.Shape(), dims, full) {
			return again
		}
	}
	e := sc.newNode(src, dims, depth, full)
	switch e.(type) {
	case *tensor.Tensor[T], *expr.Const[T]:
	default:
		sc.built = append(sc.built, e)
	}
	return e
}

// newNode makes a new random subtree for node.
func (sc *scene[T]) newNode(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	if depth <= 0 || src.next(4) == 0 {
		return sc.leaf(src, dims, full)
	}
	switch kind := src.next(11); {
	case kind == 10:
		return sc.viewNode(src, dims, depth, full)
	case (kind < 2 || kind >= 8) && sc.nested >= maxNesting:
	case kind == 8 && src.next(3) == 0:
		if n := sc.gather(src, dims, depth, full); n != nil {
			return n
		}
	case kind == 8:
		if n := sc.scan(src, dims, depth, full); n != nil {
			return n
		}
	case kind == 9:
		if n := sc.concatenation(src, dims, depth, full); n != nil {
			return n
		}
	case kind == 0:
		if n := sc.reduction(src, dims, depth, full); n != nil {
			return n
		}
	case kind == 1:
		if n := sc.product(src, dims, depth, full); n != nil {
			return n
		}
	case kind == 2:
		return sc.cast(src, dims, depth, full)
	}
	all := ops.All()
	if sc.rounding {
		all = continuousOps
	}
	op := all[src.next(len(all))]
	if !op.Def().Domain.Accepts(tensor.IsFloat[T]()) {
		op = ops.Add
	}
	fullAt := src.next(op.Arity()) // the operand that carries the full shape
	operands := make([]expr.Exp[T], op.Arity())
	for i := range operands {
		operands[i] = sc.node(src, dims, depth-1, full && i == fullAt)
	}
	switch op.Arity() {
	case 1:
		return &expr.Unary[T]{Op: op, X: operands[0]}
	case 2:
		return &expr.Binary[T]{Op: op, X: operands[0], Y: operands[1]}
	}
	return &expr.Ternary[T]{Op: op, X: operands[0], Y: operands[1], Z: operands[2]}
}

// leaf makes a constant or a tensor view whose shape broadcasts to dims (or
// is dims, when full is set).
func (sc *scene[T]) leaf(src *byteSource, dims shape.Shape, full bool) expr.Exp[T] {
	switch src.next(8) {
	case 0:
		if !full || len(dims) == 0 {
			return expr.Scalar(T(src.next(7)) - 3)
		}
	case 1:
		if fits(sc.dst.Shape(), dims, full) {
			return sc.dst // the destination itself, read in place
		}
	case 2:
		if full {
			return sc.generator(src, dims)
		}
		return sc.generator(src, ownShape(src, dims))
	}
	if full {
		return sc.view(src, dims, "leaf")
	}
	return sc.view(src, ownShape(src, dims), "leaf")
}

// generator makes a generator leaf of shape s (memory-free: arange and
// linspace reshaped, full, eye and tri), whose reshape the evaluator
// pushes into the generator's positions.
func (sc *scene[T]) generator(src *byteSource, s shape.Shape) expr.Exp[T] {
	n, _ := s.Size()
	kind := src.next(4)
	if kind == 0 && !tensor.IsFloat[T]() && n > 30 {
		kind = 1 // an int8 arange of n elements would wrap
	}
	switch kind {
	case 0:
		start, step := T(src.next(4)), T(1+src.next(3))
		stop := start + T(n)*step // exactly n elements for integers
		if tensor.IsFloat[T]() {
			step /= 4
			stop = start + T((float64(n)-0.5)*float64(step)) // n elements, whatever the rounding
		}
		return expr.Reshape[T](expr.Arange(start, stop, step), s...)
	case 1:
		return expr.Reshape[T](expr.Linspace[T](float64(src.next(5))-2, float64(src.next(9)), n, src.next(2) == 0), s...)
	case 2:
		if len(s) == 2 {
			if src.next(2) == 0 {
				return expr.Eye[T](s[0], s[1], src.next(5)-2)
			}
			return expr.Tri[T](s[0], s[1], src.next(5)-2)
		}
	}
	return expr.Full(T(src.next(5)), s...)
}

// fits reports whether an operand of shape s can stand where a subtree for
// dims is wanted: s is dims, or (unless full) broadcasts to it.
func fits(s, dims shape.Shape, full bool) bool {
	if full {
		return s.Equal(dims)
	}
	b, err := shape.Broadcast(s, dims)
	return err == nil && b.Equal(dims)
}

// ownShape returns a shape that broadcasts to dims: a suffix of it with some
// dimensions set to 1.
func ownShape(src *byteSource, dims shape.Shape) shape.Shape {
	keep := len(dims) - src.next(len(dims)+1)
	own := slices.Clone(dims[len(dims)-keep:])
	for d := range own {
		if src.next(4) == 0 {
			own[d] = 1
		}
	}
	return own
}

// view makes a view of one pool base with shape dims (see randomView).
func (sc *scene[T]) view(src *byteSource, dims shape.Shape, role string) *tensor.Tensor[T] {
	out := randomView(src, sc.pool[src.next(len(sc.pool))], dims)
	sc.desc = append(sc.desc, fmt.Sprintf("%s: shape %v strides %v offset %d", role, out.Shape(), out.Strides(), out.Offset()))
	return out
}

// randomView makes a view of base (1-D, poolLen elements) with shape dims:
// a 1-D slice with a step (possibly negative), viewed as a permutation of
// dims and permuted back.
func randomView[U tensor.Number](src *byteSource, base *tensor.Tensor[U], dims shape.Shape) *tensor.Tensor[U] {
	n, _ := dims.Size()
	step := []int{1, 1, 2, -1, -2, 3}[src.next(6)]
	span := max(n*abs(step), 1)
	start := src.next(poolLen - span + 1)
	var line *tensor.Tensor[U]
	if step > 0 {
		line = base.Slice(0, start, start+n*step, step)
	} else {
		hi, end := start+span-1, start+span-1+n*step
		if end < 0 {
			end = tensor.None // Python's -1 would mean the last element
		}
		line = base.Slice(0, hi, end, step)
	}
	perm := make([]int, len(dims))
	for i := range perm {
		perm[i] = i
	}
	for i := len(perm) - 1; i > 0; i-- {
		j := src.next(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	// Lay the elements out in the order perm gives, then permute back, so
	// that the view has shape dims and strides in a shuffled order.
	laid := make([]int, len(dims))
	for i, p := range perm {
		laid[i] = dims[p]
	}
	v, err := line.View(laid...)
	if err != nil {
		panic(fmt.Sprintf("view %v of %v: %v", laid, line.Shape(), err))
	}
	inverse := make([]int, len(perm))
	for i, p := range perm {
		inverse[p] = i
	}
	return v.Permute(inverse...)
}

// foreign makes Cast[T] of a view of a pool base's memory read as another
// element type of T's size (a float type's bits as a signed integer, an
// integer's as the other signedness), so that the destination may overlap
// an operand of another type; conversions from integers are defined for
// every value. It returns nil for element types without such a partner.
func (sc *scene[T]) foreign(src *byteSource, dims shape.Shape) expr.Exp[T] {
	base := sc.pool[src.next(len(sc.pool))]
	switch any(*new(T)).(type) {
	case float64, uint64:
		return foreignCast[T, int64](sc, src, base, dims)
	case float32, uint32:
		return foreignCast[T, int32](sc, src, base, dims)
	case int64:
		return foreignCast[T, uint64](sc, src, base, dims)
	case int32:
		return foreignCast[T, uint32](sc, src, base, dims)
	case int8:
		return foreignCast[T, uint8](sc, src, base, dims)
	case uint8:
		return foreignCast[T, int8](sc, src, base, dims)
	}
	return nil
}

// foreignCast wraps base's memory as S and casts a random view of it to T.
func foreignCast[T, S tensor.Number](sc *scene[T], src *byteSource, base *tensor.Tensor[T], dims shape.Shape) expr.Exp[T] {
	data := base.Storage()
	other, err := tensor.Wrap(unsafe.Slice((*S)(unsafe.Pointer(unsafe.SliceData(data))), len(data)), shape.Shape{poolLen})
	if err != nil {
		panic(err)
	}
	v := randomView(src, other, dims)
	sc.desc = append(sc.desc, fmt.Sprintf("%s leaf: shape %v strides %v offset %d", tensor.DTypeOf[S]().String(), v.Shape(), v.Strides(), v.Offset()))
	return expr.Cast[T](v)
}

// expected computes, with the oracle and before anything is written, what
// every pool base must hold after Assign(dst, tree): NumPy's result, as if
// the tree were evaluated in full before dst is written.
func (sc *scene[T]) expected() [][]T {
	dims := sc.dst.Shape()
	values := refEval(sc.tree, dims)
	out := make([][]T, len(sc.pool))
	dstMem := unsafe.SliceData(sc.dst.Storage())
	for b, base := range sc.pool {
		out[b] = slices.Collect(base.Values())
		if unsafe.SliceData(base.Storage()) != dstMem {
			continue // another buffer: unchanged
		}
		k := 0
		strides := sc.dst.Strides()
		forEachIndex(dims, func(idx []int) {
			off := sc.dst.Offset()
			for d, i := range idx {
				off += i * strides[d]
			}
			out[b][off] = values[k]
			k++
		})
	}
	return out
}

// sameNumber treats two NaNs as equal, so float results compare exactly
// otherwise.
func sameNumber[T tensor.Number](a, b T) bool { return a == b || (a != a && b != b) }

// checkScene runs Assign on a scene and compares every pool base with the
// oracle's.
func checkScene[T tensor.Number](t *testing.T, sc *scene[T]) {
	t.Helper()
	same := sameNumber[T]
	switch {
	case sc.rounding:
		same = closeEnough[T]
	case vmathApprox(sc.tree):
		same = vmathClose[T]
	}
	if refRefused(sc.tree) {
		checkRefused(t, sc.tree, sc.pool, func() error { return Assign(sc.dst, sc.tree) })
		return
	}
	want := sc.expected()
	if err := Assign(sc.dst, sc.tree); err != nil {
		t.Fatalf("Assign(%v): %v\n%v", sc.tree, err, sc.desc)
	}
	sc.compare(t, want, same, "fused")
	checkSceneProgram(t, sc, same)
}

// compare checks the pool against want, the oracle's values.
func (sc *scene[T]) compare(t *testing.T, want [][]T, same func(a, b T) bool, what string) {
	t.Helper()
	for i, base := range sc.pool {
		got := slices.Collect(base.Values())
		if slices.EqualFunc(want[i], got, same) {
			continue // cmp.Diff compares through reflection: only to report
		}
		if diff := cmp.Diff(want[i], got, cmp.Comparer(same)); diff != "" {
			t.Fatalf("tree %v, dtype %s\n%v\npool %d (-oracle +%s):\n%s", sc.tree, tensor.DTypeOf[T]().String(), sc.desc, i, what, diff)
		}
	}
}

// checkSceneProgram compiles the scene's Assign into a Program and runs it
// twice, each time over new values of the pool: each run must leave what
// the oracle gives for those values (or, where the new values make the
// tree one the oracle refuses, fail and write nothing).
func checkSceneProgram[T tensor.Number](t *testing.T, sc *scene[T], same func(a, b T) bool) {
	t.Helper()
	if refRefused(sc.tree) {
		// The Assign before wrote a negative exponent into an operand of
		// an integer power (dst overlaps it): Compile, which checks the
		// operands' values as Assign does, refuses it.
		checkRefused(t, sc.tree, sc.pool, func() error {
			prog, err := Compile(sc.dst, sc.tree)
			if err == nil {
				prog.Release()
			}
			return err
		})
		return
	}
	prog, err := Compile(sc.dst, sc.tree)
	if err != nil {
		t.Fatalf("Compile(%v): %v\n%v", sc.tree, err, sc.desc)
	}
	defer prog.Release()
	r := rand.New(rand.NewPCG(uint64(len(sc.desc)), 9))
	for range 2 {
		sc.refill(r)
		if refRefused(sc.tree) {
			checkRefused(t, sc.tree, sc.pool, prog.Run)
			continue
		}
		want := sc.expected()
		if err := prog.Run(); err != nil {
			t.Fatalf("Program.Run of %v: %v\n%v", sc.tree, err, sc.desc)
		}
		sc.compare(t, want, same, "program")
	}
}

// refill gives the pool new values drawn as newSceneWith draws them.
func (sc *scene[T]) refill(r *rand.Rand) {
	for _, base := range sc.pool {
		for i := range poolLen {
			v := randomValue[T](r)
			if sc.rounding && !isFinite(v) {
				v = 1
			}
			base.Set(v, i)
		}
	}
}

// checkRefused runs a call the oracle refuses (refRefused: an integer
// power with a negative exponent) and checks that it fails with an
// ArgumentError, leaving every pool base as it was.
func checkRefused[T tensor.Number](t *testing.T, tree any, pool []*tensor.Tensor[T], call func() error) {
	t.Helper()
	before := make([][]T, len(pool))
	for i, base := range pool {
		before[i] = slices.Collect(base.Values())
	}
	if err := call(); !errors.Is(err, shape.ErrInvalid) {
		t.Fatalf("%v: error %v, want an integer power's ArgumentError", tree, err)
	}
	for i, base := range pool {
		if diff := cmp.Diff(before[i], slices.Collect(base.Values()), cmp.Comparer(sameNumber[T])); diff != "" {
			t.Fatalf("%v: pool %d written by a call that failed (-before +after):\n%s", tree, i, diff)
		}
	}
}

// evaluatorConfigs are the block sizes and parallel thresholds the
// differential tests run under: the defaults, and tiny ones that split rows
// into several blocks and share even small tensors among goroutines.
var evaluatorConfigs = []struct {
	name             string
	block, threshold int
	procs            int
}{
	{"default", 1024, 1 << 19, 0},
	{"block3-tile2-parallel", 3, 1, 4},
	{"block8-tile3-parallel2", 8, 1, 2},
}

// withConfig runs fn with a block size, threshold and GOMAXPROCS, restoring
// them after. Tiny blocks come with tiny tiles (rows per tile: 2 for blocks
// under 4, else 3, and tiled blocks of 5 under 16, shorter than the other
// walks' blocks as by default), so that tiles cut rows of small test
// tensors too; so do the single-pass and streaming block lengths
// (cpu.PassBlock, cpu.StreamBlock), which keep their defaults otherwise.
func withConfig(block, threshold, procs int, fn func()) {
	oldBlock, oldThreshold, oldTile, oldTileBlock := cpu.BlockSize, cpu.ParallelThreshold, cpu.TileRows, cpu.TileBlock
	oldPass, oldStream, oldLane, oldBand := cpu.PassBlock, cpu.StreamBlock, cpu.LaneStreamBlock, cpu.BandBytes
	defer func() {
		cpu.PassBlock, cpu.StreamBlock, cpu.LaneStreamBlock, cpu.BandBytes = oldPass, oldStream, oldLane, oldBand
	}()
	cpu.BlockSize, cpu.ParallelThreshold = block, threshold
	if block < 16 {
		cpu.PassBlock, cpu.StreamBlock, cpu.LaneStreamBlock = block, block, block
		cpu.BandBytes = 8 * block // bands of a row or a few
	}
	switch {
	case block < 4:
		cpu.TileRows = 2
	case block < 16:
		cpu.TileRows, cpu.TileBlock = 3, 5
	}
	defer func() { cpu.TileRows, cpu.TileBlock = oldTile, oldTileBlock }()
	if procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	}
	defer func() { cpu.BlockSize, cpu.ParallelThreshold = oldBlock, oldThreshold }()
	fn()
}

func runRandomScenes[T tensor.Number](t *testing.T, count int) {
	runScenes[T](t, count, false)
}

func runScenes[T tensor.Number](t *testing.T, count int, rounding bool) {
	r := rand.New(rand.NewPCG(42, uint64(tensor.ItemSize[T]())))
	for _, cfg := range evaluatorConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
				for range count {
					data := make([]byte, 64)
					for i := range data {
						data[i] = byte(r.IntN(256))
					}
					checkScene(t, newSceneWith[T](&byteSource{data: data}, r.Uint64(), rounding))
				}
			})
		})
	}
}

// TestFusedMatchesReference compares the fused evaluator with the oracle on
// random trees: every op, several dtypes, broadcasting, views with steps
// and permutations, and destinations that overlap their operands.
func TestFusedMatchesReference(t *testing.T) {
	count := raceScaled(400)
	t.Run("float64", func(t *testing.T) { runRandomScenes[float64](t, count) })
	t.Run("float32", func(t *testing.T) { runRandomScenes[float32](t, count) })
	t.Run("int64", func(t *testing.T) { runRandomScenes[int64](t, count) })
	t.Run("int32", func(t *testing.T) { runRandomScenes[int32](t, count) })
	t.Run("int8", func(t *testing.T) { runRandomScenes[int8](t, count) })
	t.Run("uint8", func(t *testing.T) { runRandomScenes[uint8](t, count) })
}

// TestRoundingTreesMatchReference compares, within a tolerance, float trees
// whose results depend on the order of operations: sums, means, products and
// matrix products, under continuous elementwise ops.
func TestRoundingTreesMatchReference(t *testing.T) {
	count := raceScaled(300)
	t.Run("float64", func(t *testing.T) { runScenes[float64](t, count, true) })
	t.Run("float32", func(t *testing.T) { runScenes[float32](t, count, true) })
}

// FuzzAssign drives the same comparison from fuzz input: the first byte picks
// the dtype and the evaluator configuration, the rest the scene, which is
// checked twice: the second time over new tensors and values of the same
// structure (the plan cache's replay).
func FuzzAssign(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 2, 3, 3, 3, 1, 2, 5, 7, 11, 13, 1, 1, 1, 1})
	f.Add([]byte{2, 0, 4, 5, 5, 2, 1, 3, 0, 0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		cfg := evaluatorConfigs[int(data[0]/4)%len(evaluatorConfigs)]
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			// Twice: the second scene has the first's structure over new
			// tensors and values, so that it runs the first's cached plan.
			for seed := range uint64(2) {
				src := &byteSource{data: data[1:]}
				seed += uint64(len(data))
				switch data[0] % 4 {
				case 0:
					checkScene(t, newSceneWith[float64](src, seed, data[0]%8 >= 4))
				case 1:
					checkScene(t, newScene[float32](src, seed))
				case 2:
					checkScene(t, newScene[int64](src, seed))
				default:
					checkScene(t, newScene[uint8](src, seed))
				}
			}
		})
	})
}

func isFinite[T tensor.Number](v T) bool {
	f := float64(v)
	return !math.IsInf(f, 0) && !math.IsNaN(f)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
