package expr

// Walk visits n and every node below it, parents before operands, left to
// right. fn gets each node and its depth (0 for n); when it returns false
// Walk skips that node's operands.
func Walk(n Node, fn func(n Node, depth int) bool) {
	walk(n, 0, fn)
}

func walk(n Node, depth int, fn func(Node, int) bool) {
	if c, ok := n.(unwrapper); ok {
		n = c.unwrap()
	}
	if !fn(n, depth) {
		return
	}
	if p, ok := n.(Parent); ok {
		for _, x := range p.Operands() {
			walk(x, depth+1, fn)
		}
	}
}
