package lang

// listLiteral reads a Python list [a, b, …] after its '[', token open, as
// a Tuple (the calculator has no other use for lists than arguments such
// as tensordot's axes=([1, 2], [0, 1])).
func (p *parser) listLiteral(open token) (Node, error) {
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer p.leave()
	var elems []Node
	for {
		if close := p.peek(); p.accept("]") {
			return &Tuple{span: span{open.pos, close.pos + 1}, Elems: elems}, nil
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		elems = append(elems, x)
		if !p.accept(",") && !p.isOp("]") {
			return nil, p.errAt(p.peek(), "',' or ']' in the list")
		}
	}
}
