package kernels

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// powerCase is a power of integers whose exponent may hold a negative
// value: NumPy refuses it ("Integers to negative integer powers are not
// allowed"), and so does every evaluator, before writing anything.
type powerCase[T tensor.Number] struct {
	name string
	// tree builds the expression over x = [1 2 3] and y, the exponent's
	// values.
	tree func(x, y expr.Exp[T]) expr.Exp[T]
	y    []int64
	// want is the start of the error's message after "laze: <call>: ", or
	// "" for no error.
	want string
}

func powerCases[T tensor.Number]() []powerCase[T] {
	return []powerCase[T]{
		{"constant", func(x, _ expr.Exp[T]) expr.Exp[T] { return expr.PowScalar(x, T(0)-1) }, []int64{0, 0, 0},
			"at node (tensor(3,) ** -1): power: exponent = -1: integers to negative"},
		{"named constant", func(x, _ expr.Exp[T]) expr.Exp[T] { return expr.Pow(x, expr.Name[T]("k", expr.Scalar(T(0)-2))) }, []int64{0, 0, 0},
			"at node (tensor(3,) ** k): power: exponent = -2"},
		{"tensor", expr.Pow[T], []int64{2, -1, -3},
			"at node (tensor(3,) ** tensor(3,)): power: exponent at index (1,) = -1: integers to negative"},
		{"tensor, last", expr.Pow[T], []int64{2, 0, -2},
			"at node (tensor(3,) ** tensor(3,)): power: exponent at index (2,) = -2"},
		{"nested exponent", func(x, y expr.Exp[T]) expr.Exp[T] {
			return expr.Mul(expr.AddScalar(x, 1), expr.Pow(x, expr.SubScalar(y, 3)))
		}, []int64{3, 4, 2},
			"at node (tensor(3,) ** (tensor(3,) - 3)): power: exponent at index (2,) = -1"},
		{"inner power first", func(x, y expr.Exp[T]) expr.Exp[T] { return expr.Pow(x, expr.Pow(x, y)) }, []int64{1, -1, 1},
			"at node (tensor(3,) ** tensor(3,)): power: exponent at index (1,) = -1"},
		{"nonnegative", expr.Pow[T], []int64{0, 1, 2}, ""},
		{"nonnegative constant", func(x, _ expr.Exp[T]) expr.Exp[T] { return expr.PowScalar(x, 0) }, []int64{0, 0, 0}, ""},
	}
}

// TestNegativeIntegerPower runs every case on every signed integer type,
// through every public evaluation, and checks the error and that the
// destination is unchanged; unsigned types and floats take the same
// exponents (as their type) without error.
func TestNegativeIntegerPower(t *testing.T) {
	t.Run("int", func(t *testing.T) { testNegativePower[int](t) })
	t.Run("int8", func(t *testing.T) { testNegativePower[int8](t) })
	t.Run("int16", func(t *testing.T) { testNegativePower[int16](t) })
	t.Run("int32", func(t *testing.T) { testNegativePower[int32](t) })
	t.Run("int64", func(t *testing.T) { testNegativePower[int64](t) })
	t.Run("uint8", func(t *testing.T) { testNegativePower[uint8](t) })
	t.Run("uint64", func(t *testing.T) { testNegativePower[uint64](t) })
	t.Run("float32", func(t *testing.T) { testNegativePower[float32](t) })
}

