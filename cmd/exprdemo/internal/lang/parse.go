package lang

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a parse error at byte offset Pos of the source.
type SyntaxError struct {
	Pos int
	Msg string
}

// Error returns the message, without the source.
func (e *SyntaxError) Error() string { return "syntax error: " + e.Msg }

// Column returns the 1-based column, in characters, of byte offset pos in
// src.
func Column(src string, pos int) int {
	pos = min(max(pos, 0), len(src))
	return utf8.RuneCountInString(src[:pos]) + 1
}

// Caret returns src on one line and a caret under byte offset pos on the
// next, each indented by two spaces.
func Caret(src string, pos int) string {
	flat := strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(src)
	return "  " + flat + "\n  " + strings.Repeat(" ", Column(src, pos)-1) + "^"
}

// maxDepth bounds nesting, so that no input can exhaust the stack. A
// level is what a reader counts: a pair of parentheses (grouping or a
// tuple), a call's argument list, a subscript's brackets, a unary -, + or ~,
// a ** (right-associative: a**b**c nests two). Each level opens once
// (enter), however many grammar rules the parser goes through for it, so
// that the limit the message states is the one applied. Chains that do not
// nest — a + b + c, x[0][1], x.T.T — have no limit.
const maxDepth = 200

// Parse parses one expression.
func Parse(src string) (Node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errAt(t, "an operator or the end of the expression")
	}
	return n, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// isOp reports whether the next token is the operator op.
func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == op
}

// accept consumes the operator op if it comes next.
func (p *parser) accept(op string) bool {
	if p.isOp(op) {
		p.i++
		return true
	}
	return false
}

// errAt reports what was wanted where token t is.
func (p *parser) errAt(t token, want string) error {
	return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("expected %s, found %s", want, t.describe())}
}

func (p *parser) expect(op string) (token, error) {
	t := p.peek()
	if !p.accept(op) {
		return t, p.errAt(t, "'"+op+"'")
	}
	return t, nil
}

// enter opens one level of nesting at token at, the one that opens it.
func (p *parser) enter(at token) error {
	p.depth++
	if p.depth > maxDepth {
		return &SyntaxError{Pos: at.pos, Msg: depthMessage}
	}
	return nil
}

// depthMessage states the nesting limit in the reader's units.
var depthMessage = fmt.Sprintf("the expression nests deeper than %d levels (a level is a pair of parentheses or brackets, a call's argument list, a unary -, + or ~, or a **)", maxDepth)

func (p *parser) leave() { p.depth-- }

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// expr is a comparison, the lowest precedence. Python would chain a < b < c
// as (a < b) and (b < c), which NumPy arrays refuse; so does this parser.
func (p *parser) expr() (Node, error) {
	x, err := p.binaryLevel(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tokOp && comparisons[t.text] {
		p.next()
		y, err := p.binaryLevel(0)
		if err != nil {
			return nil, err
		}
		x = newBinary(t, x, y)
		if t2 := p.peek(); t2.kind == tokOp && comparisons[t2.text] {
			return nil, &SyntaxError{Pos: t2.pos, Msg: "chained comparisons (a < b < c) are ambiguous for arrays; use parentheses"}
		}
	}
	return x, nil
}

// levels are the left-associative binary operators, loosest first, as
// Python ranks them: | below ^ below & below the shifts below + and -.
var levels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (p *parser) binaryLevel(level int) (Node, error) {
	if level == len(levels) {
		return p.unary()
	}
	x, err := p.binaryLevel(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tokOp || !slices.Contains(levels[level], t.text) {
			return x, nil
		}
		p.next()
		y, err := p.binaryLevel(level + 1)
		if err != nil {
			return nil, err
		}
		x = newBinary(t, x, y)
	}
}

func newBinary(op token, x, y Node) *Binary {
	pos, _ := x.Span()
	_, end := y.Span()
	return &Binary{span: span{pos, end}, Op: op.text, OpPos: op.pos, X: x, Y: y}
}

// unary is -x, +x or ~x, which bind looser than ** (-2**2 is -4).
func (p *parser) unary() (Node, error) {
	if t := p.peek(); p.isOp("-") || p.isOp("+") || p.isOp("~") {
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		_, end := x.Span()
		return &Unary{span: span{t.pos, end}, Op: t.text, OpPos: t.pos, X: x}, nil
	}
	return p.power()
}

// power is x ** y, right-associative, whose exponent may be negated.
func (p *parser) power() (Node, error) {
	x, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); p.accept("**") {
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer p.leave()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		return newBinary(t, x, y), nil
	}
	return x, nil
}

// postfix is an atom followed by attributes, method calls and subscripts.
func (p *parser) postfix() (Node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("."):
			name := p.next()
			if name.kind != tokName {
				return nil, p.errAt(name, "an attribute or method name after '.'")
			}
			pos, _ := x.Span()
			if p.isOp("(") {
				call := &Call{Recv: x, Func: name.text, FuncPos: name.pos}
				if err := p.arguments(call); err != nil {
					return nil, err
				}
				call.Pos = pos
				x = call
				continue
			}
			x = &Attr{span: span{pos, name.pos + len(name.text)}, X: x, Name: name.text}
		case p.isOp("["):
			ix, err := p.subscript(x, p.next())
			if err != nil {
				return nil, err
			}
			x = ix
		default:
			return x, nil
		}
	}
}

