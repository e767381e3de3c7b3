package tensor

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

func TestConstructors(t *testing.T) {
	tests := []struct {
		name    string
		got     *Tensor[float64]
		shape   shape.Shape
		strides []int
		want    []float64
	}{
		{"Zeros", Zeros[float64](2, 3), shape.Of(2, 3), []int{3, 1}, []float64{0, 0, 0, 0, 0, 0}},
		{"Ones", Ones[float64](3), shape.Of(3), []int{1}, []float64{1, 1, 1}},
		{"Full", Full(2.5, 2, 1), shape.Of(2, 1), []int{1, 1}, []float64{2.5, 2.5}},
		{"Full scalar", Full(7.0), shape.Of(), []int{}, []float64{7}},
		{"Arange", Arange(0.0, 1.0, 0.25), shape.Of(4), []int{1}, []float64{0, 0.25, 0.5, 0.75}},
		{"Arange down", Arange(5.0, 0.0, -2), shape.Of(3), []int{1}, []float64{5, 3, 1}},
		{"Arange empty", Arange(5.0, 0.0, 1), shape.Of(0), []int{1}, []float64{}},
		{"Linspace", Linspace(0.0, 1.0, 5), shape.Of(5), []int{1}, []float64{0, 0.25, 0.5, 0.75, 1}},
		{"Linspace one", Linspace(3.0, 9.0, 1), shape.Of(1), []int{1}, []float64{3}},
		{"Eye", Eye[float64](3), shape.Of(3, 3), []int{3, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{"New ColMajor", New[float64](shape.Of(2, 3), ColMajor()), shape.Of(2, 3), []int{1, 2}, []float64{0, 0, 0, 0, 0, 0}},
		{"ZerosLike", ZerosLike(Ones[float64](2, 2)), shape.Of(2, 2), []int{2, 1}, []float64{0, 0, 0, 0}},
		{"OnesLike", OnesLike(Zeros[float64](2)), shape.Of(2), []int{1}, []float64{1, 1}},
		{"FullLike", FullLike(Zeros[float64](1, 2), 4), shape.Of(1, 2), []int{2, 1}, []float64{4, 4}},
		{"Scalar", Scalar(3.0), shape.Of(), []int{}, []float64{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.shape, tt.got.Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.strides, tt.got.Strides()); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, values(tt.got)); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIntegerConstructors(t *testing.T) {
	if diff := cmp.Diff([]int32{0, 3, 6, 9}, values(Arange[int32](0, 10, 3))); diff != "" {
		t.Errorf("Arange int32: %s", diff)
	}
	// NumPy: np.linspace(0, 10, 4, dtype=int) truncates 3.33 and 6.67.
	if diff := cmp.Diff([]int{0, 3, 6, 10}, values(Linspace(0, 10, 4))); diff != "" {
		t.Errorf("Linspace int: %s", diff)
	}
	if diff := cmp.Diff([]uint8{1, 0, 0, 1}, values(Eye[uint8](2))); diff != "" {
		t.Errorf("Eye uint8: %s", diff)
	}
}

func TestConstructorPanics(t *testing.T) {
	wantPanic(t, shape.ErrInvalid, func() { Zeros[float64](2, -1) })
	wantPanic(t, shape.ErrOverflow, func() { Zeros[float64](math.MaxInt/4, 4) })
	wantPanic(t, shape.ErrOverflow, func() { Zeros[int8](math.MaxInt/2, 2) }) // past the allocator's bound
	wantPanic(t, shape.ErrInvalid, func() { Arange(0, 1, 0) })
	wantPanic(t, shape.ErrInvalid, func() { Linspace(0.0, 1, -1) })
}

func TestRandReproducible(t *testing.T) {
	a, b, c := Rand[float64](42, 100), Rand[float64](42, 100), Rand[float64](43, 100)
	if diff := cmp.Diff(values(a), values(b)); diff != "" {
		t.Errorf("same seed, different values: %s", diff)
	}
	if cmp.Equal(values(a), values(c)) {
		t.Errorf("different seeds gave the same values")
	}
	for v := range a.Values() {
		if v < 0 || v >= 1 {
			t.Fatalf("Rand value %v outside [0,1)", v)
		}
	}
	n := Randn[float64](7, 20000)
	mean, sq := 0.0, 0.0
	for v := range n.Values() {
		mean += v
		sq += v * v
	}
	mean /= 20000
	std := math.Sqrt(sq/20000 - mean*mean)
	if math.Abs(mean) > 0.05 || math.Abs(std-1) > 0.05 {
		t.Errorf("Randn mean %v std %v, want about 0 and 1", mean, std)
	}
	if diff := cmp.Diff(values(Randn[float32](7, 5)), values(RandnLike(Zeros[float32](5), 7))); diff != "" {
		t.Errorf("RandnLike differs from Randn: %s", diff)
	}
	if diff := cmp.Diff(values(Rand[float32](7, 2, 2)), values(RandLike(Zeros[float32](2, 2), 7))); diff != "" {
		t.Errorf("RandLike differs from Rand: %s", diff)
	}
}

func TestFromSliceCopiesWrapShares(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5, 6}
	c, err := FromSlice(data, shape.Of(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	w, err := Wrap(data, shape.Of(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	data[0] = 100
	if c.At(0, 0) != 1 || w.At(0, 0) != 100 {
		t.Errorf("FromSlice must copy, Wrap must share: %v %v", c.At(0, 0), w.At(0, 0))
	}
	w.Set(-1, 1, 2)
	if data[5] != -1 {
		t.Errorf("write through Wrap not seen in the slice")
	}
	f, _ := FromSlice([]int{1, 2, 3, 4, 5, 6}, shape.Of(2, 3), ColMajor())
	// Fortran order: column 0 is 1,2.
	if diff := cmp.Diff([]int{1, 3, 5, 2, 4, 6}, values(f)); diff != "" {
		t.Errorf("column-major FromSlice: %s", diff)
	}
	_, err = FromSlice(data, shape.Of(4, 2))
	var se *shape.ShapeError
	if !errors.As(err, &se) || se.Error() != "laze: FromSlice: (6,), (4,2): a slice of this length cannot fill this shape" {
		t.Errorf("FromSlice length mismatch: %v", err)
	}
	if _, err := Wrap(data, shape.Of(7)); !errors.Is(err, shape.ErrShape) {
		t.Errorf("Wrap length mismatch: %v", err)
	}
	if _, err := Wrap(data, shape.Shape{-6}); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Wrap negative: %v", err)
	}
	e, err := Wrap[float64](nil, shape.Of(0))
	if err != nil || e.Numel() != 0 {
		t.Errorf("Wrap(nil, (0,)): %v %v", e, err)
	}
}

func TestDType(t *testing.T) {
	type celsius float32
	type count uint16
	got := []string{DTypeOf[float32]().String(), DTypeOf[float64]().String(), DTypeOf[int8]().String(), DTypeOf[int16]().String(), DTypeOf[int32]().String(),
		DTypeOf[int64]().String(), DTypeOf[int]().String(), DTypeOf[uint8]().String(), DTypeOf[uint16]().String(), DTypeOf[uint32]().String(), DTypeOf[uint64]().String(),
		DTypeOf[uint]().String(), DTypeOf[uintptr]().String(), DTypeOf[celsius]().String(), DTypeOf[count]().String()}
	want := []string{"float32", "float64", "int8", "int16", "int32", "int64", "int", "uint8", "uint16",
		"uint32", "uint64", "uint", "uintptr", "float32", "uint16"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DType (-want +got):\n%s", diff)
	}
	if ItemSize[int16]() != 2 || ItemSize[float64]() != 8 || Zeros[int32](1).DType() != Int32 {
		t.Errorf("ItemSize/DType method")
	}
	type big int64
	type small int8
	if DTypeOf[big]().String() != "int64" || DTypeOf[small]().String() != "int8" {
		t.Errorf("defined int types: %s %s", DTypeOf[big]().String(), DTypeOf[small]().String())
	}
}

// TestWrapStrided checks that WrapStrided shares data under any legal
// layout and refuses every layout that would reach outside it.
func TestWrapStrided(t *testing.T) {
	data := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	tests := []struct {
		name    string
		s       shape.Shape
		strides []int
		offset  int
		want    [][]float64 // nil for an error
	}{
		{"row stride past the row", shape.Of(2, 3), []int{5, 1}, 1, [][]float64{{1, 2, 3}, {6, 7, 8}}},
		{"column-major", shape.Of(2, 3), []int{1, 2}, 0, [][]float64{{0, 2, 4}, {1, 3, 5}}},
		{"reversed rows", shape.Of(2, 2), []int{-4, 1}, 4, [][]float64{{4, 5}, {0, 1}}},
		{"broadcast", shape.Of(2, 3), []int{0, 1}, 9, [][]float64{{9, 10, 11}, {9, 10, 11}}},
		{"last element exactly", shape.Of(2, 2), []int{10, 1}, 0, [][]float64{{0, 1}, {10, 11}}},
		{"past the end", shape.Of(2, 2), []int{11, 1}, 0, nil},
		{"before the start", shape.Of(2, 2), []int{-4, 1}, 3, nil},
		{"stride overflow", shape.Of(3, 1), []int{math.MaxInt / 2, 1}, 0, nil},
		{"rank mismatch", shape.Of(2, 2), []int{1}, 0, nil},
		{"negative offset", shape.Of(1), []int{1}, -1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := WrapStrided(data, tt.s, tt.strides, tt.offset)
			if tt.want == nil {
				if !errors.Is(err, shape.ErrInvalid) {
					t.Fatalf("WrapStrided = %v, want an ErrInvalid error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rows2(w)); diff != "" {
				t.Errorf("elements (-want +got):\n%s", diff)
			}
		})
	}
	w, err := WrapStrided(data, shape.Of(2, 3), []int{1, 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Set(-1, 1, 2)
	if data[5] != -1 {
		t.Errorf("a write through WrapStrided did not reach the slice: %v", data)
	}
	if e, err := WrapStrided[float64](nil, shape.Of(0, 4), []int{4, 1}, 0); err != nil || e.Numel() != 0 {
		t.Errorf("an empty shape over no data: %v %v", e, err)
	}
}

// rows2 returns a 2-D tensor's elements row by row.
func rows2[T Number](t *Tensor[T]) [][]T {
	out := make([][]T, t.Dim(0))
	for i := range out {
		for j := 0; j < t.Dim(1); j++ {
			out[i] = append(out[i], t.At(i, j))
		}
	}
	return out
}
