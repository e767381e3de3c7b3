package lang

import (
	"fmt"
	"strings"
)

// Str is a string literal, 'ij,jk->ik' or "ij,jk->ik": einsum's
// subscripts. Escapes are not read (a backslash is an error), so Value is
// the text between the quotes.
type Str struct {
	span
	Value string
}

// scanString returns the end of the string literal that opens at src[i]
// (a ' or a "), just past its closing quote.
func scanString(src string, i int) (int, error) {
	q := src[i]
	for end := i + 1; end < len(src); end++ {
		switch src[end] {
		case q:
			return end + 1, nil
		case '\\':
			return 0, &SyntaxError{Pos: end, Msg: "escapes in strings are not supported"}
		case '\n':
			return 0, &SyntaxError{Pos: i, Msg: "unterminated string"}
		}
	}
	return 0, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unterminated string %s", src[i:])}
}

// formatStr writes s back with quotes that it does not hold.
func formatStr(b *strings.Builder, s *Str) {
	q := "'"
	if strings.Contains(s.Value, "'") {
		q = `"`
	}
	b.WriteString(q + s.Value + q)
}
