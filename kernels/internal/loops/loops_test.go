package loops

import (
	"math"
	"testing"

	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/isa/isatest"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/vmath"
	"github.com/laze-go/laze/tensor"
)

// operandsFor makes the three operands of a loop test: vectors of n values,
// or one value, as the pattern mask says (bit i: operand i is a scalar).
func operandsFor[T tensor.Number](n, mask int, values []T) [3]Value[T] {
	var args [3]Value[T]
	for i := range args {
		if mask&(1<<i) != 0 {
			args[i].S = values[(3*i+1)%len(values)]
			continue
		}
		args[i].Vec = make([]T, n)
		for k := range args[i].Vec {
			args[i].Vec[k] = values[(k*(i+2)+i)%len(values)]
		}
	}
	return args
}

// at reads operand a at element k.
func (a Value[T]) at(k int) T {
	if a.Vec == nil {
		return a.S
	}
	return a.Vec[k]
}

// loopLengths are the block lengths the loop tests run: a remainder alone,
// one unrolled trip of four and a remainder of three, and lengths that give
// every SIMD width (4, 8 and 16 lanes) whole vectors and a remainder.
var loopLengths = []int{3, 7, 37}

// checkLoops runs every generated loop (each op, each operand pattern, each
// vector width of the build, whole vectors, unrolled trips and remainders)
// and compares each element with ops.Apply bit for bit (any NaN for NaN):
// the lane loops and kernels/internal/vmath's functions give the scalar loops'
// results exactly.
// It runs at every ISA level the CPU has (isa.Supported), so the lane
// loops (lanes_amd64.go) and the scalar loops are both checked.
func checkLoops[T tensor.Number](t *testing.T, values []T) {
	for _, level := range isa.Supported() {
		isatest.Use(t, level)
		for _, width := range testWidths() {
			setSIMDWidth(t, width)
			for _, n := range loopLengths {
				checkSingleLoops(t, width, n, values)
				checkFusedLoops(t, width, n, values)
				checkTripleLoops(t, width, n, values)
			}
		}
	}
}

func checkSingleLoops[T tensor.Number](t *testing.T, width, n int, values []T) {
	t.Helper()
	for _, op := range ops.All() {
		arity := op.Arity()
		for mask := 0; mask < 1<<arity-1; mask++ {
			args := operandsFor(n, mask, values)
			d := make([]T, n)
			compute(op, patternCodes[arity][mask], d, &args)
			for k := range d {
				want := ops.Apply(op, args[0].at(k), args[1].at(k), args[2].at(k))
				if !sameBits(d[k], want) && !((width != 0 || vmath.Width() > 1) && approxVMath[T](op) && withinULP(d[k], want, vmathMaxULP)) {
					t.Fatalf("%s %s mask %b width %d n %d element %d (%v, %v, %v): loop %v, Apply %v", tensor.DTypeOf[T]().String(), op, mask, width, n, k,
						args[0].at(k), args[1].at(k), args[2].at(k), d[k], want)
				}
			}
		}
	}
}

func checkFusedLoops[T tensor.Number](t *testing.T, width, n int, values []T) {
	t.Helper()
	for _, op1 := range ops.All() {
		for _, op2 := range ops.All() {
			pair := fusedPair(op1, op2)
			if pair == 0 {
				continue
			}
			for mask := 0; mask < 7; mask++ {
				args := operandsFor(n, mask, values)
				d := make([]T, n)
				computeFused(pair, patternCodes[3][mask], d, &args)
				for k := range d {
					inner := ops.Apply(op1, args[0].at(k), args[1].at(k), 0)
					want := ops.Apply(op2, inner, args[2].at(k), 0)
					if !sameBits(d[k], want) {
						t.Fatalf("%s fused %s,%s mask %b width %d n %d element %d: loop %v, two ops %v", tensor.DTypeOf[T]().String(), op1, op2, mask, width, n, k, d[k], want)
					}
				}
			}
		}
	}
}

