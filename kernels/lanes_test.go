//go:build amd64

package kernels

import (
	"testing"

	"github.com/laze-go/laze/internal/isa"
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
			useLevel(t, level)
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
	args := [4]value[T]{{vec: vec()}, {s: 2}, {vec: vec()}, {vec: vec()}}
	if got := computeLanes(laneOp, int(ops.Add), patVS, d, &args); got != want(n/lanes*lanes) {
		t.Errorf("add: %d elements through the lanes; want %d", got, want(n/lanes*lanes))
	}
	if got := computeLanes(laneOp, int(ops.Add), patVS, d[:lanes-1], &args); got != 0 {
		t.Errorf("add over %d elements: %d through the lanes; want 0", lanes-1, got)
	}
	if got := computeLanes(laneOp, int(ops.Mod), patVS, d, &args); got != 0 {
		t.Errorf("mod, which has no lane definition: %d elements through the lanes", got)
	}
	pair := fusedPair(ops.Mul, ops.Add)
	if got := computeLanes(lanePair, int(pair), patVSV, d, &args); got != want(n/lanes*lanes) {
		t.Errorf("fused mul, add: %d elements through the lanes", got)
	}
	all := [4]value[T]{{vec: vec()}, {vec: vec()}, {vec: vec()}, {vec: vec()}}
	if got := computeLanes(laneTriple, int(fusedTriple(ops.Mul, ops.Add, ops.Sub)), 0, d, &all); got != want(n/lanes*lanes) {
		t.Errorf("fused triple: %d elements through the lanes", got)
	}
	three := [3]value[T]{args[0], args[1], args[2]}
	if allocs := testing.AllocsPerRun(20, func() { compute(ops.Add, patVS, d, &three) }); allocs != 0 {
		t.Errorf("a block of add allocates %v times", allocs)
	}
}
