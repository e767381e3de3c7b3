package tensor

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
)

// TestSelectWorked checks Select against results worked out from NumPy's
// indexing rules on y = np.arange(24).reshape(2, 3, 4).
func TestSelectWorked(t *testing.T) {
	y := Arange[int64](0, 24, 1).mustView(2, 3, 4)
	tests := []struct {
		numpy string
		ix    []Ix
		shape shape.Shape
		want  []int64
	}{
		{"y[0, :, 0]", []Ix{At(0), All, At(0)}, shape.Of(3), []int64{0, 4, 8}},
		{"y[1]", []Ix{At(1)}, shape.Of(3, 4), []int64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{"y[-1, -1, -1]", []Ix{At(-1), At(-1), At(-1)}, shape.Of(), []int64{23}},
		{"y[..., 1]", []Ix{Ellipsis, At(1)}, shape.Of(2, 3), []int64{1, 5, 9, 13, 17, 21}},
		{"y[:, ::2, ::-3]", []Ix{All, Range(None, None, 2), Range(None, None, -3)}, shape.Of(2, 2, 2), []int64{3, 0, 11, 8, 15, 12, 23, 20}},
		{"y[None, 1, 2:, 1:3]", []Ix{NewAxis, At(1), Range(2, None, 1), Range(1, 3, 1)}, shape.Of(1, 1, 2), []int64{21, 22}},
		{"y[1, ..., None]", []Ix{At(1), Ellipsis, NewAxis}, shape.Of(3, 4, 1), []int64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{"y[:, 5:]", []Ix{All, Range(5, None, 1)}, shape.Of(2, 0, 4), []int64{}},
		{"y[]", nil, shape.Of(2, 3, 4), nil},
	}
	for _, tc := range tests {
		got := y.Select(tc.ix...)
		if diff := cmp.Diff(tc.shape, got.Shape()); diff != "" {
			t.Errorf("%s: shape (-want +got):\n%s", tc.numpy, diff)
			continue
		}
		want := tc.want
		if want == nil {
			want = y.Contiguous().Data()
		}
		if diff := cmp.Diff(want, got.Contiguous().Data()); diff != "" {
			t.Errorf("%s: values (-want +got):\n%s", tc.numpy, diff)
		}
	}
}

// TestSelectErrors checks each misuse panics with an error naming the
// dimension and the value at fault, and Ix's NumPy spelling.
func TestSelectErrors(t *testing.T) {
	y := Zeros[float64](2, 3)
	tests := []struct {
		name   string
		ix     []Ix
		target any
		check  func(error) bool
	}{
		{"index past the end", []Ix{All, At(3)}, new(*shape.IndexError), func(err error) bool {
			var e *shape.IndexError
			return errors.As(err, &e) && e.Dim == 1 && e.Index == 3 && e.Size == 3
		}},
		{"too many indices", []Ix{At(0), At(0), At(0)}, new(*shape.DimensionError), func(err error) bool {
			var e *shape.DimensionError
			return errors.As(err, &e) && e.NDim == 2
		}},
		{"zero step", []Ix{Range(0, 2, 0)}, new(*shape.ArgumentError), func(err error) bool {
			return errors.Is(err, shape.ErrInvalid)
		}},
		{"two ellipses", []Ix{Ellipsis, Ellipsis}, new(*shape.ArgumentError), func(err error) bool {
			return errors.Is(err, shape.ErrInvalid)
		}},
		{"nil entry", []Ix{All, nil}, new(*shape.ArgumentError), func(err error) bool {
			return errors.Is(err, shape.ErrInvalid) && strings.Contains(err.Error(), "ix[1]")
		}},
		{"not a Mark", []Ix{Mark(9)}, new(*shape.ArgumentError), func(err error) bool {
			return errors.Is(err, shape.ErrInvalid) && strings.Contains(err.Error(), "ix[0] = invalid")
		}},
	}
	for _, tc := range tests {
		err := catch(func() { y.Select(tc.ix...) })
		if err == nil || !tc.check(err) {
			t.Errorf("%s: got %v", tc.name, err)
		}
	}
	if got, want := [5]string{At(-1).String(), All.String(), Range(1, None, 2).String(), NewAxis.String(), Ellipsis.String()},
		[5]string{"-1", ":", "1::2", "None", "..."}; got != want {
		t.Errorf("Ix spellings %q, want %q", got, want)
	}
}

// catch runs f and returns the error it panics with, or nil.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
		}
	}()
	f()
	return nil
}

// The entries that take no argument are constants: no caller can reassign
// them (this file compiles only if they are).
const (
	_ = All
	_ = NewAxis
	_ = Ellipsis
)
