package cpu

import (
	"github.com/laze-go/laze/kernels/internal/ir"
	"github.com/laze-go/laze/tensor"
)

// pass is an ir.Pass with the CPU executor's methods.
type pass[T tensor.Number] ir.Pass[T]

// reduction is an ir.Reduction with the CPU executor's methods.
type reduction[T tensor.Number] ir.Reduction[T]

// red returns the pass's reduction, nil for an assignment.
func (p *pass[T]) red() *reduction[T] { return (*reduction[T])(p.Red) }
