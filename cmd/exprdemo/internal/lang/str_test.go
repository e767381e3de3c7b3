package lang

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStringsAndLists checks string literals (einsum's subscripts) and
// list literals (tensordot's axes): how they parse, and the errors of
// the ones that do not.
func TestStringsAndLists(t *testing.T) {
	tests := []struct{ src, want string }{
		{"einsum('ij,jk->ik', a, b)", "einsum('ij,jk->ik', a, b)"},
		{`einsum("ij", a)`, "einsum('ij', a)"},
		{`einsum("i'j", a)`, `einsum("i'j", a)`},
		{"einsum('', a)", "einsum('', a)"},
		{"tensordot(a, b, axes=([1, 0], [0, 1]))", "tensordot(a, b, axes=((1, 0), (0, 1)))"},
		{"f([])", "f(())"},
		{"f([1,])", "f((1,))"},
		{"[a + 1, 2][0]", "((a + 1), 2)[0]"},
	}
	for _, tt := range tests {
		n, err := Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if diff := cmp.Diff(tt.want, Format(n)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.src, diff)
		}
	}
	s, _ := Parse("f('ab')")
	if str, ok := s.(*Call).Args[0].(*Str); !ok || str.Value != "ab" || str.Pos != 2 || str.End != 6 {
		t.Errorf("f('ab'): argument %#v, want Str ab at 2 to 6", s.(*Call).Args[0])
	}
	bad := []struct {
		src  string
		pos  int
		says string
	}{
		{"einsum('ij, a)", 7, "unterminated string"},
		{`f("a\n")`, 4, "escapes"},
		{"f([1 2])", 5, "',' or ']'"},
		{"f([1,", 5, ""},
	}
	for _, tt := range bad {
		_, err := Parse(tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v is not a SyntaxError", tt.src, err)
			continue
		}
		if se.Pos != tt.pos || !strings.Contains(se.Msg, tt.says) {
			t.Errorf("%s: at %d %q, want at %d saying %q", tt.src, se.Pos, se.Msg, tt.pos, tt.says)
		}
	}
}
