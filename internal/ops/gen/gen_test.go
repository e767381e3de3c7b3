package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/internal/ops"
)

// TestGeneratedUpToDate fails when a generated file differs from what the
// op table gives now: run `go generate ./internal/ops` after editing the
// table.
func TestGeneratedUpToDate(t *testing.T) {
	root, files, err := generateAll()
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is stale: run go generate ./internal/ops", rel)
		}
	}
}

func TestPatterns(t *testing.T) {
	var got []string
	for arity := 1; arity <= 3; arity++ {
		for _, p := range patterns(arity) {
			got = append(got, p.String())
		}
	}
	want := []string{"V", "VV", "SV", "VS", "VVV", "SVV", "VSV", "SSV", "VVS", "SVS", "VSS"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("patterns (-want +got):\n%s", diff)
	}
}

// TestEveryOpHasExprFunctions fails when an op of the table lacks its
// function in package expr, its Chain method, or (for two or three
// operands) their XxxScalar forms.
func TestEveryOpHasExprFunctions(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := parser.ParseDir(token.NewFileSet(), filepath.Join(root, "expr"), func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs, methods := map[string]bool{}, map[string]bool{}
	for _, file := range pkgs["expr"].Files {
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fn.Recv == nil {
				funcs[fn.Name.Name] = true
				continue
			}
			if recv, ok := fn.Recv.List[0].Type.(*ast.IndexExpr); ok && recv.X.(*ast.Ident).Name == "Chain" {
				methods[fn.Name.Name] = true
			}
		}
	}
	for _, op := range ops.All() {
		def := op.Def()
		want := []string{def.GoName}
		wantMethods := []string{methodName(def)}
		if def.Arity > 1 {
			want = append(want, def.GoName+"Scalar")
			wantMethods = append(wantMethods, methodName(def)+"Scalar")
		}
		for _, name := range want {
			if !funcs[name] {
				t.Errorf("%s: package expr has no function %s", def.Name, name)
			}
		}
		for _, name := range wantMethods {
			if !methods[name] {
				t.Errorf("%s: expr.Chain has no method %s", def.Name, name)
			}
		}
	}
}

// TestHelperNamesFromTemplate: the helper regexp is read from the
// template, every helper a SIMD definition calls is one of them.
func TestHelperNamesFromTemplate(t *testing.T) {
	names := helperNames(laneHelpers)
	want := []string{"neg", "abs", "maximum", "minimum", "relu", "truth", "where", "floor", "ceil", "trunc",
		"rint", "sign", "reciprocal", "isfinite", "isinf", "nonzero", "iszero", "xor"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("helpers (-want +got):\n%s", diff)
	}
	called := regexp.MustCompile(`\b([a-z]\w*)\(`)
	for _, op := range ops.All() {
		for _, m := range called.FindAllStringSubmatch(op.Def().SIMD, -1) {
			if !slices.Contains(names, m[1]) {
				t.Errorf("%s's SIMD column calls %s, which laneHelpers does not define", op.Def().Name, m[1])
			}
		}
	}
}
