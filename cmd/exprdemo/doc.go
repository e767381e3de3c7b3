// Command exprdemo is laze's demo and a numexpr-like calculator over .npy
// files.
//
// With no arguments it prints a tour on built-in data: tensors and their
// views (transpose, slices with steps, index, reshape, broadcast), trees
// that compute nothing until Assign, an Assign into a view of another
// tensor, a matrix product and reductions, all printed as NumPy prints.
//
// exprdemo eval evaluates one NumPy-style expression:
//
//	exprdemo eval -i a=a.npy -rand b=3:float32 -seed 1 'relu(a @ a.T).sum(axis=0) + b[:2]'
//	exprdemo eval -explain -i x=x.npy -o y.npy 'where(x > 0, sqrt(x), 0)'
//
// Flags: -i name=path.npy (repeatable), -rand name=2x3x4[:dtype]
// (repeatable) with -seed N, -o out.npy, -device cpu|cuda, -explain. Run
// exprdemo eval -h for the language. Dtypes promote as NumPy 2's do.
//
// exprdemo grad prints the gradient of a one-element expression with
// respect to the inputs -wrt names (package grad builds it as a laze tree
// reading the expression's nodes; -tree prints it, -explain its plan too):
//
//	exprdemo grad -i x=x.npy -rand y=2x3 -wrt x,y 'sum(sin(x) * y)'
//	exprdemo grad -rand x=2x3 -rand v=2x3 -v v -wrt x 'tanh(x)'
//
// As PyTorch's backward(), it sums nothing for you: an expression of more
// than one element is an error unless -v names a cotangent of its shape,
// which gives the vector-Jacobian product, the gradient of sum(v * EXPR).
// A -wrt input must be float32 or float64, as in PyTorch and JAX (an
// integer one is an error, not promoted). Run exprdemo grad -h for the
// flags.
//
// Exit status: 0 on success; 1 when reading an input, parsing,
// evaluating or differentiating the expression, or writing the result
// fails; 2 for a malformed command line. A syntax error shows the
// expression with a caret under the column; every other error is one line
// naming the column, the subexpression and the values at fault.
package main
