//go:build !(386 || arm || mips || mipsle)

// The cases in this file are written at the bounds of a 64-bit int (2^40,
// 2^62, MaxInt64) and their messages name those values, so they need one;
// on 32-bit machines the portable tests (the size rule at this int's own
// bounds) run instead, and TestSizeBounds64 says that these were skipped.

package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestConstructorSizes: every constructor refuses a shape that breaks the
// size rule, or that the allocator cannot serve, with the typed error naming
// the constructor and the shape.
func TestConstructorSizes(t *testing.T) {
	limited(t, 64<<20)
	data := make([]float64, 12)
	tests := []sizeCase{
		{"Zeros 2^40×2^40", func() error { return nothing(Zeros[float64](p40, p40)) }, shape.ErrOverflow,
			[]string{"New:", "(1099511627776,1099511627776)", "element count"}},
		{"Zeros with a zero hiding an overflow", func() error { return nothing(Zeros[float64](0, p62, p62)) }, shape.ErrOverflow,
			[]string{"(0,4611686018427387904,4611686018427387904)"}},
		{"Zeros bytes", func() error { return nothing(Zeros[float64](1 << 61)) }, shape.ErrOverflow,
			[]string{"byte count", "(2305843009213693952,)", "float64"}},
		{"Zeros bytes with a zero", func() error { return nothing(Zeros[int32](1<<62, 0)) }, shape.ErrOverflow,
			[]string{"byte count", "int32"}},
		{"Zeros int8 fits bytes", func() error { return nothing(Zeros[int8](p62, 0)) }, nil, nil},
		{"Zeros negative", func() error { return nothing(Zeros[float64](2, -1)) }, shape.ErrInvalid, []string{"New:", "-1"}},
		{"Zeros above the limit", func() error { return nothing(Zeros[float64](1 << 30)) }, shape.ErrMemory,
			[]string{"New: unable to allocate 8.00 GiB for an array with shape (1073741824,) and data type float64", "64.0 MiB"}},
		{"Full", func() error { return nothing(Full[float64](1, p62, 4)) }, shape.ErrOverflow, []string{"Full:"}},
		{"Ones", func() error { return nothing(Ones[uint8](math.MaxInt, 2)) }, shape.ErrOverflow, []string{"Full:"}},
		{"Empty", func() error { return nothing(Empty[float64](shape.Shape{p40, p40})) }, shape.ErrOverflow, []string{"Empty:"}},
		{"Eye", func() error { return nothing(Eye[float64](1 << 32)) }, shape.ErrOverflow,
			[]string{"Eye:", "(4294967296,4294967296)"}},
		{"Eye negative", func() error { return nothing(Eye[float64](-3)) }, shape.ErrInvalid, []string{"Eye:", "-3"}},
		{"Eye above the limit", func() error { return nothing(Eye[float64](1 << 16)) }, shape.ErrMemory, []string{"Eye:", "32.0 GiB"}},
		{"Rand", func() error { return nothing(Rand[float64](1, p40, p40)) }, shape.ErrOverflow, []string{"Rand:"}},
		{"Randn", func() error { return nothing(Randn[float32](1, math.MaxInt)) }, shape.ErrOverflow, []string{"Randn:", "float32"}},
		{"Linspace huge", func() error { return nothing(Linspace[float64](0, 1, math.MaxInt)) }, shape.ErrOverflow,
			[]string{"Linspace:", "9223372036854775807"}},
		{"Linspace above the limit", func() error { return nothing(Linspace[float64](0, 1, p40)) }, shape.ErrMemory,
			[]string{"Linspace: unable to allocate 8.00 TiB"}},
		{"Linspace negative", func() error { return nothing(Linspace[float64](0, 1, -1)) }, shape.ErrInvalid, []string{"num = -1"}},
		{"FromSlice", func() error { return second(FromSlice[float64](nil, shape.Shape{p40, p40, 0})) }, shape.ErrOverflow,
			[]string{"FromSlice:", "(1099511627776,1099511627776,0)"}},
		{"Wrap", func() error { return second(Wrap[float64](nil, shape.Shape{0, p62, p62})) }, shape.ErrOverflow, []string{"Wrap:"}},
		{"Wrap negative", func() error { return second(Wrap(data, shape.Shape{-12})) }, shape.ErrInvalid, []string{"Wrap:"}},
		{"WrapStrided shape", func() error { return second(WrapStrided(data, shape.Shape{p40, p40}, []int{0, 0}, 0)) },
			shape.ErrOverflow, []string{"WrapStrided:"}},
		{"WrapStrided stride·size overflows", func() error {
			return second(WrapStrided(data, shape.Of(2, 2), []int{math.MaxInt, 1}, 5))
		}, shape.ErrInvalid, []string{"5, (9223372036854775807,1)", "beyond the range of int", "storage of 12"}},
		{"WrapStrided offset + extent overflows", func() error {
			return second(WrapStrided(data, shape.Of(2), []int{1}, math.MaxInt))
		}, shape.ErrInvalid, []string{"9223372036854775807, (1,)", "beyond the range of int"}},
		{"WrapStrided MinInt stride", func() error { return second(WrapStrided(data, shape.Of(2), []int{math.MinInt}, 0)) },
			shape.ErrInvalid, []string{"elements -9223372036854775808 to 0"}},
		{"WrapStrided unused stride beyond bytes", func() error {
			return second(WrapStrided(data, shape.Of(1), []int{math.MinInt}, 0))
		}, shape.ErrOverflow, []string{"byte stride of dimension 0", "-9223372036854775808"}},
		{"WrapStrided empty, stride beyond bytes", func() error {
			return second(WrapStrided(data, shape.Of(0, 5), []int{1, math.MaxInt / 4}, 0))
		}, shape.ErrOverflow, []string{"byte stride of dimension 1"}},
		{"WrapStrided negative offset", func() error { return second(WrapStrided(data, shape.Of(0), []int{1}, -1)) },
			shape.ErrInvalid, []string{"offset = -1"}},
		{"WrapStrided empty, far offset", func() error { return second(WrapStrided(data, shape.Of(0, 5), []int{1, 1 << 50}, math.MaxInt)) },
			nil, nil},
		{"Make", func() error { return second(Make[float64](shape.Of(p40, p40))) }, shape.ErrOverflow, []string{"Make:"}},
		{"Make above the limit", func() error { return second(Make[float64](shape.Of(100000, 100000))) }, shape.ErrMemory,
			[]string{"unable to allocate 74.5 GiB for an array with shape (100000,100000) and data type float64"}},
		{"Make negative", func() error { return second(Make[int64](shape.Shape{-1})) }, shape.ErrInvalid, nil},
	}
	runSizeCases(t, tests)
}

