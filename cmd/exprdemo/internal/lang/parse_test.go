package lang

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "(a + (b * c))"},
		{"a - b - c", "((a - b) - c)"},
		{"a ** b ** c", "(a ** (b ** c))"},
		{"-2 ** 2", "(-(2 ** 2))"},
		// Python's ranks: | < ^ < & < shifts < + -; ~ binds as unary -.
		{"a | b ^ c & d << 1 + 2", "(a | (b ^ (c & (d << (1 + 2)))))"},
		{"a & b | c", "((a & b) | c)"},
		{"a >> 1 << 2", "((a >> 1) << 2)"},
		{"~a ** 2", "(~(a ** 2))"},
		{"-~a & 3 == 1", "(((-(~a)) & 3) == 1)"},
		{"a<<b>=c", "((a << b) >= c)"},
		{"2 ** -1", "(2 ** (-1))"},
		{"a // b % c / d", "(((a // b) % c) / d)"},
		{"a @ b + c", "((a @ b) + c)"},
		{"a + b < c * d", "((a + b) < (c * d))"},
		{"(a + b) * c", "((a + b) * c)"},
		{"--a", "(-(-a))"},
		{"+a", "(+a)"},
		{"np.exp(x)", "exp(x)"},
		{"np.pi * x + np.nan", "((np.pi * x) + np.nan)"},
		{"x[:, np.newaxis]", "x[:, None]"},
		{"sum(x, axis=(0, 1), keepdims=True)", "sum(x, axis=(0, 1), keepdims=True)"},
		{"sum(x, axis=(0,))", "sum(x, axis=(0,))"},
		{"mean(x,)", "mean(x)"},
		{"where(x > 0, x, 0)", "where((x > 0), x, 0)"},
		{"x.T", "x.T"},
		{"x.T.T @ y", "(x.T.T @ y)"},
		{"x.reshape(2, -1).sum(axis=0)", "x.reshape(2, (-1)).sum(axis=0)"},
		{"x.transpose((1, 0, 2))", "x.transpose((1, 0, 2))"},
		{"x[1:3, ::2, 0, -1]", "x[1:3, ::2, 0, (-1)]"},
		{"x[..., None]", "x[..., None]"},
		{"x[:]", "x[:]"},
		{"x[::]", "x[:]"},
		{"x[1:]", "x[1:]"},
		{"x[:, 1]", "x[:, 1]"},
		{"x[0,]", "x[0]"},
		{"x[None:2]", "x[None:2]"},
		{"x[1][2]", "x[1][2]"},
		{"(x + 1)[0]", "(x + 1)[0]"},
		{"1.5e3 + .5 + 1_000 + 2.", "(((1.5e3 + .5) + 1_000) + 2.)"},
		{"()", "()"},
		{"float32(x) // 2", "(float32(x) // 2)"},
		{"x != y", "(x != y)"},
		{"größe * 2", "(größe * 2)"},
	}
	for _, tt := range tests {
		n, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := Format(n); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.src, got, tt.want)
		}
		if pos, end := n.Span(); pos != 0 || end != len(tt.src) {
			t.Errorf("Parse(%q) spans [%d, %d), want the whole source", tt.src, pos, end)
		}
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		src   string
		isInt bool
		i     int64
		f     float64
	}{
		{"42", true, 42, 0},
		{"1_000", true, 1000, 0},
		{"9223372036854775807", true, 9223372036854775807, 0},
		{"2.5", false, 0, 2.5},
		{"1e3", false, 0, 1000},
		{"1E-2", false, 0, 0.01},
		{".25", false, 0, 0.25},
		{"3.", false, 0, 3},
	}
	for _, tt := range tests {
		n, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		num := n.(*Num)
		if diff := cmp.Diff([]any{tt.isInt, tt.i, tt.f}, []any{num.IsInt, num.Int, num.Float}); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.src, diff)
		}
	}
}

// TestSyntaxErrors checks the position and message of each error.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src  string
		col  int
		says string
	}{
		{"a +", 4, "expected a number, a name or '(', found the end of the expression"},
		{"a + * b", 5, "found '*'"},
		{"(a + b", 7, "',' or ')'"},
		{"a b", 3, "an operator or the end"},
		{"a $ b", 3, `unexpected character '$'`},
		{"f(x, axis=0, 1)", 14, "positional argument cannot follow a keyword"},
		{"f(x y)", 5, "',' or ')' in the argument list"},
		{"x[1 2]", 5, "',' or ']' in the subscript"},
		{"x[]", 3, "an index, a slice, ... or None"},
		{"x.", 3, "attribute or method name"},
		{"x.1", 2, "found number .1"},
		{"a < b < c", 7, "chained comparisons"},
		{"1e", 2, "exponent needs digits"},
		{"12abc", 3, "invalid number literal"},
		{"99999999999999999999", 1, "does not fit in 64 bits"},
		{"np.(x)", 4, "a name after np., like np.exp(x) or np.pi"},
		{"é + ×", 5, "unexpected character '×'"},
		{"", 1, "found the end of the expression"},
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), 201, "nests deeper than 200 levels (a level is a pair of parentheses"},
		{"\xff", 1, "invalid UTF-8"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tt.src, err)
			continue
		}
		if col := Column(tt.src, se.Pos); col != tt.col || !strings.Contains(se.Msg, tt.says) {
			t.Errorf("Parse(%q): column %d %q, want column %d saying %q", tt.src, col, se.Msg, tt.col, tt.says)
		}
	}
}

