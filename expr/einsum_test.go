package expr_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// contractOperand returns operand k of a contraction test in shape dims:
// (np.arange(n) % 7 - 3 + k).reshape(dims).astype(T), the inputs the
// NumPy script that printed the tables below used.
func contractOperand[T tensor.Number](k int, dims ...int) *tensor.Tensor[T] {
	s := shape.Shape(dims)
	n, _ := s.Size()
	data := make([]T, n)
	for i := range data {
		data[i] = T(i%7 - 3 + k)
	}
	x, err := tensor.FromSlice(data, s)
	if err != nil {
		panic(err)
	}
	return x
}

// evalContraction evaluates e with kernels.Eval and element by element with At,
// returning the shape and both value lists as float64.
func evalContraction[T tensor.Number](t *testing.T, e expr.Exp[T]) (shape.Shape, []float64, []float64) {
	t.Helper()
	info, err := expr.Check(e)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	out, err := kernels.Eval(e)
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	var got, at []float64
	for v := range out.Values() {
		got = append(got, float64(v))
	}
	n, _ := info.Shape.Size()
	idx := make([]int, len(info.Shape))
	for i := range n {
		shape.Unravel(i, info.Shape, idx)
		at = append(at, float64(e.At(idx...)))
	}
	return info.Shape, got, at
}

// einsumCase runs one row of TestEinsum in element type T.
func einsumCase[T tensor.Number](t *testing.T, sub string, shapes [][]int, want shape.Shape, values []float64) {
	ops := make([]expr.Exp[T], len(shapes))
	for k, s := range shapes {
		ops[k] = contractOperand[T](k, s...)
	}
	s, got, at := evalContraction(t, expr.Einsum(sub, ops...))
	if diff := cmp.Diff(want, s); diff != "" {
		t.Fatalf("shape (-numpy +laze):\n%s", diff)
	}
	if values == nil {
		values = []float64{}
	}
	if got == nil {
		got, at = []float64{}, []float64{}
	}
	if diff := cmp.Diff(values, got); diff != "" {
		t.Errorf("Eval (-numpy +laze):\n%s", diff)
	}
	if diff := cmp.Diff(values, at); diff != "" {
		t.Errorf("At (-numpy +laze):\n%s", diff)
	}
}

