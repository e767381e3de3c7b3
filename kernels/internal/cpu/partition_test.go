package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/laze-go/laze/tensor"
)

// partitionValue draws from a few values, so that lines have long runs of
// ties; floats include NaNs of both signs, ±0 and ±Inf.
func partitionValue[T tensor.Number](r *rand.Rand, distinct int) T {
	if tensor.IsFloat[T]() {
		switch r.IntN(16) {
		case 0:
			return T(math.NaN())
		case 1:
			return T(math.Copysign(math.NaN(), -1))
		case 2:
			return T(math.Copysign(0, -1))
		case 3:
			return 0
		case 4:
			return T(math.Inf(1))
		case 5:
			return T(math.Inf(-1))
		}
	}
	return T(r.IntN(distinct) - distinct/2)
}

// sameBits reports whether a and b are the same value, floats bit for bit.
func sameBits[T tensor.Number](a, b T) bool {
	if tensor.IsFloat[T]() {
		return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
	}
	return a == b
}

// randomKth draws up to three positions in [0, n), ascending, unique; the
// last position (where a NaN shows) is often among them, as Median's.
func randomKth(r *rand.Rand, n int) []int {
	kth := []int{r.IntN(n), r.IntN(n)}
	if r.IntN(2) == 0 {
		kth = append(kth, n-1)
	}
	if r.IntN(4) == 0 {
		kth = append(kth, 0)
	}
	slices.Sort(kth)
	return slices.Compact(kth)
}

// checkPartition checks Partition against Sort on random lines: at every
// kth position the element Sort puts there, bit for bit; the elements
// before no greater, those after no smaller (NaNs last); and the line a
// permutation of the input.
func checkPartition[T tensor.Number](t *testing.T, r *rand.Rand, outer, length, inner, distinct int) {
	t.Helper()
	n := outer * length * inner
	src := make([]T, n)
	for i := range src {
		src[i] = partitionValue[T](r, distinct)
	}
	if length == 0 {
		return
	}
	kth := randomKth(r, length)
	got, want := make([]T, n), make([]T, n)
	Partition(got, src, outer, length, inner, kth)
	Sort(want, src, outer, length, inner)
	for l := range outer * inner {
		base := l/inner*length*inner + l%inner
		line := func(s []T) []T {
			out := make([]T, length)
			for k := range out {
				out[k] = s[base+k*inner]
			}
			return out
		}
		g, w := line(got), line(want)
		for _, k := range kth {
			if !sameBits(g[k], w[k]) {
				t.Fatalf("%T line %d of %d, kth %v: position %d holds %v, want %v (sorted %v, got %v)", g[0], l, length, kth, k, g[k], w[k], w, g)
			}
			for i := range g {
				if (i < k && less(g[k], g[i])) || (i > k && less(g[i], g[k])) {
					t.Fatalf("%T line of %d, kth %v: position %d (%v) is on the wrong side of %d (%v)", g[0], length, kth, i, g[i], k, g[k])
				}
			}
		}
		slices.SortFunc(g, compareBits[T])
		slices.SortFunc(w, compareBits[T])
		if !slices.EqualFunc(g, w, sameBits[T]) {
			t.Fatalf("%T line %d: not a permutation of the input", g[0], l)
		}
	}
}

func less[T tensor.Number](a, b T) bool { return a < b || (b != b && a == a) }

// compareBits orders values totally, by their bits for floats, so that two
// multisets of values can be compared.
func compareBits[T tensor.Number](a, b T) int {
	if tensor.IsFloat[T]() {
		x, y := math.Float64bits(float64(a)), math.Float64bits(float64(b))
		return int(x>>1) - int(y>>1) + int(x&1) - int(y&1)
	}
	switch {
	case a < b:
		return -1
	case b < a:
		return 1
	}
	return 0
}

