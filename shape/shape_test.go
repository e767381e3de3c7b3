package shape

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShapeBasics(t *testing.T) {
	tests := []struct {
		shape Shape
		ndim  int
		size  int
		str   string
	}{
		{Of(2, 3, 4), 3, 24, "(2,3,4)"},
		{Of(5), 1, 5, "(5,)"},
		{Of(), 0, 1, "()"},
		{Of(3, 0, 2), 3, 0, "(3,0,2)"},
	}
	for _, tt := range tests {
		t.Run(tt.str, func(t *testing.T) {
			if got := tt.shape.NDim(); got != tt.ndim {
				t.Errorf("NDim = %d, want %d", got, tt.ndim)
			}
			size, err := tt.shape.Size()
			if err != nil || size != tt.size {
				t.Errorf("Size = %d, %v; want %d", size, err, tt.size)
			}
			if got := tt.shape.String(); got != tt.str {
				t.Errorf("String = %q, want %q", got, tt.str)
			}
			if !tt.shape.Equal(tt.shape.Clone()) {
				t.Errorf("shape not Equal to its clone")
			}
		})
	}
}

func TestOfCopiesAndRejectsNegative(t *testing.T) {
	dims := []int{2, 3}
	s := Of(dims...)
	dims[0] = 9
	if s[0] != 2 {
		t.Fatalf("Of shares its argument: %v", s)
	}
	err := catch(func() { Of(2, -1) })
	var ae *ArgumentError
	if !errors.As(err, &ae) || ae.Value != -1 {
		t.Fatalf("Of(2,-1) panicked with %v, want ArgumentError naming -1", err)
	}
}

func TestSizeOverflow(t *testing.T) {
	big := Of(math.MaxInt/2+1, 2)
	_, err := big.Size()
	var oe *OverflowError
	if !errors.As(err, &oe) || !errors.Is(err, ErrOverflow) {
		t.Fatalf("Size of %v: err = %v, want OverflowError", big, err)
	}
	if _, err := (Shape{2, -3}).Size(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Size of negative dim: err = %v, want ErrInvalid", err)
	}
	if n, err := Of(math.MaxInt/2, 2).Size(); err != nil || n != math.MaxInt-1 {
		t.Fatalf("largest product: %d, %v", n, err)
	}
}

func TestDim(t *testing.T) {
	s := Of(2, 3, 4)
	for _, tt := range []struct{ i, want int }{{0, 2}, {2, 4}, {-1, 4}, {-3, 2}} {
		if got := s.Dim(tt.i); got != tt.want {
			t.Errorf("Dim(%d) = %d, want %d", tt.i, got, tt.want)
		}
	}
	for _, bad := range []int{3, -4} {
		err := catch(func() { s.Dim(bad) })
		var de *DimensionError
		if !errors.As(err, &de) || de.Dim != bad || de.NDim != 3 {
			t.Errorf("Dim(%d) panicked with %v, want DimensionError{Dim:%d, NDim:3}", bad, err, bad)
		}
	}
}

func TestContiguousAndByteStrides(t *testing.T) {
	tests := []struct {
		shape Shape
		order Order
		want  []int
	}{
		{Of(2, 3, 4), RowMajor, []int{12, 4, 1}},
		{Of(2, 3, 4), ColMajor, []int{1, 2, 6}},
		{Of(5), RowMajor, []int{1}},
		{Of(), RowMajor, []int{}},
		{Of(2, 0, 3), RowMajor, []int{3, 3, 1}},
	}
	for _, tt := range tests {
		got := ContiguousStrides(tt.shape, tt.order)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ContiguousStrides(%v, %v) (-want +got):\n%s", tt.shape, tt.order, diff)
		}
		if !IsContiguous(tt.shape, got, tt.order) {
			t.Errorf("IsContiguous(%v, %v, %v) = false", tt.shape, got, tt.order)
		}
	}
	// MegEngine's example: int32 (2,5) has byte strides (20,4).
	if diff := cmp.Diff([]int{20, 4}, ByteStrides(ContiguousStrides(Of(2, 5), RowMajor), 4)); diff != "" {
		t.Errorf("ByteStrides: %s", diff)
	}
	if RowMajor.String() != "C" || ColMajor.String() != "F" || Order(7).String() != "Order(7)" {
		t.Errorf("Order strings: %v %v %v", RowMajor, ColMajor, Order(7))
	}
}

