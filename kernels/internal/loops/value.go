package loops

import "github.com/laze-go/laze/tensor"

// Value is an operand or result over one block: a vector of the block's
// length (Vec), or one value for the whole block (S, when Vec is nil).
type Value[T tensor.Number] struct {
	Vec []T
	S   T
}
