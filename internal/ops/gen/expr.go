package main

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"strings"

	"github.com/laze-go/laze/internal/ops"
)

// params returns the names of op's operands in package expr: its Params
// column, or x (and y).
func params(def ops.Def) []string {
	if def.Params != "" {
		return strings.Split(def.Params, ", ")
	}
	return []string{"x", "y"}[:def.Arity]
}

// methodName is the name of op's Chain method.
func methodName(def ops.Def) string {
	if def.Method != "" {
		return def.Method
	}
	return def.GoName
}

// constraint is the type constraint of op's expr function.
func constraint(def ops.Def) string {
	switch def.Domain {
	case ops.FloatOnly:
		return "tensor.Float"
	case ops.IntOnly:
		return "tensor.Integer"
	}
	return "tensor.Number"
}

// chainDoc is op's Doc read with the chain c as the first operand.
func chainDoc(def ops.Def) string {
	first := regexp.MustCompile(`\b` + params(def)[0] + `\b`)
	doc := first.ReplaceAllLiteralString(def.Doc, "c")
	switch def.Domain {
	case ops.FloatOnly:
		doc += " On integers the tree fails Check with a DTypeError."
	case ops.IntOnly:
		doc += " On floats the tree fails Check with a DTypeError."
	}
	return doc
}

// comment writes text as a doc comment wrapped at about 76 columns.
func comment(b *bytes.Buffer, indent, text string) {
	line := indent + "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 78 && line != indent+"//" {
			b.WriteString(line + "\n")
			line = indent + "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// exprSource writes expr/ops_gen.go: per op, the function that builds its
// node, its Chain method and, for ops of two or three operands, the
// XxxScalar function and method whose operands after the first are values
// of T.
func exprSource(names map[ops.Op]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package expr\n\nimport (\n\t\"github.com/laze-go/laze/internal/ops\"\n\t\"github.com/laze-go/laze/tensor\"\n)\n\n")
	for _, op := range ops.All() {
		def := op.Def()
		if def.GoName == "" || def.Doc == "" {
			return nil, fmt.Errorf("op %s has no GoName or Doc", def.Name)
		}
		ps := params(def)
		rest := strings.Join(ps[1:], ", ")
		node := fmt.Sprintf("node(ops.%s, %s)", names[op], strings.Join(ps, ", "))
		comment(&b, "", def.GoName+" "+def.Doc)
		fmt.Fprintf(&b, "func %s[T %s](%s Exp[T]) Exp[T] { return %s }\n\n", def.GoName, constraint(def), strings.Join(ps, ", "), node)
		if def.Arity > 1 {
			scalars := make([]string, len(ps))
			scalars[0] = ps[0]
			for i, p := range ps[1:] {
				scalars[i+1] = "Scalar(" + p + ")"
			}
			call := fmt.Sprintf("%s(%s)", def.GoName, strings.Join(scalars, ", "))
			given, example := "given as a value of T", "2"
			if len(ps) > 2 {
				given, example = "given as values of T", "0, 1"
			}
			comment(&b, "", fmt.Sprintf("%sScalar is %s: %s %s, so that untyped constants take %s's element type (%sScalar(%s, %s) on a float64 %s).",
				def.GoName, call, rest, given, ps[0], def.GoName, ps[0], example, ps[0]))
			fmt.Fprintf(&b, "func %sScalar[T %s](%s Exp[T], %s T) Exp[T] { return %s }\n\n", def.GoName, constraint(def), ps[0], rest, call)
		}
	}
	for _, op := range ops.All() {
		def := op.Def()
		ps := params(def)
		m := methodName(def)
		comment(&b, "", m+" "+chainDoc(def))
		args := append([]string{"c.E"}, ps[1:]...)
		if def.Arity == 1 {
			fmt.Fprintf(&b, "func (c Chain[T]) %s() Chain[T] { return Chain[T]{node(ops.%s, c.E)} }\n\n", m, names[op])
			continue
		}
		rest := strings.Join(ps[1:], ", ")
		fmt.Fprintf(&b, "func (c Chain[T]) %s(%s Exp[T]) Chain[T] { return Chain[T]{node(ops.%s, %s)} }\n\n", m, rest, names[op], strings.Join(args, ", "))
		scalars := []string{"c.E"}
		for _, p := range ps[1:] {
			scalars = append(scalars, "Scalar("+p+")")
		}
		given := "given as a value of T"
		if len(ps) > 2 {
			given = "given as values of T"
		}
		comment(&b, "", fmt.Sprintf("%sScalar is %s with %s %s: c.%s(%s).", m, m, rest, given, m, strings.Join(scalars[1:], ", ")))
		fmt.Fprintf(&b, "func (c Chain[T]) %sScalar(%s T) Chain[T] { return Chain[T]{node(ops.%s, %s)} }\n\n", m, rest, names[op], strings.Join(scalars, ", "))
	}
	return format.Source(b.Bytes())
}

// reduceSource writes expr/reduce_gen.go: per reduction of the table, its
// function and, for all but the arg reductions, its Chain method.
func reduceSource(map[ops.Op]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(strings.Replace(header, "the op table", "the reduction table", 1))
	b.WriteString("package expr\n\nimport (\n\t\"github.com/laze-go/laze/internal/ops\"\n\t\"github.com/laze-go/laze/tensor\"\n)\n\n")
	for _, r := range ops.Reducers() {
		def := r.Def()
		if def.GoName == "" || def.Doc == "" {
			return nil, fmt.Errorf("reduction %s has no GoName or Doc", def.Name)
		}
		constraint := "tensor.Number"
		if def.Domain == ops.FloatOnly {
			constraint = "tensor.Float"
		}
		comment(&b, "", def.GoName+" "+def.Doc)
		if def.Arg {
			fmt.Fprintf(&b, "func %s[T %s](x Exp[T], opts ...ReduceOption) Exp[int64] { return argReduction(ops.%s, x, opts) }\n\n", def.GoName, constraint, def.GoName)
			continue
		}
		fmt.Fprintf(&b, "func %s[T %s](x Exp[T], opts ...ReduceOption) Exp[T] { return reduction(ops.%s, x, opts) }\n\n", def.GoName, constraint, def.GoName)
	}
	for _, r := range ops.Reducers() {
		def := r.Def()
		if def.Arg {
			continue // the result is int64, not a Chain[T]
		}
		first, _, _ := strings.Cut(def.Doc, ". ")
		doc := regexp.MustCompile(`\bx\b`).ReplaceAllLiteralString(strings.TrimSuffix(first, ".")+".", "c")
		if def.Domain == ops.FloatOnly {
			doc += " On integers the tree fails Check with a DTypeError."
		}
		comment(&b, "", def.GoName+" "+doc)
		fmt.Fprintf(&b, "func (c Chain[T]) %s(opts ...ReduceOption) Chain[T] { return Chain[T]{reduction(ops.%s, c.E, opts)} }\n\n", def.GoName, def.GoName)
	}
	return format.Source(b.Bytes())
}
