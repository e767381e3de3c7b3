package expr_test

import (
	"errors"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// TestCheckRefusesNegativeConstantExponent checks that Check refuses a
// signed integer raised to a negative constant, as NumPy's ValueError, and
// accepts it for unsigned and float types, and that At panics with the same
// error for any negative exponent.
func TestCheckRefusesNegativeConstantExponent(t *testing.T) {
	i32 := tensor.Zeros[int32](2)
	tests := []struct {
		name  string
		check func() error
		want  string // "" for no error
	}{
		{"int8", func() error { return check(expr.PowScalar[int8](tensor.Zeros[int8](2), -1)) },
			"laze: Check: at node (tensor(2,) ** -1): power: exponent = -1: integers to negative integer powers are not allowed (as NumPy); cast the base to a float type"},
		{"int64, nested", func() error {
			return check(expr.Add[int64](tensor.Zeros[int64](2), expr.Pow[int64](tensor.Zeros[int64](2), expr.Scalar[int64](-3))))
		}, "laze: Check: at node (tensor(2,) ** -3): power: exponent = -3: integers to negative integer powers are not allowed (as NumPy); cast the base to a float type"},
		{"int32, fluent", func() error { return check(expr.Of[int32](i32).PowScalar(-2)) },
			"laze: Check: at node (tensor(2,) ** -2): power: exponent = -2: integers to negative integer powers are not allowed (as NumPy); cast the base to a float type"},
		{"int, zero", func() error { return check(expr.PowScalar[int](tensor.Zeros[int](2), 0)) }, ""},
		{"uint8", func() error { return check(expr.PowScalar[uint8](tensor.Zeros[uint8](2), 255)) }, ""},
		{"float64", func() error { return check(expr.PowScalar[float64](tensor.Zeros[float64](2), -1)) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, shape.ErrInvalid) {
				t.Fatalf("Check: %v, want %q (an ErrInvalid)", err, tt.want)
			}
		})
	}
	t.Run("Shape", func(t *testing.T) { // a question of shapes only: no panic
		if got := expr.PowScalar[int8](tensor.Zeros[int8](2), -1).Shape(); !got.Equal(shape.Of(2)) {
			t.Errorf("Shape = %v, want (2,)", got)
		}
	})
	t.Run("At", func(t *testing.T) {
		y, _ := tensor.FromSlice([]int16{1, -2}, shape.Of(2))
		e := expr.Pow[int16](tensor.Full[int16](3, 2), y)
		if got := e.At(0); got != 3 {
			t.Errorf("At(0) = %d, want 3", got)
		}
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, shape.ErrInvalid) {
				t.Errorf("At(1) panicked with %v, want the ArgumentError", err)
			}
		}()
		e.At(1)
	})
}

func check[T tensor.Number](e expr.Exp[T]) error {
	_, err := expr.Check(e)
	return err
}
