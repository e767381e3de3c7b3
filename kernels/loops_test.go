package kernels

import (
	"testing"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// operandsFor makes the three operands of a loop test: vectors of n values,
// or one value, as the pattern mask says (bit i: operand i is a scalar).
func operandsFor[T tensor.Number](n, mask int, values []T) [3]value[T] {
	var args [3]value[T]
	for i := range args {
		if mask&(1<<i) != 0 {
			args[i].s = values[(3*i+1)%len(values)]
			continue
		}
		args[i].vec = make([]T, n)
		for k := range args[i].vec {
			args[i].vec[k] = values[(k*(i+2)+i)%len(values)]
		}
	}
	return args
}

// at reads operand a at element k.
func (a value[T]) at(k int) T {
	if a.vec == nil {
		return a.s
	}
	return a.vec[k]
}

// checkLoops runs every generated loop (each op, each operand pattern, an
// unrolled part and a remainder) and compares each element with ops.Apply.
func checkLoops[T tensor.Number](t *testing.T, values []T) {
	const n = 7 // one unrolled trip of four and a remainder of three
	for _, op := range ops.All() {
		arity := op.Arity()
		for mask := 0; mask < 1<<arity-1; mask++ {
			args := operandsFor(n, mask, values)
			d := make([]T, n)
			compute(op, patternCodes[arity][mask], d, &args)
			for k := range d {
				want := ops.Apply(op, args[0].at(k), args[1].at(k), args[2].at(k))
				if !sameNumber(d[k], want) {
					t.Fatalf("%s %s mask %b element %d: loop %v, Apply %v", tensor.DType[T](), op, mask, k, d[k], want)
				}
			}
		}
	}
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
					if !sameNumber(d[k], want) {
						t.Fatalf("%s fused %s,%s mask %b element %d: loop %v, two ops %v", tensor.DType[T](), op1, op2, mask, k, d[k], want)
					}
				}
			}
		}
	}
}

func TestGeneratedLoops(t *testing.T) {
	t.Run("float64", func(t *testing.T) { checkLoops(t, []float64{-2.5, 0, 1, 3, 0.5, -7, 4}) })
	t.Run("float32", func(t *testing.T) { checkLoops(t, []float32{-2.5, 0, 1, 3, 0.5, -7, 4}) })
	t.Run("int64", func(t *testing.T) { checkLoops(t, []int64{-7, 0, 2, 3, -2, 5, 1}) })
	t.Run("uint8", func(t *testing.T) { checkLoops(t, []uint8{7, 0, 2, 3, 250, 5, 1}) })
}

func TestLoopPanics(t *testing.T) {
	var args [3]value[float64]
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
