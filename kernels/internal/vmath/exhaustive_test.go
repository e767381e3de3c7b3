package vmath

import (
	"math"
	"os"
	"testing"

	"github.com/laze-go/laze/internal/isa"
)

// TestExhaustive32 runs the float32 functions at every level on all 2^32
// inputs and reports the largest distance from the references, in ulp. It
// takes minutes, so it runs only with LAZE_VMATH_EXHAUSTIVE=1 (TestSweep32
// runs a stride of the same range every time).
func TestExhaustive32(t *testing.T) {
	if os.Getenv("LAZE_VMATH_EXHAUSTIVE") != "1" {
		t.Skip("set LAZE_VMATH_EXHAUSTIVE=1 to check all 2^32 float32 inputs")
	}
	const chunk = 1 << 16
	xs := make([]float32, chunk)
	got := make([]float32, chunk)
	for _, fn := range unaryFuncs {
		for _, l := range levels() {
			if l == isa.Generic {
				continue
			}
			t.Run(fn.name+"/"+l.String(), func(t *testing.T) {
				var worst uint64
				var worstX float32
				bad := 0
				var tol uint64
				withLevel(t, l, func() {
					tol = tolerance32(fn)
					for base := uint64(0); base < 1<<32; base += chunk {
						for i := range xs {
							xs[i] = math.Float32frombits(uint32(base) + uint32(i))
						}
						fn.f32(got, xs)
						for i, x := range xs {
							u := ulp32(got[i], fn.ref32(x))
							if u > tol {
								if bad++; bad < 20 {
									t.Errorf("%s(%v [%#x]) = %v, want %v", fn.name, x, math.Float32bits(x), got[i], fn.ref32(x))
								}
							}
							if u > worst {
								worst, worstX = u, x
							}
						}
					}
				})
				t.Logf("%s float32 level %v: all 2^32 inputs, max %d ulp (at %v [%#x])", fn.name, l, worst, worstX, math.Float32bits(worstX))
			})
		}
	}
}
