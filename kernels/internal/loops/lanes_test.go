//go:build amd64

package loops

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/isa/isatest"
	"github.com/laze-go/laze/internal/ops"
)

// TestLanesTakeTheBlocks checks that the lane loops compute exactly the
// whole vectors of a block at the levels that have them (AVX2 and above)
// and nothing at the generic level, for an op, a fused pair and a fused
// triple, float32 and float64, and that a block through them allocates
// nothing (the broadcast scalars and the operand addresses stay on the
// stack). checkLoops (TestGeneratedLoops) checks their results.
func TestLanesTakeTheBlocks(t *testing.T) {
	for _, level := range isa.Supported() {
		t.Run(level.String(), func(t *testing.T) {
			isatest.Use(t, level)
			on := level == isa.AVX2 || level == isa.AVX512
			lanesTakeTheBlocks[float64](t, on, 4)
			lanesTakeTheBlocks[float32](t, on, 8)
		})
	}
}

func lanesTakeTheBlocks[T float32 | float64](t *testing.T, on bool, lanes int) {
	const n = 37
	vec := func() []T { return make([]T, n) }
	d := vec()
	want := func(whole int) int {
		if !on {
			return 0
		}
		return whole
	}
	args := [3]Value[T]{{Vec: vec()}, {S: 2}, {Vec: vec()}}
	if got := computeLanes(laneOp, int(ops.Add), patVS, d, &args, nil); got != want(n/lanes*lanes) {
		t.Errorf("add: %d elements through the lanes; want %d", got, want(n/lanes*lanes))
	}
	if got := computeLanes(laneOp, int(ops.Add), patVS, d[:lanes-1], &args, nil); got != 0 {
		t.Errorf("add over %d elements: %d through the lanes; want 0", lanes-1, got)
	}
	if got := computeLanes(laneOp, int(ops.Mod), patVS, d, &args, nil); got != 0 {
		t.Errorf("mod, which has no lane definition: %d elements through the lanes", got)
	}
	pair := fusedPair(ops.Mul, ops.Add)
	if got := computeLanes(lanePair, int(pair), patVSV, d, &args, nil); got != want(n/lanes*lanes) {
		t.Errorf("fused mul, add: %d elements through the lanes", got)
	}
	all := [3]Value[T]{{Vec: vec()}, {Vec: vec()}, {Vec: vec()}}
	if got := computeLanes(laneTriple, int(fusedTriple(ops.Mul, ops.Add, ops.Sub)), 0, d, &all, vec()); got != want(n/lanes*lanes) {
		t.Errorf("fused triple: %d elements through the lanes", got)
	}
	three := [3]Value[T]{args[0], args[1], args[2]}
	if allocs := testing.AllocsPerRun(20, func() { compute(ops.Add, patVS, d, &three) }); allocs != 0 {
		t.Errorf("a block of add allocates %v times", allocs)
	}
}

// TestLaneFold checks the lane loops' folds against the scalar fold, for
// lengths around the vector and the steps of four and eight vectors
// (the sums keep eight accumulators, max and min four): maximum and minimum
// exactly, or left to the scalar fold (NaN, a zero result); sums within a
// few ulp of the length (another order of the same additions).
func TestLaneFold(t *testing.T) {
	isatest.Use(t, isa.Supported()[len(isa.Supported())-1])
	laneFoldMatches[float64](t)
	laneFoldMatches[float32](t)
}

func laneFoldMatches[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	specials := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, n := range []int{1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 127, 128, 200, 255, 1000} {
		for trial := range 40 {
			v := make([]T, n)
			for i := range v {
				v[i] = T(r.NormFloat64() * 10)
				if trial%4 == 1 && r.IntN(8) == 0 {
					v[i] = T(specials[r.IntN(len(specials))])
				}
				if trial%4 == 2 {
					v[i] = -T(math.Abs(float64(v[i]))) // all negative: a zero would be the max
				}
			}
			if trial%4 == 2 {
				for range 3 { // zeros of both signs: the max's sign is the last one's
					v[r.IntN(n)] = T(specials[r.IntN(2)])
				}
			}
			for _, op := range []ops.Op{ops.Maximum, ops.Minimum, ops.Add} {
				want := v[0]
				for _, x := range v[1:] {
					want = Combine(op, want, x)
				}
				got, ok := laneFold(op, v)
				if !ok {
					if n >= laneBytes/int(unsafe.Sizeof(T(0))) && op == ops.Add {
						t.Fatalf("%T sum of %d: not through the lanes", v, n)
					}
					continue
				}
				if op != ops.Add {
					if !sameBits(got, want) {
						t.Fatalf("%T %v of %v: lanes %v, scalar fold %v", v, op, v, got, want)
					}
					continue
				}
				var abs float64
				for _, x := range v {
					abs += math.Abs(float64(x))
				}
				eps := math.Pow(2, -52)
				if _, ok := any(got).(float32); ok {
					eps = math.Pow(2, -23)
				}
				if d := math.Abs(float64(got) - float64(want)); !(d <= float64(n)*eps*abs) && !(got != got && want != want) && got != want {
					t.Fatalf("%T sum of %v: lanes %v, scalar %v", v, v, got, want)
				}
			}
		}
	}
}
