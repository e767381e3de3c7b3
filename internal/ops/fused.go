package ops

// Fusable are the ops whose chains get fused loops: an instruction
// (a op1 b) whose only use is as the left operand of the next (· op2 c)
// becomes one pass, d = (a op1 b) op2 c, as in a*b + c; a chain of three,
// ((a op1 b) op2 c) op3 e, as poly4's a*b + c - e, is one pass too. The
// generators of the scalar loops, the SIMD build's lane loops and the lane
// assembly number the chains from FusedPairs and FusedTriples, so the
// numbers agree everywhere.
var Fusable = []Op{Add, Sub, Mul}

// FusedPairs lists (op1, op2) for every fusable pair, in numbering order
// (pair k+1 is element k).
func FusedPairs() [][2]Op {
	var out [][2]Op
	for _, op1 := range Fusable {
		for _, op2 := range Fusable {
			out = append(out, [2]Op{op1, op2})
		}
	}
	return out
}

// FusedTriples lists (op1, op2, op3) for every fusable triple, in numbering
// order (triple k+1 is element k).
func FusedTriples() [][3]Op {
	var out [][3]Op
	for _, pair := range FusedPairs() {
		for _, op3 := range Fusable {
			out = append(out, [3]Op{pair[0], pair[1], op3})
		}
	}
	return out
}