// TestViewSizes: views of sizes that overflow, and indices and steps at the
// ends of int, give the typed error or a correct view, never a wrapped one.
func TestViewSizes(t *testing.T) {
	one := Zeros[float64](1, 1)
	a := Zeros[float64](2, 3)
	v := Arange[float64](0, 5, 1)
	empty := Zeros[float64](0)
	tests := []sizeCase{
		{"Expand 2^40×2^40", func() error { return second(one.Expand(p40, p40)) }, shape.ErrOverflow,
			[]string{"Expand:", "(1099511627776,1099511627776)"}},
		{"Expand with a zero", func() error { return second(one.Expand(0, p62, p62)) }, shape.ErrOverflow, nil},
		{"BroadcastTo 2^40×2^40", func() error { return second(one.BroadcastTo(shape.Of(p40, p40))) }, shape.ErrOverflow,
			[]string{"BroadcastTo:"}},
		{"BroadcastTo MaxInt×2", func() error { return second(one.BroadcastTo(shape.Of(math.MaxInt, 2))) }, shape.ErrOverflow, nil},
		{"View with a zero", func() error { return second(a.View(p40, p40, 0)) }, shape.ErrOverflow, []string{"View:"}},
		{"View of empty", func() error { return second(empty.View(0, p62, p62)) }, shape.ErrOverflow,
			[]string{"View:", "(0,4611686018427387904,4611686018427387904)"}},
		{"Reshape of empty", func() error { return second(empty.Reshape(0, p62, 4)) }, shape.ErrOverflow, []string{"Reshape:"}},
		{"View MaxInt", func() error { return second(a.View(math.MaxInt, -1)) }, shape.ErrShape, nil},
		{"View MinInt", func() error { return second(a.View(math.MinInt)) }, shape.ErrInvalid, nil},
		{"Narrow(0, 1, MaxInt)", func() error { return nothing(a.Narrow(0, 1, math.MaxInt)) }, shape.ErrInvalid,
			[]string{"Narrow: length = 9223372036854775807", "start 1", "size 2"}},
		{"Narrow(0, 0, MaxInt)", func() error { return nothing(a.Narrow(0, 0, math.MaxInt)) }, shape.ErrIndex, nil},
		{"Narrow(0, -1, MinInt)", func() error { return nothing(a.Narrow(0, -1, math.MinInt)) }, shape.ErrIndex, nil},
		{"Narrow(0, MinInt, 1)", func() error { return nothing(a.Narrow(0, math.MinInt, 1)) }, shape.ErrIndex, nil},
		{"Narrow(MaxInt, 0, 1)", func() error { return nothing(a.Narrow(math.MaxInt, 0, 1)) }, shape.ErrDimension, nil},
		{"Slice dim MinInt", func() error { return nothing(v.Slice(math.MinInt, 0, 1, 1)) }, shape.ErrDimension, nil},
		{"Index MinInt", func() error { return nothing(v.Index(0, math.MinInt)) }, shape.ErrIndex,
			[]string{"index -9223372036854775808"}},
		{"Index MaxInt", func() error { return nothing(v.Index(0, math.MaxInt)) }, shape.ErrIndex, nil},
		{"Index dim MinInt", func() error { return nothing(v.Index(math.MinInt, 0)) }, shape.ErrDimension, nil},
		{"Unsqueeze MaxInt", func() error { return nothing(v.Unsqueeze(math.MaxInt)) }, shape.ErrDimension, nil},
		{"Unsqueeze MinInt", func() error { return nothing(v.Unsqueeze(math.MinInt)) }, shape.ErrDimension, nil},
		{"Transpose MinInt", func() error { return nothing(a.Transpose(math.MinInt, 0)) }, shape.ErrDimension, nil},
		{"Permute MaxInt", func() error { return nothing(a.Permute(math.MaxInt, 0)) }, shape.ErrDimension, nil},
		{"At MinInt", func() error { return nothing(v.At(math.MinInt)) }, shape.ErrIndex, nil},
		{"Squeeze MinInt", func() error { return nothing(a.Squeeze(math.MinInt)) }, shape.ErrDimension, nil},
	}
	runSizeCases(t, tests)

	// Extreme bounds and steps give Python's answer and a valid stride.
	steps := []struct {
		name             string
		start, end, step int
		want             []float64
	}{
		{"step MinInt", None, None, math.MinInt, []float64{4}},
		{"step MaxInt", None, None, math.MaxInt, []float64{0}},
		{"step -MaxInt from MaxInt", math.MaxInt, None, -math.MaxInt, []float64{4}},
		{"bounds at the ends, backwards", math.MaxInt, math.MinInt + 1, -1, []float64{4, 3, 2, 1, 0}},
		{"bounds at the ends, forwards", math.MinInt + 1, math.MaxInt, 2, []float64{0, 2, 4}},
		{"empty at MaxInt", math.MaxInt, math.MaxInt, math.MinInt, []float64{}},
		{"step 2^62 from -1", -1, None, -p62, []float64{4}},
	}
	for _, s := range steps {
		x := v.Slice(0, s.start, s.end, s.step)
		if diff := cmp.Diff(s.want, values(x)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, diff)
		}
		if !validGeometry(x) {
			t.Errorf("%s: invalid geometry: shape %v strides %v offset %d", s.name, x.shape, x.strides, x.offset)
		}
	}
	// A valid huge view is kept, with its exact element count; the same
	// view of 8-byte elements would have a byte count beyond int (NumPy's
	// "array is too big").
	x, err := Zeros[uint8](1, 1).Expand(1<<31, 1<<31)
	if err != nil || x.Numel() != p62 {
		t.Fatalf("Expand(2^31, 2^31) = %v", err)
	}
	if _, err := one.Expand(1<<31, 1<<31); !errors.Is(err, shape.ErrOverflow) || !strings.Contains(err.Error(), "byte count") {
		t.Errorf("Expand(2^31, 2^31) of float64: %v", err)
	}
}

