package gemm

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/internal/isa"
)

// fused is the reference for the SIMD micro-kernels that promise it (NEON):
// each element of the tile is a chain of multiply-adds rounded once each, in
// k order from zero, then added to c (when acc) with one rounding, computed
// exactly with big.Float at T's precision.
func fused[T Float](k, mr, nr int, a, b, c []T, ldc int, acc bool) []T {
	prec := uint(53)
	var z T
	if _, ok := any(z).(float32); ok {
		prec = 24
	}
	out := make([]T, mr*nr)
	for i := range mr {
		for j := range nr {
			s := new(big.Float).SetPrec(prec)
			for p := range k {
				prod := new(big.Float).SetPrec(2*prec).Mul(big.NewFloat(float64(a[p*mr+i])), big.NewFloat(float64(b[p*nr+j])))
				s.Add(s, prod) // rounded once, to prec
			}
			if acc {
				s.Add(s, big.NewFloat(float64(c[i*ldc+j])))
			}
			f, _ := s.Float64()
			out[i*nr+j] = T(f)
		}
	}
	return out
}

// TestKernels calls each level's micro-kernels directly: k from 0 to past
// two unrolled trips, c = a·b and c += a·b, C rows with and without padding
// (which must stay untouched). The NEON kernels must equal the fused
// reference exactly; the others (and the portable kernels, at Generic) must
// be within rounding of it.
func TestKernels(t *testing.T) {
	atEveryLevel(t, func(t *testing.T) {
		l := isa.Selected()
		r := kernelsAt(l)
		t.Run("float64", func(t *testing.T) { testKernel(t, r.k64, l == isa.NEON) })
		t.Run("float32", func(t *testing.T) { testKernel(t, r.k32, l == isa.NEON) })
	})
}

func testKernel[T Float](t *testing.T, kern kernel[T], exact bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	mr, nr := kern.mr, kern.nr
	for _, k := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 33} {
		for _, acc := range []bool{false, true} {
			for _, pad := range []int{0, 5} {
				t.Run(fmt.Sprintf("k=%d/acc=%v/pad=%d", k, acc, pad), func(t *testing.T) {
					ldc := nr + pad
					a, b := make([]T, k*mr), make([]T, k*nr)
					for i := range a {
						a[i] = T(rng.Float64()*2 - 1)
					}
					for i := range b {
						b[i] = T(rng.Float64()*2 - 1)
					}
					// One row of C more than the tile, so that a store past
					// the tile shows; padding and that row hold NaN.
					c := make([]T, (mr+1)*ldc)
					for i := range c {
						c[i] = T(math.NaN())
					}
					for i := range mr {
						for j := range nr {
							c[i*ldc+j] = T(rng.Float64()*2 - 1)
						}
					}
					want := fused(k, mr, nr, a, b, c, ldc, acc)
					pa, pb := unsafe.Pointer(nil), unsafe.Pointer(nil)
					if k > 0 {
						pa, pb = unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0])
					}
					kern.fn(k, pa, pb, unsafe.Pointer(&c[0]), ldc, acc)
					got := make([]T, mr*nr)
					for i := range mr {
						copy(got[i*nr:(i+1)*nr], c[i*ldc:i*ldc+nr])
					}
					opt := cmpopts.EquateApprox(0, 4*float64(k+1)*eps[T]())
					if exact {
						opt = cmpopts.EquateNaNs() // no NaN expected: exact comparison
					}
					if diff := cmp.Diff(want, got, opt); diff != "" {
						t.Errorf("tile (-want +got):\n%s", diff)
					}
					for i := range c {
						if r, j := i/ldc, i%ldc; (r >= mr || j >= nr) && c[i] == c[i] {
							t.Fatalf("C[%d,%d] outside the %d×%d tile written: %v", r, j, mr, nr, c[i])
						}
					}
				})
			}
		}
	}
}
