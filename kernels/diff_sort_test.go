package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The sorts' differential tests: Assign of Sort and ArgSort against the
// nodes' own At (a stable sort of each line by expr.SortLess) over random
// shapes and axes, operands that are tensors, strided and transposed views
// and trees, values drawn from a few so that ties are common, with NaNs of
// both signs, ±0 and infinities for floats; lines long enough for every
// path of the CPU sort (insertion, pdqsort, radix) and for lines shared
// among goroutines; and destinations that are the operand.

// sortValue draws a value of T from a small set, so that lines have ties;
// floats include NaNs of both signs, ±0 and ±Inf.
func sortValue[T tensor.Number](r *rand.Rand) T {
	if tensor.IsFloat[T]() {
		switch r.IntN(12) {
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
		return T(float64(r.IntN(41)-20) / 4)
	}
	v := T(r.IntN(200))
	if T(0)-1 < 0 {
		v -= 100
	}
	return v
}

func randomSortTensor[T tensor.Number](r *rand.Rand, dims ...int) *tensor.Tensor[T] {
	t := tensor.Zeros[T](dims...)
	data := t.Data()
	for i := range data {
		data[i] = sortValue[T](r)
	}
	return t
}

// sameBits reports whether a and b hold the same values, floats bit for
// bit (NaN payloads and the sign of zero included).
func sameBits[T tensor.Number](a, b T) bool {
	if tensor.IsFloat[T]() {
		return math.Float64bits(float64(a)) == math.Float64bits(float64(b)) ||
			(a != a && b != b && math.Signbit(float64(a)) == math.Signbit(float64(b)))
	}
	return a == b
}

// compareWithAt checks every element of got against e's At, read over
// the oracle's values of its operands (refEval).
func compareWithAt[T tensor.Number](t *testing.T, name string, got *tensor.Tensor[T], e expr.Exp[T]) {
	t.Helper()
	bad := 0
	want := refEval(e, got.Shape()) // At over its operands' values
	for idx, v := range got.All() {
		if want := want[shape.Ravel(idx, got.Shape())]; !sameBits(v, want) {
			if bad < 3 {
				t.Errorf("%s: at %v got %v, want %v", name, idx, v, want)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d elements differ", name, bad)
	}
}

// sortOperands returns x's variants as a sort's operand: the tensor, a
// strided view, a transposed view and a tree, each with its shape.
func sortOperands[T tensor.Number](r *rand.Rand, dims shape.Shape) map[string]expr.Exp[T] {
	x := randomSortTensor[T](r, dims...)
	out := map[string]expr.Exp[T]{"tensor": x, "tree": expr.Of[T](x).AddScalar(1)}
	wide := slices.Clone(dims)
	wide[0] *= 2
	w := randomSortTensor[T](r, wide...)
	out["strided"] = w.Slice(0, 0, wide[0], 2)
	if len(dims) >= 2 {
		tr := randomSortTensor[T](r, append([]int{dims[1], dims[0]}, dims[2:]...)...)
		out["transposed"] = tr.Transpose(0, 1)
	}
	return out
}

func testSortsAgainstAt[T tensor.Number](t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for trial := range 40 {
		rank := 1 + r.IntN(3)
		dims := make(shape.Shape, rank)
		for d := range dims {
			dims[d] = 1 + r.IntN(6)
		}
		if trial%8 == 0 {
			dims[r.IntN(rank)] = 20 + r.IntN(40) // a line past insertionMax
		}
		if trial%13 == 0 {
			dims[r.IntN(rank)] = 0
		}
		axis := r.IntN(rank)
		if r.IntN(2) == 0 {
			axis -= rank
		}
		for name, x := range sortOperands[T](r, dims) {
			label := fmt.Sprintf("%s/%v/axis=%d/%s", tensor.DTypeOf[T](), dims, axis, name)
			s := expr.Sort(x, axis)
			got := tensor.Zeros[T](dims...)
			if err := Assign(got, s); err != nil {
				t.Fatalf("%s: sort: %v", label, err)
			}
			compareWithAt(t, label+"/sort", got, s)
			a := expr.ArgSort(x, axis)
			idx := tensor.Zeros[int64](dims...)
			if err := Assign(idx, a); err != nil {
				t.Fatalf("%s: argsort: %v", label, err)
			}
			compareWithAt(t, label+"/argsort", idx, a)
			// argsort inside an int64 tree, and a sort of a sort's tree
			in := expr.Of(expr.ArgSort(x, axis)).MulScalar(2)
			if err := Assign(idx, in); err != nil {
				t.Fatalf("%s: argsort in a tree: %v", label, err)
			}
			compareWithAt(t, label+"/argsort*2", idx, in)
			ss := expr.Sort(expr.Of(expr.Sort(x, axis)).Neg(), 0)
			if err := Assign(got, ss); err != nil {
				t.Fatalf("%s: sort of a sort: %v", label, err)
			}
			compareWithAt(t, label+"/sort(-sort)", got, ss)
		}
	}
}

// TestSortsMatchAt compares Assign of Sort and ArgSort with their At.
func TestSortsMatchAt(t *testing.T) {
	testSortsAgainstAt[float64](t, 1)
	testSortsAgainstAt[float32](t, 2)
	testSortsAgainstAt[int64](t, 3)
	testSortsAgainstAt[int8](t, 4)
	testSortsAgainstAt[uint16](t, 5)
	testSortsAgainstAt[uint64](t, 6)
}

// stableReference sorts every line of x along axis with sort.SliceStable
// and expr.SortLess, At's definition, returning the values and the
// positions; it is At for lines too long to compare element by element.
func stableReference[T tensor.Number](x *tensor.Tensor[T], axis int) (*tensor.Tensor[T], *tensor.Tensor[int64]) {
	vals, pos := tensor.Zeros[T](x.Shape()...), tensor.Zeros[int64](x.Shape()...)
	s := x.Shape()
	n := s[axis]
	rest := slices.Clone(s)
	rest[axis] = 1
	for idx := range tensor.Zeros[int8](rest...).All() {
		line := make([]T, n)
		perm := make([]int, n)
		at := slices.Clone(idx)
		for k := range n {
			at[axis] = k
			line[k] = x.At(at...)
			perm[k] = k
		}
		sort.SliceStable(perm, func(i, j int) bool { return expr.SortLess(line[perm[i]], line[perm[j]]) })
		for k, p := range perm {
			at[axis] = k
			vals.Set(line[p], at...)
			pos.Set(int64(p), at...)
		}
	}
	return vals, pos
}

func testLongLines[T tensor.Number](t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 9))
	for _, c := range []struct {
		dims shape.Shape
		axis int
	}{
		{shape.Shape{5000}, 0},         // one radix line
		{shape.Shape{3, 1500}, 1},      // radix lines where they lie
		{shape.Shape{1300, 3}, 0},      // radix lines gathered
		{shape.Shape{300, 200}, -1},    // pdqsort lines, shared among goroutines
		{shape.Shape{40, 3000}, 1},     // radix lines, shared among goroutines
		{shape.Shape{2, 700, 40}, 1},   // pdqsort lines gathered, shared
		{shape.Shape{2, 1100, 30}, -2}, // radix lines gathered, shared
	} {
		x := randomSortTensor[T](r, c.dims...)
		if c.dims[0] == 5000 && !tensor.IsFloat[T]() && tensor.ItemSize[T]() == 8 {
			data := x.Data() // keys over the full range
			for i := range data {
				data[i] = T(r.Uint64())
			}
		}
		d := shape.MustAxis("sort", c.axis, len(c.dims))
		wantV, wantP := stableReference(x, d)
		label := fmt.Sprintf("%s/%v/axis=%d", tensor.DTypeOf[T](), c.dims, c.axis)
		got := tensor.Zeros[T](c.dims...)
		if err := Assign(got, expr.Sort[T](x, c.axis)); err != nil {
			t.Fatal(err)
		}
		pos := tensor.Zeros[int64](c.dims...)
		if err := Assign(pos, expr.ArgSort[T](x, c.axis)); err != nil {
			t.Fatal(err)
		}
		for idx, v := range got.All() {
			if w := wantV.At(idx...); !sameBits(v, w) {
				t.Fatalf("%s: sort at %v: got %v, want %v", label, idx, v, w)
			}
			if p, w := pos.At(idx...), wantP.At(idx...); p != w {
				t.Fatalf("%s: argsort at %v: got %v, want %v", label, idx, p, w)
			}
		}
	}
}

// TestSortLongLines compares the sorts of long lines (pdqsort and radix
// paths, several goroutines) with a stable reference sort.
func TestSortLongLines(t *testing.T) {
	old := cpu.ParallelThreshold
	cpu.ParallelThreshold = 1 << 12
	defer func() { cpu.ParallelThreshold = old }()
	testLongLines[float64](t, 1)
	testLongLines[float32](t, 2)
	testLongLines[int64](t, 3)
	testLongLines[uint64](t, 4)
	testLongLines[int16](t, 5)
}

// TestSortIntoItsOperand checks that Assign(x, Sort(x, axis)) and
// Assign(x, Sort(x.T(), 0)) give NumPy's results: the operand is read in
// full before the destination is written.
func TestSortIntoItsOperand(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, axis := range []int{0, 1, -1} {
		x := randomSortTensor[float64](r, 7, 7)
		want, _ := stableReference(x.Clone(), shape.MustAxis("sort", axis, 2))
		if err := Assign(x, expr.Sort[float64](x, axis)); err != nil {
			t.Fatal(err)
		}
		for idx, v := range x.All() {
			if w := want.At(idx...); !sameBits(v, w) {
				t.Fatalf("axis %d: at %v got %v, want %v", axis, idx, v, w)
			}
		}
	}
	x := randomSortTensor[float64](r, 6, 6)
	want, _ := stableReference(x.T().Contiguous(), 0)
	if err := Assign(x, expr.Sort[float64](x.T(), 0)); err != nil {
		t.Fatal(err)
	}
	for idx, v := range x.All() {
		if w := want.At(idx...); !sameBits(v, w) {
			t.Fatalf("transposed: at %v got %v, want %v", idx, v, w)
		}
	}
}
