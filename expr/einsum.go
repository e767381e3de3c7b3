package expr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Einsum evaluates the Einstein summation convention on the operands, as
// numpy.einsum(subscripts, *operands), with NumPy's grammar:
//
//   - one term of letters per operand, separated by commas, each letter
//     naming a dimension ("ij,jk"); letters are case-sensitive and spaces
//     are ignored;
//   - an explicit output after "->" ("ij,jk->ik"), whose letters appear
//     once each and in some operand; without one the output is the
//     letters that appear exactly once, in alphabetical order (capitals
//     first, as NumPy), so "ij,jk" is "ij,jk->ik" and "ji" a transpose;
//   - a letter repeated in one operand takes that operand's diagonal ("ii->i"),
//     and summed, its trace ("ii");
//   - "..." stands for the dimensions no letter names, broadcast together
//     across the operands as NumPy broadcasts (right-aligned, size 1
//     stretched); an explicit output that has them must say "..." where
//     they go; an implicit one puts them first;
//   - letters absent from the output are summed over, and a letter's
//     dimensions of size 1 broadcast against the others' size.
//
// Nothing is computed here: the result is a tree of MatMul, views
// (Diagonal, Squeeze, Permute, Reshape) and Sum. Each operand's repeated
// letters become Diagonal views and its letters that appear nowhere else
// (and not in the output) a Sum; then pairs of operands are contracted,
// each as one MatMul whose stack dimensions are the letters the pair
// shares and keeps (contractPair), choosing the pair each time greedily,
// in the manner of opt_einsum's "greedy" path: among the pairs that share
// a letter (any pair when none do), the one whose result has the fewest
// elements, ties going to the cheaper contraction (fewer multiply-adds),
// then to the first pair (opt_einsum's default ranks by the result's size
// less its inputs' instead); the last operand is permuted to the output's
// order.
// "ij,jk->ik" is MatMul(a, b) itself.
//
// Subscripts that do not parse are an ArgumentError naming them and the
// position at fault; a number of operands other than the terms', an
// operand whose rank the term does not match, or dimensions that one
// letter names with different sizes are a ShapeError naming the shapes
// and the letter. Both come at Check, from the failed node returned.
func Einsum[T tensor.Number](subscripts string, operands ...Exp[T]) Exp[T] {
	text := einsumText(subscripts, operands)
	spec, err := parseEinsum(subscripts)
	if err != nil {
		return failedNode[T](text, err)
	}
	if len(spec.inputs) != len(operands) {
		return failedNode[T](text, &shape.ArgumentError{Op: "einsum", Name: "operands", Value: len(operands),
			Reason: fmt.Sprintf("the subscripts %q name %d", subscripts, len(spec.inputs))})
	}
	shapes, bad := operandShapes("einsum", operands)
	if bad != nil {
		return bad
	}
	p, err := planEinsum(spec, shapes)
	if err != nil {
		return failedNode[T](text, err)
	}
	return buildEinsum(p, operands)
}

// einsumText prints an einsum call for errors: einsum("ij,jk",
// tensor(2,3), tensor(3,4)).
func einsumText[T tensor.Number](subscripts string, operands []Exp[T]) string {
	var b strings.Builder
	b.WriteString("einsum(" + strconv.Quote(subscripts))
	for _, x := range operands {
		b.WriteString(", ")
		renderTo(&b, x)
	}
	b.WriteByte(')')
	return b.String()
}

// Labels: the letters A–Z are 0–25 and a–z 26–51, so that label order is
// NumPy's (ASCII) order; ellipsisLabel marks where "..." stands in a
// parsed term; the dimensions "..." covers get labels from firstBroadcast
// on, one per broadcast dimension (right-aligned across the operands).
const (
	ellipsisLabel  = -1
	firstBroadcast = 52
)

// labelName writes a label as the subscripts name it; a broadcast
// dimension is "...".
func labelName(l int) string {
	switch {
	case l < 0 || l >= firstBroadcast:
		return "..."
	case l < 26:
		return string(rune('A' + l))
	}
	return string(rune('a' + l - 26))
}

