// Package grad differentiates laze's expression trees in reverse mode.
//
// Of(loss, x, w) returns the gradient of a one-element tree with respect to
// the tensors x and w, and VJP(out, v, x) the vector-Jacobian product of a
// tree of any shape. The results are expression trees, built from the same
// node types as the tree they differentiate and reading its nodes (the
// same pointers), so nothing is computed until they are assigned: an
// elementwise chain's gradient is one fused pass, and a node the gradient
// reads several times is computed once per evaluation.
//
// Every elementwise op's derivative is its Grad rule in the op table
// (internal/ops), from which rules_gen.go is generated. The other nodes
// have these rules:
//
//   - broadcasting: the gradient of an operand broadcast to a larger shape
//     is summed over the broadcast dimensions;
//   - sum and mean: the gradient broadcast back over the reduced axes (and
//     divided by the count for mean);
//   - max and min: the gradient shared evenly among the elements equal to
//     the extremum (PyTorch's amax and amin); NaN extrema give NaN;
//   - prod: the product of the other elements, computed without dividing
//     by zero;
//   - matmul: g @ yᵀ and xᵀ @ g, with NumPy's promotion of 1-D operands
//     undone and broadcast batch dimensions summed;
//   - views: the inverse view (transpose, permute, reshape, squeeze), zeros
//     around the elements a slice or an index selects, a sum over expanded
//     dimensions;
//   - cumsum and cumprod: a reversed cumulative sum (cumprod's without
//     dividing by zero); concatenate and stack: each part's slice;
//   - casts between float32 and float64: the gradient cast back; casts
//     from integers, argmax and argmin, comparisons and the rounding ops
//     pass no gradient (their derivative is 0 almost everywhere).
//
// Where an op has no derivative, the rules pick a subgradient, as PyTorch
// does: abs and relu take 0 at 0, maximum and minimum split the gradient
// evenly between equal operands, clip gives it to x on the bounds, and
// power's exponent gets 0 where the base is 0.
//
// expr.StopGradient (stop_gradient in the op table, JAX's stop_gradient,
// PyTorch's detach) is the identity and passes no gradient.
//
// expr.Var and expr.Std are trees of these nodes, differentiated through
// them, and built so that the result is PyTorch's var_backward and
// std_backward, the edges included. The mean enters the deviations through
// StopGradient (its derivative there is 0). Where the variance is 0,
// std's gradient is 0, as PyTorch's std_backward masks grad/(2·std) there
// (expr.Std takes the square root of 1 where the variance is 0, so no
// 0 · Inf is formed); var's is 0, as PyTorch's 2/(N - ddof) · (x - mean).
// With N - ddof ≤ 0 (DDof(N) or more), var's gradient is PyTorch's:
// g·where(x == mean, NaN, +Inf) over all axes (no Axis option, or a 0-d x),
// and 2/(N - ddof) · g · (x - mean) over named axes (±Inf, NaN on the mean,
// for N - ddof = 0; finite for N - ddof < 0); std's is 0 over named axes
// with N - ddof < 0 and a nonzero spread, NaN elsewhere, as PyTorch's.
package grad