func TestCaret(t *testing.T) {
	got := Caret("größe +\t*", 10)
	want := "  größe + *\n  " + strings.Repeat(" ", 8) + "^"
	if got != want {
		t.Errorf("Caret:\n%s\nwant\n%s", got, want)
	}
}

// TestNestingLimit checks that each nesting construct is accepted at the
// limit the message states, maxDepth levels, and refused at one more, with
// the error at the token that opens the extra level; and that chains,
// which do not nest, have no limit.
func TestNestingLimit(t *testing.T) {
	nested := func(open, inner, close string) func(int) string {
		return func(n int) string { return strings.Repeat(open, n) + inner + strings.Repeat(close, n) }
	}
	tests := []struct {
		name string
		src  func(levels int) string
		col  func(level int) int // the column of the token that opens level
	}{
		{"parentheses", nested("(", "a", ")"), func(k int) int { return k }},
		{"tuples", nested("(", "a", ",)"), func(k int) int { return k }},
		{"unary minus", nested("-", "a", ""), func(k int) int { return k }},
		{"unary signs", nested("+", "a", ""), func(k int) int { return k }},
		{"calls", nested("exp(", "a", ")"), func(k int) int { return 4 * k }},
		{"method calls", nested("a.clip(", "a", ")"), func(k int) int { return 7 * k }},
		{"subscripts", nested("a[", "0", "]"), func(k int) int { return 2 * k }},
		{"power chains", func(n int) string { return "a" + strings.Repeat("**a", n) }, func(k int) int { return 3*k - 1 }},
		{"powers of negations", func(n int) string { return "a" + strings.Repeat("**-a", n/2) }, func(k int) int { return 4*((k+1)/2) - 2 + 2*((k+1)%2) }},
		{"mixed", func(n int) string { return nested("-(", "a", ")")(n/2) + strings.Repeat("-", n%2) }, func(k int) int { return k }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.src(maxDepth)); err != nil {
				t.Errorf("%d levels: %v", maxDepth, err)
			}
			src := tt.src(maxDepth + 1)
			if tt.name == "powers of negations" || tt.name == "mixed" {
				src = tt.src(maxDepth + 2) // their levels come in pairs
			}
			_, err := Parse(src)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%d levels: %v, want a SyntaxError", maxDepth+1, err)
			}
			want := &SyntaxError{Pos: tt.col(maxDepth+1) - 1, Msg: depthMessage}
			if diff := cmp.Diff(want, se); diff != "" {
				t.Errorf("%d levels (-want +got):\n%s", maxDepth+1, diff)
			}
		})
	}
	for _, src := range []string{"a" + strings.Repeat(" + a", 5000), "a" + strings.Repeat("[0]", 5000), "a" + strings.Repeat(".T", 5000)} {
		if _, err := Parse(src); err != nil {
			t.Errorf("a chain of 5000: %v", err)
		}
	}
}

// FuzzParse checks that no input panics, that every error is a
// SyntaxError inside the source, and that a parse formats to source that
// parses to the same form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a + b * c", "sum(x, axis=(0, 1), keepdims=True)", "x[1:3, ::2, 0, -1, ..., None]",
		"np.where(x > 0, x.T, -x ** 2)", "x.reshape(2, -1) @ y", "float32(a) // 2 % 3", "((", "x[::", "1e+", "a<b<c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(src) {
				t.Fatalf("Parse(%q) = %v: not a SyntaxError with a position in the source", src, err)
			}
			return
		}
		pos, end := n.Span()
		if pos < 0 || end > len(src) || pos > end {
			t.Fatalf("Parse(%q) spans [%d, %d)", src, pos, end)
		}
		again, err := Parse(Format(n))
		if err != nil && strings.Contains(err.Error(), "nests deeper") {
			return // the parentheses Format adds count towards the limit
		}
		if err != nil {
			t.Fatalf("Format(Parse(%q)) = %q does not parse: %v", src, Format(n), err)
		}
		if Format(again) != Format(n) {
			t.Fatalf("%q formats to %q, which formats to %q", src, Format(n), Format(again))
		}
	})
}

// TestDepth checks Depth on each kind of node, chains included.
func TestDepth(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"a", 0}, {"1.5", 0}, {"((a))", 0}, {"-a", 1}, {"a + b + c", 2}, {"a + (b + c) * d", 3},
		{"x[0][1]", 2}, {"x[y[0]]", 2}, {"x[1:y[0]:2]", 2}, {"f(g(x))", 2}, {"x.T.T", 2},
		{"x.sum(axis=y.T)", 2}, {"f((a, b + c))", 2}, {"(a + 1)" + strings.Repeat("[::-1]", 1000), 1001},
	}
	for _, tt := range tests {
		n, err := Parse(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := Depth(n); got != tt.want {
			t.Errorf("Depth(%.40q) = %d, want %d", tt.src, got, tt.want)
		}
	}
}
