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
// Exit status: 0 on success; 1 when reading an input, parsing or
// evaluating the expression, or writing the result fails; 2 for a malformed
// command line. A syntax error shows the expression with a caret under the
// column; every other error is one line naming the column, the
// subexpression and the values at fault.
package main