func testNegativePower[T tensor.Number](t *testing.T) {
	refuses := !tensor.IsFloat[T]() && T(0)-1 < 0
	for _, c := range powerCases[T]() {
		for _, call := range powerCalls[T]() {
			t.Run(c.name+"/"+call.name, func(t *testing.T) {
				x := tensor.Zeros[T](3)
				y := tensor.Zeros[T](3)
				for i, v := range c.y {
					x.Set(T(i+1), i)
					y.Set(T(v), i)
				}
				e := c.tree(x, y)
				dst := tensor.Full[T](7, 3)
				for range 2 { // the second call would hit the plan cache
					err := call.run(dst, e)
					if c.want == "" || !refuses {
						if err != nil {
							t.Fatalf("%s: %v", call.name, err)
						}
						if diff := cmp.Diff(refEval(e, shape.Shape{3}), dst.Data()); diff != "" {
							t.Fatalf("(-want +got):\n%s", diff)
						}
						dst = tensor.Full[T](7, 3)
						continue
					}
					want := "laze: " + call.name + ": " + c.want
					if err == nil || !errors.Is(err, shape.ErrInvalid) || !strings.HasPrefix(strings.TrimPrefix(err.Error(), "pair 0: "), want) {
						t.Fatalf("error %v, want one starting %q (an ErrInvalid)", err, want)
					}
					var ne *shape.NodeError
					var ae *shape.ArgumentError
					if !errors.As(err, &ne) || !errors.As(err, &ae) {
						t.Fatalf("error %v: want a NodeError wrapping an ArgumentError", err)
					}
					if diff := cmp.Diff([]T{7, 7, 7}, dst.Data()); diff != "" {
						t.Fatalf("the destination was written (-want +got):\n%s", diff)
					}
				}
			})
		}
	}
}

// powerCall is one public evaluation of a tree into a destination of 3
// elements.
type powerCall[T tensor.Number] struct {
	name string
	run  func(dst *tensor.Tensor[T], e expr.Exp[T]) error
}

func powerCalls[T tensor.Number]() []powerCall[T] {
	return []powerCall[T]{
		{"Assign", Assign[T]},
		{"AddAssign", func(dst *tensor.Tensor[T], e expr.Exp[T]) error {
			// dst += e; the reference adds to the 7s, so compare e alone: run
			// AddAssign on a copy, then store e's value.
			scratch := tensor.Zeros[T](3)
			if err := AddAssign(scratch, e); err != nil {
				return err
			}
			return dst.CopyFrom(scratch)
		}},
		{"AssignAll", func(dst *tensor.Tensor[T], e expr.Exp[T]) error {
			return AssignAll([]*tensor.Tensor[T]{dst}, []expr.Exp[T]{e})
		}},
		{"Eval", func(dst *tensor.Tensor[T], e expr.Exp[T]) error {
			v, err := Eval(e)
			if err != nil {
				return err
			}
			return dst.CopyFrom(v)
		}},
	}
}

// TestEmulatedNegativeIntegerPower runs the check on device tensors (the
// CUDA emulator): the exponent's minimum is reduced on the device, the
// error names the first negative value, and the destination keeps its
// values; a nonnegative exponent evaluates as on the CPU.
func TestEmulatedNegativeIntegerPower(t *testing.T) {
	emulator(t)
	const n = 1003
	x := emuTensor(func(k int) int32 { return int32(k%5 + 1) }, n)
	for _, tt := range []struct {
		name string
		y    func(k int) int32
		want string
	}{
		{"negative", func(k int) int32 { return int32(2 - k/300) }, "laze: Assign: at node (tensor(1003,) ** (tensor(1003,) + 0)): power: exponent at index (900,) = -1"},
		{"nonnegative", func(k int) int32 { return int32(k % 4) }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			y := emuTensor(tt.y, n)
			dx, err := x.To(emuDevice)
			if err != nil {
				t.Fatal(err)
			}
			dy, err := y.To(emuDevice)
			if err != nil {
				t.Fatal(err)
			}
			dst, err := tensor.Full[int32](7, n).To(emuDevice)
			if err != nil {
				t.Fatal(err)
			}
			err = Assign(dst, expr.Pow[int32](dx, expr.AddScalar[int32](dy, 0)))
			want := refEval(expr.Pow[int32](x, y), shape.Shape{n})
			if tt.want != "" {
				if err == nil || !errors.Is(err, shape.ErrInvalid) || !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("error %v, want one starting %q", err, tt.want)
				}
				want = tensor.Full[int32](7, n).Data()
			} else if err != nil {
				t.Fatal(err)
			}
			back, err := dst.To(alloc.CPU)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, back.Data()); diff != "" {
				t.Errorf("destination (-want +got):\n%s", diff)
			}
		})
	}
}
