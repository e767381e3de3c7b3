package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/laze-go/laze/internal/isa"
)

// naive is the reference: C = op(A)·op(B) by the triple loop, summed in
// float64.
func naive[T Float](transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int) []T {
	c := make([]T, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				ai, bi := i*lda+p, p*ldb+j
				if transA {
					ai = p*lda + i
				}
				if transB {
					bi = j*ldb + p
				}
				x, y := a[ai], b[bi]
				s += float64(x) * float64(y)
			}
			c[i*n+j] = T(s)
		}
	}
	return c
}

type gemmCase struct {
	m, n, k        int
	transA, transB bool
	pad            int // extra elements per row of A, B and C
}

func (tc gemmCase) String() string {
	return fmt.Sprintf("%dx%dx%d/tA=%v/tB=%v/pad=%d", tc.m, tc.n, tc.k, tc.transA, tc.transB, tc.pad)
}

// gemmCases are the products checked for a kernel of tile mr × nr: the
// empty ones, k = 0 and 1, a tile and one row or column more or fewer, several
// tiles with ragged edges, and (unless short) sizes that cross the default
// blocking's kc and mc. Each in the four transpose combinations, with and
// without padded leading dimensions (short: half of them padded).
func gemmCases(mr, nr int, short bool) []gemmCase {
	var cases []gemmCase
	sizes := [][3]int{
		{1, 1, 1}, {1, 1, 0}, {3, 5, 0}, {0, 4, 3}, {4, 0, 3}, {4, 16, 1}, {4, 32, 2},
		{5, 17, 3}, {3, 15, 7}, {8, 32, 8}, {13, 33, 29}, {1, 100, 9}, {100, 1, 9},
		{mr, nr, 1}, {mr - 1, nr - 1, 2}, {mr + 1, nr + 1, 5}, {mr, nr + 1, 4}, {mr + 1, nr, 3},
		{mr - 1, nr, 6}, {mr, nr - 1, 7}, {2*mr + 1, 3*nr - 1, 17}, {37, 70, 65},
	}
	if !short {
		sizes = append(sizes, [][3]int{{64, 64, 64}, {97, 131, 300}, {200, 33, 513}}...)
	}
	for _, s := range sizes {
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, pad := range []int{0, 3} {
					// Short: leading dimensions padded for half of the
					// transpose combinations only.
					if short && (pad != 0) != (tA != tB) {
						continue
					}
					cases = append(cases, gemmCase{s[0], s[1], s[2], tA, tB, pad})
				}
			}
		}
	}
	return cases
}

// operandsFor returns random A and B for tc, with their leading dimensions,
// and a C filled with NaN (beta = 0 must ignore it).
func operandsFor[T Float](tc gemmCase, rng *rand.Rand) (a []T, lda int, b []T, ldb int, c []T, ldc int) {
	ar, ac := tc.m, tc.k
	if tc.transA {
		ar, ac = ac, ar
	}
	br, bc := tc.k, tc.n
	if tc.transB {
		br, bc = bc, br
	}
	lda, ldb, ldc = max(ac, 1)+tc.pad, max(bc, 1)+tc.pad, max(tc.n, 1)+tc.pad
	fill := func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = T(rng.Float64()*2 - 1)
		}
		return s
	}
	a, b = fill(ar*lda), fill(br*ldb)
	c = make([]T, tc.m*ldc)
	for i := range c {
		c[i] = T(math.NaN())
	}
	return a, lda, b, ldb, c, ldc
}

func eps[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-23
	}
	return 0x1p-52
}

// testGemm checks Gemm on gemmCases for the tile of the kernel it uses now.
func testGemm[T Float](t *testing.T, withEpilogue bool) {
	rng := rand.New(rand.NewPCG(1, 2))
	mr, nr := tileFor[T]()
	for _, tc := range gemmCases(mr, nr, testing.Short()) {
		t.Run(tc.String(), func(t *testing.T) {
			a, lda, b, ldb, c, ldc := operandsFor[T](tc, rng)
			want := naive(tc.transA, tc.transB, tc.m, tc.n, tc.k, a, lda, b, ldb)
			var ep Epilogue
			var visits []int
			var mu sync.Mutex
			if withEpilogue {
				visits = make([]int, tc.m*tc.n)
				ep = func(i0, j0, rows, cols int) {
					mu.Lock()
					defer mu.Unlock()
					for i := i0; i < i0+rows; i++ {
						for j := j0; j < j0+cols; j++ {
							visits[i*tc.n+j]++
							c[i*ldc+j] *= 2 // the tile is final: scaling it now scales the result
						}
					}
				}
			}
			Gemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, a, lda, b, ldb, c, ldc, ep)
			got := make([]T, tc.m*tc.n)
			for i := range tc.m {
				copy(got[i*tc.n:(i+1)*tc.n], c[i*ldc:i*ldc+tc.n])
			}
			if withEpilogue {
				for i := range want {
					want[i] *= 2
				}
				ones := make([]int, len(visits))
				for i := range ones {
					ones[i] = 1
				}
				if diff := cmp.Diff(ones, visits); diff != "" {
					t.Errorf("epilogue visits (-want +got):\n%s", diff)
				}
			}
			tol := 4 * float64(max(tc.k, 1)) * eps[T]()
			if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, tol)); diff != "" {
				t.Errorf("C (-want +got):\n%s", diff)
			}
			// The padding of C is not written.
			for i := range tc.m {
				for j := tc.n; j < ldc; j++ {
					if v := c[i*ldc+j]; v == v {
						t.Fatalf("padding C[%d,%d] written: %v", i, j, v)
					}
				}
			}
		})
	}
}

