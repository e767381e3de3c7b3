package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTourGolden compares the tour's output with testdata/tour.golden
// (go test ./cmd/exprdemo -update rewrites it after a deliberate change).
func TestTourGolden(t *testing.T) {
	var out bytes.Buffer
	if err := tour(&out); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tour.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), out.String()); diff != "" {
		t.Errorf("tour output (-want +got):\n%s", diff)
	}
}
