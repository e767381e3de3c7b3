# laze's developer commands. `make test` is what CI runs (see .ci/run).
GO ?= go
COVER_PKGS := ./shape ./alloc ./tensor ./tensor/npy ./tensor/gonum ./expr ./kernels ./internal/ops ./internal/scalar \
	./cmd/exprdemo/internal/lang ./cmd/exprdemo/internal/interp
COVER_MIN := 85
FUZZTIME ?= 20s

.PHONY: test fmt-check vet bench bench-elementwise bench-matmul bench-reduce demo cover fuzz generate

## test: gofmt check, go vet, and every test under the race detector
test: fmt-check vet
	$(GO) test -race ./...

fmt-check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt -w needed on:"; echo "$$unformatted"; exit 1; fi

vet:
	$(GO) vet ./...

## bench: every benchmark, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-elementwise: the fused-kernel suite as docs/performance.md quotes it
bench-elementwise:
	$(GO) test -run '^$$' -bench Elementwise -benchmem -cpu 1,2 -count 4 -benchtime 400ms -timeout 60m ./bench

## bench-matmul: products, laze against gonum's Gemm, as docs/performance.md quotes them
bench-matmul:
	$(GO) test -run '^$$' -bench MatMul -benchmem -count 5 -benchtime 5x -timeout 60m ./bench

## bench-reduce: reductions, fused against materialised and hand loops, on 1 and 2 cores
bench-reduce:
	$(GO) test -run '^$$' -bench Reduce -benchmem -cpu 1,2 -count 5 -benchtime 1s -timeout 60m ./bench

## demo: the tour of tensors, views and expressions on built-in data
demo:
	$(GO) run ./cmd/exprdemo

## cover: coverage of the library packages and the CLI's parser and interpreter; fails below $(COVER_MIN)%
cover:
	@$(GO) test -cover $(COVER_PKGS) > coverage.txt; status=$$?; cat coverage.txt; \
	[ $$status -eq 0 ] || exit $$status; \
	awk -v min=$(COVER_MIN) '/coverage:/ { for (i = 1; i <= NF; i++) if ($$i == "coverage:") { \
		pct = $$(i+1); sub("%", "", pct); \
		if (pct + 0 < min) { printf "coverage of %s is %s%%, below %d%%\n", $$2, pct, min; bad = 1 } } } \
		END { exit bad }' coverage.txt

## fuzz: run each fuzz target (view chains, the evaluator, .npy files, the expression parser and interpreter) for $(FUZZTIME)
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzViewChain -fuzztime $(FUZZTIME) ./tensor
	$(GO) test -run '^$$' -fuzz FuzzAssign -fuzztime $(FUZZTIME) ./kernels
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) ./tensor/npy
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./cmd/exprdemo/internal/lang
	$(GO) test -run '^$$' -fuzz FuzzRun -fuzztime $(FUZZTIME) ./cmd/exprdemo/internal/interp

## generate: rewrite the code generated from the op table (internal/ops)
generate:
	$(GO) generate ./internal/ops
