// Command report turns raw benchmark output into docs/performance.md's
// tables and the SVG plots in docs/img. `make bench-report` runs the CPU
// suite (bench/) and then this command; `make report` re-renders from the
// committed raw files alone.
//
// Usage:
//
//	go run ./bench/report [-cpu docs/bench/cpu.txt] [-gpu docs/bench/gpu.txt] [-doc docs/performance.md] [-img docs/img]
//
// The raw files are Go benchmark format (golang.org/x/perf/benchfmt). The
// CPU file carries the machine in its configuration lines: go test's cpu,
// goos and goarch, and the date, go and cores lines `make bench-report`
// writes before the runs. Every figure is the median of its repeated runs,
// with a 95% confidence interval, as benchstat computes them
// (golang.org/x/perf/benchmath). Besides the Go suite's implementations,
// the CPU file may hold laze-simd (laze built with GOEXPERIMENT=simd,
// renamed by run.sh) and the peers numpy and numexpr (bench/peers/peers.py,
// whose -N suffix is its thread count); the elementwise tables and plots
// show each of them the file has, and say which are missing and why
// (elementwise.go's missingNote), and their targets read "not in this run".
// The workloads (bench/workloads_test.go) come the same way:
// Workload/<workload>/<dtype>/{laze,laze-simd} from the Go suite and
// Workload/<workload>/<dtype>/{torch,numpy,numexpr} from
// bench/peers/workloads.py; workloads.go pairs them at equal thread counts
// into one table, with issue 29's targets against PyTorch, and one plot
// (docs/img/workloads.svg, drawn only where the file has laze and PyTorch
// figures together). The machine line names PyTorch's version and the BLAS
// library under NumPy's products, from that script's configuration lines.
// The array vocabulary (issue 32) comes the same way, on one core:
// Gather/<case>/laze, Sort/<case>/laze, Structured/<f>/{laze,tensors} and
// Einsum/float64/<n>/{einsum,einsum-build,matmul} from the Go suite, and
// <...>/numpy[-<form>] from bench/peers/gather.py, sort.py, structured.py
// and einsum.py; vocabulary.go writes one table against NumPy and one of
// laze against laze (einsum against MatMul, a structured tree against the
// plain tree), with the targets where it sets them, and says which
// figures the run lacks.
// The GPU file is optional: where it is
// missing, the GPU section says the figures wait for a GPU and no GPU plot
// is drawn. It is the gpu.txt that bench/gpu/suite.sh writes on a GPU
// machine: the Go GPU suite's output (bench/cuda_test.go) and PyTorch's
// (bench/gpu/torch_bench.py) from the same session; gpu.go lists the
// benchmark names it reads. Each part of the GPU section is drawn only
// where the file has its figures, so the first suite's format still
// renders.
//
// Each generated table replaces the text between a pair of markers in the
// document, `<!-- report:NAME -->` and `<!-- /report:NAME -->`; everything
// outside the markers is left as written. A marker the document lacks, or
// one without its end, is an error, and the document is then not written.
package main