// small shrinks the blocking so that the small cases cross every block
// boundary (several kc, mc, nc and epilogue tiles), and runs f.
func small(t *testing.T, f func(t *testing.T)) {
	save := [...]int{kc64, mc64, nc64, kc32, mc32, nc32, epCols64, epCols32, parallelWork}
	kc64, mc64, nc64, kc32, mc32, nc32, epCols64, epCols32 = 16, 8, 48, 16, 8, 64, 16, 32
	parallelWork = 1
	t.Cleanup(func() {
		kc64, mc64, nc64, kc32, mc32, nc32, epCols64, epCols32, parallelWork = save[0], save[1], save[2], save[3], save[4], save[5], save[6], save[7], save[8]
	})
	f(t)
}

// tileFor returns the tile of the micro-kernel Gemm uses for T at the
// selected level.
func tileFor[T Float]() (mr, nr int) {
	var z T
	if _, ok := any(z).(float32); ok {
		kern := simd32[isa.Selected()]
		if kern.fn == nil {
			kern = portable32
		}
		return kern.mr, kern.nr
	}
	kern := simd64[isa.Selected()]
	if kern.fn == nil {
		kern = portable64
	}
	return kern.mr, kern.nr
}

// levels runs f at every level this CPU runs that has kernels of its own,
// and at Generic (the portable kernels), restoring the selection after.
func levels(t *testing.T, f func(t *testing.T)) {
	for _, l := range isa.Supported() {
		if l != isa.Generic && simd64[l].fn == nil {
			t.Logf("%v: no kernels of its own in this build", l)
			continue
		}
		t.Run(l.String(), func(t *testing.T) {
			prev, err := isa.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { isa.Use(prev) })
			if got, want := Available(), l != isa.Generic; got != want {
				t.Errorf("Available() = %v at %v; want %v", got, l, want)
			}
			f(t)
		})
	}
}

func TestGemm(t *testing.T) {
	levels(t, func(t *testing.T) {
		for _, blocking := range []string{"default", "small"} {
			if testing.Short() && isa.Selected() == isa.Generic && blocking == "default" {
				continue // short (qemu): the portable kernels with the small blocking only
			}
			t.Run(blocking, func(t *testing.T) {
				run := func(t *testing.T, f func(t *testing.T)) { f(t) }
				if blocking == "small" {
					run = small
				}
				t.Run("float64", func(t *testing.T) { run(t, func(t *testing.T) { testGemm[float64](t, false) }) })
				t.Run("float32", func(t *testing.T) { run(t, func(t *testing.T) { testGemm[float32](t, false) }) })
				t.Run("float64/epilogue", func(t *testing.T) { run(t, func(t *testing.T) { testGemm[float64](t, true) }) })
				t.Run("float32/epilogue", func(t *testing.T) { run(t, func(t *testing.T) { testGemm[float32](t, true) }) })
			})
		}
	})
}

// TestGemmNamedType: a type whose underlying type is float64.
func TestGemmNamedType(t *testing.T) {
	type meters float64
	a, b, c := []meters{1, 2, 3, 4}, []meters{5, 6, 7, 8}, make([]meters, 4)
	Gemm(false, false, 2, 2, 2, a, 2, b, 2, c, 2, nil)
	if diff := cmp.Diff([]meters{19, 22, 43, 50}, c); diff != "" {
		t.Error(diff)
	}
}

func TestGemmPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"negative": func() { Gemm(false, false, -1, 1, 1, []float64{1}, 1, []float64{1}, 1, []float64{1}, 1, nil) },
		"lda": func() {
			Gemm(false, false, 2, 2, 2, make([]float64, 4), 1, make([]float64, 4), 2, make([]float64, 4), 2, nil)
		},
		"short C": func() {
			Gemm(false, false, 2, 2, 2, make([]float64, 4), 2, make([]float64, 4), 2, make([]float64, 3), 2, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}
