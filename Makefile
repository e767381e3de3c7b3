# laze's developer commands. `make test` is what CI runs (see .ci/run).
GO ?= go
COVER_PKGS := ./shape ./alloc ./tensor
COVER_MIN := 85
FUZZTIME ?= 20s

.PHONY: test fmt-check vet bench demo cover fuzz

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

## demo: the tour of tensors and views on built-in data
demo:
	$(GO) run ./cmd/exprdemo

## cover: coverage of the foundation packages; fails below $(COVER_MIN)%
cover:
	@$(GO) test -cover $(COVER_PKGS) > coverage.txt; status=$$?; cat coverage.txt; \
	[ $$status -eq 0 ] || exit $$status; \
	awk -v min=$(COVER_MIN) '/coverage:/ { for (i = 1; i <= NF; i++) if ($$i == "coverage:") { \
		pct = $$(i+1); sub("%", "", pct); \
		if (pct + 0 < min) { printf "coverage of %s is %s%%, below %d%%\n", $$2, pct, min; bad = 1 } } } \
		END { exit bad }' coverage.txt

## fuzz: run the view-chain fuzz target for $(FUZZTIME)
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzViewChain -fuzztime $(FUZZTIME) ./tensor
