package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
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