// TestArangeSizes: Arange fails as NumPy does for lengths that do not fit
// and for arguments that are not finite, naming start, stop and step.
func TestArangeSizes(t *testing.T) {
	limited(t, 64<<20)
	nan, inf := math.NaN(), math.Inf(1)
	tests := []sizeCase{
		{"NaN stop", func() error { return nothing(Arange(0, nan, 1)) }, shape.ErrInvalid,
			[]string{"Arange: stop = NaN", "start=0, stop=NaN, step=1"}},
		{"NaN start", func() error { return nothing(Arange(nan, 1, 1)) }, shape.ErrInvalid, []string{"start = NaN"}},
		{"NaN step", func() error { return nothing(Arange(0, 1, nan)) }, shape.ErrInvalid, []string{"step = NaN"}},
		{"Inf stop", func() error { return nothing(Arange(0, inf, 1)) }, shape.ErrInvalid, []string{"stop = +Inf"}},
		{"-Inf start", func() error { return nothing(Arange(-inf, 0, 1)) }, shape.ErrInvalid, []string{"start = -Inf"}},
		{"Inf step", func() error { return nothing(Arange(0, 10, inf)) }, shape.ErrInvalid, []string{"step = +Inf"}},
		{"float32 Inf", func() error { return nothing(Arange(float32(0), float32(inf), 1)) }, shape.ErrInvalid, []string{"+Inf"}},
		{"zero step", func() error { return nothing(Arange(0, 1, 0)) }, shape.ErrInvalid, []string{"step = 0"}},
		{"length beyond int", func() error { return nothing(Arange(0, 1e300, 1e-300)) }, shape.ErrOverflow,
			[]string{"Arange: length", "start=0, stop=1e+300, step=1e-300"}},
		{"length beyond bytes", func() error { return nothing(Arange(0, 1e18, 1)) }, shape.ErrOverflow,
			[]string{"Arange: byte count of shape (1000000000000000000,)"}},
		{"length above the limit", func() error { return nothing(Arange(0, 1e12, 1)) }, shape.ErrMemory,
			[]string{"Arange: unable to allocate 7.28 TiB"}},
		{"int64 full range", func() error { return nothing(Arange[int64](math.MinInt64, math.MaxInt64, 1)) }, shape.ErrOverflow,
			[]string{"= 18446744073709551615 for start=-9223372036854775808, stop=9223372036854775807, step=1"}},
		{"uint64 full range", func() error { return nothing(Arange[uint64](0, math.MaxUint64, 1)) }, shape.ErrOverflow,
			[]string{"18446744073709551615"}},
		{"int64 bytes", func() error { return nothing(Arange[int64](0, p62, 1)) }, shape.ErrOverflow, []string{"byte count"}},
	}
	runSizeCases(t, tests)
	// What still works, exactly.
	values := []struct {
		name string
		got  *Tensor[int64]
		want []int64
	}{
		{"huge step", Arange[int64](10, 0, math.MinInt64), []int64{10}},
		{"huge span, huge step", Arange[int64](math.MinInt64, math.MaxInt64, math.MaxInt64), []int64{math.MinInt64, -1, math.MaxInt64 - 1}},
		{"exact length", Arange[int64](1<<53, 1<<53+3, 1), []int64{1 << 53, 1<<53 + 1, 1<<53 + 2}},
		{"empty, wrong direction", Arange[int64](0, 10, -1), []int64{}},
	}
	for _, v := range values {
		if diff := cmp.Diff(v.want, values2(v.got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", v.name, diff)
		}
	}
	if diff := cmp.Diff([]int8{-128, -28, 72}, values2(Arange[int8](-128, 127, 100))); diff != "" {
		t.Errorf("int8 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]uint8{250, 252, 254}, values2(Arange[uint8](250, 255, 2))); diff != "" {
		t.Errorf("uint8 (-want +got):\n%s", diff)
	}
}

func values2[T Number](t *Tensor[T]) []T { return values(t) }
