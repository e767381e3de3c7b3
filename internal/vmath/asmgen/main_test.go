package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedFiles checks that the files in internal/vmath are what
// asmgen writes (as `go run . -check` does): run `go generate
// ./internal/vmath` after changing a kernel.
func TestCommittedFiles(t *testing.T) {
	for name, want := range generate() {
		got, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what asmgen writes: run go generate ./internal/vmath", name)
		}
	}
}

// TestDeterministic checks that two runs write the same files.
func TestDeterministic(t *testing.T) {
	a, b := generate(), generate()
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}
