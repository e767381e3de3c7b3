// Package lang parses exprdemo's expression language: the subset of
// Python and NumPy syntax that builds array expressions. Numbers, names,
// the operators + - * / // % ** @ and comparisons with Python's precedence,
// unary minus, parentheses and tuples, function calls with keyword
// arguments (sum(x, axis=(0, 1), keepdims=True); an np. prefix is
// accepted), attributes and methods (x.T, x.reshape(2, -1)), and NumPy
// subscripts (x[1:3, ::2, 0, -1, ..., None]).
//
// Every node records the byte range of its source, and every error the
// byte position it is at, so that callers can point at the column.
package lang
