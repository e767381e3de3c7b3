package cuda

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocListsAPI checks that the package comment names every exported
// identifier of the package's cuda-tagged files, so that `go doc` without
// the tag still shows the whole API. It parses the files (build tags do not
// matter to the parser), so it runs in every build.
func TestDocListsAPI(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if name == "doc.go" {
			doc = f.Doc.Text()
		}
		names = append(names, exportedNames(f)...)
	}
	if len(names) < 10 {
		t.Fatalf("found only %d exported names (%v): the parser missed the tagged files", len(names), names)
	}
	for _, n := range names {
		if !regexp.MustCompile(`\b` + n + `\b`).MatchString(doc) {
			t.Errorf("the package comment in doc.go does not mention %s", n)
		}
	}
}

// exportedNames returns f's exported top-level names and the exported
// method names of its exported types (methods every error has, Error,
// Unwrap and Is, are left out).
func exportedNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !receiverExported(d.Recv)) {
				continue
			}
			if d.Recv != nil && (d.Name.Name == "Error" || d.Name.Name == "Unwrap" || d.Name.Name == "Is") {
				continue
			}
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names = append(names, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// receiverExported reports whether a method's receiver type is exported.
func receiverExported(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}
