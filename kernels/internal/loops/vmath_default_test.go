//go:build !(goexperiment.simd && amd64)

package loops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/vmath"
	"github.com/laze-go/laze/tensor"
)

// TestScalarBuildVMath checks the scalar build's use of kernels/internal/vmath at
// every ISA level this CPU runs: a block of each op vmath computes, in
// each operand pattern, is handed to the vector kernels exactly where the
// level has them (vmath.Width() > 1), and the result is bit-identical to
// the scalar loop's, float32 (through the float64 kernels) and float64
// alike, over values that reach the kernels' special cases (zeros,
// subnormals, infinities, NaN, large arguments).
func TestScalarBuildVMath(t *testing.T) {
	for _, level := range isa.Supported() {
		t.Run(level.String(), func(t *testing.T) {
			prev, err := isa.Use(level)
			if err != nil {
				t.Fatal(err)
			}
			defer isa.Use(prev)
			scalarBuildVMath[float64](t)
			scalarBuildVMath[float32](t)
		})
	}
}

func scalarBuildVMath[T float32 | float64](t *testing.T) {
	const n = 1000 // many vectors and a tail
	r := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, 1e-40, -1e-40, math.Inf(1), math.Inf(-1), math.NaN(), 700, -700, 88.5, -87.5, 1e6, -1e6, 0.5, 2, -3}
	values := func() []T {
		v := make([]T, n)
		for i := range v {
			if i%7 == 0 {
				v[i] = T(special[i/7%len(special)])
			} else {
				v[i] = T((r.Float64() - 0.5) * 40)
			}
		}
		return v
	}
	x, y := values(), values()
	vectors := vmath.Width() > 1
	for _, op := range ops.All() {
		if op.Def().VMath == "" {
			continue
		}
		pats := map[uint8][3]Value[T]{patV: {{Vec: x}}}
		if op.Arity() == 2 {
			pats = map[uint8][3]Value[T]{patVV: {{Vec: x}, {Vec: y}}, patVS: {{Vec: x}, {S: 1.5}}, patSV: {{S: 2.5}, {Vec: y}}}
		}
		for pat, args := range pats {
			want := make([]T, n)
			switch pat {
			case patV:
				loopV(op, want, x)
			case patVV:
				loopVV(op, want, x, y)
			case patVS:
				loopVS(op, want, x, args[1].S)
			case patSV:
				loopSV(op, want, args[0].S, y)
			}
			got := make([]T, n)
			if handled := computeSIMD(op, pat, got, &args); handled != vectors {
				t.Fatalf("%s %v, pattern %d: handed to vmath %t; want %t (vmath.Width() = %d)", tensor.DTypeOf[T]().String(), op, pat, handled, vectors, vmath.Width())
			}
			if !vectors {
				continue
			}
			if !raceEnabled {
				if allocs := testing.AllocsPerRun(10, func() { computeSIMD(op, pat, got, &args) }); allocs != 0 {
					t.Errorf("%s %v, pattern %d: %v allocations per block", tensor.DTypeOf[T]().String(), op, pat, allocs)
				}
			}
			bits := func(v T) uint64 { return math.Float64bits(float64(v)) }
			same := func(a, b T) bool {
				return bits(a) == bits(b) || (a != a && b != b) || (approxVMath[T](op) && withinULP(a, b, vmathMaxULP))
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(same)); diff != "" {
				t.Errorf("%s %v, pattern %d: vmath vs the scalar loop (-scalar +vmath):\n%s", tensor.DTypeOf[T]().String(), op, pat, diff)
			}
		}
	}
}