func TestIsContiguous(t *testing.T) {
	tests := []struct {
		name    string
		shape   Shape
		strides []int
		order   Order
		want    bool
	}{
		{"transposed", Of(3, 2), []int{1, 3}, RowMajor, false},
		{"transposed is F", Of(3, 2), []int{1, 3}, ColMajor, true},
		{"size-1 stride ignored", Of(1, 4), []int{99, 1}, RowMajor, true},
		{"stepped", Of(3), []int{2}, RowMajor, false},
		{"broadcast", Of(3, 4), []int{0, 1}, RowMajor, false},
		{"empty", Of(0, 4), []int{7, 9}, RowMajor, true},
	}
	for _, tt := range tests {
		if got := IsContiguous(tt.shape, tt.strides, tt.order); got != tt.want {
			t.Errorf("%s: IsContiguous = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestOffset(t *testing.T) {
	s, st := Of(2, 3, 4), []int{12, 4, 1}
	tests := []struct {
		index []int
		want  int
	}{
		{[]int{0, 0, 0}, 0},
		{[]int{1, 2, 3}, 23},
		{[]int{-1, -1, -1}, 23},
		{[]int{1, 0, 2}, 14},
	}
	for _, tt := range tests {
		got, err := Offset(s, st, tt.index)
		if err != nil || got != tt.want {
			t.Errorf("Offset(%v) = %d, %v; want %d", tt.index, got, err, tt.want)
		}
	}
	_, err := Offset(s, st, []int{0, 3, 0})
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Dim != 1 || ie.Index != 3 || ie.Size != 3 {
		t.Errorf("Offset out of range: %v", err)
	}
	if _, err := Offset(s, st, []int{0, -4, 0}); !errors.Is(err, ErrIndex) {
		t.Errorf("Offset with -4 in size 3: %v", err)
	}
	if _, err := Offset(s, st, []int{0, 0}); !errors.Is(err, ErrDimension) {
		t.Errorf("Offset with 2 indices: %v", err)
	}
}

func TestExtent(t *testing.T) {
	tests := []struct {
		shape   Shape
		strides []int
		lo, hi  int
		ok      bool
	}{
		{Of(2, 3), []int{3, 1}, 0, 5, true},
		{Of(3), []int{-2}, -4, 0, true},
		{Of(4, 2), []int{0, 1}, 0, 1, true},
		{Of(0, 2), []int{2, 1}, 0, 0, false},
		{Of(), []int{}, 0, 0, true},
	}
	for _, tt := range tests {
		lo, hi, ok := Extent(tt.shape, tt.strides)
		if lo != tt.lo || hi != tt.hi || ok != tt.ok {
			t.Errorf("Extent(%v, %v) = %d, %d, %v; want %d, %d, %v", tt.shape, tt.strides, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}

func TestMshadowHelpers(t *testing.T) {
	s := Of(2, 3, 4, 5)
	checks := []struct {
		name      string
		got, want Shape
	}{
		{"FlatTo1D", s.FlatTo1D(), Of(120)},
		{"FlatTo2D", s.FlatTo2D(), Of(24, 5)},
		{"FlatTo2D scalar", Of().FlatTo2D(), Of(1, 1)},
		{"FlatTo2D 1-D", Of(7).FlatTo2D(), Of(1, 7)},
		{"SubShape", s.SubShape(), Of(3, 4, 5)},
		{"Slice", s.Slice(1, 3), Of(3, 4)},
		{"Slice empty", s.Slice(2, 2), Of()},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	if got := s.ProdShape(1, 3); got != 12 {
		t.Errorf("ProdShape(1,3) = %d, want 12", got)
	}
	if got := s.ProdShape(2, 2); got != 1 {
		t.Errorf("ProdShape(2,2) = %d, want 1", got)
	}
	for name, f := range map[string]func(){
		"ProdShape end past rank": func() { s.ProdShape(0, 5) },
		"Slice start>end":         func() { s.Slice(3, 1) },
		"Slice negative":          func() { s.Slice(-1, 2) },
		"SubShape scalar":         func() { Of().SubShape() },
	} {
		if err := catch(f); !errors.Is(err, ErrDimension) {
			t.Errorf("%s: panic %v, want ErrDimension", name, err)
		}
	}
}

func TestConvertLayout(t *testing.T) {
	tests := []struct {
		in       Shape
		from, to Layout
		want     Shape
	}{
		{Of(2, 3, 4, 5), NCHW, NHWC, Of(2, 4, 5, 3)},
		{Of(2, 4, 5, 3), NHWC, NCHW, Of(2, 3, 4, 5)},
		{Of(2, 3, 4, 5, 6), NCDHW, NDHWC, Of(2, 4, 5, 6, 3)},
		{Of(2, 4, 5, 6, 3), NDHWC, NCDHW, Of(2, 3, 4, 5, 6)},
		{Of(2, 3, 4, 5), NCHW, NCHW, Of(2, 3, 4, 5)},
	}
	for _, tt := range tests {
		got, err := ConvertLayout(tt.in, tt.from, tt.to)
		if err != nil {
			t.Fatalf("ConvertLayout(%v, %v, %v): %v", tt.in, tt.from, tt.to, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ConvertLayout(%v, %v, %v) (-want +got):\n%s", tt.in, tt.from, tt.to, diff)
		}
	}
	if _, err := ConvertLayout(Of(2, 3, 4), NCHW, NHWC); !errors.Is(err, ErrShape) {
		t.Errorf("rank-3 NCHW: err = %v, want ErrShape", err)
	}
	if _, err := ConvertLayout(Of(2, 3, 4, 5), NCHW, NDHWC); !errors.Is(err, ErrInvalid) {
		t.Errorf("NCHW→NDHWC: err = %v, want ErrInvalid", err)
	}
	if NHWC.String() != "NHWC" || NCDHW.String() != "NCDHW" || NDHWC.String() != "NDHWC" || Layout(9).String() != "Layout(9)" {
		t.Errorf("layout names")
	}
}

func TestBroadcast(t *testing.T) {
	tests := []struct {
		in   []Shape
		want Shape
	}{
		{[]Shape{Of(2, 3), Of(3)}, Of(2, 3)},
		{[]Shape{Of(8, 1, 6, 1), Of(7, 1, 5)}, Of(8, 7, 6, 5)},
		{[]Shape{Of(5, 4), Of(1)}, Of(5, 4)},
		{[]Shape{Of(15, 3, 5), Of(15, 1, 5), Of(3, 1)}, Of(15, 3, 5)},
		{[]Shape{Of(1, 3), Of(0, 1)}, Of(0, 3)},
		{[]Shape{Of(), Of(2)}, Of(2)},
		{nil, Of()},
	}
	for _, tt := range tests {
		got, err := Broadcast(tt.in...)
		if err != nil {
			t.Fatalf("Broadcast(%v): %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Broadcast(%v) (-want +got):\n%s", tt.in, diff)
		}
	}
	_, err := Broadcast(Of(2, 1), Of(8, 4, 3), Of(4, 1))
	var be *BroadcastError
	if !errors.As(err, &be) || !errors.Is(err, ErrShape) || !errors.Is(err, ErrBroadcast) {
		t.Fatalf("Broadcast mismatch: %v", err)
	}
	want := "laze: Broadcast: shapes (2,1) and (8,4,3) and (4,1) cannot be broadcast together (sizes disagree in result dimension 1)"
	if err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
}

func TestBroadcastStrides(t *testing.T) {
	got, err := BroadcastStrides(Of(3, 1), []int{1, 1}, Of(2, 3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 1, 0}, got); diff != "" {
		t.Errorf("BroadcastStrides (-want +got):\n%s", diff)
	}
	for _, bad := range [][2]Shape{{Of(3), Of(4)}, {Of(2, 3), Of(3)}} {
		if _, err := BroadcastStrides(bad[0], ContiguousStrides(bad[0], RowMajor), bad[1]); !errors.Is(err, ErrBroadcast) {
			t.Errorf("BroadcastStrides(%v → %v): err = %v", bad[0], bad[1], err)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		kind error
		want string
	}{
		{&ShapeError{Op: "View", Shapes: []Shape{Of(2, 3), Of(4)}, Reason: "element counts differ"}, ErrShape,
			"laze: View: (2,3), (4,): element counts differ"},
		{&IndexError{Op: "At", Dim: 1, Index: 5, Size: 3}, ErrIndex,
			"laze: At: index 5 is out of range for dimension 1 of size 3"},
		{&DimensionError{Op: "Transpose", Dim: 3, NDim: 2}, ErrDimension,
			"laze: Transpose: dimension 3 is out of range for rank 2 (valid: -2 to 1)"},
		{&DimensionError{Op: "Permute", Dim: 1, NDim: 2, Reason: "repeated"}, ErrDimension,
			"laze: Permute: dimension 1: repeated (rank 2)"},
		{&NotContiguousError{Op: "View", Shape: Of(3, 2), Strides: []int{1, 3}, Reason: "use Reshape"}, ErrNotContiguous,
			"laze: View: tensor of shape (3,2) and strides (1,3) is not contiguous: use Reshape"},
		{&DeviceError{Op: "Assign", Devices: []fmt.Stringer{name("cpu"), name("cuda:0")}}, ErrDevice,
			"laze: Assign: operands are on different devices: cpu and cuda:0"},
		{&OverflowError{Op: "New", Shape: Of(1<<30, 1<<30, 1<<30), What: "element count"}, ErrOverflow,
			"laze: New: element count of shape (1073741824,1073741824,1073741824) overflows int"},
		{&ArgumentError{Op: "Slice", Name: "step", Value: 0, Reason: "must not be zero"}, ErrInvalid,
			"laze: Slice: step = 0: must not be zero"},
		{&ReleaseError{Op: "Release", What: "allocation of 64 bytes on cpu"}, ErrReleased,
			"laze: Release: allocation of 64 bytes on cpu was already released"},
		{&StaleError{Op: "Program.Run", Tensor: "the destination", Was: "shape (2,3)", Now: "shape (3,2)"}, ErrStale,
			"laze: Program.Run: the destination changed since Compile (was shape (2,3), now shape (3,2)): compile the program again"},
	}
	for _, tt := range tests {
		if tt.err.Error() != tt.want {
			t.Errorf("message:\n got %s\nwant %s", tt.err, tt.want)
		}
		if !errors.Is(tt.err, tt.kind) {
			t.Errorf("%T is not %v", tt.err, tt.kind)
		}
	}
}

type name string

func (n name) String() string { return string(n) }

// catch runs f and returns the error it panicked with, or nil.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(error)
		}
	}()
	f()
	return nil
}

func TestIndex(t *testing.T) {
	tests := []struct{ i, n, want int }{{0, 3, 0}, {2, 3, 2}, {-1, 3, 2}, {-3, 3, 0}}
	for _, tt := range tests {
		if got, err := Index("X", 0, tt.i, tt.n); err != nil || got != tt.want {
			t.Errorf("Index(%d, size %d) = %d, %v; want %d", tt.i, tt.n, got, err, tt.want)
		}
	}
	for _, bad := range []int{3, -4, 100} {
		_, err := Index("Take", 2, bad, 3)
		var ie *IndexError
		if !errors.As(err, &ie) || ie.Op != "Take" || ie.Dim != 2 || ie.Index != bad || ie.Size != 3 {
			t.Errorf("Index(%d, size 3): %v", bad, err)
		}
	}
	if _, err := Index("X", 0, 0, 0); !errors.Is(err, ErrIndex) {
		t.Errorf("Index into an empty dimension: %v", err)
	}
}

// TestRename checks that Rename renames the outermost laze error of a
// chain, through other wrappers, and leaves the errors it wraps and
// foreign errors alone.
func TestRename(t *testing.T) {
	inner := func() *BroadcastError { return &BroadcastError{Op: "Broadcast", Shapes: []Shape{Of(2), Of(3)}} }
	node := &NodeError{Op: "Check", Node: "(a + b)", Err: inner()}
	wrapped := fmt.Errorf("pair 1: %w", &ArgumentError{Op: "helper", Name: "x", Value: 1, Reason: "bad"})
	foreign := errors.New("not laze's")
	tests := []struct {
		name string
		err  error
		ops  func() []string
		want []string
	}{
		{"typed error", inner(), nil, []string{"Assign"}},
		{"node error: the node's call only", node, func() []string { return []string{node.Op, node.Err.(*BroadcastError).Op} }, []string{"Assign", "Broadcast"}},
		{"through fmt.Errorf", wrapped, func() []string {
			var ae *ArgumentError
			errors.As(wrapped, &ae)
			return []string{ae.Op}
		}, []string{"Assign"}},
	}
	for _, tt := range tests {
		got := Rename(tt.err, "Assign")
		if got != tt.err {
			t.Errorf("%s: Rename returned another error", tt.name)
		}
		ops := []string{}
		if tt.ops != nil {
			ops = tt.ops()
		} else {
			ops = append(ops, tt.err.(*BroadcastError).Op)
		}
		if !slices.Equal(ops, tt.want) {
			t.Errorf("%s: operations %v, want %v", tt.name, ops, tt.want)
		}
	}
	if got := Rename(foreign, "Assign"); got != foreign || got.Error() != "not laze's" {
		t.Errorf("foreign error changed: %v", got)
	}
	if Rename(nil, "Assign") != nil {
		t.Error("Rename(nil) is not nil")
	}
}
