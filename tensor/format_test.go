package tensor

import (
	"fmt"
	"math"
	"testing"
)

// TestFormat compares printed tensors with what NumPy's print() shows for
// the same arrays (numpy 1.26/2.x defaults).
func TestFormat(t *testing.T) {
	f64 := func(x ...float64) *Tensor[float64] { return mustT(x, len(x)) }
	tests := []struct {
		name   string
		format string
		value  any
		want   string
	}{
		{"2-D int", "%v", arange(6, 2, 3), "[[0 1 2]\n [3 4 5]]"},
		{"transposed", "%v", arange(6, 2, 3).T(), "[[0 3]\n [1 4]\n [2 5]]"},
		{"negative ints align", "%v", mustT([]int32{-10, 5, 300}, 3), "[-10   5 300]"},
		{"wrap at 75 columns", "%v", arange(30, 30),
			"[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 29]"},
		{"3-D float", "%v", Arange(0.0, 12, 1).mustView(2, 3, 2),
			"[[[ 0.  1.]\n  [ 2.  3.]\n  [ 4.  5.]]\n\n [[ 6.  7.]\n  [ 8.  9.]\n  [10. 11.]]]"},
		{"float padding", "%v", f64(0.1, 0.25, 1), "[0.1  0.25 1.  ]"},
		{"max 8 digits", "%v", f64(1.0/3, 2), "[0.33333333 2.        ]"},
		{"precision verb", "%.3v", f64(1.0/3, 2), "[0.333 2.   ]"},
		{"scientific small", "%v", f64(1e-5, 1), "[1.e-05 1.e+00]"},
		{"scientific mixed", "%v", f64(1.5e-5, 1, -3), "[ 1.5e-05  1.0e+00 -3.0e+00]"},
		{"scientific large", "%v", f64(1e8, 1), "[1.e+08 1.e+00]"},
		{"non-finite", "%v", f64(math.NaN(), 1, math.Inf(-1)), "[ nan   1. -inf]"},
		{"all nan", "%v", f64(math.NaN(), math.NaN()), "[nan nan]"},
		{"negative zero", "%v", f64(math.Copysign(0, -1), 1), "[-0.  1.]"},
		{"float32", "%v", mustT([]float32{0.1, 0.2}, 2), "[0.1 0.2]"},
		{"uint8", "%v", mustT([]uint8{255, 3}, 2), "[255   3]"},
		{"scalar int", "%v", Scalar(int64(5)), "5"},
		{"scalar float", "%v", Scalar(1.0), "1.0"},
		{"scalar tiny", "%v", Scalar(1e-7), "1e-07"},
		{"scalar huge", "%v", Scalar(1e16), "1e+16"},
		{"scalar nan", "%v", Scalar(math.NaN()), "nan"},
		{"scalar inf", "%v", Scalar(math.Inf(-1)), "-inf"},
		{"scalar uint", "%v", Scalar(uint16(7)), "7"},
		{"empty", "%v", Zeros[float64](0, 3), "[]"},
		{"summarised 1-D", "%v", arange(2000, 2000), "[   0    1    2 ... 1997 1998 1999]"},
		{"summarised 2-D", "%v", arange(10000, 1000, 10),
			"[[   0    1    2 ...    7    8    9]\n [  10   11   12 ...   17   18   19]\n [  20   21   22 ...   27   28   29]\n ...\n" +
				" [9970 9971 9972 ... 9977 9978 9979]\n [9980 9981 9982 ... 9987 9988 9989]\n [9990 9991 9992 ... 9997 9998 9999]]"},
		{"plus flag", "%+v", arange(6, 2, 3).T(), "[[0 3]\n [1 4]\n [2 5]]\ndtype=int64 shape=(3,2) strides=(1,3) offset=0 device=cpu"},
		{"String", "%s", arange(3, 3), "[0 1 2]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprintf(tt.format, tt.value); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	if s := arange(3, 3).String(); s != "[0 1 2]" {
		t.Errorf("String() = %q", s)
	}
}

func (t *Tensor[T]) mustView(dims ...int) *Tensor[T] {
	v, err := t.View(dims...)
	if err != nil {
		panic(err)
	}
	return v
}
