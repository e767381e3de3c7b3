package expr_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// padTable lists Pad's cases with the shape and values NumPy 1.24 printed
// (/usr/bin/python3, /tmp/padwork/gen.py of the change that added it):
// x = np.arange(size, dtype).reshape(in), then x*1.5 - 2 for floats and
// x*3 + 200 for uint8, padded by np.pad(x, widths, mode,
// constant_values=value) with value -1.25 (float64), 0.5 (float32), 7
// (int64), -3 (int32), 9 (uint8). Where numpy marks numpy 1.24's np.pad
// as wrong (two rows: a side reflected or wrapped more than once while
// the other side is short, numpy#25926 and numpy 1.25's wrap fix), want
// holds NumPy's value of the definition instead — np.take(x, idx, axis)
// with idx the reflected or wrapped positions — which later NumPy's
// np.pad gives.
var padTable = []struct {
	name   string
	dtype  string
	in     shape.Shape
	mode   expr.PadMode
	widths [][2]int
	shape  shape.Shape
	want   []float64
	numpy  bool // numpy 1.24's np.pad differs (see above)
}{
	{"1d", "float64", shape.Of(4), expr.PadConstant, [][2]int{{2, 3}}, shape.Of(9), []float64{-1.25, -1.25, -2.0, -0.5, 1.0, 2.5, -1.25, -1.25, -1.25}, false},
	{"1d", "float64", shape.Of(4), expr.PadEdge, [][2]int{{2, 3}}, shape.Of(9), []float64{-2.0, -2.0, -2.0, -0.5, 1.0, 2.5, 2.5, 2.5, 2.5}, false},
	{"1d", "float64", shape.Of(4), expr.PadReflect, [][2]int{{2, 3}}, shape.Of(9), []float64{1.0, -0.5, -2.0, -0.5, 1.0, 2.5, 1.0, -0.5, -2.0}, false},
	{"1d", "float64", shape.Of(4), expr.PadSymmetric, [][2]int{{2, 3}}, shape.Of(9), []float64{-0.5, -2.0, -2.0, -0.5, 1.0, 2.5, 2.5, 1.0, -0.5}, false},
	{"1d", "float64", shape.Of(4), expr.PadWrap, [][2]int{{2, 3}}, shape.Of(9), []float64{1.0, 2.5, -2.0, -0.5, 1.0, 2.5, -2.0, -0.5, 1.0}, false},
	{"2d", "float64", shape.Of(2, 3), expr.PadConstant, [][2]int{{1, 2}, {2, 1}}, shape.Of(5, 6), []float64{-1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -2.0, -0.5, 1.0, -1.25, -1.25, -1.25, 2.5, 4.0, 5.5, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25}, false},
	{"2d", "float64", shape.Of(2, 3), expr.PadEdge, [][2]int{{1, 2}, {2, 1}}, shape.Of(5, 6), []float64{-2.0, -2.0, -2.0, -0.5, 1.0, 1.0, -2.0, -2.0, -2.0, -0.5, 1.0, 1.0, 2.5, 2.5, 2.5, 4.0, 5.5, 5.5, 2.5, 2.5, 2.5, 4.0, 5.5, 5.5, 2.5, 2.5, 2.5, 4.0, 5.5, 5.5}, false},
	{"2d", "float64", shape.Of(2, 3), expr.PadReflect, [][2]int{{1, 2}, {2, 1}}, shape.Of(5, 6), []float64{5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 1.0, -0.5, -2.0, -0.5, 1.0, -0.5, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 1.0, -0.5, -2.0, -0.5, 1.0, -0.5, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0}, false},
	{"2d", "float64", shape.Of(2, 3), expr.PadSymmetric, [][2]int{{1, 2}, {2, 1}}, shape.Of(5, 6), []float64{-0.5, -2.0, -2.0, -0.5, 1.0, 1.0, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0, 4.0, 2.5, 2.5, 4.0, 5.5, 5.5, 4.0, 2.5, 2.5, 4.0, 5.5, 5.5, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0}, false},
	{"2d", "float64", shape.Of(2, 3), expr.PadWrap, [][2]int{{1, 2}, {2, 1}}, shape.Of(5, 6), []float64{4.0, 5.5, 2.5, 4.0, 5.5, 2.5, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5}, false},
	{"2d zero axis 0", "float64", shape.Of(2, 3), expr.PadConstant, [][2]int{{0, 0}, {1, 2}}, shape.Of(2, 6), []float64{-1.25, -2.0, -0.5, 1.0, -1.25, -1.25, -1.25, 2.5, 4.0, 5.5, -1.25, -1.25}, false},
	{"2d zero axis 0", "float64", shape.Of(2, 3), expr.PadEdge, [][2]int{{0, 0}, {1, 2}}, shape.Of(2, 6), []float64{-2.0, -2.0, -0.5, 1.0, 1.0, 1.0, 2.5, 2.5, 4.0, 5.5, 5.5, 5.5}, false},
	{"2d zero axis 0", "float64", shape.Of(2, 3), expr.PadReflect, [][2]int{{0, 0}, {1, 2}}, shape.Of(2, 6), []float64{-0.5, -2.0, -0.5, 1.0, -0.5, -2.0, 4.0, 2.5, 4.0, 5.5, 4.0, 2.5}, false},
	{"2d zero axis 0", "float64", shape.Of(2, 3), expr.PadSymmetric, [][2]int{{0, 0}, {1, 2}}, shape.Of(2, 6), []float64{-2.0, -2.0, -0.5, 1.0, 1.0, -0.5, 2.5, 2.5, 4.0, 5.5, 5.5, 4.0}, false},
	{"2d zero axis 0", "float64", shape.Of(2, 3), expr.PadWrap, [][2]int{{0, 0}, {1, 2}}, shape.Of(2, 6), []float64{1.0, -2.0, -0.5, 1.0, -2.0, -0.5, 5.5, 2.5, 4.0, 5.5, 2.5, 4.0}, false},
	{"2d zero all", "int64", shape.Of(2, 3), expr.PadConstant, [][2]int{{0, 0}, {0, 0}}, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false},
	{"2d zero all", "int64", shape.Of(2, 3), expr.PadEdge, [][2]int{{0, 0}, {0, 0}}, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false},
	{"2d zero all", "int64", shape.Of(2, 3), expr.PadReflect, [][2]int{{0, 0}, {0, 0}}, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false},
	{"2d zero all", "int64", shape.Of(2, 3), expr.PadSymmetric, [][2]int{{0, 0}, {0, 0}}, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false},
	{"2d zero all", "int64", shape.Of(2, 3), expr.PadWrap, [][2]int{{0, 0}, {0, 0}}, shape.Of(2, 3), []float64{0, 1, 2, 3, 4, 5}, false},
	{"large", "int64", shape.Of(3), expr.PadConstant, [][2]int{{7, 5}}, shape.Of(15), []float64{7, 7, 7, 7, 7, 7, 7, 0, 1, 2, 7, 7, 7, 7, 7}, false},
	{"large", "int64", shape.Of(3), expr.PadEdge, [][2]int{{7, 5}}, shape.Of(15), []float64{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2}, false},
	{"large", "int64", shape.Of(3), expr.PadReflect, [][2]int{{7, 5}}, shape.Of(15), []float64{1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}, false},
	{"large", "int64", shape.Of(3), expr.PadSymmetric, [][2]int{{7, 5}}, shape.Of(15), []float64{0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1}, false},
	{"large", "int64", shape.Of(3), expr.PadWrap, [][2]int{{7, 5}}, shape.Of(15), []float64{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}, false},
	{"large one side", "int64", shape.Of(3), expr.PadConstant, [][2]int{{1, 8}}, shape.Of(12), []float64{7, 0, 1, 2, 7, 7, 7, 7, 7, 7, 7, 7}, false},
	{"large one side", "int64", shape.Of(3), expr.PadEdge, [][2]int{{1, 8}}, shape.Of(12), []float64{0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2}, false},
	{"large one side", "int64", shape.Of(3), expr.PadReflect, [][2]int{{1, 8}}, shape.Of(12), []float64{1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2}, true},
	{"large one side", "int64", shape.Of(3), expr.PadSymmetric, [][2]int{{1, 8}}, shape.Of(12), []float64{0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1}, false},
	{"large one side", "int64", shape.Of(3), expr.PadWrap, [][2]int{{1, 8}}, shape.Of(12), []float64{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}, true},
	{"large 2d", "float32", shape.Of(2, 3), expr.PadConstant, [][2]int{{5, 0}, {0, 7}}, shape.Of(7, 10), []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, -2.0, -0.5, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2.5, 4.0, 5.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, false},
	{"large 2d", "float32", shape.Of(2, 3), expr.PadEdge, [][2]int{{5, 0}, {0, 7}}, shape.Of(7, 10), []float64{-2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 4.0, 5.5, 5.5, 5.5, 5.5, 5.5, 5.5, 5.5, 5.5}, false},
	{"large 2d", "float32", shape.Of(2, 3), expr.PadReflect, [][2]int{{5, 0}, {0, 7}}, shape.Of(7, 10), []float64{2.5, 4.0, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 1.0, -0.5, -2.0, -0.5, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0, 5.5, 4.0, 2.5, 4.0}, false},
	{"large 2d", "float32", shape.Of(2, 3), expr.PadSymmetric, [][2]int{{5, 0}, {0, 7}}, shape.Of(7, 10), []float64{-2.0, -0.5, 1.0, 1.0, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0, 2.5, 4.0, 5.5, 5.5, 4.0, 2.5, 2.5, 4.0, 5.5, 5.5, 2.5, 4.0, 5.5, 5.5, 4.0, 2.5, 2.5, 4.0, 5.5, 5.5, -2.0, -0.5, 1.0, 1.0, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0, -2.0, -0.5, 1.0, 1.0, -0.5, -2.0, -2.0, -0.5, 1.0, 1.0, 2.5, 4.0, 5.5, 5.5, 4.0, 2.5, 2.5, 4.0, 5.5, 5.5}, false},
	{"large 2d", "float32", shape.Of(2, 3), expr.PadWrap, [][2]int{{5, 0}, {0, 7}}, shape.Of(7, 10), []float64{2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, -0.5, 1.0, -2.0, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5, 4.0, 5.5, 2.5}, false},
	{"n=2", "int32", shape.Of(2), expr.PadConstant, [][2]int{{3, 4}}, shape.Of(9), []float64{-3, -3, -3, 0, 1, -3, -3, -3, -3}, false},
	{"n=2", "int32", shape.Of(2), expr.PadEdge, [][2]int{{3, 4}}, shape.Of(9), []float64{0, 0, 0, 0, 1, 1, 1, 1, 1}, false},
	{"n=2", "int32", shape.Of(2), expr.PadReflect, [][2]int{{3, 4}}, shape.Of(9), []float64{1, 0, 1, 0, 1, 0, 1, 0, 1}, false},
	{"n=2", "int32", shape.Of(2), expr.PadSymmetric, [][2]int{{3, 4}}, shape.Of(9), []float64{1, 1, 0, 0, 1, 1, 0, 0, 1}, false},
	{"n=2", "int32", shape.Of(2), expr.PadWrap, [][2]int{{3, 4}}, shape.Of(9), []float64{1, 0, 1, 0, 1, 0, 1, 0, 1}, false},
	{"size-1 axis, one pair", "int32", shape.Of(2, 1, 2), expr.PadConstant, [][2]int{{1, 1}}, shape.Of(4, 3, 4), []float64{-3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, 0, 1, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, 2, 3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3}, false},
	{"size-1 axis, one pair", "int32", shape.Of(2, 1, 2), expr.PadEdge, [][2]int{{1, 1}}, shape.Of(4, 3, 4), []float64{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3}, false},
	{"size-1 axis, one pair", "int32", shape.Of(2, 1, 2), expr.PadReflect, [][2]int{{1, 1}}, shape.Of(4, 3, 4), []float64{3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, false},
	{"size-1 axis, one pair", "int32", shape.Of(2, 1, 2), expr.PadSymmetric, [][2]int{{1, 1}}, shape.Of(4, 3, 4), []float64{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3}, false},
	{"size-1 axis, one pair", "int32", shape.Of(2, 1, 2), expr.PadWrap, [][2]int{{1, 1}}, shape.Of(4, 3, 4), []float64{3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, false},
	{"tiled", "int64", shape.Of(3), expr.PadConstant, [][2]int{{20, 13}}, shape.Of(36), []float64{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 1, 2, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, false},
	{"tiled", "int64", shape.Of(3), expr.PadEdge, [][2]int{{20, 13}}, shape.Of(36), []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, false},
	{"tiled", "int64", shape.Of(3), expr.PadReflect, [][2]int{{20, 13}}, shape.Of(36), []float64{0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}, false},
	{"tiled", "int64", shape.Of(3), expr.PadSymmetric, [][2]int{{20, 13}}, shape.Of(36), []float64{1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2}, false},
	{"tiled", "int64", shape.Of(3), expr.PadWrap, [][2]int{{20, 13}}, shape.Of(36), []float64{1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0}, false},
	{"tiled 2d", "float64", shape.Of(2, 2), expr.PadConstant, [][2]int{{9, 0}, {0, 13}}, shape.Of(11, 15), []float64{-1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -2.0, -0.5, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, 1.0, 2.5, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25, -1.25}, false},
	{"tiled 2d", "float64", shape.Of(2, 2), expr.PadEdge, [][2]int{{9, 0}, {0, 13}}, shape.Of(11, 15), []float64{-2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -2.0, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, 1.0, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5}, false},
	{"tiled 2d", "float64", shape.Of(2, 2), expr.PadReflect, [][2]int{{9, 0}, {0, 13}}, shape.Of(11, 15), []float64{1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0}, false},
	{"tiled 2d", "float64", shape.Of(2, 2), expr.PadSymmetric, [][2]int{{9, 0}, {0, 13}}, shape.Of(11, 15), []float64{-2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, -2.0, -2.0, -0.5, -0.5, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5, 1.0, 1.0, 2.5, 2.5}, false},
	{"tiled 2d", "float64", shape.Of(2, 2), expr.PadWrap, [][2]int{{9, 0}, {0, 13}}, shape.Of(11, 15), []float64{1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, -0.5, -2.0, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0, 2.5, 1.0}, false},
	{"uint8", "uint8", shape.Of(3, 2), expr.PadConstant, [][2]int{{2, 1}, {1, 1}}, shape.Of(6, 4), []float64{9, 9, 9, 9, 9, 9, 9, 9, 9, 200, 203, 9, 9, 206, 209, 9, 9, 212, 215, 9, 9, 9, 9, 9}, false},
	{"uint8", "uint8", shape.Of(3, 2), expr.PadEdge, [][2]int{{2, 1}, {1, 1}}, shape.Of(6, 4), []float64{200, 200, 203, 203, 200, 200, 203, 203, 200, 200, 203, 203, 206, 206, 209, 209, 212, 212, 215, 215, 212, 212, 215, 215}, false},
	{"uint8", "uint8", shape.Of(3, 2), expr.PadReflect, [][2]int{{2, 1}, {1, 1}}, shape.Of(6, 4), []float64{215, 212, 215, 212, 209, 206, 209, 206, 203, 200, 203, 200, 209, 206, 209, 206, 215, 212, 215, 212, 209, 206, 209, 206}, false},
	{"uint8", "uint8", shape.Of(3, 2), expr.PadSymmetric, [][2]int{{2, 1}, {1, 1}}, shape.Of(6, 4), []float64{206, 206, 209, 209, 200, 200, 203, 203, 200, 200, 203, 203, 206, 206, 209, 209, 212, 212, 215, 215, 212, 212, 215, 215}, false},
	{"uint8", "uint8", shape.Of(3, 2), expr.PadWrap, [][2]int{{2, 1}, {1, 1}}, shape.Of(6, 4), []float64{209, 206, 209, 206, 215, 212, 215, 212, 203, 200, 203, 200, 209, 206, 209, 206, 215, 212, 215, 212, 203, 200, 203, 200}, false},
}

// padInput is the table's x of dtype T: a tensor for the integer rows,
// an expression (a tensor scaled) for the floating-point ones, so that
// both kinds of operand are padded.
func padInput[T tensor.Number](in shape.Shape) expr.Exp[T] {
	n, _ := in.Size()
	x, err := tensor.Arange[T](0, T(n), 1).View(in...)
	if err != nil {
		panic(err)
	}
	switch {
	case tensor.IsFloat[T]():
		return expr.Of[T](x).MulScalar(T(3) / T(2)).AddScalar(T(0) - 2).E
	case tensor.DTypeOf[T]() == tensor.DTypeOf[uint8]():
		return expr.Of[T](x).MulScalar(3).AddScalar(T(100) + T(100)).E
	}
	return x
}

// padEval pads the table's x of dtype T and returns the result's shape,
// its values from Eval and from At.
func padEval[T tensor.Number](in shape.Shape, widths [][2]int, mode expr.PadMode, value T) (shape.Shape, []float64, []float64, error) {
	e := expr.Pad(padInput[T](in), widths, mode, value)
	out, err := kernels.Eval(e)
	if err != nil {
		return nil, nil, nil, err
	}
	var got, at []float64
	for _, v := range out.Contiguous().Data() {
		got = append(got, float64(v))
	}
	for idx := range out.All() {
		at = append(at, float64(e.At(idx...)))
	}
	return out.Shape(), got, at, nil
}

// TestPad checks every mode against NumPy's values: several axes, widths
// of 0, widths larger than the axis (several periods, and the tiled
// period past three), an axis of size 1, one pair for every axis, ints
// and floats; and At against Eval.
func TestPad(t *testing.T) {
	for _, tt := range padTable {
		t.Run(fmt.Sprintf("%s/%s/%s", tt.name, tt.dtype, tt.mode), func(t *testing.T) {
			var (
				s       shape.Shape
				got, at []float64
				err     error
			)
			switch tt.dtype {
			case "float64":
				s, got, at, err = padEval[float64](tt.in, tt.widths, tt.mode, -1.25)
			case "float32":
				s, got, at, err = padEval[float32](tt.in, tt.widths, tt.mode, 0.5)
			case "int64":
				s, got, at, err = padEval[int64](tt.in, tt.widths, tt.mode, 7)
			case "int32":
				s, got, at, err = padEval[int32](tt.in, tt.widths, tt.mode, -3)
			case "uint8":
				s, got, at, err = padEval[uint8](tt.in, tt.widths, tt.mode, 9)
			default:
				t.Fatalf("no dtype %s", tt.dtype)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.shape, s); diff != "" {
				t.Fatalf("shape (-numpy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-numpy +laze):\n%s", diff)
			}
			if diff := cmp.Diff(got, at); diff != "" {
				t.Errorf("At differs from Eval (-Eval +At):\n%s", diff)
			}
		})
	}
}

// TestPadPieces checks that a pad copies nothing beforehand: each axis is
// one concatenation whose pieces are a generator, views of x, or (past
// three periods) one tiled period, and a pad of several axes nests the
// later axes' concatenations in each piece of the first (every block a
// view of x, no concatenation read by another's views).
func TestPadPieces(t *testing.T) {
	t6, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	x := expr.Name[float64]("x", t6)
	tests := []struct {
		e    expr.Exp[float64]
		want string
	}{
		{expr.Pad(x, [][2]int{{1, 0}}, expr.PadConstant, 0),
			"concatenate((np.full((1, 4), 0), concatenate((np.full((2, 1), 0), x), axis=1)), axis=0)"},
		{expr.Pad(x, [][2]int{{1, 1}, {1, 0}}, expr.PadReflect, 0),
			"concatenate((concatenate((x[1:2][:, 1:2][:, ::-1], x[1:2]), axis=1), " +
				"concatenate((x[:, 1:2][:, ::-1], x), axis=1), " +
				"concatenate((x[0:1][:, 1:2][:, ::-1], x[0:1]), axis=1)), axis=0)"},
		{expr.Pad(x, [][2]int{{0, 0}, {1, 2}}, expr.PadReflect, 0),
			"concatenate((x[:, 1:2][:, ::-1], x, x[:, 1:2][:, ::-1], x[:, 0:1]), axis=1)"},
		{expr.Pad(x, [][2]int{{0, 0}, {2, 1}}, expr.PadSymmetric, 0),
			"concatenate((x[:, 0:2][:, ::-1], x, x[:, 2:3][:, ::-1]), axis=1)"},
		{expr.Pad(x, [][2]int{{0, 2}, {0, 0}}, expr.PadEdge, 0),
			"concatenate((x, x[1:2].broadcast_to((2, 3))), axis=0)"},
		{expr.Pad(x, [][2]int{{0, 0}, {1, 13}}, expr.PadWrap, 0),
			"concatenate((x[:, 2:3], x, x.reshape(1, 2, 1, 3).broadcast_to((1, 2, 5, 3)).reshape(2, 15)[:, 0:13]), axis=1)"},
		{expr.Pad(x, [][2]int{{0, 0}, {0, 0}}, expr.PadWrap, 0), "x"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(tt.e); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestPadErrors checks the errors Check reports at the failed node, each
// naming the values at fault and matching errors.Is and errors.As.
func TestPadErrors(t *testing.T) {
	x, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	empty := tensor.Zeros[float64](0, 2)
	tests := []struct {
		e    expr.Exp[float64]
		kind error
		msg  string
	}{
		{expr.Pad[float64](x, [][2]int{{1, -1}, {0, 0}}, expr.PadConstant, 0), shape.ErrInvalid,
			"laze: Check: at node np.pad(x, ((1, -1), (0, 0)), mode='constant', constant_values=0): pad: widths[0] = (1, -1): the widths must be non-negative"},
		{expr.Pad[float64](x, [][2]int{{1, 1}, {0, 0}, {2, 2}}, expr.PadEdge, 0), shape.ErrInvalid,
			"laze: Check: at node np.pad(x, ((1, 1), (0, 0), (2, 2)), mode='edge'): pad: len(widths) = 3: needs one (before, after) pair per dimension of x's shape (2,3) (2), or one pair for all"},
		{expr.Pad[float64](empty, [][2]int{{0, 1}, {0, 0}}, expr.PadReflect, 0), shape.ErrInvalid,
			"laze: Check: at node np.pad(x, ((0, 1), (0, 0)), mode='reflect'): pad: widths[0] = (0, 1): axis 0 of x's shape (0,2) is empty: only mode constant can extend it"},
		{expr.Pad[float64](x, [][2]int{{1, 1}}, expr.PadMode(9), 0), shape.ErrInvalid,
			"laze: Check: at node np.pad(x, ((1, 1),), mode='PadMode(9)'): pad: mode = PadMode(9): must be one of constant, edge, reflect, symmetric, wrap"},
		{expr.Pad[float64](x, [][2]int{{math.MaxInt / 2, math.MaxInt / 2}}, expr.PadConstant, 0), shape.ErrOverflow, ""},
	}
	for _, tt := range tests {
		_, err := expr.Check(tt.e)
		if !errors.Is(err, tt.kind) {
			t.Errorf("%v: %v is not %v", tt.e, err, tt.kind)
		}
		var ne *shape.NodeError
		if !errors.As(err, &ne) {
			t.Errorf("%v: %v is not a NodeError", tt.e, err)
		}
		if tt.msg != "" && fmt.Sprint(err) != tt.msg {
			t.Errorf("error\n got %v\nwant %s", err, tt.msg)
		}
	}
	// An empty axis padded by constant is fine, and so are zero widths
	// in any mode (NumPy's rules).
	for _, e := range []expr.Exp[float64]{
		expr.Pad[float64](empty, [][2]int{{1, 1}, {0, 1}}, expr.PadConstant, 0),
		expr.Pad[float64](empty, [][2]int{{0, 0}, {1, 1}}, expr.PadSymmetric, 0),
	} {
		if _, err := expr.Check(e); err != nil {
			t.Errorf("%v: %v", e, err)
		}
	}
}

// TestParsePadMode checks the names both ways.
func TestParsePadMode(t *testing.T) {
	for m := expr.PadConstant; m <= expr.PadWrap; m++ {
		got, err := expr.ParsePadMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParsePadMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	_, err := expr.ParsePadMode("mean")
	if !errors.Is(err, shape.ErrInvalid) || fmt.Sprint(err) != `laze: pad: mode = "mean": must be one of constant, edge, reflect, symmetric, wrap` {
		t.Errorf("ParsePadMode(mean): %v", err)
	}
}
