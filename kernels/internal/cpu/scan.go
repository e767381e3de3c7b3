package cpu

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/tensor"
)

// Scan computes the inclusive scan of src along its middle axis into dst,
// both contiguous of shape outer × length × inner: dst's line k is op's
// fold of src's lines 0 to k, one line at a time (each line folds the one
// before it, element by element, with loops.CombineInto).
func Scan[T tensor.Number](op ops.Op, dst, src []T, outer, length, inner int) {
	if length == 0 || inner == 0 {
		return
	}
	plane := length * inner
	for o := range outer {
		base := o * plane
		copy(dst[base:base+inner], src[base:base+inner])
		for k := 1; k < length; k++ {
			row := base + k*inner
			acc := dst[row : row+inner]
			copy(acc, dst[row-inner:row])
			loops.CombineInto(op, acc, src[row:row+inner])
		}
	}
}
