package kernels

import (
	"fmt"
	"slices"
	"strings"
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
// or from memory (the last-level cache size made small), a pass that
// gathers an operand (flipped, or a diagonal), and a tiled walk.
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
		{"a flipped operand, in cache", lowered(t, dst, expr.Add(a.Flip(), b)), 1 << 30, *cpu.StreamBlockFor()},
		{"a diagonal", lowered(t, tensor.Zeros[float64](64), expr.Add(m.Diagonal(0, 0, 1), a.Slice(0, 0, 64, 1))), 1 << 30, *cpu.StreamBlockFor()},
		{"a broadcast row, no gather", lowered(t, dstM, expr.Add(m, a.Slice(0, 0, 64, 1))), 1 << 30, cpu.PassBlock},
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

// TestReductionKeepsItsBlockOverAGather checks that a reduction whose
// operand is gathered (a flipped matrix) keeps BlockSize, as every
// reduction does, so that its folding order does not depend on the ISA
// level, while the same operand in an elementwise pass streams in the
// level's stream blocks.
func TestReductionKeepsItsBlockOverAGather(t *testing.T) {
	m := tensor.Rand[float64](5, 64, 64)
	flipped := expr.Of(m.Flip(1)).Mul(m)
	for _, c := range []struct {
		name  string
		dst   *tensor.Tensor[float64]
		e     expr.Exp[float64]
		block int
	}{
		{"row sums", tensor.Zeros[float64](64), expr.Sum(flipped, expr.Axis(1)), cpu.BlockSize},
		{"elementwise", tensor.Zeros[float64](64, 64), flipped, *cpu.StreamBlockFor()},
	} {
		text, err := Explain(c.dst, c.e)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(text, "\nstep 2")
		if want := fmt.Sprintf("in blocks of up to %d,", c.block); !strings.Contains(first, want) {
			t.Errorf("%s: the first step does not say %q:\n%s", c.name, want, text)
		}
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
