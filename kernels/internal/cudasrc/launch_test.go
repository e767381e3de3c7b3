package cudasrc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/internal/ops"
)

// TestVariantAndLaunch checks the launch policy on geometries that each
// decide one rule of docs/design.md's tables ("Variants, vectors and the
// grid", "Reductions on a device"): the variant bits, the strategy a
// reduction takes, and the launch shape.
func TestVariantAndLaunch(t *testing.T) {
	contiguous := func() [][]int { return [][]int{{1}, {1}} }
	tests := []struct {
		name                   string
		g                      Geometry
		wide, vec, tiled       bool
		strategy               uint8
		threads                int
		blocks, parts          int64
		specRed, specLastFolds bool
	}{
		{name: "flat float64: vectors of 2", g: Geometry{Shape: []int{1000}, Strides: contiguous(), Aligned: true, ItemSize: 8},
			vec: true, threads: 256, blocks: 2, parts: 1},
		{name: "flat, an operand misaligned: no vectors", g: Geometry{Shape: []int{1000}, Strides: contiguous(), Aligned: false, ItemSize: 8},
			threads: 256, blocks: 4, parts: 1},
		{name: "flat, a broadcast operand: vectors", g: Geometry{Shape: []int{1000}, Strides: [][]int{{1}, {0}}, Aligned: true, ItemSize: 4},
			vec: true, threads: 256, blocks: 1, parts: 1},
		{name: "strided: no vectors", g: Geometry{Shape: []int{1000}, Strides: [][]int{{1}, {2}}, Aligned: true, ItemSize: 8},
			threads: 256, blocks: 4, parts: 1},
		{name: "span past 2^30: wide indices", g: Geometry{Shape: []int{4, 1 << 29}, Strides: [][]int{{1 << 29, 1}, {1, 4}}, Aligned: true, ItemSize: 4},
			wide: true, threads: 256, blocks: 1 << 23, parts: 1},
		{name: "a transposed operand: tiled", g: Geometry{Shape: []int{64, 64}, Strides: [][]int{{64, 1}, {1, 64}}, Aligned: true, ItemSize: 8},
			tiled: true, threads: 256, blocks: 4, parts: 1},
		{name: "transposed but short: not tiled", g: Geometry{Shape: []int{8, 64}, Strides: [][]int{{64, 1}, {1, 8}}, Aligned: true, ItemSize: 8},
			threads: 256, blocks: 2, parts: 1},
		{name: "few long rows: split", g: Geometry{Shape: []int{4, 1 << 20}, Strides: [][]int{{1, 0}, {1 << 20, 1}}, ItemSize: 8, Reduce: true},
			strategy: RedSplit, threads: 256, blocks: 4 * 128, parts: 128, specRed: true, specLastFolds: true},
		{name: "many short rows: a warp each", g: Geometry{Shape: []int{4096, 100}, Strides: [][]int{{1, 0}, {100, 1}}, ItemSize: 8, Reduce: true},
			strategy: RedWarp, threads: 256, blocks: 4096 / 8, parts: 1, specRed: true, specLastFolds: true},
		{name: "many long rows: a block each", g: Geometry{Shape: []int{4096, 1000}, Strides: [][]int{{1, 0}, {1000, 1}}, ItemSize: 8, Reduce: true},
			strategy: RedBlock, threads: ReduceThreads, blocks: 4096, parts: 1, specRed: true, specLastFolds: true},
		{name: "columns, few results: split", g: Geometry{Shape: []int{10000, 64}, Strides: [][]int{{0, 1}, {64, 1}}, ItemSize: 8, Reduce: true},
			strategy: RedSplit, threads: 256, blocks: (64*313 + 255) / 256, parts: 313, specRed: true},
		{name: "columns, many results: a thread each", g: Geometry{Shape: []int{4, 1 << 20}, Strides: [][]int{{0, 1}, {1 << 20, 1}}, ItemSize: 8, Reduce: true},
			strategy: RedColumn, threads: 256, blocks: 1 << 12, parts: 1, specRed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Variant(tt.g)
			s := &Spec{Rank: len(tt.g.Shape)}
			if tt.specRed {
				s.Red = &redSum
				s.Reduced = make([]bool, s.Rank)
				s.Reduced[s.Rank-1] = tt.specLastFolds
				s.Reduced[0] = !tt.specLastFolds
			}
			s.SetVariant(v, tt.g)
			threads, blocks, parts := LaunchShape(s, tt.g)
			type decision struct {
				Wide, Vec, Tiled bool
				Strategy         uint8
				Threads          int
				Blocks, Parts    int64
			}
			got := decision{s.Wide, s.Vec > 0, s.Tiled != 0, s.Strategy, threads, blocks, parts}
			want := decision{tt.wide, tt.vec, tt.tiled, tt.strategy, tt.threads, tt.blocks, tt.parts}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

var redSum = ops.Sum.Def()
