package lang

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token.
type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokOp  // operators and punctuation, in tok.text
	tokStr // a string literal, quotes included (str.go)
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// describe names a token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "the end of the expression"
	case tokNum:
		return "number " + t.text
	case tokName:
		return "name " + t.text
	case tokStr:
		return "string " + t.text
	}
	return "'" + t.text + "'"
}

// operators lists the multi-character operators before their prefixes.
var operators = []string{"...", "**", "//", "==", "!=", "<<", ">>", "<=", ">=", "+", "-", "*", "/", "%", "@", "<", ">", "&", "|", "^", "~", "(", ")", "[", "]", ",", ":", ".", "="}

// lex splits src into tokens.
func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			i += size
		case r >= '0' && r <= '9' || r == '.' && i+1 < len(src) && isDigit(src[i+1]):
			end, err := scanNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokNum, src[i:end], i})
			i = end
		case r == '\'' || r == '"':
			end, err := scanString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokStr, src[i:end], i})
			i = end
		case r == '_' || unicode.IsLetter(r):
			end := i
			for end < len(src) {
				r, n := utf8.DecodeRuneInString(src[end:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				end += n
			}
			toks = append(toks, token{tokName, src[i:end], i})
			i = end
		default:
			op := matchOperator(src[i:])
			if op == "" {
				if r == utf8.RuneError && size == 1 {
					return nil, &SyntaxError{Pos: i, Msg: "invalid UTF-8 in the expression"}
				}
				return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r)}
			}
			toks = append(toks, token{tokOp, op, i})
			i += len(op)
		}
	}
	return append(toks, token{tokEOF, "", len(src)}), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func matchOperator(s string) string {
	for _, op := range operators {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// scanNumber returns the end of the number literal at src[i:]: digits with
// optional underscores, a fraction and an exponent, as Python writes them.
func scanNumber(src string, i int) (int, error) {
	end := i
	digits := func() {
		for end < len(src) && (isDigit(src[end]) || src[end] == '_' && end+1 < len(src) && isDigit(src[end+1]) && end > i) {
			end++
		}
	}
	digits()
	if end < len(src) && src[end] == '.' && !strings.HasPrefix(src[end:], "...") {
		end++
		digits()
	}
	if end < len(src) && (src[end] == 'e' || src[end] == 'E') {
		exp := end + 1
		if exp < len(src) && (src[exp] == '+' || src[exp] == '-') {
			exp++
		}
		if exp >= len(src) || !isDigit(src[exp]) {
			return 0, &SyntaxError{Pos: end, Msg: "an exponent needs digits: 1e3, 2.5e-4"}
		}
		end = exp
		digits()
	}
	if end < len(src) {
		if r, _ := utf8.DecodeRuneInString(src[end:]); r == '_' || unicode.IsLetter(r) {
			return 0, &SyntaxError{Pos: end, Msg: fmt.Sprintf("invalid number literal %q", src[i:end]+string(r))}
		}
	}
	return end, nil
}

// parseNum reads a number token's value.
func parseNum(t token) (*Num, error) {
	n := &Num{span: span{t.pos, t.pos + len(t.text)}, Text: t.text}
	clean := strings.ReplaceAll(t.text, "_", "")
	if !strings.ContainsAny(clean, ".eE") {
		v, err := strconv.ParseInt(clean, 10, 64)
		if err != nil {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("integer %s does not fit in 64 bits", t.text)}
		}
		n.IsInt, n.Int = true, v
		return n, nil
	}
	v, err := strconv.ParseFloat(clean, 64)
	if err != nil && !isRangeErr(err) {
		return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("invalid number %s", t.text)}
	}
	n.Float = v // an overflowing literal is ±Inf, as in Python
	return n, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
