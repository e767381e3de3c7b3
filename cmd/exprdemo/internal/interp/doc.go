// Package interp evaluates exprdemo's parsed expressions with laze: it
// gives every value a NumPy dtype, promotes mixed dtypes as NumPy 2 does
// (NEP 50: a Python number does not change an array's dtype), builds one
// typed laze tree, and evaluates it with kernels.Assign. Grad differentiates
// that tree instead (package grad), with views of inputs taken as view
// nodes so that the inputs are its leaves.
//
// Go has no generic methods, so the element type of each value is held
// dynamically: a kit per element type (kitFor) builds and evaluates that
// type's nodes, and values carry their tree as an any holding an
// expr.Exp[T].
package interp
