package kernels

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/tensor"
)

// lowered lowers dst = e and returns the program.
func lowered[T tensor.Number](t *testing.T, dst *tensor.Tensor[T], e expr.Exp[T]) *program[T] {
	t.Helper()
	if err := checkAssign("test", dst, e); err != nil {
		t.Fatal(err)
	}
	ev := newEvaluation("test")
	t.Cleanup(ev.release)
	p, err := lower(ev, assignTo(dst), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBlockLengthRules checks which block length walkShape gives each kind
// of program: one fused pass with no register, several passes from cache
// or from memory (the last-level cache size made small), and a tiled walk.
func TestBlockLengthRules(t *testing.T) {
	oldCache := cpu.LastLevelCache
	defer func() { cpu.LastLevelCache = oldCache }()
	const n = 4096
	a, b, c, e := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n), tensor.Rand[float64](4, n)
	m := tensor.Rand[float64](5, 64, 64)
	dst, dstM := tensor.Zeros[float64](n), tensor.Zeros[float64](64, 64)
	poly4 := expr.Of(a).Mul(b).Add(c).Sub(e)
	twoPass := expr.Of(a).Mul(b).Add(c).Mul(expr.Sub(e, a))
	cases := []struct {
		name  string
		p     *program[float64]
		cache int
		want  int
	}{
		{"one fused pass", lowered(t, dst, poly4), 1 << 30, cpu.PassBlock},
		{"one fused pass, operands beyond the cache", lowered(t, dst, poly4), 1, cpu.PassBlock},
		{"passes in cache", lowered(t, dst, twoPass), 5 * 8 * n, cpu.BlockSize},
		{"passes beyond the cache", lowered(t, dst, twoPass), 5*8*n - 1, *cpu.StreamBlockFor()},
		{"tiled", lowered(t, dstM, expr.Add(m.T(), m)), 1, min(cpu.TileBlock, cpu.BlockSize)},
	}
	for _, tc := range cases {
		cpu.LastLevelCache = func() int { return tc.cache }
		if got := cpu.WalkOf(&tc.p.Pass).Block; got != tc.want {
			t.Errorf("%s: block %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := lowered(t, dst, poly4); len(got.Code) != 1 || got.Code[0].Triple == 0 {
		t.Errorf("a*b + c - e lowers to %d instructions (triple %d), want one fused triple", len(got.Code), got.Code[0].Triple)
	}
}

// TestFusedTripleValues checks fused triples' values against the same
// arithmetic written out, under the default block lengths and tiny blocks,
// including a triple whose last operand is the destination itself, read in
// place while it is written.
func TestFusedTripleValues(t *testing.T) {
	const n = 1000
	a, b, c := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n)
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			dst := tensor.Rand[float64](4, n)
			old := slices.Clone(dst.Data())
			e := expr.Of(a).Sub(b).Mul(c).Add(dst) // (a - b) * c + dst
			if p := lowered(t, dst, e); len(p.Code) != 1 || p.Code[0].Triple == 0 {
				t.Fatalf("%s: (a - b) * c + dst lowers to %d instructions, want one fused triple", cfg.name, len(p.Code))
			}
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n)
			for i := range want {
				want[i] = float64((a.Data()[i]-b.Data()[i])*c.Data()[i]) + old[i] // rounded before the add, as the loop does
			}
			if diff := cmp.Diff(want, dst.Data()); diff != "" {
				t.Errorf("%s: (a - b) * c + dst (-want +got):\n%s", cfg.name, diff)
			}
		})
	}
}
