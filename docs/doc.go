// Package docs holds laze's documentation (design.md, guide.md,
// performance.md) and the tests that keep it honest: every Go block in
// guide.md and README.md is the body of a compiled Example or test
// function, and every command in their shell blocks names a make target,
// package or file that exists. `make guide` (go test ./docs -update)
// rewrites the Go blocks from their functions.
package docs