func TestPartitionMatchesSortAtKth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	cases := []struct{ outer, length, inner, distinct int }{
		{1, 1, 1, 3}, {1, 2, 1, 3}, {3, 16, 2, 5}, {1, 17, 1, 3},
		{2, 100, 1, 2}, {1, 1000, 1, 1000}, {2, 3000, 3, 7},
		{1, 5000, 1, 1 << 20}, {4, 40, 5, 40}, {1, 0, 1, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%dx%d", c.outer, c.length, c.inner), func(t *testing.T) {
			for range 20 {
				checkPartition[float64](t, r, c.outer, c.length, c.inner, c.distinct)
				checkPartition[float32](t, r, c.outer, c.length, c.inner, c.distinct)
				checkPartition[int64](t, r, c.outer, c.length, c.inner, c.distinct)
				checkPartition[uint8](t, r, c.outer, c.length, c.inner, min(c.distinct, 256))
			}
		})
	}
}

// TestSelectKthWorstCase runs the quickselect on inputs that defeat a
// median-of-three pivot (the organ pipe, sorted, reversed and all equal
// lines) and checks the element selected.
func TestSelectKthWorstCase(t *testing.T) {
	const n = 4096
	inputs := map[string]func(i int) float64{
		"sorted":   func(i int) float64 { return float64(i) },
		"reversed": func(i int) float64 { return float64(n - i) },
		"equal":    func(int) float64 { return 1 },
		"organ":    func(i int) float64 { return float64(min(i, n-i)) },
		"sawtooth": func(i int) float64 { return float64(i % 17) },
	}
	for name, f := range inputs {
		for _, k := range []int{0, 1, n / 2, n - 2, n - 1} {
			v := make([]float64, n)
			for i := range v {
				v[i] = f(i)
			}
			want := slices.Clone(v)
			slices.Sort(want)
			selectKth(v, k)
			if v[k] != want[k] {
				t.Errorf("%s, k=%d: selected %v, want %v", name, k, v[k], want[k])
			}
		}
	}
}

// FuzzPartition checks Partition against Sort on lines the fuzzer draws.
func FuzzPartition(f *testing.F) {
	f.Add(uint64(1), uint16(100), uint8(3))
	f.Add(uint64(2), uint16(2000), uint8(200))
	f.Fuzz(func(t *testing.T, seed uint64, length uint16, distinct uint8) {
		r := rand.New(rand.NewPCG(seed, 1))
		checkPartition[float64](t, r, 1, int(length%4096)+1, 1, int(distinct)+1)
	})
}

// BenchmarkSelectKth times the quickselect of a median over 2^20 float64
// lines of several structures and numbers of distinct values: random,
// sorted, an organ pipe (which defeats pivots at fixed positions) and a
// sawtooth of 17 values:
//
//	go test ./kernels/internal/cpu -run '^$' -bench SelectKth -benchtime 10x
func BenchmarkSelectKth(b *testing.B) {
	lines := map[string]func(i, n, distinct int, r *rand.Rand) float64{
		"random":   func(_, _, d int, r *rand.Rand) float64 { return float64(r.IntN(d)) },
		"sorted":   func(i, n, d int, _ *rand.Rand) float64 { return float64(i * d / n) },
		"organ":    func(i, n, d int, _ *rand.Rand) float64 { return float64(min(i, n-i) % d) },
		"sawtooth": func(i, _, _ int, _ *rand.Rand) float64 { return float64(i % 17) },
	}
	for _, name := range []string{"random", "sorted", "organ", "sawtooth"} {
		for _, distinct := range []int{4, 1 << 30} {
			r := rand.New(rand.NewPCG(1, 2))
			src := make([]float64, 1<<20)
			for i := range src {
				src[i] = lines[name](i, len(src), distinct, r)
			}
			v := make([]float64, len(src))
			b.Run(fmt.Sprintf("%s/distinct=%d", name, distinct), func(b *testing.B) {
				for b.Loop() {
					copy(v, src)
					selectKth(v, len(v)/2)
				}
			})
		}
	}
}
