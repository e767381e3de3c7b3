# laze's developer commands. `make test` is what CI runs (see .ci/run).
GO ?= go
COVER_PKGS := ./shape ./alloc ./tensor ./tensor/npy ./tensor/gonum ./expr ./grad ./kernels ./kernels/internal/cpu ./kernels/internal/device ./kernels/internal/ir ./kernels/internal/loops ./internal/ops ./internal/scalar \
	./cmd/exprdemo/internal/lang ./cmd/exprdemo/internal/interp ./internal/docsnip ./bench/report
COVER_MIN := 85
# KERNELS_COVERPKG are the packages whose coverage kernels' tests count: the executors
# (kernels/internal/cpu, kernels/internal/device) run the passes (kernels/internal/ir) that kernels
# lowers, and kernels' differential, banding, reduction and emulated-device tests are their tests. test-cover runs kernels' tests apart, with -coverpkg, into
# coverage-kernels.out.
KERNELS_COVERPKG := ./kernels,./kernels/internal/cpu,./kernels/internal/device,./kernels/internal/ir
# SIMD_PKGS are tested a second time in the SIMD build: the packages whose code that build
# changes (kernels' differential tests check the evaluator's SIMD paths against the reference).
SIMD_PKGS := ./kernels/internal/vmath ./kernels/internal/gemm ./kernels/internal/loops ./kernels
FUZZTIME ?= 20s
# RACE_PKGS are the packages whose own code is concurrent (goroutines, sync, atomics): make test
# runs their tests under the race detector, in -short mode (the random differential tests run a
# fifth of their scenes, raceScaled in kernels/race_*_test.go; every test runs in full in the run
# without -race that counts coverage). The tests the detector cannot run (the CUDA emulator's,
# whose kernels run in g++-built processes; allocation counts, which sync.Pool makes vary under
# it) skip themselves there.
RACE_PKGS := ./alloc ./tensor ./kernels ./internal/dag ./cuda/internal/diskcache ./kernels/internal/gemm ./internal/isa ./kernels/internal/par
# CROSS_TARGETS are the platforms besides linux/amd64 that `make cross` type-checks and vets
# (tests included); ARM64_PKGS are the packages `make test-arm64` runs under qemu-aarch64.
CROSS_TARGETS := linux/386 linux/arm64 darwin/arm64 windows/amd64
ARM64_PKGS := ./shape ./alloc ./tensor ./expr ./kernels ./kernels/internal/cpu ./kernels/internal/loops ./kernels/internal/gemm ./kernels/internal/vmath ./internal/isa

.PHONY: gpu-pack test fmt-check vet asm-check crossvet cross qemu-deps test-arm64 bench bench-elementwise bench-matmul bench-reduce bench-workloads demo cover fuzz fuzz-ci fuzz-simd generate \
	cuda-deps cuda-check cuda-test bench-cuda gpu-suite gpu-build bench-report report guide

## test: gofmt check, go vet of both builds, the assembly generators' check (asm-check), then three
## runs at once (each one's output printed when it ends; their compiles and test binaries share
## the two cores, where one run alone leaves a core idle while its last test binary, kernels, runs):
## test-cover, every test once in full with coverage counted (`make cover` reads it); test-race,
## the concurrent packages' tests under the race detector; test-simd, the packages whose code the
## SIMD build (GOEXPERIMENT=simd) changes in that build, and the vector math built for GOAMD64=v3
test: fmt-check vet asm-check
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-cover test-race test-simd

.PHONY: test-cover test-race test-simd
test-cover:
	@$(GO) test -covermode=set -coverpkg=$(KERNELS_COVERPKG) -coverprofile=coverage-kernels.out -timeout 30m ./kernels & kernels=$$!; \
	$(GO) test -covermode=set -coverprofile=coverage.out -timeout 30m $$($(GO) list ./... | grep -v '/laze/kernels$$'); rest=$$?; \
	wait $$kernels && exit $$rest

test-race:
	$(GO) test -race -short -timeout 30m $(RACE_PKGS)

## test-simd: without -race (the SIMD build changes the arithmetic inside a block, not how goroutines share the work)
test-simd:
	GOEXPERIMENT=simd $(GO) test -timeout 30m ./kernels/internal/vmath ./kernels/internal/gemm ./kernels/internal/loops
	GOEXPERIMENT=simd $(GO) test -short -timeout 30m -skip Emulated $(filter-out ./kernels/internal/vmath ./kernels/internal/gemm ./kernels/internal/loops,$(SIMD_PKGS))
	GOAMD64=v3 $(GO) test -short -timeout 30m ./kernels/internal/vmath

fmt-check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt -w needed on:"; echo "$$unformatted"; exit 1; fi

