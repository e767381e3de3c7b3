package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedFiles checks that the files in kernels/internal/vmath and kernels/internal/loops
// are what asmgen writes (as `go run . -check` does): run `go generate
// ./kernels/internal/vmath` after changing a kernel or the op table.
func TestCommittedFiles(t *testing.T) {
	for dir, files := range map[string]map[string][]byte{"..": generate(), "../../loops": generateLanes()} {
		for name, want := range files {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from what asmgen writes: run go generate ./kernels/internal/vmath", filepath.Join(dir, name))
			}
		}
	}
}

// TestDeterministic checks that two runs write the same files.
func TestDeterministic(t *testing.T) {
	for _, gen := range []func() map[string][]byte{generate, generateLanes} {
		a, b := gen(), gen()
		for name := range a {
			if !bytes.Equal(a[name], b[name]) {
				t.Errorf("%s differs between two runs", name)
			}
		}
	}
}
