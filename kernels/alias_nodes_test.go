package kernels

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// reinterpret views the memory of a slice as elements of another type of
// the same size, as a user with package unsafe (or a C library) can.
func reinterpret[S, T tensor.Number](data []T) []S {
	return unsafe.Slice((*S)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*tensor.ItemSize[T]()/tensor.ItemSize[S]())
}

// wrapped wraps data with shape dims, failing the test on error.
func wrapped[T tensor.Number](t *testing.T, data []T, dims ...int) *tensor.Tensor[T] {
	t.Helper()
	w, err := tensor.Wrap(data, dims)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestAliasingThroughEveryNode checks assignments whose destination
// overlaps a tensor that the tree reads under a node other than a plain
// leaf (a cast, a product, a reduction, an arg reduction), or through
// another tensor object over the same memory (two wrappers of one slice,
// Data then Wrap, a view as another element type), against NumPy's results
// worked out by hand: NumPy evaluates the right side in full first.
func TestAliasingThroughEveryNode(t *testing.T) {
	type scene struct {
		dst *tensor.Tensor[float64]
		e   expr.Exp[float64]
		mem []float64 // the memory to compare
	}
	square := func() (*tensor.Tensor[float64], []float64) {
		m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
		return m, m.Data()
	}
	twins := func(t *testing.T) (*tensor.Tensor[float64], *tensor.Tensor[float64], []float64) {
		data := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}
		return wrapped(t, data, 3, 3), wrapped(t, data, 3, 3), data
	}
	tests := []struct {
		name string
		make func(t *testing.T) scene
		want []float64
	}{
		{"a.T = Cast(a), same type", func(*testing.T) scene {
			a, mem := square()
			return scene{a.T(), expr.Cast[float64](a), mem}
		}, []float64{0, 3, 6, 1, 4, 7, 2, 5, 8}},
		{"a = Cast(a.T) + 1", func(*testing.T) scene {
			a, mem := square()
			return scene{a, expr.Add(expr.Cast[float64](a.T()), expr.Scalar(1.0)), mem}
		}, []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}},
		{"a = eye@ones + Cast(a.T)", func(*testing.T) scene {
			a, mem := square()
			return scene{a, expr.Add(expr.MatMul[float64](tensor.Eye[float64](3), tensor.Ones[float64](3, 3)), expr.Cast[float64](a.T())), mem}
		}, []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}},
		{"a = a@eye + a.T", func(*testing.T) scene {
			a, mem := square()
			return scene{a, expr.Add(expr.MatMul[float64](a, tensor.Eye[float64](3)), a.T()), mem}
		}, []float64{0, 4, 8, 4, 8, 12, 8, 12, 16}},
		{"a = a.T + sum(a, axis=0)", func(*testing.T) scene {
			a, mem := square()
			return scene{a, expr.Add(a.T(), expr.Sum(a, expr.Axis(0))), mem}
		}, []float64{9, 15, 21, 10, 16, 22, 11, 17, 23}},
		{"a = argmax(a.T, axis=1) + a.T", func(*testing.T) scene {
			a, mem := square()
			return scene{a, expr.Add(expr.Cast[float64](expr.ArgMax(a.T(), expr.Axis(1))), a.T()), mem}
		}, []float64{2, 5, 8, 3, 6, 9, 4, 7, 10}},
		{"two wrappers: d1 = d2 @ d2", func(t *testing.T) scene {
			d1, d2, mem := twins(t)
			return scene{d1, expr.MatMul[float64](d2, d2), mem}
		}, []float64{15, 18, 21, 42, 54, 66, 69, 90, 111}},
		{"two wrappers: d1 = relu(d2 @ d2 - 20)", func(t *testing.T) scene {
			d1, d2, mem := twins(t)
			return scene{d1, expr.ReLU(expr.Sub(expr.MatMul[float64](d2, d2), expr.Scalar(20.0))), mem}
		}, []float64{0, 0, 1, 22, 34, 46, 49, 70, 91}},
		{"two wrappers: w1.T = w2 + 1", func(t *testing.T) scene {
			w1, w2, mem := twins(t)
			return scene{w1.T(), expr.Add(w2, expr.Scalar(1.0)), mem}
		}, []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}},
		{"two wrappers: w1.T = Cast(w2)", func(t *testing.T) scene {
			w1, w2, mem := twins(t)
			return scene{w1.T(), expr.Cast[float64](w2), mem}
		}, []float64{0, 3, 6, 1, 4, 7, 2, 5, 8}},
		{"Data then Wrap: a.T = w * 2", func(t *testing.T) scene {
			a, mem := square()
			return scene{a.T(), expr.Mul(wrapped(t, mem, 3, 3), expr.Scalar(2.0)), mem}
		}, []float64{0, 6, 12, 2, 8, 14, 4, 10, 16}},
		{"another element type: f.T = Cast(i) over the same bytes", func(t *testing.T) scene {
			ints := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}
			floats := reinterpret[float64](ints)
			i := wrapped(t, ints, 3, 3)
			f := wrapped(t, floats, 3, 3)
			return scene{f.T(), expr.Cast[float64](i), floats}
		}, []float64{0, 3, 6, 1, 4, 7, 2, 5, 8}},
		{"another element type under a product: f = Cast(i) @ Cast(i)", func(t *testing.T) scene {
			ints := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}
			floats := reinterpret[float64](ints)
			i := wrapped(t, ints, 3, 3)
			f := wrapped(t, floats, 3, 3)
			return scene{f, expr.MatMul(expr.Cast[float64](i), expr.Cast[float64](i)), floats}
		}, []float64{15, 18, 21, 42, 54, 66, 69, 90, 111}},
		{"same view as another element type is read in place", func(t *testing.T) scene {
			ints := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}
			floats := reinterpret[float64](ints)
			return scene{wrapped(t, floats, 3, 3), expr.Cast[float64](wrapped(t, ints, 3, 3)), floats}
		}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}},
	}
	for _, cfg := range evaluatorConfigs {
		for _, tt := range tests {
			t.Run(cfg.name+"/"+tt.name, func(t *testing.T) {
				withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
					sc := tt.make(t)
					if err := Assign(sc.dst, sc.e); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tt.want, sc.mem); diff != "" {
						t.Errorf("(-NumPy +laze):\n%s", diff)
					}
				})
			})
		}
	}
}

