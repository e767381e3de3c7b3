package lang

// Depth returns the depth of the parse n: the most operations applied one
// over another, each operator, call, attribute and subscript counting one
// and parentheses none. a + b + c is 2 deep, x[0][1] 2, f(g(x)) 2, a
// name or a number 0. Unlike the nesting the parser limits, chains count:
// the work of some of laze's passes grows with the square of this depth.
func Depth(n Node) int {
	switch n := n.(type) {
	case *Paren:
		return Depth(n.X)
	case *Unary:
		return 1 + Depth(n.X)
	case *Binary:
		return 1 + max(Depth(n.X), Depth(n.Y))
	case *Tuple:
		return deepest(n.Elems)
	case *Call:
		d := deepest(n.Args)
		if n.Recv != nil {
			d = max(d, Depth(n.Recv))
		}
		for _, k := range n.Keywords {
			d = max(d, Depth(k.Value))
		}
		return 1 + d
	case *Attr:
		return 1 + Depth(n.X)
	case *Index:
		d := Depth(n.X)
		for _, it := range n.Items {
			d = max(d, deepest([]Node{it.Start, it.Stop, it.Step}))
		}
		return 1 + d
	}
	return 0
}

// deepest returns the greatest Depth of nodes (nil ones are 0).
func deepest(nodes []Node) int {
	d := 0
	for _, x := range nodes {
		if x != nil {
			d = max(d, Depth(x))
		}
	}
	return d
}
