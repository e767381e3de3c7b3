package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/docsnip"
)

// TestDocumentedCommands runs every `go run ./cmd/exprdemo …` line of the
// README's and the guide's shell blocks with the built command, in a
// folder holding the example inputs (a.npy, b.npy, … from testdata/inputs),
// and checks that each succeeds and writes the file its -o names.
func TestDocumentedCommands(t *testing.T) {
	ran := 0
	for _, doc := range []string{"../../README.md", "../../docs/guide.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range docsnip.Blocks(string(text)) {
			if b.Lang != "sh" {
				continue
			}
			cmds, err := docsnip.Commands(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, words := range cmds {
				if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./cmd/exprdemo" {
					continue
				}
				runDocumented(t, doc, words[3:])
				ran++
			}
		}
	}
	if ran < 5 {
		t.Errorf("ran %d documented commands; the README and guide show more", ran)
	}
}

func runDocumented(t *testing.T, doc string, args []string) {
	t.Helper()
	dir := t.TempDir()
	inputs, _ := filepath.Glob(filepath.Join("testdata", "inputs", "*.npy"))
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(in)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(exprdemo, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: exprdemo %s: %v\n%s", doc, strings.Join(args, " "), err, out)
		return
	}
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			if _, err := os.Stat(filepath.Join(dir, args[i+1])); err != nil {
				t.Errorf("%s: exprdemo %s: wrote no %s", doc, strings.Join(args, " "), args[i+1])
			}
		}
	}
}
