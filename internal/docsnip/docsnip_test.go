package docsnip

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sampleBody = "for i := range 2 {\n    fmt.Println(i) // indented once in the guide\n}\n// Output:\n// 0\n// 1"

func TestBody(t *testing.T) {
	got, err := Body("testdata", "pkg.ExampleSample")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleBody, got); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	for _, ref := range []string{"pkg.ExampleMissing", "nowhere.Example", "nodot"} {
		if _, err := Body("testdata", ref); err == nil || !strings.Contains(err.Error(), ref) {
			t.Errorf("Body(%q): err = %v, want one naming it", ref, err)
		}
	}
}

func TestBlocks(t *testing.T) {
	doc := "# T\n<!-- example: pkg.ExampleSample -->\n```go\nold\n```\ntext\n```sh\nmake test  # comment\n```\n"
	want := []Block{
		{Lang: "go", Marker: "pkg.ExampleSample", Line: 3, Lines: []string{"old"}},
		{Lang: "sh", Line: 7, Lines: []string{"make test  # comment"}},
	}
	if diff := cmp.Diff(want, Blocks(doc)); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

func TestSync(t *testing.T) {
	doc := "intro\n<!-- example: pkg.ExampleSample -->\n```go\nstale\nlines\n```\nafter\n```go\nunmarked\n```\n"
	got, err := Sync(doc, func(ref string) (string, error) { return Body("testdata", ref) })
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n<!-- example: pkg.ExampleSample -->\n```go\n" + sampleBody + "\n```\nafter\n```go\nunmarked\n```\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("synced (-want +got):\n%s", diff)
	}
	if _, err := Sync("<!-- example: pkg.ExampleSample -->\n```go\nnever closed\n", func(string) (string, error) { return "x", nil }); err == nil {
		t.Error("an unclosed block was accepted")
	}
	if _, err := Sync(doc, func(ref string) (string, error) { return Body("testdata", "pkg.Nope") }); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a missing function: err = %v, want the marker's line", err)
	}
}

func TestCommands(t *testing.T) {
	b := Block{Line: 10, Lines: []string{
		"make test               # a comment",
		"",
		`go run ./cmd/exprdemo eval -i a=a.npy 'a * 2 # not a comment' "x y"`,
		"LD_LIBRARY_PATH=/usr/local/cuda/lib64 out/cuda.test -test.v",
	}}
	got, err := Commands(b)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"make", "test"},
		{"go", "run", "./cmd/exprdemo", "eval", "-i", "a=a.npy", "a * 2 # not a comment", "x y"},
		{"LD_LIBRARY_PATH=/usr/local/cuda/lib64", "out/cuda.test", "-test.v"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if _, err := Commands(Block{Line: 1, Lines: []string{"echo 'open"}}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("an unclosed quote: err = %v", err)
	}
}
