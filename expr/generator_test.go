package expr_test

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// genCase is a generator expression with the shape and values NumPy gives
// for the same call (printed by NumPy 1.24's repr of tolist(), so every
// float is the exact double).
type genCase[T tensor.Number] struct {
	numpy string
	e     expr.Exp[T]
	shape shape.Shape
	want  []T
}

// checkGenerated compares each case's elements, read with At and
// evaluated by kernels.Eval (the fused loop reading positions), with
// NumPy's, bit for bit.
func checkGenerated[T tensor.Number](t *testing.T, cases []genCase[T]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.numpy, func(t *testing.T) {
			if diff := cmp.Diff(tt.shape, tt.e.Shape()); diff != "" {
				t.Fatalf("shape (-numpy +laze):\n%s", diff)
			}
			var at []T
			for idx := range tensor.Empty[T](tt.shape).All() {
				at = append(at, tt.e.At(idx...))
			}
			if diff := cmp.Diff(tt.want, at, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("At (-numpy +laze):\n%s", diff)
			}
			out, err := kernels.Eval(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.Contiguous().Data(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Eval (-numpy +laze):\n%s", diff)
			}
		})
	}
}

func TestGenerators(t *testing.T) {
	arange12 := expr.Of[float64](expr.Arange[float64](0, 12, 1)).Reshape(3, 4)
	checkGenerated(t, []genCase[float64]{
		{"np.arange(0, 1, 0.1)", expr.Arange(0, 1, 0.1), shape.Of(10),
			[]float64{0.0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9}},
		{"np.arange(0.1, 1, 0.3)", expr.Arange(0.1, 1, 0.3), shape.Of(3), []float64{0.1, 0.4, 0.7000000000000001}},
		{"np.arange(-2.5, 2, 0.7)", expr.Arange(-2.5, 2, 0.7), shape.Of(7),
			[]float64{-2.5, -1.8, -1.1, -0.40000000000000036, 0.2999999999999998, 1.0, 1.6999999999999993}},
		{"np.arange(1e-3, 5e-3, 1e-3)", expr.Arange(1e-3, 5e-3, 1e-3), shape.Of(4), []float64{0.001, 0.002, 0.003, 0.004}},
		{"np.arange(5, 5, 1)", expr.Arange[float64](5, 5, 1), shape.Of(0), nil},
		{"np.arange(0, 3, -1)", expr.Arange[float64](0, 3, -1), shape.Of(0), nil},
		{"np.linspace(0, 1, 7)", expr.Linspace[float64](0, 1, 7, true), shape.Of(7),
			[]float64{0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666666, 0.8333333333333333, 1.0}},
		{"np.linspace(2, 3, 4, endpoint=False)", expr.Linspace[float64](2, 3, 4, false), shape.Of(4), []float64{2, 2.25, 2.5, 2.75}},
		{"np.linspace(1, 5, 1)", expr.Linspace[float64](1, 5, 1, true), shape.Of(1), []float64{1}},
		{"np.linspace(0, 1, 0)", expr.Linspace[float64](0, 1, 0, true), shape.Of(0), nil},
		{"np.eye(3, 4, 1)", expr.Eye[float64](3, 4, 1), shape.Of(3, 4), []float64{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}},
		{"np.eye(4, 3, -2)", expr.Eye[float64](4, 3, -2), shape.Of(4, 3), []float64{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}},
		{"np.tri(3, 4, -1)", expr.Tri[float64](3, 4, -1), shape.Of(3, 4), []float64{0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0}},
		{"np.tri(2, 3, 5)", expr.Tri[float64](2, 3, 5), shape.Of(2, 3), []float64{1, 1, 1, 1, 1, 1}},
		{"np.eye(2, 3, k=sys.maxsize)", expr.Eye[float64](2, 3, math.MaxInt), shape.Of(2, 3), []float64{0, 0, 0, 0, 0, 0}},
		{"np.tri(2, 2, k=sys.maxsize)", expr.Tri[float64](2, 2, math.MaxInt), shape.Of(2, 2), []float64{1, 1, 1, 1}},
		{"np.tri(2, 2, k=-sys.maxsize-1)", expr.Tri[float64](2, 2, math.MinInt), shape.Of(2, 2), []float64{0, 0, 0, 0}},
		{"np.full((2, 3), 7)", expr.Full[float64](7, 2, 3), shape.Of(2, 3), []float64{7, 7, 7, 7, 7, 7}},
		{"np.arange(12.).reshape(3,4)[::-1, 1::2]", arange12.Slice(0, tensor.None, tensor.None, -1).Slice(1, 1, tensor.None, 2),
			shape.Of(3, 2), []float64{9, 11, 5, 7, 1, 3}},
		{"np.eye(3)[:, ::-1].T", expr.Of[float64](expr.Eye[float64](3, 3, 0)).Flip(1).T(), shape.Of(3, 3),
			[]float64{0, 0, 1, 0, 1, 0, 1, 0, 0}},
		{"np.arange(6.).reshape(2,3).T.ravel() (a copy)", expr.Of[float64](expr.Arange[float64](0, 6, 1)).Reshape(2, 3).T().Ravel(),
			shape.Of(6), []float64{0, 3, 1, 4, 2, 5}},
		{"np.diagonal(np.arange(16.).reshape(4,4), 1)", expr.Diagonal(expr.Reshape[float64](expr.Arange[float64](0, 16, 1), 4, 4), 1, 0, 1),
			shape.Of(3), []float64{1, 6, 11}},
		{"np.broadcast_to(np.arange(3.), (2, 3)) * 2", expr.Of[float64](expr.Arange[float64](0, 3, 1)).BroadcastTo(2, 3).MulScalar(2),
			shape.Of(2, 3), []float64{0, 2, 4, 0, 2, 4}},
	})
	checkGenerated(t, []genCase[float32]{
		{"np.arange(0, 1, 0.1, dtype=np.float32)", expr.Arange[float32](0, 1, 0.1), shape.Of(10),
			[]float32{0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5,
				0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.9000000357627869}},
		{"np.linspace(0.1, 0.7, 5, dtype=np.float32)", expr.Linspace[float32](0.1, 0.7, 5, true), shape.Of(5),
			[]float32{0.10000000149011612, 0.25, 0.4000000059604645, 0.550000011920929, 0.699999988079071}},
	})
	checkGenerated(t, []genCase[int64]{
		{"np.arange(10, 0, -3)", expr.Arange[int64](10, 0, -3), shape.Of(4), []int64{10, 7, 4, 1}},
		{"np.linspace(-3.5, 2, 4, dtype=np.int64)", expr.Linspace[int64](-3.5, 2, 4, true), shape.Of(4), []int64{-4, -2, 0, 2}},
	})
	checkGenerated(t, []genCase[int32]{
		{"np.arange(-7, 8, 4, dtype=np.int32)", expr.Arange[int32](-7, 8, 4), shape.Of(4), []int32{-7, -3, 1, 5}},
	})
}