// checkTripleLoops checks every fused triple's loop against its three ops
// applied one by one, over four vector operands.
func checkTripleLoops[T tensor.Number](t *testing.T, width, n int, values []T) {
	t.Helper()
	args := operandsFor(n, 0, values)
	last := operandsFor(n, 0, values[1:])[2].Vec
	found := 0
	for _, op1 := range ops.All() {
		for _, op2 := range ops.All() {
			for _, op3 := range ops.All() {
				triple := fusedTriple(op1, op2, op3)
				if triple == 0 {
					continue
				}
				found++
				d := make([]T, n)
				computeTriple(triple, d, args[0].Vec, args[1].Vec, args[2].Vec, last)
				for k := range d {
					want := ops.Apply(op1, args[0].Vec[k], args[1].Vec[k], 0)
					want = ops.Apply(op2, want, args[2].Vec[k], 0)
					want = ops.Apply(op3, want, last[k], 0)
					if !sameBits(d[k], want) {
						t.Fatalf("%s fused %s,%s,%s width %d n %d element %d: loop %v, three ops %v", tensor.DTypeOf[T]().String(), op1, op2, op3, width, n, k, d[k], want)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no fused triple")
	}
}

// vmathMaxULP is kernels/internal/vmath's accuracy rule for the functions it
// computes with kernels of their own rather than the references' algorithms
// (the float32 polynomials, most float64 functions at the AVX-512 level): within 4 ulp
// of the scalar result, NaN, ±Inf and ±0 exact.
const vmathMaxULP = 4

// approxVMath reports whether vmath computes op over T within its 4-ulp
// rule rather than bit for bit, where it runs (ApproxFloat32 for float32,
// ApproxFloat64 for float64).
func approxVMath[T tensor.Number](op ops.Op) bool {
	switch any(T(0)).(type) {
	case float32:
		return ApproxFloat32(op)
	case float64:
		return ApproxFloat64(op)
	}
	return false
}

// withinULP reports whether the float32 or float64 a is within n units in
// the last place of b, both finite, non-zero and of the same sign (else they
// must be the same number).
func withinULP[T tensor.Number](a, b T, n uint64) bool {
	var u, v uint64
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		u, v = uint64(math.Float32bits(x)), uint64(math.Float32bits(y))
	case float64:
		u, v = math.Float64bits(x), math.Float64bits(any(b).(float64))
	default:
		return false
	}
	x, y := float64(a), float64(b)
	if x == 0 || y == 0 || x != x || y != y || math.IsInf(x, 0) || math.IsInf(y, 0) || math.Signbit(x) != math.Signbit(y) {
		return false
	}
	return max(u, v)-min(u, v) <= n
}

// sameBits reports whether a and b are the same number: equal bits for
// floats (so -0 and +0 differ), any NaN matching any NaN.
func sameBits[T tensor.Number](a, b T) bool {
	if !tensor.IsFloat[T]() {
		return a == b
	}
	if a != a || b != b {
		return a != a && b != b
	}
	return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b))
}

// setSIMDWidth makes the lane loops use width for the rest of the test.
func setSIMDWidth(t *testing.T, width int) {
	old := simdWidth
	simdWidth = width
	t.Cleanup(func() { simdWidth = old })
}

// testWidths are the vector widths this build and CPU can run, the scalar
// loops (0) included.
func testWidths() []int {
	widths := []int{0}
	for _, w := range []int{256, 512} {
		if w <= detectSIMDWidth() {
			widths = append(widths, w)
		}
	}
	return widths
}

// specialFloats are the values every float loop test includes.
var specialFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 5e-324, -2.5e-310, math.MaxFloat64, 1e300}

func TestGeneratedLoops(t *testing.T) {
	floats := append([]float64{-2.5, 0, 1, 3, 0.5, -7, 4, 2, -1, 0.25, 100, -0.75, 9, 1.5, -0.5, 4503599627370497}, specialFloats...)
	float32s := make([]float32, len(floats))
	for i, v := range floats {
		float32s[i] = float32(v)
	}
	t.Run("float64", func(t *testing.T) { checkLoops(t, floats) })
	t.Run("float32", func(t *testing.T) { checkLoops(t, float32s) })
	t.Run("int64", func(t *testing.T) { checkLoops(t, []int64{-7, 0, 2, 3, -2, 5, 1}) })
	t.Run("uint8", func(t *testing.T) { checkLoops(t, []uint8{7, 0, 2, 3, 250, 5, 1}) })
}

// TestSIMDBuild checks that the build runs the lane loops it is meant to:
// the SIMD build on this CPU has a width, the scalar build none.
func TestSIMDBuild(t *testing.T) {
	if !simdBuild {
		if simdWidth != 0 {
			t.Errorf("scalar build: simdWidth = %d, want 0", simdWidth)
		}
		t.Skip("scalar build (GOEXPERIMENT=simd not set): no lane loops to check")
	}
	if simdWidth != detectSIMDWidth() {
		t.Errorf("simdWidth = %d, the CPU gives %d", simdWidth, detectSIMDWidth())
	}
	d, x, y := make([]float64, 16), make([]float64, 16), make([]float64, 16)
	args := [3]Value[float64]{{Vec: x}, {Vec: y}}
	if got := computeSIMD(ops.Add, patVV, d, &args); got != (simdWidth != 0) {
		t.Errorf("computeSIMD(add) = %v with width %d", got, simdWidth)
	}
	if computeSIMD(ops.Mod, patVV, d, &args) {
		t.Error("computeSIMD(mod) handled an op with no lane definition")
	}
	ints := [3]Value[int64]{{Vec: make([]int64, 16)}, {Vec: make([]int64, 16)}}
	if computeSIMD(ops.Add, patVV, make([]int64, 16), &ints) {
		t.Error("computeSIMD handled int64, which has no lane loops")
	}
}

func TestLoopPanics(t *testing.T) {
	var args [3]Value[float64]
	for _, tt := range []struct {
		name string
		fn   func()
	}{
		{"unknown pattern", func() { compute(ops.Add, 255, nil, &args) }},
		{"unknown fused pattern", func() { computeFused(1, 255, nil, &args) }},
		{"op of another arity", func() { loopV[float64](ops.Add, nil, nil) }},
		{"unknown fused pair", func() { fusedVVV[float64](200, nil, nil, nil, nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.fn()
		})
	}
}
