// Package bench holds laze's fused-kernel benchmarks, in its tests:
//
//	go test -run '^$' -bench Elementwise -benchmem ./bench
//
// BenchmarkElementwise/<case>/<impl>/<n> runs each case (add, axpy, poly4,
// poly4f32, long8, bcast, transpose) with each implementation: laze
// (kernels.Assign), handloop (a hand-written fused Go loop: the practical
// limit), gonum (gonum.org/v1/gonum/floats, one call per op, temporaries
// allocated outside the loop: the Go peer) and naive (per-element evaluation
// through interface calls and an index vector, as a tree-walking interpreter
// does).
// TestImplementationsAgree checks that every implementation of a case
// computes the same result, so the figures compare equal work.
// BenchmarkGradLong8/<impl>/<n> times the gradient of sum(long8) with
// respect to its four inputs (package grad): fused (one kernels.Assign per
// gradient tree), unfused (one temporary per op node) and handloop, beside
// forward, long8 itself; TestGradLong8ImplementationsAgree checks them.
// docs/performance.md records the figures and the command.
package bench
