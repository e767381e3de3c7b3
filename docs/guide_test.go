package docs

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/internal/docsnip"
)

var update = flag.Bool("update", false, "rewrite the documents' Go blocks from their Example functions")

// root is the repository, seen from this package's directory.
const root = ".."

// documents are the files whose code blocks must be compiled code.
var documents = []string{"README.md", "docs/guide.md"}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func body(ref string) (string, error) { return docsnip.Body(root, ref) }

// TestGoBlocksAreExamples checks that every Go block is marked with a
// function and shows exactly that function's body; with -update it
// rewrites the blocks instead.
func TestGoBlocksAreExamples(t *testing.T) {
	for _, name := range documents {
		doc := read(t, name)
		if *update {
			synced, err := docsnip.Sync(doc, body)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := os.WriteFile(filepath.Join(root, name), []byte(synced), 0o644); err != nil {
				t.Fatal(err)
			}
			doc = synced
		}
		examples := 0
		for _, b := range docsnip.Blocks(doc) {
			if b.Lang != "go" {
				continue
			}
			if b.Marker == "" {
				t.Errorf("%s:%d: a Go block without an <!-- example: dir.Function --> marker above it", name, b.Line)
				continue
			}
			want, err := body(b.Marker)
			if err != nil {
				t.Errorf("%s:%d: %v", name, b.Line, err)
				continue
			}
			if diff := cmp.Diff(want, strings.Join(b.Lines, "\n")); diff != "" {
				t.Errorf("%s:%d: the block differs from %s (run make guide) (-function +block):\n%s", name, b.Line, b.Marker, diff)
			}
			examples++
		}
		if examples == 0 {
			t.Errorf("%s: no Go blocks", name)
		}
	}
}

// TestShellBlocksNameWhatExists checks each command of the documents' shell
// blocks: make targets are in the Makefile, go commands name packages that
// exist, other programs are files in the repository. The exprdemo commands
// themselves are run by cmd/exprdemo's TestDocumentedCommands.
func TestShellBlocksNameWhatExists(t *testing.T) {
	targets := makeTargets(t)
	module := modulePath(t)
	for _, name := range documents {
		for _, b := range docsnip.Blocks(read(t, name)) {
			if b.Lang != "sh" {
				continue
			}
			cmds, err := docsnip.Commands(b)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			for _, words := range cmds {
				if err := checkCommand(words, targets, module); err != "" {
					t.Errorf("%s:%d: %q: %s", name, b.Line, strings.Join(words, " "), err)
				}
			}
		}
	}
}

// checkCommand returns what is wrong with one documented command, or "".
func checkCommand(words []string, targets map[string]bool, module string) string {
	for len(words) > 0 && strings.Contains(words[0], "=") { // VAR=value prefixes
		words = words[1:]
	}
	if len(words) == 0 {
		return "no command"
	}
	switch words[0] {
	case "make":
		for _, w := range words[1:] {
			if !strings.Contains(w, "=") && !targets[w] {
				return "no make target " + w
			}
		}
		return ""
	case "go":
		return checkGo(words[1:], module)
	case "python3":
		if len(words) < 2 || !exists(words[1]) {
			return "no script " + strings.Join(words[1:], " ")
		}
		return ""
	default:
		if !exists(words[0]) {
			return "not a file of the repository, a make target or a go command"
		}
		return ""
	}
}

// exists reports whether path, relative to the repository, exists.
func exists(path string) bool {
	_, err := os.Stat(filepath.Join(root, path))
	return err == nil
}

// checkGo checks that a go command's package arguments exist.
func checkGo(args []string, module string) string {
	if len(args) == 0 {
		return "go with no subcommand"
	}
	for _, a := range args[1:] {
		switch {
		case strings.HasPrefix(a, "-"):
		case a == module || strings.HasPrefix(a, module+"@"):
		case strings.HasPrefix(a, "./"):
			if !exists(strings.TrimSuffix(strings.TrimSuffix(a, "/..."), "...")) {
				return "no package " + a
			}
		}
		if args[0] == "run" && strings.HasPrefix(a, "./") {
			break // the rest are the program's arguments
		}
	}
	return ""
}

var targetPattern = regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`)

func makeTargets(t *testing.T) map[string]bool {
	out := map[string]bool{}
	for _, m := range targetPattern.FindAllStringSubmatch(read(t, "Makefile"), -1) {
		out[m[1]] = true
	}
	return out
}

func modulePath(t *testing.T) string {
	for _, l := range strings.Split(read(t, "go.mod"), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod: no module line")
	return ""
}

func TestCheckCommandCatchesMistakes(t *testing.T) {
	targets := map[string]bool{"test": true}
	for _, tc := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"make", "test"}, ""},
		{[]string{"make", "tset"}, "no make target tset"},
		{[]string{"make", "BENCH_COUNT=3", "test"}, ""},
		{[]string{"go", "test", "-tags", "cuda", "./cuda"}, ""},
		{[]string{"go", "test", "./nowhere"}, "no package ./nowhere"},
		{[]string{"go", "get", "example.com/m"}, ""},
		{[]string{"go", "run", "./cmd/exprdemo", "eval", "./not-a-package"}, ""},
		{[]string{"frobnicate"}, "not a file of the repository, a make target or a go command"},
		{[]string{"python3", "bench/gpu/missing.py"}, "no script bench/gpu/missing.py"},
	} {
		if got := checkCommand(tc.cmd, targets, "example.com/m"); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