// einsumSpec is parsed subscripts: each operand's labels (ellipsisLabel
// where "..." is) and the output's, which, when not explicit, are worked
// out from the inputs (after the broadcast dimensions, which implicitly
// lead).
type einsumSpec struct {
	subscripts string
	inputs     [][]int
	output     []int
	explicit   bool
}

// parseEinsum parses subscripts, checking what needs no shapes: the
// characters, the ellipses, the arrow, and the output's letters. An error
// is an ArgumentError naming the subscripts and the position (a byte
// offset, from 0) at fault.
func parseEinsum(subscripts string) (einsumSpec, error) {
	spec := einsumSpec{subscripts: subscripts}
	fail := func(pos int, format string, args ...any) (einsumSpec, error) {
		return einsumSpec{}, &shape.ArgumentError{Op: "einsum", Name: "subscripts", Value: strconv.Quote(subscripts),
			Reason: fmt.Sprintf("position %d: ", pos) + fmt.Sprintf(format, args...)}
	}
	term := []int{}
	output := false
	inTerm := func() string {
		if output {
			return "the output"
		}
		return fmt.Sprintf("operand %d", len(spec.inputs))
	}
	for i := 0; i < len(subscripts); i++ {
		c := subscripts[i]
		switch {
		case c == ' ':
		case c >= 'A' && c <= 'Z':
			term = append(term, int(c-'A'))
		case c >= 'a' && c <= 'z':
			term = append(term, int(c-'a')+26)
		case c == '.':
			if !strings.HasPrefix(subscripts[i:], "...") {
				return fail(i, "a '.' that is not part of an ellipsis ('...') in %s", inTerm())
			}
			if slices.Contains(term, ellipsisLabel) {
				return fail(i, "a second ellipsis ('...') in %s", inTerm())
			}
			term = append(term, ellipsisLabel)
			i += 2
		case c == ',':
			if output {
				return fail(i, "a ',' in the output (after '->')")
			}
			spec.inputs = append(spec.inputs, term)
			term = []int{}
		case c == '-':
			if i+1 >= len(subscripts) || subscripts[i+1] != '>' {
				return fail(i, "a '-' that is not part of an output arrow ('->')")
			}
			if output {
				return fail(i, "a second output arrow ('->')")
			}
			spec.inputs = append(spec.inputs, term)
			term, output = []int{}, true
			i++
		case c == '>':
			return fail(i, "a '>' that is not part of an output arrow ('->')")
		default:
			return fail(i, "invalid subscript %q: subscripts must be letters", rune(c))
		}
	}
	if !output {
		spec.inputs = append(spec.inputs, term)
		return spec, nil
	}
	spec.output, spec.explicit = term, true
	for i, l := range term {
		if l == ellipsisLabel {
			continue
		}
		pos := strings.LastIndex(subscripts, "->") + 2 + outputOffset(subscripts[strings.LastIndex(subscripts, "->")+2:], i)
		if slices.Contains(term[:i], l) {
			return fail(pos, "the output names %q twice", labelName(l))
		}
		if !slices.ContainsFunc(spec.inputs, func(in []int) bool { return slices.Contains(in, l) }) {
			return fail(pos, "the output names %q, which no operand has", labelName(l))
		}
	}
	return spec, nil
}

// outputOffset returns the byte offset in out (the subscripts after "->")
// of its i-th label ("..." counting as one).
func outputOffset(out string, i int) int {
	n := 0
	for j := 0; j < len(out); j++ {
		if out[j] == ' ' {
			continue
		}
		if n == i {
			return j
		}
		if out[j] == '.' {
			j += 2
		}
		n++
	}
	return len(out)
}

// einsumPlan is parsed subscripts bound to operand shapes: each operand's
// labels, one per dimension (the ellipsis expanded), each label's size,
// and the output's labels.
type einsumPlan struct {
	spec   einsumSpec
	labels [][]int
	shapes []shape.Shape
	size   map[int]int
	output []int
}

