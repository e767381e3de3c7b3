// Package docsnip keeps the documentation's code blocks tied to compiled
// code. A Go block in README.md or docs/guide.md is marked with the Example
// (or test) function it shows:
//
//	<!-- example: tensor.ExampleFromSlice -->
//	```go
//	...the function's body...
//	```
//
// Body reads the body of that function from the package's _test.go files,
// Sync rewrites every marked block from its function, and the tests in
// package docs fail when a block differs from its function, so the guide
// cannot drift from the code. Shell blocks are split into commands
// (Commands) for the tests that check or run them.
package docsnip
