package tensor

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

const p40, p62 = 1 << 40, 1 << 62

// outcome runs f and returns the error it returned or panicked with. A panic
// that is not one of laze's typed errors (a runtime error, a string) is
// returned as errRaw so that the test fails on it.
func outcome(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			var re runtime.Error
			if !ok || errors.As(e, &re) || !isLaze(e) {
				err = &rawPanic{r}
				return
			}
			err = e
		}
	}()
	return f()
}

type rawPanic struct{ v any }

func (r *rawPanic) Error() string { return "raw panic: " + errorString(r.v) }

func errorString(v any) string {
	if e, ok := v.(error); ok {
		return e.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return "?"
}

func nothing[T any](T) error { return nil }

// sizeCase is one call and the error it must give: its kind, and words its
// message must contain (the values at fault).
type sizeCase struct {
	name string
	f    func() error
	kind error    // nil: the call must succeed
	says []string // substrings of the message
}

func runSizeCases(t *testing.T, tests []sizeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := outcome(tt.f)
			var raw *rawPanic
			if errors.As(err, &raw) {
				t.Fatalf("%v", err)
			}
			if tt.kind == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want kind %v", err, tt.kind)
			}
			for _, w := range tt.says {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not say %q", err, w)
				}
			}
		})
	}
}

// limited returns the Default allocator limited to bytes for the test, so
// that valid but large shapes fail fast with a MemoryError.
func limited(t *testing.T, bytes int64) {
	old := alloc.Default().Limit()
	alloc.Default().SetLimit(bytes)
	t.Cleanup(func() { alloc.Default().SetLimit(old) })
}

// TestMakeAndMemoryError: Make returns what New panics with, and the
// MemoryError carries the shape, the dtype, the bytes and the limit.
func TestMakeAndMemoryError(t *testing.T) {
	c := alloc.NewCaching(0)
	c.SetLimit(1 << 20)
	m, err := Make[int32](shape.Of(2, 3), WithAllocator(c))
	if err != nil || !m.Shape().Equal(shape.Of(2, 3)) || !slices.Equal(values(m), make([]int32, 6)) {
		t.Fatalf("Make(2,3) = %v, %v", m, err)
	}
	f, err := Make[float64](shape.Of(512, 512), WithAllocator(c))
	var me *shape.MemoryError
	if f != nil || !errors.As(err, &me) {
		t.Fatalf("Make above the limit = %v, %v", f, err)
	}
	got := shape.MemoryError{Op: me.Op, Bytes: me.Bytes, Limit: me.Limit, Shape: me.Shape, DType: me.DType}
	want := shape.MemoryError{Op: "Make", Bytes: 512 * 512 * 8, Limit: 1 << 20, Shape: shape.Of(512, 512), DType: "float64"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MemoryError (-want +got):\n%s", diff)
	}
	err = outcome(func() error { return nothing(New[float64](shape.Of(512, 512), WithAllocator(c))) })
	if !errors.As(err, &me) || me.Op != "New" {
		t.Errorf("New above the limit panicked with %v", err)
	}
	if st := c.Stats(); st.BytesInUse != 64 { // the 2×3 int32 block only
		t.Errorf("refused allocations left bytes in use: %+v", st)
	}
}

// failing is an allocator whose Alloc fails with an error of its own.
type failing struct{ alloc.Allocator }

var errDevice = errors.New("CUDA_ERROR_OUT_OF_MEMORY")

func (failing) Alloc(int) (*alloc.Allocation, error) { return nil, errDevice }

func TestForeignAllocError(t *testing.T) {
	_, err := Make[float32](shape.Of(4), WithAllocator(failing{alloc.NewCaching(0)}))
	var me *shape.MemoryError
	if !errors.As(err, &me) || !errors.Is(err, errDevice) || me.DType != "float32" || me.Bytes != 16 {
		t.Errorf("an allocator's own error: %v", err)
	}
}

// TestWithAllocatorNil: nil (or a nil pointer) means the Default allocator.
func TestWithAllocatorNil(t *testing.T) {
	for _, a := range []alloc.Allocator{nil, (*alloc.Caching)(nil)} {
		x := New[float64](shape.Of(3), WithAllocator(a))
		if !slices.Equal(values(x), make([]float64, 3)) {
			t.Errorf("WithAllocator(%v): %v", a, x)
		}
	}
	// nil after another allocator resets to the default.
	c := alloc.NewCaching(0)
	New[float64](shape.Of(3), WithAllocator(c), WithAllocator(nil))
	if c.Stats().Allocations != 0 {
		t.Errorf("WithAllocator(nil) did not replace an earlier allocator")
	}
}