// planEinsum binds spec to the operands' shapes: each term's letters to
// dimensions, "..." to the rest, and each label to its size, where the
// operands disagree about none but size-1 dimensions.
func planEinsum(spec einsumSpec, shapes []shape.Shape) (einsumPlan, error) {
	p := einsumPlan{spec: spec, shapes: shapes, size: map[int]int{}, labels: make([][]int, len(shapes))}
	broadcast := 0
	for i, term := range spec.inputs {
		letters := len(term)
		if slices.Contains(term, ellipsisLabel) {
			letters--
			if len(shapes[i]) < letters {
				return p, &shape.ShapeError{Op: "einsum", Shapes: []shape.Shape{shapes[i].Clone()},
					Reason: fmt.Sprintf("operand %d has %d dimensions, fewer than the %d letters of its subscripts %q",
						i, len(shapes[i]), letters, formatTerm(term))}
			}
			broadcast = max(broadcast, len(shapes[i])-letters)
		} else if len(shapes[i]) != letters {
			return p, &shape.ShapeError{Op: "einsum", Shapes: []shape.Shape{shapes[i].Clone()},
				Reason: fmt.Sprintf("operand %d has %d dimensions, but its subscripts %q name %d (use '...' for the others)",
					i, len(shapes[i]), formatTerm(term), letters)}
		}
	}
	// owner[l] is the first operand and dimension that gave label l its size.
	type where struct{ op, dim int }
	owner := map[int]where{}
	for i, term := range spec.inputs {
		s := shapes[i]
		var labels []int
		for _, l := range term {
			if l != ellipsisLabel {
				labels = append(labels, l)
				continue
			}
			covered := len(s) - (len(term) - 1)
			for k := range covered {
				labels = append(labels, firstBroadcast+broadcast-covered+k)
			}
		}
		p.labels[i] = labels
		own := map[int]int{} // the size of each label's first dimension in this operand
		for d, l := range labels {
			n := s[d]
			if first, ok := own[l]; ok {
				if n != first {
					return p, &shape.ShapeError{Op: "einsum", Shapes: []shape.Shape{s.Clone()},
						Reason: fmt.Sprintf("the dimensions of operand %d that index %q repeats differ (%d != %d): a diagonal needs equal sizes",
							i, labelName(l), first, n)}
				}
				continue
			}
			own[l] = n
			have, seen := p.size[l]
			switch {
			case !seen || have == 1:
				p.size[l], owner[l] = n, where{i, d}
			case n == have || n == 1:
			default:
				o := owner[l]
				return p, &shape.ShapeError{Op: "einsum", Shapes: []shape.Shape{shapes[o.op].Clone(), s.Clone()},
					Reason: fmt.Sprintf("index %q has size %d in operand %d (dimension %d) and %d in operand %d (dimension %d)",
						labelName(l), have, o.op, o.dim, n, i, d)}
			}
		}
	}
	p.output = expandOutput(spec, broadcast)
	if spec.explicit && broadcast > 0 && !slices.Contains(spec.output, ellipsisLabel) {
		return p, &shape.ArgumentError{Op: "einsum", Name: "subscripts", Value: strconv.Quote(spec.subscripts),
			Reason: fmt.Sprintf("the operands have %d dimensions that '...' stands for, but the output has no '...' to put them", broadcast)}
	}
	return p, nil
}

// expandOutput returns the output's labels: the explicit output with its
// "..." expanded to the broadcast dimensions, or the implicit output, the
// broadcast dimensions then the letters that appear once, sorted.
func expandOutput(spec einsumSpec, broadcast int) []int {
	bcast := make([]int, broadcast)
	for k := range bcast {
		bcast[k] = firstBroadcast + k
	}
	if spec.explicit {
		var out []int
		for _, l := range spec.output {
			if l == ellipsisLabel {
				out = append(out, bcast...)
			} else {
				out = append(out, l)
			}
		}
		return out
	}
	count := map[int]int{}
	for _, term := range spec.inputs {
		for _, l := range term {
			if l != ellipsisLabel {
				count[l]++
			}
		}
	}
	out := bcast
	for l := range firstBroadcast {
		if count[l] == 1 {
			out = append(out, l)
		}
	}
	return out
}

