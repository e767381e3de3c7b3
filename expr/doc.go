// Package expr builds lazy elementwise expressions over tensors. Nothing is
// computed when a tree is built: package kernels evaluates a whole tree in one
// fused pass when it is assigned to a destination.
//
// An expression is an Exp[T]: a *tensor.Tensor[T] is one as it is, and the
// package's functions combine expressions into typed nodes (Unary, Binary,
// Ternary) with scalar constants (Scalar) as leaves:
//
//	e := expr.Add(expr.Mul(a, b), expr.Scalar(2.0)) // a*b + 2, computed later
//
// The fluent form reads left to right and gives the same tree:
//
//	e := expr.Of(a).Mul(b).AddScalar(2)
//
// Operands broadcast by NumPy's rules. A tree's shape, device and validity
// are worked out without evaluating it (Check); a tree prints as the
// expression it stands for ("((a * b) + 2)") and can be walked (Walk).
//
// The ops and their exact semantics (integer division, NaN handling) are
// listed in docs/design.md; each is defined once, in the op table of
// internal/ops, from which both the CPU loops and the CUDA source come.
package expr
