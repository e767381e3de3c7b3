package expr_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// reduceInput is the 2x3x4 array the NumPy reductions' table reads: NaNs
// (one line all NaN), infinities, zeros, ties; cleanInput is it with NaN
// as 1 and ±Inf as ±9 (np.nan_to_num), for average and the norms;
// reduceWeights are average's weights.
var (
	nan          = math.NaN()
	reduceInput  = []float64{1.5, nan, -2, 0, nan, nan, nan, nan, 3, -inf, nan, 7, 0, 0, 0, 0, nan, -inf, 5, -inf, 2.5, 2.5, -1, 4}
	reduceWeight = []float64{1, 2, 3, 4, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 2, 2, 2, 2, 1, 0, 1, 0, 3, 1, 1, 1}
)

func cleanInput() []float64 {
	out := make([]float64, len(reduceInput))
	for i, v := range reduceInput {
		switch {
		case v != v:
			v = 1
		case math.IsInf(v, 0):
			v = math.Copysign(9, v)
		}
		out[i] = v
	}
	return out
}

// numpyReductions are NumPy 1.24's results (np.all, np.nansum, …,
// np.linalg.norm) over reduceInput. The arg reductions give -1 where a line
// is all NaN, where NumPy raises.
var numpyReductions = []struct {
	name  string
	axes  []int
	keep  bool
	shape []int
	want  []float64
}{
	{"all", nil, false, []int{}, []float64{0.0}},
	{"all", nil, true, []int{1, 1, 1}, []float64{0.0}},
	{"all", []int{0}, false, []int{3, 4}, []float64{0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
	{"all", []int{0}, true, []int{1, 3, 4}, []float64{0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
	{"all", []int{2}, false, []int{2, 3}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"all", []int{2}, true, []int{2, 3, 1}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"all", []int{1, 2}, false, []int{2}, []float64{0.0, 0.0}},
	{"all", []int{1, 2}, true, []int{2, 1, 1}, []float64{0.0, 0.0}},
	{"all", []int{-1}, false, []int{2, 3}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"all", []int{-1}, true, []int{2, 3, 1}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"any", nil, false, []int{}, []float64{1.0}},
	{"any", nil, true, []int{1, 1, 1}, []float64{1.0}},
	{"any", []int{0}, false, []int{3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
	{"any", []int{0}, true, []int{1, 3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
	{"any", []int{2}, false, []int{2, 3}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"any", []int{2}, true, []int{2, 3, 1}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"any", []int{1, 2}, false, []int{2}, []float64{1.0, 1.0}},
	{"any", []int{1, 2}, true, []int{2, 1, 1}, []float64{1.0, 1.0}},
	{"any", []int{-1}, false, []int{2, 3}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"any", []int{-1}, true, []int{2, 3, 1}, []float64{1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"nansum", nil, false, []int{}, []float64{-inf}},
	{"nansum", nil, true, []int{1, 1, 1}, []float64{-inf}},
	{"nansum", []int{0}, false, []int{3, 4}, []float64{1.5, 0.0, -2.0, 0.0, 0.0, -inf, 5.0, -inf, 5.5, -inf, -1.0, 11.0}},
	{"nansum", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 0.0, -2.0, 0.0, 0.0, -inf, 5.0, -inf, 5.5, -inf, -1.0, 11.0}},
	{"nansum", []int{2}, false, []int{2, 3}, []float64{-0.5, 0.0, -inf, 0.0, -inf, 8.0}},
	{"nansum", []int{2}, true, []int{2, 3, 1}, []float64{-0.5, 0.0, -inf, 0.0, -inf, 8.0}},
	{"nansum", []int{1, 2}, false, []int{2}, []float64{-inf, -inf}},
	{"nansum", []int{1, 2}, true, []int{2, 1, 1}, []float64{-inf, -inf}},
	{"nansum", []int{-1}, false, []int{2, 3}, []float64{-0.5, 0.0, -inf, 0.0, -inf, 8.0}},
	{"nansum", []int{-1}, true, []int{2, 3, 1}, []float64{-0.5, 0.0, -inf, 0.0, -inf, 8.0}},
	{"nanprod", nil, false, []int{}, []float64{nan}},
	{"nanprod", nil, true, []int{1, 1, 1}, []float64{nan}},
	{"nanprod", []int{0}, false, []int{3, 4}, []float64{0.0, 0.0, nz, 0.0, 1.0, -inf, 5.0, -inf, 7.5, -inf, -1.0, 28.0}},
	{"nanprod", []int{0}, true, []int{1, 3, 4}, []float64{0.0, 0.0, nz, 0.0, 1.0, -inf, 5.0, -inf, 7.5, -inf, -1.0, 28.0}},
	{"nanprod", []int{2}, false, []int{2, 3}, []float64{nz, 1.0, -inf, 0.0, inf, -25.0}},
	{"nanprod", []int{2}, true, []int{2, 3, 1}, []float64{nz, 1.0, -inf, 0.0, inf, -25.0}},
	{"nanprod", []int{1, 2}, false, []int{2}, []float64{nan, nan}},
	{"nanprod", []int{1, 2}, true, []int{2, 1, 1}, []float64{nan, nan}},
	{"nanprod", []int{-1}, false, []int{2, 3}, []float64{nz, 1.0, -inf, 0.0, inf, -25.0}},
	{"nanprod", []int{-1}, true, []int{2, 3, 1}, []float64{nz, 1.0, -inf, 0.0, inf, -25.0}},
	{"nanmean", nil, false, []int{}, []float64{-inf}},
	{"nanmean", nil, true, []int{1, 1, 1}, []float64{-inf}},
	{"nanmean", []int{0}, false, []int{3, 4}, []float64{0.75, 0.0, -1.0, 0.0, nan, -inf, 5.0, -inf, 2.75, -inf, -1.0, 5.5}},
	{"nanmean", []int{0}, true, []int{1, 3, 4}, []float64{0.75, 0.0, -1.0, 0.0, nan, -inf, 5.0, -inf, 2.75, -inf, -1.0, 5.5}},
	{"nanmean", []int{2}, false, []int{2, 3}, []float64{-0.16666666666666666, nan, -inf, 0.0, -inf, 2.0}},
	{"nanmean", []int{2}, true, []int{2, 3, 1}, []float64{-0.16666666666666666, nan, -inf, 0.0, -inf, 2.0}},
	{"nanmean", []int{1, 2}, false, []int{2}, []float64{-inf, -inf}},
	{"nanmean", []int{1, 2}, true, []int{2, 1, 1}, []float64{-inf, -inf}},
	{"nanmean", []int{-1}, false, []int{2, 3}, []float64{-0.16666666666666666, nan, -inf, 0.0, -inf, 2.0}},
	{"nanmean", []int{-1}, true, []int{2, 3, 1}, []float64{-0.16666666666666666, nan, -inf, 0.0, -inf, 2.0}},
	{"nanvar", nil, false, []int{}, []float64{nan}},
	{"nanvar", nil, true, []int{1, 1, 1}, []float64{nan}},
	{"nanvar", []int{0}, false, []int{3, 4}, []float64{0.5625, 0.0, 1.0, 0.0, nan, nan, 0.0, nan, 0.0625, nan, 0.0, 2.25}},
	{"nanvar", []int{0}, true, []int{1, 3, 4}, []float64{0.5625, 0.0, 1.0, 0.0, nan, nan, 0.0, nan, 0.0625, nan, 0.0, 2.25}},
	{"nanvar", []int{2}, false, []int{2, 3}, []float64{2.055555555555556, nan, nan, 0.0, nan, 3.375}},
	{"nanvar", []int{2}, true, []int{2, 3, 1}, []float64{2.055555555555556, nan, nan, 0.0, nan, 3.375}},
	{"nanvar", []int{1, 2}, false, []int{2}, []float64{nan, nan}},
	{"nanvar", []int{1, 2}, true, []int{2, 1, 1}, []float64{nan, nan}},
	{"nanvar", []int{-1}, false, []int{2, 3}, []float64{2.055555555555556, nan, nan, 0.0, nan, 3.375}},
	{"nanvar", []int{-1}, true, []int{2, 3, 1}, []float64{2.055555555555556, nan, nan, 0.0, nan, 3.375}},
	{"nanstd", nil, false, []int{}, []float64{nan}},
	{"nanstd", nil, true, []int{1, 1, 1}, []float64{nan}},
	{"nanstd", []int{0}, false, []int{3, 4}, []float64{0.75, 0.0, 1.0, 0.0, nan, nan, 0.0, nan, 0.25, nan, 0.0, 1.5}},
	{"nanstd", []int{0}, true, []int{1, 3, 4}, []float64{0.75, 0.0, 1.0, 0.0, nan, nan, 0.0, nan, 0.25, nan, 0.0, 1.5}},
	{"nanstd", []int{2}, false, []int{2, 3}, []float64{1.4337208778404378, nan, nan, 0.0, nan, 1.8371173070873836}},
	{"nanstd", []int{2}, true, []int{2, 3, 1}, []float64{1.4337208778404378, nan, nan, 0.0, nan, 1.8371173070873836}},
	{"nanstd", []int{1, 2}, false, []int{2}, []float64{nan, nan}},
	{"nanstd", []int{1, 2}, true, []int{2, 1, 1}, []float64{nan, nan}},
	{"nanstd", []int{-1}, false, []int{2, 3}, []float64{1.4337208778404378, nan, nan, 0.0, nan, 1.8371173070873836}},
	{"nanstd", []int{-1}, true, []int{2, 3, 1}, []float64{1.4337208778404378, nan, nan, 0.0, nan, 1.8371173070873836}},
	{"nanmax", nil, false, []int{}, []float64{7.0}},
	{"nanmax", nil, true, []int{1, 1, 1}, []float64{7.0}},
	{"nanmax", []int{0}, false, []int{3, 4}, []float64{1.5, 0.0, 0.0, 0.0, nan, -inf, 5.0, -inf, 3.0, 2.5, -1.0, 7.0}},
	{"nanmax", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 0.0, 0.0, 0.0, nan, -inf, 5.0, -inf, 3.0, 2.5, -1.0, 7.0}},
	{"nanmax", []int{2}, false, []int{2, 3}, []float64{1.5, nan, 7.0, 0.0, 5.0, 4.0}},
	{"nanmax", []int{2}, true, []int{2, 3, 1}, []float64{1.5, nan, 7.0, 0.0, 5.0, 4.0}},
	{"nanmax", []int{1, 2}, false, []int{2}, []float64{7.0, 5.0}},
	{"nanmax", []int{1, 2}, true, []int{2, 1, 1}, []float64{7.0, 5.0}},
	{"nanmax", []int{-1}, false, []int{2, 3}, []float64{1.5, nan, 7.0, 0.0, 5.0, 4.0}},
	{"nanmax", []int{-1}, true, []int{2, 3, 1}, []float64{1.5, nan, 7.0, 0.0, 5.0, 4.0}},
	{"nanmin", nil, false, []int{}, []float64{-inf}},
	{"nanmin", nil, true, []int{1, 1, 1}, []float64{-inf}},
	{"nanmin", []int{0}, false, []int{3, 4}, []float64{0.0, 0.0, -2.0, 0.0, nan, -inf, 5.0, -inf, 2.5, -inf, -1.0, 4.0}},
	{"nanmin", []int{0}, true, []int{1, 3, 4}, []float64{0.0, 0.0, -2.0, 0.0, nan, -inf, 5.0, -inf, 2.5, -inf, -1.0, 4.0}},
	{"nanmin", []int{2}, false, []int{2, 3}, []float64{-2.0, nan, -inf, 0.0, -inf, -1.0}},
	{"nanmin", []int{2}, true, []int{2, 3, 1}, []float64{-2.0, nan, -inf, 0.0, -inf, -1.0}},
	{"nanmin", []int{1, 2}, false, []int{2}, []float64{-inf, -inf}},
	{"nanmin", []int{1, 2}, true, []int{2, 1, 1}, []float64{-inf, -inf}},
	{"nanmin", []int{-1}, false, []int{2, 3}, []float64{-2.0, nan, -inf, 0.0, -inf, -1.0}},
	{"nanmin", []int{-1}, true, []int{2, 3, 1}, []float64{-2.0, nan, -inf, 0.0, -inf, -1.0}},
	{"ptp", nil, false, []int{}, []float64{nan}},
	{"ptp", nil, true, []int{1, 1, 1}, []float64{nan}},
	{"ptp", []int{0}, false, []int{3, 4}, []float64{1.5, nan, 2.0, 0.0, nan, nan, nan, nan, 0.5, inf, nan, 3.0}},
	{"ptp", []int{0}, true, []int{1, 3, 4}, []float64{1.5, nan, 2.0, 0.0, nan, nan, nan, nan, 0.5, inf, nan, 3.0}},
	{"ptp", []int{2}, false, []int{2, 3}, []float64{nan, nan, nan, 0.0, nan, 5.0}},
	{"ptp", []int{2}, true, []int{2, 3, 1}, []float64{nan, nan, nan, 0.0, nan, 5.0}},
	{"ptp", []int{1, 2}, false, []int{2}, []float64{nan, nan}},
	{"ptp", []int{1, 2}, true, []int{2, 1, 1}, []float64{nan, nan}},
	{"ptp", []int{-1}, false, []int{2, 3}, []float64{nan, nan, nan, 0.0, nan, 5.0}},
	{"ptp", []int{-1}, true, []int{2, 3, 1}, []float64{nan, nan, nan, 0.0, nan, 5.0}},
	{"count_nonzero", nil, false, []int{}, []float64{19.0}},
	{"count_nonzero", []int{0}, false, []int{3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0}},
	{"count_nonzero", []int{0}, true, []int{1, 3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0}},
	{"count_nonzero", []int{2}, false, []int{2, 3}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"count_nonzero", []int{2}, true, []int{2, 3, 1}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"count_nonzero", []int{1, 2}, false, []int{2}, []float64{11.0, 8.0}},
	{"count_nonzero", []int{1, 2}, true, []int{2, 1, 1}, []float64{11.0, 8.0}},
	{"count_nonzero", []int{-1}, false, []int{2, 3}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"count_nonzero", []int{-1}, true, []int{2, 3, 1}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"nanvar_ddof1", nil, false, []int{}, []float64{nan}},
	{"nanvar_ddof1", nil, true, []int{1, 1, 1}, []float64{nan}},
	{"nanvar_ddof1", []int{0}, false, []int{3, 4}, []float64{1.125, nan, 2.0, 0.0, nan, nan, nan, nan, 0.125, nan, nan, 4.5}},
	{"nanvar_ddof1", []int{0}, true, []int{1, 3, 4}, []float64{1.125, nan, 2.0, 0.0, nan, nan, nan, nan, 0.125, nan, nan, 4.5}},
	{"nanvar_ddof1", []int{2}, false, []int{2, 3}, []float64{3.0833333333333335, nan, nan, 0.0, nan, 4.5}},
	{"nanvar_ddof1", []int{2}, true, []int{2, 3, 1}, []float64{3.0833333333333335, nan, nan, 0.0, nan, 4.5}},
	{"nanvar_ddof1", []int{1, 2}, false, []int{2}, []float64{nan, nan}},
	{"nanvar_ddof1", []int{1, 2}, true, []int{2, 1, 1}, []float64{nan, nan}},
	{"nanvar_ddof1", []int{-1}, false, []int{2, 3}, []float64{3.0833333333333335, nan, nan, 0.0, nan, 4.5}},
	{"nanvar_ddof1", []int{-1}, true, []int{2, 3, 1}, []float64{3.0833333333333335, nan, nan, 0.0, nan, 4.5}},
	{"nanargmax", nil, false, []int{}, []float64{11.0}},
	{"nanargmax", nil, true, []int{1, 1, 1}, []float64{11.0}},
	{"nanargmax", []int{0}, false, []int{3, 4}, []float64{0.0, 1.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0}},
	{"nanargmax", []int{0}, true, []int{1, 3, 4}, []float64{0.0, 1.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0}},
	{"nanargmax", []int{2}, false, []int{2, 3}, []float64{0.0, -1.0, 3.0, 0.0, 2.0, 3.0}},
	{"nanargmax", []int{2}, true, []int{2, 3, 1}, []float64{0.0, -1.0, 3.0, 0.0, 2.0, 3.0}},
	{"nanargmax", []int{1}, false, []int{2, 4}, []float64{2.0, 0.0, 0.0, 2.0, 2.0, 2.0, 1.0, 2.0}},
	{"nanargmax", []int{1}, true, []int{2, 1, 4}, []float64{2.0, 0.0, 0.0, 2.0, 2.0, 2.0, 1.0, 2.0}},
	{"nanargmin", nil, false, []int{}, []float64{9.0}},
	{"nanargmin", nil, true, []int{1, 1, 1}, []float64{9.0}},
	{"nanargmin", []int{0}, false, []int{3, 4}, []float64{1.0, 1.0, 0.0, 0.0, -1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"nanargmin", []int{0}, true, []int{1, 3, 4}, []float64{1.0, 1.0, 0.0, 0.0, -1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"nanargmin", []int{2}, false, []int{2, 3}, []float64{2.0, -1.0, 1.0, 0.0, 1.0, 2.0}},
	{"nanargmin", []int{2}, true, []int{2, 3, 1}, []float64{2.0, -1.0, 1.0, 0.0, 1.0, 2.0}},
	{"nanargmin", []int{1}, false, []int{2, 4}, []float64{0.0, 2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0}},
	{"nanargmin", []int{1}, true, []int{2, 1, 4}, []float64{0.0, 2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0}},
	{"nancumsum", []int{0}, false, []int{2, 3, 4}, []float64{1.5, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, -inf, 0.0, 7.0, 1.5, 0.0, -2.0, 0.0, 0.0, -inf, 5.0, -inf, 5.5, -inf, -1.0, 11.0}},
	{"nancumsum", []int{2}, false, []int{2, 3, 4}, []float64{1.5, 1.5, -0.5, -0.5, 0.0, 0.0, 0.0, 0.0, 3.0, -inf, -inf, -inf, 0.0, 0.0, 0.0, 0.0, 0.0, -inf, -inf, -inf, 2.5, 5.0, 4.0, 8.0}},
	{"nancumsum", []int{1}, false, []int{2, 3, 4}, []float64{1.5, 0.0, -2.0, 0.0, 1.5, 0.0, -2.0, 0.0, 4.5, -inf, -2.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, -inf, 5.0, -inf, 2.5, -inf, 4.0, -inf}},
	{"nancumprod", []int{0}, false, []int{2, 3, 4}, []float64{1.5, 1.0, -2.0, 0.0, 1.0, 1.0, 1.0, 1.0, 3.0, -inf, 1.0, 7.0, 0.0, 0.0, nz, 0.0, 1.0, -inf, 5.0, -inf, 7.5, -inf, -1.0, 28.0}},
	{"nancumprod", []int{2}, false, []int{2, 3, 4}, []float64{1.5, 1.5, -3.0, nz, 1.0, 1.0, 1.0, 1.0, 3.0, -inf, -inf, -inf, 0.0, 0.0, 0.0, 0.0, 1.0, -inf, -inf, inf, 2.5, 6.25, -6.25, -25.0}},
	{"nancumprod", []int{1}, false, []int{2, 3, 4}, []float64{1.5, 1.0, -2.0, 0.0, 1.5, 1.0, -2.0, 0.0, 4.5, -inf, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nan, 0.0, nan, 0.0, nan, nz, nan}},
	{"average", nil, false, []int{}, []float64{0.671875}},
	{"average", nil, true, []int{1, 1, 1}, []float64{0.671875}},
	{"average", []int{2}, false, []int{2, 3}, []float64{-0.25, 1.0, 0.5, 0.0, 3.0, 2.1666666666666665}},
	{"average", []int{2}, true, []int{2, 3, 1}, []float64{-0.25, 1.0, 0.5, 0.0, 3.0, 2.1666666666666665}},
	{"average", []int{0}, false, []int{3, 4}, []float64{0.5, 0.5, -1.2, 0.0, 1.0, 1.0, 3.0, 1.0, 2.5714285714285716, -1.3333333333333333, -0.3333333333333333, 5.0}},
	{"average", []int{0}, true, []int{1, 3, 4}, []float64{0.5, 0.5, -1.2, 0.0, 1.0, 1.0, 3.0, 1.0, 2.5714285714285716, -1.3333333333333333, -0.3333333333333333, 5.0}},
	{"vnorm 2", nil, false, []int{}, []float64{19.20286436967152}},
	{"vnorm 2", []int{2}, false, []int{2, 3}, []float64{2.692582403567252, 2.0, 11.832159566199232, 0.0, 13.711309200802088, 5.431390245600108}},
	{"vnorm 2", []int{2}, true, []int{2, 3, 1}, []float64{2.692582403567252, 2.0, 11.832159566199232, 0.0, 13.711309200802088, 5.431390245600108}},
	{"vnorm 2", []int{0}, false, []int{3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.4142135623730951, 9.055385138137417, 5.0990195135927845, 9.055385138137417, 3.905124837953327, 9.340770846134703, 1.4142135623730951, 8.06225774829855}},
	{"vnorm 2", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.4142135623730951, 9.055385138137417, 5.0990195135927845, 9.055385138137417, 3.905124837953327, 9.340770846134703, 1.4142135623730951, 8.06225774829855}},
	{"vnorm 1", nil, false, []int{}, []float64{62.5}},
	{"vnorm 1", []int{2}, false, []int{2, 3}, []float64{4.5, 4.0, 20.0, 0.0, 24.0, 10.0}},
	{"vnorm 1", []int{2}, true, []int{2, 3, 1}, []float64{4.5, 4.0, 20.0, 0.0, 24.0, 10.0}},
	{"vnorm 1", []int{0}, false, []int{3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 2.0, 10.0, 6.0, 10.0, 5.5, 11.5, 2.0, 11.0}},
	{"vnorm 1", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 2.0, 10.0, 6.0, 10.0, 5.5, 11.5, 2.0, 11.0}},
	{"vnorm +Inf", nil, false, []int{}, []float64{9.0}},
	{"vnorm +Inf", []int{2}, false, []int{2, 3}, []float64{2.0, 1.0, 9.0, 0.0, 9.0, 4.0}},
	{"vnorm +Inf", []int{2}, true, []int{2, 3, 1}, []float64{2.0, 1.0, 9.0, 0.0, 9.0, 4.0}},
	{"vnorm +Inf", []int{0}, false, []int{3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.0, 9.0, 5.0, 9.0, 3.0, 9.0, 1.0, 7.0}},
	{"vnorm +Inf", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.0, 9.0, 5.0, 9.0, 3.0, 9.0, 1.0, 7.0}},
	{"vnorm -Inf", nil, false, []int{}, []float64{0.0}},
	{"vnorm -Inf", []int{2}, false, []int{2, 3}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"vnorm -Inf", []int{2}, true, []int{2, 3, 1}, []float64{0.0, 1.0, 1.0, 0.0, 1.0, 1.0}},
	{"vnorm -Inf", []int{0}, false, []int{3, 4}, []float64{0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.5, 2.5, 1.0, 4.0}},
	{"vnorm -Inf", []int{0}, true, []int{1, 3, 4}, []float64{0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.5, 2.5, 1.0, 4.0}},
	{"vnorm 0", nil, false, []int{}, []float64{19.0}},
	{"vnorm 0", []int{2}, false, []int{2, 3}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"vnorm 0", []int{2}, true, []int{2, 3, 1}, []float64{3.0, 4.0, 4.0, 0.0, 4.0, 4.0}},
	{"vnorm 0", []int{0}, false, []int{3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0}},
	{"vnorm 0", []int{0}, true, []int{1, 3, 4}, []float64{1.0, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0}},
	{"vnorm 3", nil, false, []int{}, []float64{14.088932179379535}},
	{"vnorm 3", []int{2}, false, []int{2, 3}, []float64{2.3130325045913707, 1.5874010519681994, 10.32280115456367, 0.0, 11.656953366502911, 4.582828227165111}},
	{"vnorm 3", []int{2}, true, []int{2, 3, 1}, []float64{2.3130325045913707, 1.5874010519681994, 10.32280115456367, 0.0, 11.656953366502911, 4.582828227165111}},
	{"vnorm 3", []int{0}, false, []int{3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.2599210498948732, 9.0041133460937, 5.013297934964584, 9.0041133460937, 3.4931840139090524, 9.063846411131628, 1.2599210498948732, 7.410795055420619}},
	{"vnorm 3", []int{0}, true, []int{1, 3, 4}, []float64{1.5, 1.0, 2.0, 0.0, 1.2599210498948732, 9.0041133460937, 5.013297934964584, 9.0041133460937, 3.4931840139090524, 9.063846411131628, 1.2599210498948732, 7.410795055420619}},
	{"vnorm 0.5", nil, false, []int{}, []float64{986.9088969331431}},
	{"vnorm 0.5", []int{2}, false, []int{2, 3}, []float64{13.242018482667124, 16.0, 70.18756833897943, 0.0, 85.30495168499706, 37.97366596101028}},
	{"vnorm 0.5", []int{2}, true, []int{2, 3, 1}, []float64{13.242018482667124, 16.0, 70.18756833897943, 0.0, 85.30495168499706, 37.97366596101028}},
	{"vnorm 0.5", []int{0}, false, []int{3, 4}, []float64{1.4999999999999998, 1.0, 2.0000000000000004, 0.0, 4.0, 16.0, 10.47213595499958, 16.0, 10.97722557505166, 20.98683298050514, 4.0, 21.583005244258363}},
	{"vnorm 0.5", []int{0}, true, []int{1, 3, 4}, []float64{1.4999999999999998, 1.0, 2.0000000000000004, 0.0, 4.0, 16.0, 10.47213595499958, 16.0, 10.97722557505166, 20.98683298050514, 4.0, 21.583005244258363}},
	{"mnorm 'fro'", nil, false, []int{2}, []float64{12.298373876248844, 14.747881203752625}},
	{"mnorm 'fro'", nil, true, []int{2, 1, 1}, []float64{12.298373876248844, 14.747881203752625}},
	{"mnorm 'fro'", []int{1, 2}, false, []int{2}, []float64{12.298373876248844, 14.747881203752625}},
	{"mnorm 'fro'", []int{1, 2}, true, []int{2, 1, 1}, []float64{12.298373876248844, 14.747881203752625}},
	{"mnorm 'fro'", []int{2, 0}, false, []int{3}, []float64{2.692582403567252, 13.856406460551018, 13.019216566291536}},
	{"mnorm 'fro'", []int{2, 0}, true, []int{1, 3, 1}, []float64{2.692582403567252, 13.856406460551018, 13.019216566291536}},
	{"mnorm 1", nil, false, []int{2}, []float64{11.0, 13.0}},
	{"mnorm 1", nil, true, []int{2, 1, 1}, []float64{11.0, 13.0}},
	{"mnorm 1", []int{1, 2}, false, []int{2}, []float64{11.0, 13.0}},
	{"mnorm 1", []int{1, 2}, true, []int{2, 1, 1}, []float64{11.0, 13.0}},
	{"mnorm 1", []int{2, 0}, false, []int{3}, []float64{4.5, 24.0, 20.0}},
	{"mnorm 1", []int{2, 0}, true, []int{1, 3, 1}, []float64{4.5, 24.0, 20.0}},
	{"mnorm -1", nil, false, []int{2}, []float64{4.0, 3.5}},
	{"mnorm -1", nil, true, []int{2, 1, 1}, []float64{4.0, 3.5}},
	{"mnorm -1", []int{1, 2}, false, []int{2}, []float64{4.0, 3.5}},
	{"mnorm -1", []int{1, 2}, true, []int{2, 1, 1}, []float64{4.0, 3.5}},
	{"mnorm -1", []int{2, 0}, false, []int{3}, []float64{0.0, 4.0, 10.0}},
	{"mnorm -1", []int{2, 0}, true, []int{1, 3, 1}, []float64{0.0, 4.0, 10.0}},
	{"mnorm +Inf", nil, false, []int{2}, []float64{20.0, 24.0}},
	{"mnorm +Inf", nil, true, []int{2, 1, 1}, []float64{20.0, 24.0}},
	{"mnorm +Inf", []int{1, 2}, false, []int{2}, []float64{20.0, 24.0}},
	{"mnorm +Inf", []int{1, 2}, true, []int{2, 1, 1}, []float64{20.0, 24.0}},
	{"mnorm +Inf", []int{2, 0}, false, []int{3}, []float64{2.0, 10.0, 11.5}},
	{"mnorm +Inf", []int{2, 0}, true, []int{1, 3, 1}, []float64{2.0, 10.0, 11.5}},
	{"mnorm -Inf", nil, false, []int{2}, []float64{4.0, 0.0}},
	{"mnorm -Inf", nil, true, []int{2, 1, 1}, []float64{4.0, 0.0}},
	{"mnorm -Inf", []int{1, 2}, false, []int{2}, []float64{4.0, 0.0}},
	{"mnorm -Inf", []int{1, 2}, true, []int{2, 1, 1}, []float64{4.0, 0.0}},
	{"mnorm -Inf", []int{2, 0}, false, []int{3}, []float64{0.0, 2.0, 2.0}},
	{"mnorm -Inf", []int{2, 0}, true, []int{1, 3, 1}, []float64{0.0, 2.0, 2.0}},
}

// TestNumPyReductions evaluates each function of numpyreduce.go on the host
// and compares with NumPy, NaN matching NaN.
func TestNumPyReductions(t *testing.T) {
	for _, tt := range numpyReductions {
		t.Run(tt.name, func(t *testing.T) {
			data := reduceInput
			if strings.HasPrefix(tt.name, "average") || strings.Contains(tt.name, "norm") {
				data = cleanInput()
			}
			x, _ := tensor.FromSlice(append([]float64(nil), data...), []int{2, 3, 4})
			w, _ := tensor.FromSlice(reduceWeight, []int{2, 3, 4})
			var opts []expr.ReduceOption
			if tt.axes != nil {
				opts = append(opts, expr.Axis(tt.axes...))
			}
			if tt.keep {
				opts = append(opts, expr.KeepDims())
			}
			got, shape, err := evalReduction(tt.name, x, w, tt.axes, opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.shape, shape, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%v keep=%v: shape (-NumPy +laze):\n%s", tt.axes, tt.keep, diff)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateNaNs(), cmpopts.EquateApprox(1e-13, 0)); diff != "" {
				t.Errorf("%v keep=%v: values (-NumPy +laze):\n%s", tt.axes, tt.keep, diff)
			}
		})
	}
}

// evalReduction builds the named reduction of x and evaluates it, widening
// integer results to float64.
func evalReduction(name string, x, w *tensor.Tensor[float64], axes []int, opts []expr.ReduceOption) ([]float64, []int, error) {
	var e expr.Exp[float64]
	var idx expr.Exp[int64]
	axis := 0
	if len(axes) > 0 {
		axis = axes[0]
	}
	switch {
	case name == "all":
		e = expr.All[float64](x, opts...)
	case name == "any":
		e = expr.Any[float64](x, opts...)
	case name == "nansum":
		e = expr.NanSum[float64](x, opts...)
	case name == "nanprod":
		e = expr.NanProd[float64](x, opts...)
	case name == "nanmean":
		e = expr.NanMean[float64](x, opts...)
	case name == "nanvar":
		e = expr.NanVar[float64](x, opts...)
	case name == "nanvar_ddof1":
		e = expr.NanVar[float64](x, append(opts, expr.DDof(1))...)
	case name == "nanstd":
		e = expr.NanStd[float64](x, opts...)
	case name == "nanmax":
		e = expr.NanMax[float64](x, opts...)
	case name == "nanmin":
		e = expr.NanMin[float64](x, opts...)
	case name == "ptp":
		e = expr.Ptp[float64](x, opts...)
	case name == "count_nonzero":
		idx = expr.CountNonzero[float64](x, opts...)
	case name == "nanargmax":
		idx = expr.NanArgMax[float64](x, opts...)
	case name == "nanargmin":
		idx = expr.NanArgMin[float64](x, opts...)
	case name == "nancumsum":
		e = expr.NanCumSum[float64](x, axis)
	case name == "nancumprod":
		e = expr.NanCumProd[float64](x, axis)
	case name == "average":
		e = expr.Average[float64](x, w, opts...)
	case strings.HasPrefix(name, "vnorm "):
		ord, _ := strconv.ParseFloat(strings.TrimPrefix(name, "vnorm "), 64)
		e = expr.VectorNorm[float64](x, ord, opts...)
	case name == "mnorm 'fro'":
		e = expr.FrobeniusNorm[float64](x, opts...)
	case strings.HasPrefix(name, "mnorm "):
		ord, _ := strconv.ParseFloat(strings.TrimPrefix(name, "mnorm "), 64)
		e = expr.MatrixNorm[float64](x, ord, opts...)
	}
	if idx != nil {
		out, err := kernels.Eval(idx)
		if err != nil {
			return nil, nil, err
		}
		var vals []float64
		for _, v := range out.Clone().Data() {
			vals = append(vals, float64(v))
		}
		return vals, out.Shape(), nil
	}
	out, err := kernels.Eval(e)
	if err != nil {
		return nil, nil, err
	}
	return out.Clone().Data(), out.Shape(), nil
}

// TestNumPyReductionsOnIntegers checks the integer forms: the nan functions
// are the plain reductions, and all/any give 1 or 0 without overflowing on
// long lines (a count of 300 would wrap in int8).
func TestNumPyReductionsOnIntegers(t *testing.T) {
	ones := tensor.Full[int8](1, 300)
	mixed, _ := tensor.FromSlice([]int8{3, -7, 0, 5, -7}, []int{5})
	tests := []struct {
		name string
		e    expr.Exp[int8]
		want int8
	}{
		{"all of ones", expr.All[int8](ones), 1},
		{"any of ones", expr.Any[int8](ones), 1},
		{"all with a zero", expr.All[int8](mixed), 0},
		{"any of zeros", expr.Any[int8](tensor.Zeros[int8](300)), 0},
		{"any of nothing", expr.Any[int8](tensor.Zeros[int8](0)), 0},
		{"all of nothing", expr.All[int8](tensor.Zeros[int8](0)), 1},
		{"nansum", expr.NanSum[int8](mixed), -6},
		{"nanprod", expr.NanProd[int8](expr.Slice[int8](mixed, 0, 0, 2, 1)), -21},
		{"nanmax", expr.NanMax[int8](mixed), 5},
		{"nanmin", expr.NanMin[int8](mixed), -7},
		{"ptp", expr.Ptp[int8](mixed), 12},
	}
	for _, tt := range tests {
		out, err := kernels.Eval(tt.e)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := out.Item(); got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, got, tt.want)
		}
	}
	for name, e := range map[string]expr.Exp[int64]{
		"nanargmin": expr.NanArgMin[int8](mixed), "nanargmax": expr.NanArgMax[int8](mixed), "count_nonzero": expr.CountNonzero[int8](mixed),
	} {
		out, err := kernels.Eval(e)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := map[string]int64{"nanargmin": 1, "nanargmax": 3, "count_nonzero": 4}[name]
		if got := out.Item(); got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
}

// TestNormArgumentsPanic checks the panic rule for the norms' arguments: a
// NaN order, an order laze does not compute, a matrix norm over other than
// two axes.
func TestNormArgumentsPanic(t *testing.T) {
	x := tensor.Zeros[float64](2, 2)
	for name, f := range map[string]func(){
		"vector NaN":      func() { expr.VectorNorm[float64](x, math.NaN()) },
		"matrix 2":        func() { expr.MatrixNorm[float64](x, 2) },
		"matrix one axis": func() { expr.MatrixNorm[float64](x, 1, expr.Axis(0)) },
		"fro same axes":   func() { expr.FrobeniusNorm[float64](x, expr.Axis(1, 1)) },
	} {
		func() {
			defer func() {
				var ae *shape.ArgumentError
				if err, _ := recover().(error); !errors.As(err, &ae) {
					t.Errorf("%s: recovered %v, want an *ArgumentError", name, err)
				}
			}()
			f()
		}()
	}
}
