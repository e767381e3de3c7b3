package lang

import "strings"

// Format writes n back as source with every operation parenthesised, so
// that the parse (precedence, associativity) is visible: a + 2*b**2
// formats as (a + (2 * (b ** 2))).
func Format(n Node) string {
	var b strings.Builder
	format(&b, n)
	return b.String()
}

func format(b *strings.Builder, n Node) {
	switch n := n.(type) {
	case *Num:
		b.WriteString(n.Text)
	case *Str:
		formatStr(b, n)
	case *Name:
		if n.NumPy {
			b.WriteString("np.")
		}
		b.WriteString(n.Name)
	case *Paren:
		format(b, n.X)
	case *Unary:
		b.WriteString("(" + n.Op)
		format(b, n.X)
		b.WriteString(")")
	case *Binary:
		b.WriteString("(")
		format(b, n.X)
		b.WriteString(" " + n.Op + " ")
		format(b, n.Y)
		b.WriteString(")")
	case *Tuple:
		b.WriteString("(")
		list(b, n.Elems)
		if len(n.Elems) == 1 {
			b.WriteString(",")
		}
		b.WriteString(")")
	case *Call:
		if n.Recv != nil {
			receiver(b, n.Recv)
			b.WriteString(".")
		}
		b.WriteString(n.Func + "(")
		list(b, n.Args)
		for i, k := range n.Keywords {
			if i > 0 || len(n.Args) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k.Name + "=")
			format(b, k.Value)
		}
		b.WriteString(")")
	case *Attr:
		receiver(b, n.X)
		b.WriteString("." + n.Name)
	case *Index:
		format(b, n.X)
		b.WriteString("[")
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			formatItem(b, it)
		}
		b.WriteString("]")
	}
}

// receiver writes the left side of a '.', parenthesising a number (0 .T
// would otherwise read back as the literal 0.).
func receiver(b *strings.Builder, n Node) {
	for {
		p, ok := n.(*Paren)
		if !ok {
			break
		}
		n = p.X
	}
	if _, ok := n.(*Num); ok {
		b.WriteString("(")
		format(b, n)
		b.WriteString(")")
		return
	}
	format(b, n)
}

func list(b *strings.Builder, nodes []Node) {
	for i, x := range nodes {
		if i > 0 {
			b.WriteString(", ")
		}
		format(b, x)
	}
}

func formatItem(b *strings.Builder, it IndexItem) {
	switch it.Kind {
	case ItemEllipsis:
		b.WriteString("...")
	case ItemNewAxis:
		b.WriteString("None")
	case ItemIndex:
		format(b, it.Start)
	case ItemSlice:
		for k, part := range []Node{it.Start, it.Stop, it.Step} {
			if k > 0 && (k < 2 || it.Step != nil) {
				b.WriteString(":")
			}
			if part != nil {
				format(b, part)
			}
		}
	}
}