// TestEinsum checks Einsum against np.einsum: the rows' shapes and values
// were printed by NumPy 1.24 (/usr/bin/python3, the script in the comment
// of contractOperand), the result's dtype being the operands' in every
// row. They cover explicit and implicit outputs, transposes, sums,
// traces and diagonals (adjacent, apart, triple), batch dimensions,
// "..." broadcasting, size-1 broadcasting, 3 and 4 operands, scalars,
// empty dimensions, spaces and integer dtypes.
func TestEinsum(t *testing.T) {
	tests := []struct {
		sub    string
		dtype  string
		shapes [][]int
		shape  shape.Shape
		want   []float64
	}{
		// Printed by NumPy 1.24: np.einsum(sub, *ops).
		{"ij,jk->ik", "float64", [][]int{{2, 3}, {3, 4}}, shape.Shape{2, 4}, []float64{3, -3, -9, -1, 0, 3, 6, 2}},
		{"ij,jk", "float64", [][]int{{2, 3}, {3, 4}}, shape.Shape{2, 4}, []float64{3, -3, -9, -1, 0, 3, 6, 2}},
		{"ij,kj->ik", "float64", [][]int{{2, 3}, {4, 3}}, shape.Shape{2, 4}, []float64{8, -10, -7, -4, -1, 8, -4, 5}},
		{"ji,jk->ik", "float64", [][]int{{3, 2}, {3, 4}}, shape.Shape{2, 4}, []float64{3, 0, -3, 1, 2, 2, 2, 2}},
		{"ii", "float64", [][]int{{3, 3}}, shape.Shape{}, []float64{-4}},
		{"ii->i", "float64", [][]int{{3, 3}}, shape.Shape{3}, []float64{-3, 1, -2}},
		{"ij->ji", "float64", [][]int{{2, 3}}, shape.Shape{3, 2}, []float64{-3, 0, -2, 1, -1, 2}},
		{"ji", "float64", [][]int{{2, 3}}, shape.Shape{3, 2}, []float64{-3, 0, -2, 1, -1, 2}},
		{"ij->", "float64", [][]int{{2, 3}}, shape.Shape{}, []float64{-3}},
		{"ij->j", "float64", [][]int{{2, 3}}, shape.Shape{3}, []float64{-3, -1, 1}},
		{"i,i", "float64", [][]int{{3}, {3}}, shape.Shape{}, []float64{8}},
		{"i,j->ij", "float64", [][]int{{2}, {3}}, shape.Shape{2, 3}, []float64{6, 3, 0, 4, 2, 0}},
		{"bij,bjk->bik", "float64", [][]int{{2, 2, 3}, {2, 3, 2}}, shape.Shape{2, 2, 2}, []float64{4, -2, 4, 7, 13, -10, -3, 4}},
		{"...ij,...jk->...ik", "float64", [][]int{{2, 2, 3}, {3, 2}}, shape.Shape{2, 2, 2}, []float64{4, -2, 4, 7, -10, -12, 4, 4}},
		{"...ij,...jk", "float64", [][]int{{2, 1, 2, 3}, {3, 3, 2}}, shape.Shape{2, 3, 2, 2}, []float64{4, -2, 4, 7, -11, 4, 1, 4, -5, -11, -2, 1, -10, -12, 4, 4, 13, -10, -3, 4, 15, 13, -3, -3}},
		{"i...->...i", "float64", [][]int{{2, 3, 2}}, shape.Shape{3, 2, 2}, []float64{-3, 3, -2, -3, -1, -2, 0, -1, 1, 0, 2, 1}},
		{"ij,jk,kl->il", "float64", [][]int{{2, 3}, {3, 4}, {4, 2}}, shape.Shape{2, 2}, []float64{-38, -41, 31, 28}},
		{"ab,bc,cd", "float64", [][]int{{2, 3}, {3, 2}, {2, 2}}, shape.Shape{2, 2}, []float64{-6, -4, 3, 14}},
		{"ijk,jl,kl->il", "float64", [][]int{{2, 3, 2}, {3, 2}, {2, 2}}, shape.Shape{2, 2}, []float64{0, 16, 14, 10}},
		{"bn,anm,bm->ba", "float64", [][]int{{2, 3}, {2, 3, 2}, {2, 2}}, shape.Shape{2, 2}, []float64{-4, 11, 18, 9}},
		{"ij,ij->ij", "float64", [][]int{{1, 3}, {2, 3}}, shape.Shape{2, 3}, []float64{6, 2, 0, -3, -4, -3}},
		{"ij,j", "float64", [][]int{{2, 3}, {1}}, shape.Shape{2}, []float64{12, -6}},
		{"iij->ij", "float64", [][]int{{2, 2, 3}}, shape.Shape{2, 3}, []float64{-3, -2, -1, -1, 0, 1}},
		{"iji->j", "float64", [][]int{{2, 3, 2}}, shape.Shape{3}, []float64{-6, -2, 2}},
		{"iii->i", "float64", [][]int{{2, 2, 2}}, shape.Shape{2}, []float64{-3, -3}},
		{"Ba,aA", "float64", [][]int{{2, 3}, {3, 4}}, shape.Shape{4, 2}, []float64{3, 0, -3, 3, -9, 6, -1, 2}},
		{",->", "float64", [][]int{{}, {}}, shape.Shape{}, []float64{6}},
		{"i,->i", "float64", [][]int{{3}, {}}, shape.Shape{3}, []float64{6, 4, 2}},
		{"ij,ij->", "float64", [][]int{{2, 3}, {2, 3}}, shape.Shape{}, []float64{16}},
		{"ij,jk->ik", "float64", [][]int{{2, 0}, {0, 3}}, shape.Shape{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"i j , j k -> k i", "float64", [][]int{{2, 3}, {3, 2}}, shape.Shape{2, 2}, []float64{4, 4, -2, 7}},
		{"ij,jk->ik", "int32", [][]int{{2, 3}, {3, 4}}, shape.Shape{2, 4}, []float64{3, -3, -9, -1, 0, 3, 6, 2}},
		{"ii", "int8", [][]int{{3, 3}}, shape.Shape{}, []float64{-4}},
		{"bij,bkj->bik", "int64", [][]int{{2, 2, 3}, {2, 2, 3}}, shape.Shape{2, 2, 2}, []float64{8, -10, -1, 8, 20, -7, -5, 2}},
		{"ij,jk,kl,lm->im", "float32", [][]int{{2, 3}, {3, 2}, {2, 4}, {4, 2}}, shape.Shape{2, 2}, []float64{20, -64, 218, 296}},
		// np.einsum('ij,jk->ik', a[:, :0], b[:0]) with a (2,3): no zero-size operand needed above.
		{"ij,jk->ik", "float64", [][]int{{0, 3}, {3, 2}}, shape.Shape{0, 2}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.sub+"/"+tt.dtype+fmt.Sprint(tt.shapes), func(t *testing.T) {
			switch tt.dtype {
			case "float64":
				einsumCase[float64](t, tt.sub, tt.shapes, tt.shape, tt.want)
			case "float32":
				einsumCase[float32](t, tt.sub, tt.shapes, tt.shape, tt.want)
			case "int64":
				einsumCase[int64](t, tt.sub, tt.shapes, tt.shape, tt.want)
			case "int32":
				einsumCase[int32](t, tt.sub, tt.shapes, tt.shape, tt.want)
			case "int8":
				einsumCase[int8](t, tt.sub, tt.shapes, tt.shape, tt.want)
			default:
				t.Fatalf("no dtype %s", tt.dtype)
			}
		})
	}
}

// TestEinsumLowering checks the trees Einsum builds: "ij,jk->ik" is the
// MatMul of the operands themselves (the benchmark's within-5% target
// rests on it), "ij,kj->ik" a MatMul of a transposed view, a one-operand
// transpose a Permute view, "ij,ij->ij" an elementwise product and
// "ij,ij->i" one summed (no GEMM),
// and a chain is contracted greedily: in "ij,jk,kl->il" with a (8,2), b
// (2,8), c (8,2) the pair (b, c), whose result is (2,2), goes first, then
// a with it.
func TestEinsumLowering(t *testing.T) {
	a, b := tensor.Ones[float64](2, 3), tensor.Ones[float64](3, 4)
	m, ok := expr.Einsum[float64]("ij,jk->ik", a, b).(*expr.MatProduct[float64])
	if !ok || !isTensor(m.X, a) || !isTensor(m.Y, b) {
		t.Errorf(`Einsum("ij,jk->ik", a, b) = %v, want MatMul(a, b) of the tensors themselves`, m)
	}
	bt := tensor.Ones[float64](4, 3)
	tests := []struct {
		e    expr.Exp[float64]
		want string
	}{
		{expr.Einsum[float64]("ij,kj->ik", a, bt), "(tensor(2,3) @ tensor(4,3).transpose(1, 0))"},
		{expr.Einsum[float64]("ij->ji", a), "tensor(2,3).transpose(1, 0)"},
		{expr.Einsum[float64]("ij,ij->ij", a, a), "(tensor(2,3) * tensor(2,3))"},
		{expr.Einsum[float64]("ij,ij->i", a, a), "sum((tensor(2,3) * tensor(2,3)), axis=1)"},
		{expr.Einsum[float64]("ii->i", tensor.Ones[float64](3, 3)), "tensor(3,3).diagonal(0, 0, 1)"},
		{expr.Einsum[float64]("ii", tensor.Ones[float64](3, 3)), "sum(tensor(3,3).diagonal(0, 0, 1), axis=0)"},
		{expr.Einsum[float64]("ij,jk,kl->il", tensor.Ones[float64](8, 2), tensor.Ones[float64](2, 8), tensor.Ones[float64](8, 2)),
			"(tensor(8,2) @ (tensor(2,8) @ tensor(8,2)))"},
		{expr.Einsum[float64]("ij,jk,kl->il", tensor.Ones[float64](2, 8), tensor.Ones[float64](8, 2), tensor.Ones[float64](2, 8)),
			"((tensor(2,8) @ tensor(8,2)) @ tensor(2,8))"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(tt.e); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}

// TestEinsumErrors checks the errors of subscripts that do not parse and
// of operands that do not fit them: each comes from Check as a NodeError
// wrapping the typed error, whose message names the subscripts and the
// position, or the shapes and the letter.
func TestEinsumErrors(t *testing.T) {
	a, b := tensor.Ones[float64](2, 3), tensor.Ones[float64](4, 5)
	tests := []struct {
		sub  string
		ops  []expr.Exp[float64]
		is   error
		says []string
	}{
		{"ij,jk->ik", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"operands = 1", `"ij,jk->ik" name 2`}},
		{"i.j", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{`"i.j"`, "position 1", "not part of an ellipsis"}},
		{"a1", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 1", "invalid subscript '1'"}},
		{"ij->ii", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 5", `names "i" twice`}},
		{"ij->k", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 4", `"k", which no operand has`}},
		{"i->i->i", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 4", "second output arrow"}},
		{"ij - >ji", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 3", "'-'"}},
		{"ij>ji", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 2", "'>'"}},
		{"i...j...", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 5", "second ellipsis"}},
		{"ij->i,j", []expr.Exp[float64]{a}, shape.ErrInvalid, []string{"position 5", "','"}},
		{"ij,jk->ik", []expr.Exp[float64]{a, b}, shape.ErrShape, []string{"(2,3), (4,5)", `index "j" has size 3 in operand 0 (dimension 1) and 4 in operand 1 (dimension 0)`}},
		{"ijk", []expr.Exp[float64]{a}, shape.ErrShape, []string{"(2,3)", "operand 0 has 2 dimensions", `"ijk" name 3`}},
		{"ij...k", []expr.Exp[float64]{a}, shape.ErrShape, []string{"(2,3)", "fewer than the 3 letters"}},
		{"ii", []expr.Exp[float64]{a}, shape.ErrShape, []string{"(2,3)", `index "i" repeats differ (2 != 3)`}},
		{"...ij->ij", []expr.Exp[float64]{tensor.Ones[float64](1, 2, 3)}, shape.ErrInvalid, []string{"1 dimensions that '...' stands for"}},
		{"i", []expr.Exp[float64]{nil}, shape.ErrInvalid, []string{"operand 0", "missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			e := expr.Einsum(tt.sub, tt.ops...)
			_, err := expr.Check(e)
			if err == nil {
				t.Fatalf("no error")
			}
			var ne *shape.NodeError
			if !errors.As(err, &ne) || !errors.Is(err, tt.is) {
				t.Errorf("%v: not a NodeError wrapping %v", err, tt.is)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
			func() {
				defer func() {
					if r := recover(); r == nil {
						t.Errorf("Shape did not panic")
					}
				}()
				e.Shape()
			}()
		})
	}
}

// TestEinsumRandom compares Einsum, evaluated and read with At, with a
// direct sum over every assignment of the letters (einsumReference) on
// random subscripts: repeated letters, size-1 broadcasting, "...",
// implicit outputs, one to four operands.
func TestEinsumRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 5))
	for range 300 {
		sub, ops := randomEinsum(r)
		e := expr.Einsum(sub, ops...)
		want, wantShape := einsumReference(sub, ops)
		s, got, at := evalContraction(t, e)
		if !s.Equal(wantShape) {
			t.Fatalf("%s %v: shape %v, want %v", sub, shapesOf(ops), s, wantShape)
		}
		if got == nil {
			got, at = []float64{}, []float64{}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s %v: Eval (-reference +laze):\n%s\ntree %v", sub, shapesOf(ops), diff, e)
		}
		if diff := cmp.Diff(want, at); diff != "" {
			t.Errorf("%s %v: At (-reference +laze):\n%s", sub, shapesOf(ops), diff)
		}
	}
}

func shapesOf(ops []expr.Exp[float64]) []shape.Shape {
	out := make([]shape.Shape, len(ops))
	for i, x := range ops {
		out[i] = x.Shape()
	}
	return out
}

// randomEinsum draws subscripts and operands that fit them: letters from
// "abcde" with sizes 1 to 3, each operand's dimension of a letter
// sometimes 1 (broadcast), sometimes a letter twice in an operand, sometimes
// "..." over 0 to 2 dimensions, the output explicit (a random selection
// of the letters, permuted) or implicit. The values are small integers, so
// every sum is exact.
func randomEinsum(r *rand.Rand) (string, []expr.Exp[float64]) {
	letters := "abcde"
	size := map[byte]int{}
	for i := range letters {
		size[letters[i]] = 1 + r.IntN(3)
	}
	nops := 1 + r.IntN(4)
	ell := r.IntN(3) == 0
	bsize := []int{1 + r.IntN(3), 1 + r.IntN(3)}
	var terms []string
	var ops []expr.Exp[float64]
	used := map[byte]bool{}
	for k := range nops {
		n := r.IntN(4)
		var term []byte
		var dims []int
		for range n {
			l := letters[r.IntN(len(letters))]
			term = append(term, l)
			used[l] = true
		}
		withEll := ell && r.IntN(2) == 0
		pos := r.IntN(len(term) + 1)
		nb := 0
		if withEll {
			nb = r.IntN(3)
		}
		for i := 0; i <= len(term); i++ {
			if withEll && i == pos {
				for j := range nb {
					d := bsize[2-nb+j]
					if r.IntN(4) == 0 {
						d = 1
					}
					dims = append(dims, d)
				}
			}
			if i < len(term) {
				d := size[term[i]]
				if r.IntN(5) == 0 && !slices.Contains(term[:i], term[i]) && !slices.Contains(term[i+1:], term[i]) {
					d = 1
				}
				dims = append(dims, d)
			}
		}
		s := string(term)
		if withEll {
			s = s[:pos] + "..." + s[pos:]
		}
		terms = append(terms, s)
		data := make([]float64, product(dims))
		for i := range data {
			data[i] = float64(r.IntN(7) - 3 + k)
		}
		x, _ := tensor.FromSlice(data, shape.Shape(dims))
		ops = append(ops, x)
	}
	sub := strings.Join(terms, ",")
	if r.IntN(3) > 0 {
		var out []byte
		for l := range used {
			if r.IntN(2) == 0 {
				out = append(out, l)
			}
		}
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		o := string(out)
		if strings.Contains(sub, "...") {
			p := r.IntN(len(o) + 1)
			o = o[:p] + "..." + o[p:]
		}
		sub += "->" + o
	}
	return sub, ops
}

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// einsumReference computes np.einsum(sub, *ops) by its definition, with a
// parser of its own: every assignment of values to the letters (and to
// the broadcast dimensions, named by Greek letters), the product
// of the operands' elements (size-1 dimensions broadcast) added to the
// output's element. It returns the values in row-major order and the
// shape.
func einsumReference(sub string, ops []expr.Exp[float64]) ([]float64, shape.Shape) {
	sub = strings.ReplaceAll(sub, " ", "")
	in, out, explicit := sub, "", strings.Contains(sub, "->")
	if explicit {
		in, out, _ = strings.Cut(sub, "->")
	}
	terms := strings.Split(in, ",")
	nb := 0
	for i, term := range terms {
		if strings.Contains(term, "...") {
			nb = max(nb, len(ops[i].Shape())-(len(term)-3))
		}
	}
	var bn []rune // names for the broadcast dimensions, which no letter can be
	for k := range nb {
		bn = append(bn, rune('α'+k))
	}
	bnames := string(bn)
	size := map[rune]int{}
	for i, term := range terms {
		s := ops[i].Shape()
		if strings.Contains(term, "...") {
			covered := len(s) - (len(term) - 3)
			term = strings.Replace(term, "...", string(bn[nb-covered:]), 1)
		}
		terms[i] = term
		for d, l := range []rune(term) {
			if s[d] != 1 || size[l] == 0 {
				size[l] = s[d]
			}
		}
	}
	if !explicit {
		count := map[rune]int{}
		for _, term := range terms {
			for _, l := range term {
				count[l]++
			}
		}
		var once []rune
		for l, c := range count {
			if c == 1 && !strings.ContainsRune(bnames, l) {
				once = append(once, l)
			}
		}
		slices.Sort(once)
		out = bnames + string(once)
	} else {
		out = strings.Replace(out, "...", bnames, 1)
	}
	var all []rune
	for l := range size {
		all = append(all, l)
	}
	slices.Sort(all)
	outShape := shape.Shape{}
	for _, l := range out {
		outShape = append(outShape, size[l])
	}
	n, _ := outShape.Size()
	res := make([]float64, n)
	val := map[rune]int{}
	var walk func(k int)
	walk = func(k int) {
		if k == len(all) {
			p := 1.0
			for i, term := range terms {
				idx := make([]int, len([]rune(term)))
				s := ops[i].Shape()
				for d, l := range []rune(term) {
					if s[d] != 1 {
						idx[d] = val[l]
					}
				}
				p *= ops[i].At(idx...)
			}
			oi := make([]int, len([]rune(out)))
			for d, l := range []rune(out) {
				oi[d] = val[l]
			}
			res[shape.Ravel(oi, outShape)] += p
			return
		}
		for v := range size[all[k]] {
			val[all[k]] = v
			walk(k + 1)
		}
	}
	walk(0)
	return res, outShape
}

// FuzzEinsumParse checks that Einsum never panics on any subscripts and
// operands of small shapes, and that every error is a NodeError wrapping
// one of package shape's typed errors (ErrInvalid, ErrShape); where the
// subscripts are accepted, the result matches einsumReference.
func FuzzEinsumParse(f *testing.F) {
	for _, s := range []string{"ij,jk->ik", "ii", "...ij,...jk", "i.j", "ij->ii", "a1", "->", ",", "...,...->...", "i->i->i", "Ba,aA", "iji->j", ""} {
		f.Add(s, uint16(0x1234))
	}
	f.Fuzz(func(t *testing.T, sub string, dims uint16) {
		if len(sub) > 40 {
			return
		}
		var ops []expr.Exp[float64]
		for k := range strings.Count(sub, ",") + 1 {
			rank := int(dims>>(3*k)) % 4
			ds := make([]int, rank)
			for d := range ds {
				ds[d] = 1 + int(dims>>(k+d))%2
			}
			ops = append(ops, contractOperand[float64](k, ds...))
			if k == 3 {
				break
			}
		}
		e := expr.Einsum(sub, ops...)
		info, err := expr.Check(e)
		if err != nil {
			var ne *shape.NodeError
			if !errors.As(err, &ne) || !(errors.Is(err, shape.ErrInvalid) || errors.Is(err, shape.ErrShape)) {
				t.Fatalf("%q: %v (%T) is not a typed error", sub, err, err)
			}
			return
		}
		if n, _ := info.Shape.Size(); n > 1<<12 || len(sub) > 16 {
			return
		}
		out, err := kernels.Eval(e)
		if err != nil {
			t.Fatalf("%q: Eval: %v", sub, err)
		}
		want, ws := einsumReference(sub, ops)
		got := []float64{}
		for v := range out.Values() {
			got = append(got, v)
		}
		if !ws.Equal(info.Shape) || !cmp.Equal(want, got) {
			t.Fatalf("%q %v: got %v %v, want %v %v", sub, shapesOf(ops), info.Shape, got, ws, want)
		}
	})
}