// formatTerm writes a parsed term back: "ij", "...i".
func formatTerm(term []int) string { return formatLabels(term) }

// einsumOperand is an operand while the contraction is built: its tree,
// shape and labels (one per dimension, distinct once prepared).
type einsumOperand[T tensor.Number] struct {
	x      Exp[T]
	s      shape.Shape
	labels []int
}

// buildEinsum builds the tree of plan p over the operands.
func buildEinsum[T tensor.Number](p einsumPlan, operands []Exp[T]) Exp[T] {
	ops := make([]einsumOperand[T], len(operands))
	for i, x := range operands {
		ops[i] = prepareOperand(p, einsumOperand[T]{x: x, s: p.shapes[i].Clone(), labels: slices.Clone(p.labels[i])})
	}
	for i := range ops {
		ops[i] = sumAlone(ops[i], ops, i, p.output)
	}
	for len(ops) > 1 {
		i, j := greedyPair(p, ops)
		r := contractOperands(p, ops, i, j)
		ops = slices.Delete(ops, j, j+1)
		ops = slices.Delete(ops, i, i+1)
		ops = append(ops, r)
		ops[len(ops)-1] = sumAlone(r, ops, len(ops)-1, p.output)
	}
	last := ops[0]
	order := make([]int, len(p.output))
	for k, l := range p.output {
		order[k] = slices.Index(last.labels, l)
	}
	return permuteTo(last.x, order)
}

// prepareOperand takes the diagonals of op's repeated labels (Diagonal
// views, the label moving to the end) and squeezes out its size-1
// dimensions whose label has another size elsewhere (broadcast, so the
// operand simply lacks that label).
func prepareOperand[T tensor.Number](p einsumPlan, op einsumOperand[T]) einsumOperand[T] {
	for {
		d0, d1 := -1, -1
		for d := range op.labels {
			if k := slices.Index(op.labels[d+1:], op.labels[d]); k >= 0 {
				d0, d1 = d, d+1+k
				break
			}
		}
		if d0 < 0 {
			break
		}
		l := op.labels[d0]
		op.x = Diagonal(op.x, 0, d0, d1)
		n := op.s[d0]
		op.labels = append(slices.Delete(slices.Delete(op.labels, d1, d1+1), d0, d0+1), l)
		op.s = append(slices.Delete(slices.Delete(op.s, d1, d1+1), d0, d0+1), n)
	}
	var drop []int
	for d, l := range op.labels {
		if op.s[d] == 1 && p.size[l] != 1 {
			drop = append(drop, d)
		}
	}
	if len(drop) > 0 {
		op.x = Squeeze(op.x, drop...)
		for _, d := range slices.Backward(drop) {
			op.labels = slices.Delete(op.labels, d, d+1)
			op.s = slices.Delete(op.s, d, d+1)
		}
	}
	return op
}

// sumAlone sums ops[i] over its labels that neither the output nor any
// other operand has.
func sumAlone[T tensor.Number](op einsumOperand[T], ops []einsumOperand[T], i int, output []int) einsumOperand[T] {
	var axes []int
	for d, l := range op.labels {
		if !keeps(l, ops, i, -1, output) {
			axes = append(axes, d)
		}
	}
	if len(axes) == 0 {
		return op
	}
	op.x = Sum(op.x, Axis(axes...))
	for _, d := range slices.Backward(axes) {
		op.labels = slices.Delete(op.labels, d, d+1)
		op.s = slices.Delete(op.s, d, d+1)
	}
	return op
}

// keeps reports whether label l outlives a contraction of ops[i] (with
// ops[j], j ≥ 0): the output or another operand has it.
func keeps[T tensor.Number](l int, ops []einsumOperand[T], i, j int, output []int) bool {
	if slices.Contains(output, l) {
		return true
	}
	for k, op := range ops {
		if k != i && k != j && slices.Contains(op.labels, l) {
			return true
		}
	}
	return false
}

