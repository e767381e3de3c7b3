package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// randomSubscripts draws einsum subscripts and the operands' shapes: one
// to three operands of up to three letters from "ijklm" (sizes 1 to 7,
// so that products take the GEMM's edge tiles), a letter sometimes
// repeated (a diagonal) or of size 1 in one operand (broadcast), "..."
// over up to two dimensions, and an output explicit (some of the letters,
// shuffled) or implicit.
func randomSubscripts(r *rand.Rand) (string, []shape.Shape) {
	letters := "ijklm"
	size := map[byte]int{}
	for i := range letters {
		size[letters[i]] = 1 + r.IntN(7)
	}
	ell := r.IntN(4) == 0
	bsize := []int{1 + r.IntN(3), 1 + r.IntN(3)}
	var terms []string
	var shapes []shape.Shape
	used := map[byte]bool{}
	for range 1 + r.IntN(3) {
		var term []byte
		for range r.IntN(4) {
			l := letters[r.IntN(len(letters))]
			term = append(term, l)
			used[l] = true
		}
		var dims shape.Shape
		nb, pos := 0, r.IntN(len(term)+1)
		if ell && r.IntN(2) == 0 {
			nb = 1 + r.IntN(2)
		}
		for i := 0; i <= len(term); i++ {
			if nb > 0 && i == pos {
				dims = append(dims, bsize[2-nb:]...)
			}
			if i < len(term) {
				d := size[term[i]]
				if r.IntN(6) == 0 && strings.Count(string(term), string(term[i])) == 1 {
					d = 1
				}
				dims = append(dims, d)
			}
		}
		s := string(term)
		if nb > 0 {
			s = s[:pos] + "..." + s[pos:]
		}
		terms, shapes = append(terms, s), append(shapes, dims)
	}
	sub := strings.Join(terms, ",")
	if r.IntN(3) > 0 {
		var out []byte
		for i := range letters {
			if used[letters[i]] && r.IntN(2) == 0 {
				out = append(out, letters[i])
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
	return sub, shapes
}

// TestEinsumAssign is the differential test of the contractions: random
// einsums over strided, transposed and negatively stepped views of two
// shared base tensors (randomView), sometimes inside an elementwise tree
// (the product's epilogue), are assigned into a destination that is a new
// tensor, one of the operands itself, or another view of the bases that
// may overlap the operands, and compared with the values At reads from
// the composed tree before the assignment (np.einsum's definition, node
// by node: the expr package's tests hold At to NumPy). The values are
// small integers, so every sum is exact in each element type.
func TestEinsumAssign(t *testing.T) {
	t.Run("float64", func(t *testing.T) { einsumAssign[float64](t, 300) })
	t.Run("float32", func(t *testing.T) { einsumAssign[float32](t, 100) })
	t.Run("int64", func(t *testing.T) { einsumAssign[int64](t, 100) })
	t.Run("int32", func(t *testing.T) { einsumAssign[int32](t, 60) })
}

func einsumAssign[T tensor.Number](t *testing.T, count int) {
	for seed := range uint64(count) {
		r := rand.New(rand.NewPCG(seed, 32))
		bytes := make([]byte, 64)
		for i := range bytes {
			bytes[i] = byte(r.IntN(256))
		}
		src := &byteSource{data: bytes}
		pool := make([]*tensor.Tensor[T], 2)
		for i := range pool {
			pool[i] = tensor.New[T](shape.Shape{poolLen})
			for j := range pool[i].Data() {
				pool[i].Data()[j] = T(r.IntN(7) - 3)
			}
		}
		sub, shapes := randomSubscripts(r)
		ops := make([]expr.Exp[T], len(shapes))
		views := make([]*tensor.Tensor[T], len(shapes))
		for k, s := range shapes {
			views[k] = randomView(src, pool[r.IntN(2)], s)
			ops[k] = views[k]
		}
		e := expr.Einsum(sub, ops...)
		if r.IntN(3) == 0 {
			e = expr.Add(expr.Mul(e, expr.Scalar(T(2))), expr.Scalar(T(1)))
		}
		info, err := expr.Check(e)
		if err != nil {
			t.Fatalf("seed %d: %s %v: %v", seed, sub, shapes, err)
		}
		n, _ := info.Shape.Size()
		want := make([]T, n)
		idx := make([]int, len(info.Shape))
		for i := range want {
			shape.Unravel(i, info.Shape, idx)
			want[i] = e.At(idx...)
		}
		var dst *tensor.Tensor[T]
		what := "a new tensor"
		same := slices.IndexFunc(views, func(v *tensor.Tensor[T]) bool { return v.Shape().Equal(info.Shape) })
		switch c := r.IntN(3); {
		case c == 0 && same >= 0:
			dst, what = views[same], fmt.Sprintf("operand %d", same)
		case c == 1:
			dst, what = randomView(src, pool[r.IntN(2)], info.Shape), "a view of the operands' bases"
		default:
			dst = tensor.New[T](info.Shape)
		}
		if err := Assign(dst, e); err != nil {
			t.Fatalf("seed %d: %s %v into %s: %v", seed, sub, shapes, what, err)
		}
		got := slices.Collect(dst.Values())
		if !slices.Equal(want, got) {
			t.Errorf("seed %d: %s %v into %s (tree %v):\nAt     %v\nAssign %v", seed, sub, shapes, what, e, want, got)
		}
	}
}
