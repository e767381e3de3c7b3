package kernels

import "github.com/laze-go/laze/tensor"

// value is an operand or result over one block: a vector of the block's
// length, or one value for the whole block.
type value[T tensor.Number] struct {
	vec []T
	s   T
}