## vet: go vet of the default build, and the same analyzers over the SIMD build (GOEXPERIMENT=simd)
## by crossvet, which type-checks from source instead of compiling that build's standard library
vet: asm-check crossvet
	$(GO) vet ./...
	GOEXPERIMENT=simd $(CROSSVET) ./...

## crossvet: vet, test and build internal/crossvet (a module of its own: go vet's analyzers over
## go/packages, so that checking another platform or GOEXPERIMENT compiles nothing) for this
## machine into out/
## (built for this machine whatever GOOS, GOARCH or GOEXPERIMENT the caller set for the check)
CROSSVET := $(CURDIR)/out/crossvet
HOST_GO := GOOS= GOARCH= GOEXPERIMENT= $(GO)
crossvet:
	@mkdir -p out
	cd internal/crossvet && $(HOST_GO) vet ./... && $(HOST_GO) test ./... && $(HOST_GO) build -o $(CROSSVET) .

## asm-check: the generators of the assembly (kernels/internal/gemm/asmgen, kernels/internal/vmath/asmgen: modules of
## their own, so that avo is no dependency of laze): vet and test both (the vector math's test
## checks its NEON encoder against GNU as's words and that the committed files are what it writes)
asm-check:
	cd kernels/internal/gemm/asmgen && $(GO) vet ./... && $(GO) test ./...
	cd kernels/internal/vmath/asmgen && $(GO) vet ./... && $(GO) test ./...

## bench: every benchmark, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-elementwise: the fused-kernel suite alone (bench-report runs it for docs/performance.md)
bench-elementwise:
	$(GO) test -run '^$$' -bench Elementwise -benchmem -cpu 1,2 -count 4 -benchtime 400ms -timeout 60m ./bench

## bench-matmul: products alone, laze against gonum's Gemm (bench-report runs them for docs/performance.md)
bench-matmul:
	$(GO) test -run '^$$' -bench MatMul -benchmem -count 5 -benchtime 5x -timeout 60m ./bench

## bench-reduce: reductions, fused against materialised and hand loops, on 1 and 2 cores
bench-reduce:
	$(GO) test -run '^$$' -bench Reduce -benchmem -cpu 1,2 -count 5 -benchtime 1s -timeout 60m ./bench

## bench-workloads: the real workloads (an MLP training step, Black–Scholes, layer norm + GELU, softmax
## cross-entropy and its gradient, a k-means assignment) in laze alone, float32 and float64, on 1 and 2
## cores (bench-report runs them with their PyTorch, NumPy and numexpr peers, bench/peers/workloads.py)
bench-workloads:
	$(GO) test -run '^$$' -bench Workload -benchmem -cpu 1,2 -count 5 -benchtime 500ms -timeout 60m ./bench

## bench-report: run the CPU suite (bench/), its GOEXPERIMENT=simd build and the NumPy/numexpr/PyTorch peers $(BENCH_COUNT) times into docs/bench/cpu.txt, then `make report`
BENCH_COUNT ?= 10
bench-report: bench-deps
	BENCH_COUNT=$(BENCH_COUNT) GO=$(GO) bash bench/report/run.sh docs/bench/cpu.txt
	$(MAKE) report

## bench-vocabulary: the array vocabulary's benchmarks and their NumPy peers alone (issue 32's targets), BENCH_COUNT passes into docs/bench/vocabulary.txt, then the report
.PHONY: bench-vocabulary
bench-vocabulary: bench-deps
	ONLY=vocabulary BENCH_COUNT=$(BENCH_COUNT) GO=$(GO) bash bench/report/run.sh docs/bench/vocabulary.txt
	$(MAKE) report

## bench-deps: install the peers' python3-numpy, python3-numexpr, python3-torch and OpenBLAS from Debian (when missing; warns, never fails, when it cannot)
.PHONY: bench-deps
bench-deps:
	bash bench/peers/deps.sh

## report: regenerate docs/performance.md's tables and the docs/img plots from docs/bench/*.txt
report:
	$(GO) run ./bench/report -cpu docs/bench/cpu.txt -gpu docs/bench/gpu.txt -vocab docs/bench/vocabulary.txt -doc docs/performance.md -img docs/img

## guide: copy each Example function into the README's and the guide's marked Go blocks
guide:
	$(GO) test ./docs -run TestGoBlocksAreExamples -count=1 -update

## demo: the tour of tensors, views and expressions on built-in data
demo:
	$(GO) run ./cmd/exprdemo

