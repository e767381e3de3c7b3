package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"

	"github.com/laze-go/laze/internal/ops"
)

// constNames reads the names of the Op constants from internal/ops/ops.go,
// in declaration order (their iota values), so that the generated code can
// write `case ops.Add:` without a second list of the ops.
func constNames(root string) (map[ops.Op]string, error) {
	file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "internal/ops/ops.go"), nil, 0)
	if err != nil {
		return nil, err
	}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST || !declares(gen, "Invalid") {
			continue
		}
		names := make(map[ops.Op]string)
		for i, spec := range gen.Specs {
			name := spec.(*ast.ValueSpec).Names[0].Name
			if op := ops.Op(i); op.Valid() {
				names[op] = name
			}
		}
		for _, op := range ops.All() {
			if names[op] == "" {
				return nil, fmt.Errorf("op %v has no constant in ops.go", op)
			}
		}
		return names, nil
	}
	return nil, fmt.Errorf("ops.go has no const block declaring Invalid")
}

// declares reports whether a const block declares name.
func declares(gen *ast.GenDecl, name string) bool {
	for _, spec := range gen.Specs {
		for _, n := range spec.(*ast.ValueSpec).Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}
