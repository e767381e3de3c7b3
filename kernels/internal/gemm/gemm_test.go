package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
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

// gemmCases are the shapes every level is tested on: the edges of its tile
// (m, n and k of 0 and 1, a tile's mr and nr rows and columns and one
// fewer and one more, several tiles and a part), unrolled k loops with and
// without a remainder, and products larger than the default blocks' kc,
// each with both transposes and leading dimensions wider than the rows.
func gemmCases(mr, nr int) []gemmCase {
	var cases []gemmCase
	sizes := [][3]int{
		{1, 1, 1}, {1, 1, 0}, {3, 5, 0}, {0, 4, 3}, {4, 0, 3}, {0, 0, 0}, {4, 16, 1}, {4, 32, 2},
		{5, 17, 3}, {3, 15, 7}, {8, 32, 8}, {13, 33, 29}, {1, 100, 9}, {100, 1, 9},
		{37, 70, 65}, {64, 64, 64}, {97, 131, 300}, {200, 33, 513},
	}
	for _, s := range sizes {
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, pad := range []int{0, 3} {
					cases = append(cases, gemmCase{s[0], s[1], s[2], tA, tB, pad})
				}
			}
		}
	}
	// The tile's edges: the packing does not depend on the tile, so each
	// shape takes one of the eight transpose and padding combinations, in
	// turn.
	var edges [][3]int
	for _, m := range []int{1, mr - 1, mr, mr + 1, 3*mr + 1} {
		for _, n := range []int{1, nr - 1, nr, nr + 1, 2*nr + 3} {
			edges = append(edges, [3]int{m, n, 1 + (m+n)%9})
		}
	}
	for _, k := range []int{2, 3, 4, 5, 8, 9} {
		edges = append(edges, [3]int{mr, nr, k})
	}
	for i, s := range edges {
		cases = append(cases, gemmCase{s[0], s[1], s[2], i&1 != 0, i&2 != 0, 3 * (i >> 2 & 1)})
	}
	return cases
}

// approxEqual reports whether got is want within cmpopts.EquateApprox(0,
// margin)'s rule, |want - got| ≤ margin, without its cost: the tests call
// cmp.Diff only to show a difference.
func approxEqual[T Float](want, got []T, margin float64) bool {
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		if x, y := float64(w), float64(got[i]); x != y && !(math.Abs(x-y) <= margin) {
			return false
		}
	}
	return true
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

// testGemm checks Gemm on every case at the level selected now, against
// the float64 reference; withEpilogue checks that the epilogue's tiles
// partition C and see its final values.
func testGemm[T Float](t *testing.T, withEpilogue bool) {
	rng := rand.New(rand.NewPCG(1, 2))
	var kern kernel[T]
	switch k := any(&kern).(type) {
	case *kernel[float64]:
		*k = kernelsAt(isa.Selected()).k64
	case *kernel[float32]:
		*k = kernelsAt(isa.Selected()).k32
	}
	for _, tc := range gemmCases(kern.mr, kern.nr) {
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
			if approxEqual(want, got, tol) {
				// Equal within rounding.
			} else if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, tol)); diff != "" {
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

// atEveryLevel runs f once at each level this CPU runs (isa.Supported),
// with isa.Use, as a subtest named by the level, and restores the level.
func atEveryLevel(t *testing.T, f func(t *testing.T)) {
	prev := isa.Selected()
	t.Cleanup(func() { isa.Use(prev) })
	for _, l := range isa.Supported() {
		if _, err := isa.Use(l); err != nil {
			t.Fatal(err)
		}
		t.Run(l.String(), f)
	}
}

func TestGemm(t *testing.T) {
	atEveryLevel(t, func(t *testing.T) {
		r := kernelsAt(isa.Selected())
		t.Logf("level %v: %d×%d float64, %d×%d float32 tiles; Available() = %v", isa.Selected(), r.k64.mr, r.k64.nr, r.k32.mr, r.k32.nr, Available())
		// The default blocks, then the small ones, which cross every
		// boundary, with an epilogue (whose check includes C's values).
		// The portable kernels are the driver's reference (kernels uses
		// gonum's Gemm at Generic), and slow under -race: small blocks
		// only.
		if isa.Selected() != isa.Generic {
			t.Run("default/float64", func(t *testing.T) { testGemm[float64](t, false) })
			t.Run("default/float32", func(t *testing.T) { testGemm[float32](t, false) })
		}
		t.Run("small/float64/epilogue", func(t *testing.T) { small(t, func(t *testing.T) { testGemm[float64](t, true) }) })
		t.Run("small/float32/epilogue", func(t *testing.T) { small(t, func(t *testing.T) { testGemm[float32](t, true) }) })
	})
}

// ownKernels lists, per GOARCH, the levels that have micro-kernels of
// their own in the table.
var ownKernels = map[string][]isa.Level{
	"amd64": {isa.AVX2, isa.AVX512},
	"arm64": {isa.NEON},
}

// TestLevelsAndAvailable: at each level, Available reports whether the
// level has kernels of its own, which it has where ownKernels says; the
// others (Generic first) run the portable kernels.
func TestLevelsAndAvailable(t *testing.T) {
	type state struct {
		Level      string
		Available  bool
		OwnKernels bool
	}
	var got, want []state
	atEveryLevel(t, func(t *testing.T) {
		l := isa.Selected()
		own := slices.Contains(ownKernels[runtime.GOARCH], l)
		want = append(want, state{l.String(), own, own})
		k := kernelsAt(l).k64
		// The same code as the portable kernel's (not the same tile: the
		// SIMD build's AVX-512 kernels have the portable 4×16 shape).
		portable := reflect.ValueOf(k.fn).Pointer() == reflect.ValueOf(portable64.fn).Pointer()
		got = append(got, state{l.String(), Available(), !portable})
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
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