## cover: coverage of the library packages and the CLI's parser and interpreter, from the profile
## `make test` wrote; fails below $(COVER_MIN)%. Without that profile (or with COVER_RUN=1) it runs
## the tests itself first.
cover:
	@if [ -n "$(COVER_RUN)" ] || [ ! -f coverage.out ] || [ ! -f coverage-kernels.out ]; then \
		$(GO) test -covermode=set -coverpkg=$(KERNELS_COVERPKG) -coverprofile=coverage-kernels.out -timeout 30m ./kernels && \
		$(GO) test -covermode=set -coverprofile=coverage.out -timeout 30m $(filter-out ./kernels,$(COVER_PKGS)); \
	fi
	@pkgs="$$($(GO) list $(COVER_PKGS))"; \
	awk -v min=$(COVER_MIN) -v pkgs="$$pkgs" ' \
		BEGIN { n = split(pkgs, p, "\n"); for (i = 1; i <= n; i++) want[p[i]] = 1 } \
		FNR == 1 { next } \
		{ block = $$1; stmts[block] = $$2; hits[block] += $$3 } \
		END { for (b in stmts) { pkg = b; sub(/\/[^\/]*:.*/, "", pkg); \
				if (!(pkg in want)) continue; total[pkg] += stmts[b]; if (hits[b] > 0) covered[pkg] += stmts[b] } \
			for (pkg in want) { if (total[pkg] == 0) { printf "%s: no coverage profile\n", pkg; bad = 1; continue } \
				pct = 100 * covered[pkg] / total[pkg]; printf "%-50s coverage: %.1f%% of statements\n", pkg, pct; \
				if (pct < min) { printf "coverage of %s is %.1f%%, below %d%%\n", pkg, pct, min; bad = 1 } } \
			exit bad }' coverage.out coverage-kernels.out > coverage.txt; status=$$?; \
	sort -o coverage.txt coverage.txt; cat coverage.txt; \
	[ $$status -eq 0 ] && [ -s coverage.txt ] && ! grep -q "below\|no coverage" coverage.txt

## cross: type-check every package, tests included, and run go vet's analyzers for each of
## $(CROSS_TARGETS) (the platforms besides linux/amd64 that laze supports) with crossvet, which
## also reports what only a compiler would (a function without a body and no assembly for the
## platform); linux/arm64 is compiled and tested for real by test-arm64
cross: crossvet
	@set -e; for t in $(CROSS_TARGETS); do \
		echo "cross: $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(CROSSVET) ./...; \
	done

## qemu-deps: install qemu-aarch64 (Debian's qemu-user) when missing
qemu-deps:
	bash .ci/qemu-deps.sh

## test-arm64: the tests of $(ARM64_PKGS) built for linux/arm64 and run under qemu-aarch64
## (-short; the CUDA emulator's tests, which check generated C++ on the host, are skipped)
test-arm64: qemu-deps
	GOARCH=arm64 LAZE_TEST_EMULATOR=qemu-aarch64 $(GO) test -exec qemu-aarch64 -short -skip Emulated -timeout 30m $(ARM64_PKGS)

## fuzz: run each fuzz target (view chains, sizes that overflow, the evaluator, with several destinations, with the destination as scratch and on the emulated CUDA device, each float function's accuracy, the vector math, .npy files, the expression parser and interpreter, the docs' code blocks, gradients against finite differences, einsum's subscripts) for $(FUZZTIME); fuzz-simd fuzzes the SIMD build's evaluator and math
fuzz-simd:
	GOEXPERIMENT=simd GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssign $(FUZZTIME)
	GOEXPERIMENT=simd GO=$(GO) bash .ci/fuzz-target.sh ./kernels/internal/vmath FuzzVMath $(FUZZTIME)

## fuzz-ci: what CI fuzzes, each target $(FUZZTIME): the evaluator (FuzzAssign, FuzzAssignAll,
## FuzzSpill, one instrumented binary), view chains and shapes (one), the expression parser and
## interpreter; the other targets' seed corpora run in make test, and make fuzz runs them all
fuzz-ci:
	GO=$(GO) bash .ci/fuzz-target.sh --self-test
	GO=$(GO) bash .ci/fuzz-target.sh ./tensor FuzzViewChain $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./tensor FuzzShapes $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssign $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssignAll $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzSpill $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./cmd/exprdemo/internal/lang FuzzParse $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./cmd/exprdemo/internal/interp FuzzRun $(FUZZTIME)

fuzz:
	GO=$(GO) bash .ci/fuzz-target.sh --self-test
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels/internal/cpu FuzzPartition $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./tensor FuzzViewChain $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./tensor FuzzShapes $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssign $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssignAll $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzSpill $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzAssignEmulated $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels FuzzFunctionAccuracy $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./kernels/internal/vmath FuzzVMath $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./tensor/npy FuzzRead $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./cmd/exprdemo/internal/lang FuzzParse $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./cmd/exprdemo/internal/interp FuzzRun $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./internal/docsnip FuzzSync $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./grad FuzzGradient $(FUZZTIME)
	GO=$(GO) bash .ci/fuzz-target.sh ./expr FuzzEinsumParse $(FUZZTIME)

