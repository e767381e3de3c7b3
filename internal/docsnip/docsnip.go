package docsnip

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Block is one fenced code block of a markdown document.
type Block struct {
	Lang   string   // the fence's info string: go, sh, …
	Marker string   // the example the marker line above it names, or ""
	Line   int      // the 1-based line of the opening fence
	Lines  []string // the content, without the fences
}

var markerPattern = regexp.MustCompile(`^<!-- example: ([\w/.]+) -->$`)

// Blocks returns the fenced blocks of a markdown document, in order.
func Blocks(doc string) []Block {
	var out []Block
	for _, sp := range spans(strings.Split(doc, "\n")) {
		out = append(out, sp.Block)
	}
	return out
}

// A span is a block with the indexes of its fences; close is -1 when the
// document ends inside the block.
type span struct {
	Block
	open, close int
}

func spans(lines []string) []span {
	var out []span
	for i := 0; i < len(lines); i++ {
		lang, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		sp := span{Block: Block{Lang: strings.TrimSpace(lang), Line: i + 1}, open: i, close: -1}
		if i > 0 {
			if m := markerPattern.FindStringSubmatch(lines[i-1]); m != nil {
				sp.Marker = m[1]
			}
		}
		for i++; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], "```") {
				sp.close = i
				break
			}
			sp.Lines = append(sp.Lines, lines[i])
		}
		out = append(out, sp)
	}
	return out
}

// Body returns the body of the function ref names ("tensor.ExampleWrap",
// "tensor/npy.Example"): the directory under root and the function's name.
// The body is the text between the braces, unindented by one level, with
// leading tabs written as four spaces (as a reader's browser shows them).
func Body(root, ref string) (string, error) {
	dot := strings.LastIndex(ref, ".")
	if dot < 0 {
		return "", fmt.Errorf("example %q: want dir.Function", ref)
	}
	dir, name := filepath.Join(root, filepath.FromSlash(ref[:dot])), ref[dot+1:]
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	for _, f := range files {
		body, err := bodyIn(f, name)
		if err == nil {
			return body, nil
		}
		if !errors.Is(err, errNotFound) {
			return "", err
		}
	}
	return "", fmt.Errorf("example %q: no function %s in %s/*_test.go", ref, name, dir)
}

var errNotFound = errors.New("not found")

// bodyIn finds the top-level function name in file and returns its body.
func bodyIn(file, name string) (string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != name {
			continue
		}
		from, to := fset.Position(fn.Body.Lbrace).Offset+1, fset.Position(fn.Body.Rbrace).Offset
		return unindent(string(src[from:to])), nil
	}
	return "", errNotFound
}

// unindent drops the function body's first level of indentation and writes
// the remaining leading tabs as four spaces each.
func unindent(body string) string {
	lines := strings.Split(strings.Trim(body, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(l, "\t")
		tabs := len(l) - len(strings.TrimLeft(l, "\t"))
		lines[i] = strings.Repeat("    ", tabs) + l[tabs:]
	}
	return strings.Join(lines, "\n")
}

// Sync rewrites every marked Go block of doc with its function's body, as
// body returns it, and returns the new document.
func Sync(doc string, body func(ref string) (string, error)) (string, error) {
	lines := strings.Split(doc, "\n")
	var out []string
	next := 0 // the first line not yet copied
	for _, sp := range spans(lines) {
		if sp.Lang != "go" || sp.Marker == "" {
			continue
		}
		if sp.close < 0 {
			return "", fmt.Errorf("line %d: the block of %s is not closed", sp.Line, sp.Marker)
		}
		text, err := body(sp.Marker)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", sp.Line-1, err)
		}
		out = append(out, lines[next:sp.open+1]...)
		out = append(out, text)
		next = sp.close
	}
	out = append(out, lines[next:]...)
	return strings.Join(out, "\n"), nil
}

// Commands splits each line of a shell block into words, as the shell
// would for the simple commands documentation shows: single and double
// quotes group, a word that starts with # begins a comment, and blank
// lines are skipped.
func Commands(b Block) ([][]string, error) {
	var out [][]string
	for i, line := range b.Lines {
		words, err := split(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", b.Line+1+i, err)
		}
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out, nil
}

func split(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		case r == '#' && !inWord:
			return words, nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
