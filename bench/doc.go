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
//
// BenchmarkWorkload/<workload>/<dtype>/laze times five real workloads,
// each written as a laze user writes it (the public API only, trees built
// once, each step one kernels.Assign or kernels.AssignAll), in float32 and
// float64:
//
//   - mlp: one SGD step of a 784-512-10 MLP (ReLU, softmax cross-entropy),
//     batch 256: the loss's gradients by grad.Of and the four parameter
//     updates in one AssignAll;
//   - blackscholes: call and put prices of 1e6 European options, the
//     normal CDF as Abramowitz and Stegun's polynomial, both prices in one
//     AssignAll;
//   - layernorm-gelu: layer norm over the rows of a 4096×1024 matrix, then
//     GELU in its tanh form, one Assign;
//   - softmax-xent: the mean softmax cross-entropy of 4096×1000 logits and
//     its gradient (grad.Of), one AssignAll;
//   - kmeans: one k-means assignment step, 1e5 points of 64 dimensions
//     against 256 centroids, squared distances through a product, then
//     argmin, one Assign.
//
// TestWorkloadMLPStep, TestWorkloadBlackScholes, TestWorkloadLayerNormGELU,
// TestWorkloadSoftmaxXent and TestWorkloadKMeans check each against a plain
// Go loop of the textbook formulas at smaller sizes, in both dtypes.
// bench/peers/workloads.py runs the same workloads in PyTorch (CPU, eager),
// NumPy and numexpr; `make bench-workloads` runs laze's alone and `make
// bench-report` both, at equal threads.
//
// docs/performance.md records the figures and the commands.
package bench