// TestGeneratorErrors checks that arguments that make no array are
// reported by Check as a NodeError naming the call, with the typed error.
func TestGeneratorErrors(t *testing.T) {
	tests := []struct {
		e    expr.Exp[float64]
		kind error
		msg  string
	}{
		{expr.Arange[float64](0, 1, 0), shape.ErrInvalid, "laze: Check: at node np.arange(0, 1, 0): arange: step = 0: must not be zero"},
		{expr.Arange[float64](0, 1e300, 1e-300), shape.ErrInvalid, ""},
		{expr.Full[float64](1, 2, -3), shape.ErrInvalid, ""},
		{expr.Eye[float64](-1, 2, 0), shape.ErrInvalid, ""},
		{expr.Linspace[float64](0, 1, math.MaxInt/2, true), shape.ErrOverflow, ""},
	}
	for _, tt := range tests {
		_, err := expr.Check(tt.e)
		var ne *shape.NodeError
		if !errors.As(err, &ne) || !errors.Is(err, tt.kind) {
			t.Errorf("%v: Check = %v, want a NodeError wrapping %v", tt.e, err, tt.kind)
			continue
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("message:\n got %s\nwant %s", err, tt.msg)
		}
	}
}

// TestGeneratorsHoldNoMemory checks that a tree reading a generator
// allocates nothing the size of the generator: exp(-arange(n)·dt)·x into
// a preallocated destination.
func TestGeneratorsHoldNoMemory(t *testing.T) {
	const n = 1 << 16
	x := tensor.Ones[float64](n)
	dst := tensor.Zeros[float64](n)
	e := expr.Mul[float64](expr.Of[float64](expr.Arange[float64](0, n, 1)).MulScalar(-1e-3).Exp(), x)
	if err := kernels.Assign(dst, e); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 5 {
		if err := kernels.Assign(dst, e); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if perCall := (after.TotalAlloc - before.TotalAlloc) / 5; perCall > n { // the values alone would be 8n bytes
		t.Errorf("Assign allocates %d bytes per call, want far less than the %d of the generator's values", perCall, 8*n)
	}
	if got, want := dst.At(1000), x.At(1000)*math.Exp(float64(1000)*-1e-3); got != want {
		t.Errorf("dst[1000] = %v, want %v", got, want)
	}
}

// TestArangeFillBlocks checks Fill's arange blocks (four counters a trip,
// the first two values put back after) against Value, the formula element
// by element, bit for bit: blocks holding positions 0 and 1 or not,
// negative and zero strides, lengths that leave a tail, positions past
// 2^24, where float32's T(i) rounds, and past 2^53, where the float64
// counters would.
func TestArangeFillBlocks(t *testing.T) {
	testArangeFill(t, expr.Arange[float64](0.1, 1e9, 0.3))
	testArangeFill(t, expr.Arange[float32](-3.7, 1e9, 2.5))
	testArangeFill(t, expr.Arange[int32](-7, 1e9, 3))
	testArangeFill(t, expr.Arange[int64](-7, 1e9, 3))
}

func testArangeFill[T tensor.Number](t *testing.T, g *expr.Generator[T]) {
	for _, c := range []struct {
		p         int64
		stride, n int
	}{
		{0, 1, 13}, {1, 1, 8}, {2, 1, 7}, {0, 2, 9}, {5, -1, 6}, {6, -2, 4}, {1, 0, 5}, {3, 0, 3},
		{1<<24 - 3, 1, 11}, {1<<24 + 1, 7, 10}, {0, 1, 0}, {1, 1, 1}, {1<<53 - 5, 1, 9}, {1<<53 + 5, -3, 6},
	} {
		if int64(int(c.p)) != c.p {
			continue // positions past 2^53 need a 64-bit int
		}
		p := int(c.p)
		got := make([]T, c.n)
		g.Fill(got, p, c.stride)
		want := make([]T, c.n)
		for k := range want {
			want[k] = g.Value(p + k*c.stride)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: Fill(p=%d, stride=%d, n=%d) (-Value +Fill):\n%s", g, p, c.stride, c.n, diff)
		}
	}
}