// validGeometry reports whether every stride is valid (its byte form fits in
// an int) and every element lies inside the storage, computed exactly.
func validGeometry[T Number](t *Tensor[T]) bool {
	g := exactGeometry(t.shape, t.strides, t.offset, ItemSize[T]())
	return g.valid(len(t.st.data))
}

// TestNilTensor: a nil *Tensor given to a method, a view or a constructor
// panics with an ArgumentError saying the tensor is nil, never a nil
// dereference.
func TestNilTensor(t *testing.T) {
	var n *Tensor[float64]
	a := Zeros[float64](2, 3)
	calls := []struct {
		name string
		f    func() error
		says string
	}{
		{"Shape", func() error { return nothing(n.Shape()) }, "Tensor.Shape: tensor = (*tensor.Tensor[float64])(nil): the tensor is nil"},
		{"NDim", func() error { return nothing(n.NDim()) }, "Tensor.NDim"},
		{"Dim", func() error { return nothing(n.Dim(0)) }, "Tensor.Dim"},
		{"Numel", func() error { return nothing(n.Numel()) }, "Tensor.Numel"},
		{"Strides", func() error { return nothing(n.Strides()) }, "Tensor.Strides"},
		{"ByteStrides", func() error { return nothing(n.ByteStrides()) }, "Tensor.ByteStrides"},
		{"Offset", func() error { return nothing(n.Offset()) }, "Tensor.Offset"},
		{"Device", func() error { return nothing(n.Device()) }, "Tensor.Device"},
		{"IsContiguous", func() error { return nothing(n.IsContiguous()) }, "Tensor.IsContiguous"},
		{"MemSize", func() error { return nothing(n.MemSize()) }, "Tensor.MemSize"},
		{"SharesStorage receiver", func() error { return nothing(n.SharesStorage(a)) }, "Tensor.SharesStorage"},
		{"SharesStorage argument", func() error { return nothing(a.SharesStorage(n)) }, "SharesStorage: u = "},
		{"At", func() error { return nothing(n.At(0)) }, "At: tensor"},
		{"Set", func() error { n.Set(1, 0); return nil }, "Set: tensor"},
		{"Item", func() error { return nothing(n.Item()) }, "Item: tensor"},
		{"Fill", func() error { n.Fill(1); return nil }, "Fill: tensor"},
		{"Transpose", func() error { return nothing(n.Transpose(0, 1)) }, "Transpose: tensor"},
		{"T", func() error { return nothing(n.T()) }, "T: tensor"},
		{"Permute", func() error { return nothing(n.Permute()) }, "Permute: tensor"},
		{"View", func() error { return second(n.View(1)) }, "View: tensor"},
		{"Reshape", func() error { return second(n.Reshape(1)) }, "Reshape: tensor"},
		{"Flatten", func() error { return nothing(n.Flatten()) }, "Flatten: tensor"},
		{"FlatTo1D", func() error { return second(n.FlatTo1D()) }, "FlatTo1D: tensor"},
		{"FlatTo2D", func() error { return second(n.FlatTo2D()) }, "FlatTo2D: tensor"},
		{"Index", func() error { return nothing(n.Index(0, 0)) }, "Index: tensor"},
		{"Slice", func() error { return nothing(n.Slice(0, 0, 1, 1)) }, "Slice: tensor"},
		{"Narrow", func() error { return nothing(n.Narrow(0, 0, 1)) }, "Narrow: tensor"},
		{"Expand", func() error { return second(n.Expand(1)) }, "Expand: tensor"},
		{"BroadcastTo", func() error { return second(n.BroadcastTo(shape.Of(1))) }, "BroadcastTo: tensor"},
		{"Squeeze", func() error { return nothing(n.Squeeze()) }, "Squeeze: tensor"},
		{"Unsqueeze", func() error { return nothing(n.Unsqueeze(0)) }, "Unsqueeze: tensor"},
		{"ZerosLike", func() error { return nothing(ZerosLike(n)) }, "ZerosLike: t = "},
		{"OnesLike", func() error { return nothing(OnesLike(n)) }, "OnesLike: t = "},
		{"FullLike", func() error { return nothing(FullLike(n, 2)) }, "FullLike: t = "},
		{"RandLike", func() error { return nothing(RandLike(n, 1)) }, "RandLike: t = "},
		{"RandnLike", func() error { return nothing(RandnLike(n, 1)) }, "RandnLike: t = "},
	}
	for _, c := range calls {
		err := outcome(c.f)
		var ae *shape.ArgumentError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.says) || !strings.HasSuffix(err.Error(), "the tensor is nil") {
			t.Errorf("%s on a nil tensor: %v; want an ArgumentError saying %q", c.name, err, c.says)
		}
	}
}