// atom is a number, a name, a call, or a parenthesised expression or tuple.
func (p *parser) atom() (Node, error) {
	t := p.next()
	switch {
	case t.kind == tokNum:
		return parseNum(t)
	case t.kind == tokStr:
		return &Str{span: span{t.pos, t.pos + len(t.text)}, Value: t.text[1 : len(t.text)-1]}, nil
	case t.kind == tokName && t.text == "np" && p.isOp("."):
		p.next() // np.exp(x) is exp(x)
		name := p.next()
		switch {
		case name.kind != tokName:
			return nil, &SyntaxError{Pos: name.pos, Msg: "expected a name after np., like np.exp(x) or np.pi"}
		case p.isOp("("):
			return p.call(name, t.pos)
		}
		return &Name{span: span{t.pos, name.pos + len(name.text)}, Name: name.text, NumPy: true}, nil
	case t.kind == tokName && p.isOp("("):
		return p.call(t, t.pos)
	case t.kind == tokName:
		return &Name{span: span{t.pos, t.pos + len(t.text)}, Name: t.text}, nil
	case t.kind == tokOp && t.text == "(":
		return p.parenthesised(t)
	case t.kind == tokOp && t.text == "[":
		return p.listLiteral(t)
	}
	return nil, p.errAt(t, "a number, a name or '('")
}

func (p *parser) call(name token, pos int) (Node, error) {
	c := &Call{Func: name.text, FuncPos: name.pos}
	if err := p.arguments(c); err != nil {
		return nil, err
	}
	c.Pos = pos
	return c, nil
}

// parenthesised reads (x), a tuple (x, y) or (x,), or ().
func (p *parser) parenthesised(open token) (Node, error) {
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer p.leave()
	if close := p.peek(); p.accept(")") {
		return &Tuple{span: span{open.pos, close.pos + 1}}, nil
	}
	first, err := p.expr()
	if err != nil {
		return nil, err
	}
	if close := p.peek(); p.accept(")") {
		return &Paren{span: span{open.pos, close.pos + 1}, X: first}, nil
	}
	elems := []Node{first}
	for {
		if _, err := p.expect(","); err != nil {
			return nil, p.errAt(p.peek(), "',' or ')'")
		}
		if close := p.peek(); p.accept(")") {
			return &Tuple{span: span{open.pos, close.pos + 1}, Elems: elems}, nil
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		elems = append(elems, x)
		if close := p.peek(); p.accept(")") {
			return &Tuple{span: span{open.pos, close.pos + 1}, Elems: elems}, nil
		}
	}
}

// arguments reads (a, b, name=c) into c; keywords come after positionals.
func (p *parser) arguments(c *Call) error {
	if err := p.enter(p.next()); err != nil { // (
		return err
	}
	defer p.leave()
	for !p.isOp(")") {
		t := p.peek()
		if t.kind == tokName && p.toks[p.i+1].kind == tokOp && p.toks[p.i+1].text == "=" {
			p.i += 2
			v, err := p.expr()
			if err != nil {
				return err
			}
			_, end := v.Span()
			c.Keywords = append(c.Keywords, Keyword{span: span{t.pos, end}, Name: t.text, Value: v})
		} else {
			if len(c.Keywords) > 0 {
				return &SyntaxError{Pos: t.pos, Msg: "a positional argument cannot follow a keyword argument"}
			}
			v, err := p.expr()
			if err != nil {
				return err
			}
			c.Args = append(c.Args, v)
		}
		if !p.accept(",") && !p.isOp(")") {
			return p.errAt(p.peek(), "',' or ')' in the argument list")
		}
	}
	c.End = p.next().pos + 1
	return nil
}

// subscript reads the items of x[…] after the '[', token open.
func (p *parser) subscript(x Node, open token) (Node, error) {
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer p.leave()
	pos, _ := x.Span()
	ix := &Index{X: x}
	for {
		item, err := p.item()
		if err != nil {
			return nil, err
		}
		ix.Items = append(ix.Items, item)
		if close := p.peek(); p.accept("]") {
			ix.span = span{pos, close.pos + 1}
			return ix, nil
		}
		if _, err := p.expect(","); err != nil {
			return nil, p.errAt(p.peek(), "',' or ']' in the subscript")
		}
		if close := p.peek(); p.accept("]") { // a trailing comma
			ix.span = span{pos, close.pos + 1}
			return ix, nil
		}
	}
}

// item reads one subscript item: an index, a slice, ... or None.
func (p *parser) item() (IndexItem, error) {
	t := p.peek()
	if p.accept("...") {
		return IndexItem{span: span{t.pos, t.pos + 3}, Kind: ItemEllipsis}, nil
	}
	if t.kind == tokName && t.text == "None" && !p.isNextSliceColon() {
		p.next()
		return IndexItem{span: span{t.pos, t.pos + 4}, Kind: ItemNewAxis}, nil
	}
	item := IndexItem{Kind: ItemIndex}
	item.Pos = t.pos
	var parts [3]Node
	k := 0
	for {
		if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
			v, err := p.expr()
			if err != nil {
				return item, err
			}
			parts[k] = v
		}
		if k == 2 || !p.accept(":") {
			break
		}
		item.Kind = ItemSlice
		k++
	}
	item.Start, item.Stop, item.Step = parts[0], parts[1], parts[2]
	item.End = p.peek().pos
	if n, ok := item.Start.(*Name); ok && item.Kind == ItemIndex && n.NumPy && n.Name == "newaxis" {
		return IndexItem{span: item.span, Kind: ItemNewAxis}, nil // x[:, np.newaxis] is x[:, None]
	}
	if item.Kind == ItemIndex && item.Start == nil {
		return item, p.errAt(p.peek(), "an index, a slice, ... or None")
	}
	return item, nil
}

// isNextSliceColon reports whether the token after the next is ':', as in
// x[None:3] (None as a slice bound).
func (p *parser) isNextSliceColon() bool {
	n := p.toks[min(p.i+1, len(p.toks)-1)]
	return n.kind == tokOp && n.text == ":"
}