// TestAliasingLargeWrappers checks two wrappers of one slice at a size
// where the evaluator walks in blocks and tiles, so that a missed overlap
// cannot pass by luck of a single block read before it is written.
func TestAliasingLargeWrappers(t *testing.T) {
	const n = 70
	data := make([]float64, n*n)
	for i := range data {
		data[i] = float64(i)
	}
	orig := slices.Clone(data)
	w1, w2 := wrapped(t, data, n, n), wrapped(t, data, n, n)
	if err := Assign(w1.T(), expr.Add(w2, expr.Scalar(1.0))); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, n*n)
	for i := range n {
		for j := range n {
			want[j*n+i] = orig[i*n+j] + 1
		}
	}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("w1.T = w2 + 1 (-NumPy +laze):\n%s", diff)
	}

	copy(data, orig)
	if err := w1.T().CopyFrom(w2); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		want[i]--
	}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("w1.T.CopyFrom(w2) (-NumPy +laze):\n%s", diff)
	}
}

// TestDestinationsThatShareElements checks that a destination two of whose
// elements are one memory cell is refused with an ArgumentError naming its
// strides, and left as it was, by every call that writes.
func TestDestinationsThatShareElements(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5}
	diagonal, err := tensor.WrapStrided(data, shape.Shape{2, 4}, []int{1, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := tensor.Arange[float64](0, 4, 1).View(1, 4)
	expanded, err := row.Expand(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	src := tensor.Ones[float64](3, 4)
	tests := []struct {
		name  string
		write func() error
	}{
		{"Assign into strides (1,1)", func() error { return Assign(diagonal, expr.Scalar(7.0)) }},
		{"Assign into strides (1,1), a tree", func() error {
			return Assign(diagonal, expr.Add(tensor.Ones[float64](2, 4), expr.Scalar(1.0)))
		}},
		{"Fill an expanded view", func() error { return Fill(expanded, 7) }},
		{"AddAssign to an expanded view", func() error { return AddAssign[float64](expanded, src) }},
		{"CopyFrom into an expanded view", func() error { return expanded.CopyFrom(src) }},
		{"CopyFrom into strides (1,1)", func() error { return diagonal.CopyFrom(tensor.Ones[float64](2, 4)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, rowBefore := slices.Clone(data), values(row)
			err := tt.write()
			var ae *shape.ArgumentError
			if !errors.As(err, &ae) || ae.Name != "destination strides" {
				t.Fatalf("error %v, want an ArgumentError about the destination strides", err)
			}
			if diff := cmp.Diff(before, data); diff != "" {
				t.Errorf("destination changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(rowBefore, values(row)); diff != "" {
				t.Errorf("expanded row changed (-before +after):\n%s", diff)
			}
		})
	}
}
