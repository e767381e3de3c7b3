package main

import (
	"go/ast"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// bodiesAnalyzer reports what the compiler reports and a type checker does not: a function
// declared without a body in a package that has no assembly file for the platform (the
// compiler's "missing function body"), as when the assembly of a kernel exists for amd64 and
// arm64 and a file without a build constraint declares it for every platform. A declaration
// carrying a //go:linkname directive gets its body from elsewhere and is not reported.
var bodiesAnalyzer = &analysis.Analyzer{
	Name: "bodies",
	Doc:  "report functions declared without a body in packages with no assembly for the platform",
	Run:  reportMissingBodies,
}

func reportMissingBodies(pass *analysis.Pass) (any, error) {
	if hasAssembly(pass.OtherFiles) {
		return nil, nil
	}
	for _, file := range pass.Files {
		linknamed := linknamedFuncs(file)
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body != nil || linknamed[fn.Name.Name] {
				continue
			}
			pass.Reportf(fn.Pos(), "missing function body: %s has no body and package %s has no assembly for this platform",
				fn.Name.Name, pass.Pkg.Path())
		}
	}
	return nil, nil
}

func hasAssembly(files []string) bool {
	for _, name := range files {
		if filepath.Ext(name) == ".s" {
			return true
		}
	}
	return false
}

// linknamedFuncs names the local functions of a file's //go:linkname directives.
func linknamedFuncs(file *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, group := range file.Comments {
		for _, comment := range group.List {
			if fields := strings.Fields(comment.Text); len(fields) >= 2 && fields[0] == "//go:linkname" {
				names[fields[1]] = true
			}
		}
	}
	return names
}