## generate: rewrite the code generated from the op table (internal/ops), the GEMM kernels' amd64
## and arm64 assembly (kernels/internal/gemm: asmgen with avo, neongen) and kernels/internal/vmath's kernels
generate:
	$(GO) generate ./internal/ops
	$(GO) generate ./kernels/internal/gemm
	$(GO) generate ./kernels/internal/vmath

## gpu-pack: make gpu-build's out/ into gpucarry/out.tar.xz (git-ignored, about 12 MB), which a GPU
## call carries whole (the device tool carries 64 MiB; out/ is over 70 MB); there:
##   mkdir -p out && tar -C out -xJf gpucarry/out.tar.xz && OUT=$OUT bash out/suite.sh all
gpu-pack: gpu-build
	mkdir -p gpucarry
	tar -C out -cf - cuda.test bench.test exprdemo.test exprdemo suite.sh torch_bench.py build-info.txt | xz -T0 -6 > gpucarry/out.tar.xz
	@ls -l gpucarry/out.tar.xz

## cuda-deps: install the CUDA headers, NVRTC, cuBLAS and libcuda from Debian's non-free component (when missing)
cuda-deps:
	bash .ci/cuda-deps.sh

## cuda-check: vet everything tagged cuda (crossvet), build the test binaries of the packages with
## cuda files (which compiles all of them, and links against libcuda), and compile every generated
## kernel with NVRTC (no GPU needed)
cuda-check: cuda-deps crossvet
	GOFLAGS=-tags=cuda $(CROSSVET) ./...
	@dir=$$(mktemp -d) && $(GO) test -c -tags cuda -o $$dir/ ./cuda ./bench ./cmd/exprdemo && ls $$dir && rm -rf $$dir
	$(GO) test -tags nvrtc -count=1 -run NVRTC ./kernels

## cuda-test: the GPU tests (tag cuda): the backend's, the CLI's and bench's; they need a GPU: gorgonia.org/cu ends the process without one
cuda-test: cuda-deps
	@if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then \
		$(GO) test -tags cuda -count=1 -v ./cuda ./cmd/exprdemo ./bench; \
	else echo "cuda-test: skipped: no GPU here (nvidia-smi finds none); run it on a GPU machine"; fi

## bench-cuda: the GPU benchmarks and the PyTorch reference as docs/performance.md quotes them (needs a GPU), into out/gpu-results/gpu.txt
bench-cuda: gpu-build
	OUT=$(CURDIR)/out/gpu-results bash out/suite.sh bench

## gpu-suite: on a GPU machine with Go, everything bench/gpu/suite.sh runs (tests, memcheck, benchmarks, torch) into out/gpu-results
gpu-suite: gpu-build
	OUT=$(CURDIR)/out/gpu-results SUITE_BUDGET=$${SUITE_BUDGET:-1200} bash out/suite.sh all

## gpu-build: portable GPU test and benchmark binaries in out/ (git-ignored), with bench/gpu/suite.sh and the torch script, for a GPU machine without Go
# bench.test gets the tag lazegraph (BenchmarkCUDAGraph) when package cuda has CUDA graphs (cuda.Device.Record).
gpu-build: cuda-deps
	../shared/gpu/build-portable.sh test ./cuda out/cuda.test
	@if $(GO) vet -tags 'cuda lazegraph' ./bench >/dev/null 2>&1; then echo "bench.test: with BenchmarkCUDAGraph"; echo "cuda lazegraph" > out/.bench-tags; \
	else echo "bench.test: WITHOUT BenchmarkCUDAGraph: bench/cuda_graph_test.go does not build (go vet -tags 'cuda lazegraph' ./bench)"; echo "cuda" > out/.bench-tags; fi
	TAGS="$$(cat out/.bench-tags)" ../shared/gpu/build-portable.sh test ./bench out/bench.test
	../shared/gpu/build-portable.sh test ./cmd/exprdemo out/exprdemo.test
	../shared/gpu/build-portable.sh cmd ./cmd/exprdemo out/exprdemo
	cp bench/gpu/suite.sh bench/gpu/torch_bench.py out/
	@{ echo "build: $$(git describe --always --dirty) $$(date -u +%Y-%m-%dT%H:%MZ), $$($(GO) env GOVERSION)"; \
	  echo "bench.test tags: $$(cat out/.bench-tags)"; } > out/build-info.txt; cat out/build-info.txt