// pairGroups splits the labels of ops[i] and ops[j] into a contraction's
// groups: the shared labels that are kept (batch), those summed over, and
// each operand's own (free), in the operands' label order.
func pairGroups[T tensor.Number](ops []einsumOperand[T], i, j int, output []int) (batch, sum, freeA, freeB []int) {
	a, b := ops[i].labels, ops[j].labels
	for _, l := range a {
		switch {
		case !slices.Contains(b, l):
			freeA = append(freeA, l)
		case keeps(l, ops, i, j, output):
			batch = append(batch, l)
		default:
			sum = append(sum, l)
		}
	}
	for _, l := range b {
		if !slices.Contains(a, l) {
			freeB = append(freeB, l)
		}
	}
	return batch, sum, freeA, freeB
}

// greedyPair chooses the next pair to contract, in the manner of
// opt_einsum's greedy path: among the pairs that share a label (every pair
// when none do), the one whose result is smallest, then the one with the
// fewest multiply-adds, then the first. (opt_einsum's default ranks pairs
// by the result's size less the inputs' sizes, which favours consuming
// large operands; the smallest result is the rule issue 32 states.) Sizes
// are counted in float64, which cannot overflow.
func greedyPair[T tensor.Number](p einsumPlan, ops []einsumOperand[T]) (int, int) {
	sizeOf := func(labels ...[]int) float64 {
		n := 1.0
		for _, ls := range labels {
			for _, l := range ls {
				n *= float64(p.size[l])
			}
		}
		return n
	}
	shares := func(i, j int) bool {
		return slices.ContainsFunc(ops[i].labels, func(l int) bool { return slices.Contains(ops[j].labels, l) })
	}
	anyShared := false
	for i := range ops {
		for j := i + 1; j < len(ops); j++ {
			anyShared = anyShared || shares(i, j)
		}
	}
	bi, bj := -1, -1
	var bestSize, bestCost float64
	for i := range ops {
		for j := i + 1; j < len(ops); j++ {
			if anyShared && !shares(i, j) {
				continue
			}
			batch, sum, freeA, freeB := pairGroups(ops, i, j, p.output)
			size, cost := sizeOf(batch, freeA, freeB), sizeOf(batch, sum, freeA, freeB)
			if bi < 0 || size < bestSize || size == bestSize && cost < bestCost {
				bi, bj, bestSize, bestCost = i, j, size, cost
			}
		}
	}
	return bi, bj
}

// contractOperands contracts ops[i] with ops[j] (contractPair): the
// result's labels are the batch labels, then ops[i]'s free ones, then
// ops[j]'s.
func contractOperands[T tensor.Number](p einsumPlan, ops []einsumOperand[T], i, j int) einsumOperand[T] {
	batch, sum, freeA, freeB := pairGroups(ops, i, j, p.output)
	if fa := firstInOutput(freeA, p.output); fa < len(p.output) && firstInOutput(freeB, p.output) < fa {
		// b's own labels come first in the output: b is the left factor,
		// so that the product's rows are in the output's order (no
		// transpose of the result).
		i, j = j, i
		batch, sum, freeA, freeB = pairGroups(ops, i, j, p.output)
	}
	a, b := ops[i], ops[j]
	axes := func(labels, in []int) []int {
		out := make([]int, len(labels))
		for k, l := range labels {
			out[k] = slices.Index(in, l)
		}
		return out
	}
	pa := pairAxes{
		batchA: axes(batch, a.labels), batchB: axes(batch, b.labels),
		freeA: axes(freeA, a.labels), freeB: axes(freeB, b.labels),
		sumA: axes(sum, a.labels), sumB: axes(sum, b.labels),
	}
	labels := slices.Concat(batch, freeA, freeB)
	s := make(shape.Shape, len(labels))
	for k, l := range labels {
		s[k] = p.size[l]
	}
	return einsumOperand[T]{x: contractPair(a.x, b.x, a.s, b.s, pa), s: s, labels: labels}
}

// firstInOutput returns the smallest position in output of labels, or
// len(output) when none is there.
func firstInOutput(labels, output []int) int {
	first := len(output)
	for _, l := range labels {
		if k := slices.Index(output, l); k >= 0 {
			first = min(first, k)
		}
	}
	return first
}
