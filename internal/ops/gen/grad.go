package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"

	"github.com/laze-go/laze/internal/ops"
)

// The names a Grad rule may read, and the bit each sets in the reads mask
// that grad/rules_gen.go records per rule (package grad works out a
// contribution's shape from the shapes of what its rule reads).
var gradNames = map[string]uint8{"a": 1, "b": 2, "c": 4, "out": 8, "g": 16}

// gradOps maps the ops' names (NumPy's) to their expr functions, for the
// calls inside Grad rules.
func gradOps() map[string]string {
	m := make(map[string]string)
	for _, op := range ops.All() {
		m[op.Def().Name] = op.Def().GoName
	}
	return m
}

// infixFuncs maps the Go operators a Grad rule may use to the functions
// that build their nodes: package grad's add, sub, mul and div (which fold
// constants, so that g = 1 leaves no 1*x behind) and expr's others.
var infixFuncs = map[token.Token]string{
	token.ADD: "add", token.SUB: "sub", token.MUL: "mul", token.QUO: "div",
	token.EQL: "expr.Eq", token.NEQ: "expr.Ne", token.LSS: "expr.Lt", token.LEQ: "expr.Le", token.GTR: "expr.Gt", token.GEQ: "expr.Ge",
	token.LAND: "expr.LogicalAnd", token.LOR: "expr.LogicalOr",
}

// gradRule is one Grad entry translated to Go: the expression building the
// derivative's tree, and which names it reads.
type gradRule struct {
	code  string
	reads uint8
}

// translateGrad turns one Grad rule into Go code over package expr.
func translateGrad(rule string, funcs map[string]string) (gradRule, error) {
	e, err := parser.ParseExpr(rule)
	if err != nil {
		return gradRule{}, err
	}
	var r gradRule
	code, err := r.translate(e, funcs)
	if err != nil {
		return gradRule{}, fmt.Errorf("%q: %w", rule, err)
	}
	if r.reads&gradNames["g"] == 0 {
		return gradRule{}, fmt.Errorf("%q does not read g: a derivative is linear in the incoming gradient", rule)
	}
	r.code = code
	return r, nil
}

func (r *gradRule) translate(e ast.Expr, funcs map[string]string) (string, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return r.translate(e.X, funcs)
	case *ast.Ident:
		bit, ok := gradNames[e.Name]
		if !ok {
			return "", fmt.Errorf("unknown name %s (a rule reads a, b, c, out and g)", e.Name)
		}
		r.reads |= bit
		return e.Name, nil
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return "", fmt.Errorf("literal %s is not a number", e.Value)
		}
		return "expr.Scalar(T(" + e.Value + "))", nil
	case *ast.UnaryExpr:
		x, err := r.translate(e.X, funcs)
		if err != nil {
			return "", err
		}
		switch e.Op {
		case token.SUB:
			return "neg(" + x + ")", nil
		case token.NOT:
			return "expr.LogicalNot(" + x + ")", nil
		}
		return "", fmt.Errorf("unary operator %s is not supported", e.Op)
	case *ast.BinaryExpr:
		f, ok := infixFuncs[e.Op]
		if !ok {
			return "", fmt.Errorf("operator %s is not supported", e.Op)
		}
		return r.call(f, []ast.Expr{e.X, e.Y}, funcs)
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		if !ok || funcs[id.Name] == "" {
			return "", fmt.Errorf("call of %s: not an op of the table", types(e.Fun))
		}
		return r.call("expr."+funcs[id.Name], e.Args, funcs)
	}
	return "", fmt.Errorf("%s is not supported", types(e))
}

func (r *gradRule) call(f string, args []ast.Expr, funcs map[string]string) (string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		s, err := r.translate(a, funcs)
		if err != nil {
			return "", err
		}
		out[i] = s
	}
	return f + "(" + strings.Join(out, ", ") + ")", nil
}

func types(e ast.Expr) string {
	var b bytes.Buffer
	if err := format.Node(&b, token.NewFileSet(), e); err != nil {
		return fmt.Sprintf("%T", e)
	}
	return b.String()
}

// gradSource writes grad/rules_gen.go: opGradient, which builds each op's
// derivative from its Grad rules, and ruleReads, which says what each rule
// reads.
func gradSource(names map[ops.Op]string) ([]byte, error) {
	funcs := gradOps()
	var b, reads bytes.Buffer
	b.WriteString(header)
	b.WriteString("package grad\n\nimport (\n\t\"github.com/laze-go/laze/expr\"\n\t\"github.com/laze-go/laze/internal/ops\"\n\t\"github.com/laze-go/laze/tensor\"\n)\n\n")
	b.WriteString("// opGradient returns the tree of the gradient flowing into operand i of\n")
	b.WriteString("// op from g, the gradient flowing into the op's value out, whose operands\n")
	b.WriteString("// are a, b and c (those past the op's arity are nil): the op's Grad rule\n")
	b.WriteString("// of the op table. It returns nil when no gradient flows into operand i.\n")
	b.WriteString("func opGradient[T tensor.Float](op ops.Op, i int, a, b, c, out, g expr.Exp[T]) expr.Exp[T] {\n")
	b.WriteString("\t_, _, _, _ = a, b, c, out\n\tswitch op {\n")
	reads.WriteString("// ruleReads returns what the Grad rule of operand i of op reads: bit 0 to\n")
	reads.WriteString("// 4 for a, b, c, out and g; 0 when no gradient flows into operand i.\n")
	reads.WriteString("func ruleReads(op ops.Op, i int) uint8 {\n\tswitch op {\n")
	for _, op := range ops.All() {
		def := op.Def()
		if len(def.Grad) != def.Arity {
			return nil, fmt.Errorf("op %s has %d Grad rules for %d operands", def.Name, len(def.Grad), def.Arity)
		}
		var cases, readCases []string
		for i, rule := range def.Grad {
			if rule == "" {
				continue
			}
			r, err := translateGrad(rule, funcs)
			if err != nil {
				return nil, fmt.Errorf("op %s operand %d: %w", def.Name, i, err)
			}
			cases = append(cases, fmt.Sprintf("\t\tcase %d:\n\t\t\treturn %s\n", i, r.code))
			readCases = append(readCases, fmt.Sprintf("\t\tcase %d:\n\t\t\treturn %d\n", i, r.reads))
		}
		if len(cases) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\tcase ops.%s: // %s\n\t\tswitch i {\n%s\t\t}\n", names[op], strings.Join(quoted(def.Grad), ", "), strings.Join(cases, ""))
		fmt.Fprintf(&reads, "\tcase ops.%s:\n\t\tswitch i {\n%s\t\t}\n", names[op], strings.Join(readCases, ""))
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	reads.WriteString("\t}\n\treturn 0\n}\n")
	b.Write(reads.Bytes())
	return format.Source(b.Bytes())
}

func quoted(rules []string) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = fmt.Sprintf("%q", r)
	}
	return out
}