// TestNilTensorCopiesAndPrinting checks the nil-tensor rule on the copying,
// printing and releasing methods: a typed error naming the call, or "<nil>"
// when printed, never a raw nil-pointer panic.
func TestNilTensorCopiesAndPrinting(t *testing.T) {
	var null *Tensor[float64]
	wantPanic(t, shape.ErrInvalid, func() { null.Clone() })
	wantPanic(t, shape.ErrInvalid, func() { null.Resize(2) })
	wantPanic(t, shape.ErrInvalid, func() { _ = null.CopyFrom(Zeros[float64](2)) })
	wantPanic(t, shape.ErrInvalid, func() { _ = Zeros[float64](2).CopyFrom(null) })
	if err := null.Release(); !errors.Is(err, shape.ErrInvalid) {
		t.Errorf("Release of a nil tensor: %v", err)
	}
	for _, format := range []string{"%v", "%+v", "%.3v"} {
		if got := fmt.Sprintf(format, null); got != "<nil>" {
			t.Errorf("Sprintf(%q, nil tensor) = %q, want <nil>", format, got)
		}
	}
	if got := null.String(); got != "<nil>" {
		t.Errorf("String of a nil tensor = %q", got)
	}
}

// TestNilTensorIterators checks the iterators, Storage and MayShareMemory
// on a nil tensor: the typed error, never a raw nil-pointer panic.
func TestNilTensorIterators(t *testing.T) {
	var null *Tensor[float64]
	wantPanic(t, shape.ErrInvalid, func() {
		for range null.Values() {
		}
	})
	wantPanic(t, shape.ErrInvalid, func() {
		for range null.All() {
		}
	})
	wantPanic(t, shape.ErrInvalid, func() {
		for range null.Backward() {
		}
	})
	wantPanic(t, shape.ErrInvalid, func() { null.Storage() })
	wantPanic(t, shape.ErrInvalid, func() { MayShareMemory(null, Ones[float64](3)) })
	wantPanic(t, shape.ErrInvalid, func() { MayShareMemory(Ones[float64](3), null) })
}

// TestSizesAtIntBounds: constructors and views refuse shapes past this
// machine's int, whatever its width (sizes64_test.go holds the cases written
// for a 64-bit int), with an OverflowError naming the call and the shape.
func TestSizesAtIntBounds(t *testing.T) {
	limited(t, 64<<20)
	half, quarter := math.MaxInt/2+1, math.MaxInt/4+1 // 2^62 and 2^61, or 2^30 and 2^29
	one := Zeros[float64](1, 1)
	a := Zeros[float64](2, 3)
	runSizeCases(t, []sizeCase{
		{"Zeros elements", func() error { return nothing(Zeros[float64](half, 2)) }, shape.ErrOverflow,
			[]string{"New:", shape.Of(half, 2).String(), "element count"}},
		{"Zeros with a zero", func() error { return nothing(Zeros[float64](0, half, half)) }, shape.ErrOverflow, []string{"element count"}},
		{"Zeros bytes", func() error { return nothing(Zeros[float64](quarter)) }, shape.ErrOverflow,
			[]string{"byte count", shape.Of(quarter).String(), "float64"}},
		{"Zeros int8 fits bytes", func() error { return nothing(Zeros[int8](half, 0)) }, nil, nil},
		{"Eye", func() error { return nothing(Eye[float64](half)) }, shape.ErrOverflow, []string{"Eye:"}},
		{"Linspace", func() error { return nothing(Linspace[float64](0, 1, math.MaxInt)) }, shape.ErrOverflow, []string{"Linspace:"}},
		{"Arange", func() error { return nothing(Arange[float64](0, 4*float64(half), 1)) }, shape.ErrOverflow, []string{"Arange:"}},
		{"Arange int64", func() error { return nothing(Arange[int64](0, int64(half), 1)) }, shape.ErrOverflow, []string{"Arange:"}},
		{"FromSlice", func() error { return second(FromSlice[float64](nil, shape.Shape{half, half, 0})) }, shape.ErrOverflow, []string{"FromSlice:"}},
		{"Make", func() error { return second(Make[float64](shape.Of(half, 2))) }, shape.ErrOverflow, []string{"Make:"}},
		{"Expand", func() error { return second(one.Expand(half, half)) }, shape.ErrOverflow, []string{"Expand"}},
		{"BroadcastTo", func() error { return second(one.BroadcastTo(shape.Of(half, 2))) }, shape.ErrOverflow, nil},
		{"View", func() error { return second(a.View(half, half, 0)) }, shape.ErrOverflow, []string{"View:"}},
	})
}
