// Command crossvet type-checks laze and runs go vet's analyzers on it for the platform that
// GOOS, GOARCH and GOEXPERIMENT name, without compiling anything: it loads every package, the
// standard library's included, from source (golang.org/x/tools/go/packages), so that checking
// another platform costs seconds where `GOOS=… go vet` compiles that platform's standard
// library first (minutes on a 2-core machine). `make cross` runs it for each of laze's other
// platforms; the build of a platform's code that only a compiler does (function bodies in
// assembly) is checked by the bodies analyzer below, and linux/arm64 is also compiled and
// tested for real by `make test-arm64`.
//
// It is a module of its own so that golang.org/x/tools is no dependency of laze. Usage, from
// the repository root:
//
//	GOOS=darwin GOARCH=arm64 go run -C internal/crossvet . -C ../.. ./...
//
// Type errors (an untyped constant that overflows a 32-bit int, a file that a build
// constraint leaves a symbol out of) and vet's findings are printed with their positions,
// and the exit status is non-zero.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/asmdecl"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/buildtag"
	"golang.org/x/tools/go/analysis/passes/cgocall"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/directive"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/framepointer"
	"golang.org/x/tools/go/analysis/passes/hostport"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/slog"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stdversion"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unsafeptr"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
)

// vetAnalyzers are the analyzers `go vet` runs (cmd/vet in Go 1.26).
var vetAnalyzers = []*analysis.Analyzer{
	appends.Analyzer, asmdecl.Analyzer, assign.Analyzer, atomic.Analyzer, bools.Analyzer,
	buildtag.Analyzer, cgocall.Analyzer, composite.Analyzer, copylock.Analyzer, defers.Analyzer,
	directive.Analyzer, errorsas.Analyzer, framepointer.Analyzer, hostport.Analyzer,
	httpresponse.Analyzer, ifaceassert.Analyzer, loopclosure.Analyzer, lostcancel.Analyzer,
	nilfunc.Analyzer, printf.Analyzer, shift.Analyzer, sigchanyzer.Analyzer, slog.Analyzer,
	stdmethods.Analyzer, stdversion.Analyzer, stringintconv.Analyzer, structtag.Analyzer,
	testinggoroutine.Analyzer, tests.Analyzer, timeformat.Analyzer, unmarshal.Analyzer,
	unreachable.Analyzer, unsafeptr.Analyzer, unusedresult.Analyzer, waitgroup.Analyzer,
}

func main() {
	multichecker.Main(append(vetAnalyzers, bodiesAnalyzer)...)
}

// analysisValidate checks crossvet's analyzers as multichecker.Main does before running them.
func analysisValidate() error {
	return analysis.Validate(append(vetAnalyzers, bodiesAnalyzer))
}
