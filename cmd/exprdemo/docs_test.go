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
// README's and the guide's shell blocks with the built command, as a reader
// on a fresh clone would: the lines of one block in order, in one folder
// that starts empty (so a line that reads a.npy needs an earlier line of
// its block that writes it), and checks that each succeeds and writes the
// file its -o names.
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
			dir := t.TempDir()
			cmds, err := docsnip.Commands(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, words := range cmds {
				if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./cmd/exprdemo" {
					continue
				}
				runDocumented(t, doc, dir, words[3:])
				ran++
			}
		}
	}
	if ran < 5 {
		t.Errorf("ran %d documented commands; the README and guide show more", ran)
	}
}

func runDocumented(t *testing.T, doc, dir string, args []string) {
	t.Helper()
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
