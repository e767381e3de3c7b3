package docsnip

import (
	"strings"
	"testing"
)

// FuzzSync checks, for any document, that parsing and syncing never panic,
// that a synced document syncs to itself, and that every marked Go block
// of the synced document holds exactly the body given for its marker.
func FuzzSync(f *testing.F) {
	f.Add("<!-- example: pkg.ExampleSample -->\n```go\nold\n```\n")
	f.Add("```sh\nmake test # c\n```\n<!-- example: a.B -->\n```go\n")
	f.Add("text\n```\n```go\n<!-- example: x.Y -->\n```go\n```\n'\"")
	body := func(ref string) (string, error) { return "body of " + ref, nil }
	f.Fuzz(func(t *testing.T, doc string) {
		for _, b := range Blocks(doc) {
			_, _ = Commands(b)
		}
		once, err := Sync(doc, body)
		if err != nil {
			return
		}
		twice, err := Sync(once, body)
		if err != nil || twice != once {
			t.Fatalf("syncing twice changed the document (err %v):\n%q\n%q", err, once, twice)
		}
		for _, b := range Blocks(once) {
			if b.Lang == "go" && b.Marker != "" && strings.Join(b.Lines, "\n") != "body of "+b.Marker {
				t.Fatalf("block of %s holds %q", b.Marker, b.Lines)
			}
		}
	})
}
