//go:generate go run ./gen

// Package ops is the op table: the one place where each elementwise
// operation of laze is defined. A row gives the op's name, how trees print it,
// its arity, the element types it accepts, its Go definition and its CUDA C
// definition.
//
// Nothing else spells out an op's arithmetic. The CPU evaluator's typed block
// loops (kernels/loops_gen.go) and this package's scalar Apply
// (apply_gen.go) are generated from the Go column by ./gen; the CUDA backend
// builds its kernels from the CUDA column and Prelude. Adding an op is adding a
// row (and, when its definition needs more than an expression, a helper
// function here and in Prelude), then running `go generate ./...`.
package ops
