package tensor

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/laze-go/laze/shape"
)

// NumPy's print options, which laze keeps fixed.
const (
	// PrintThreshold is the element count above which printing summarises
	// each dimension with its first and last EdgeItems entries and "...".
	PrintThreshold = 1000
	// EdgeItems is how many entries a summarised dimension shows at each end.
	EdgeItems = 3
	// LineWidth is the width at which rows are wrapped.
	LineWidth = 75
	// DefaultPrecision is the most fractional digits a float is printed with.
	DefaultPrecision = 8
)

// Format prints the tensor as NumPy's str does: nested brackets, columns
// aligned, floats with at most 8 fractional digits (or the precision of the
// verb: %.3v) and scientific notation when magnitudes call for it, rows
// wrapped at 75 columns, and each dimension summarised with "..." beyond 1000
// elements. The + flag (%+v) adds a line with dtype, shape, strides, offset
// and device. Every verb prints the same way.
func (t *Tensor[T]) Format(f fmt.State, verb rune) {
	prec, ok := f.Precision()
	if !ok {
		prec = DefaultPrecision
	}
	_, _ = io.WriteString(f, t.format(prec))
	if f.Flag('+') && t != nil {
		_, _ = fmt.Fprintf(f, "\ndtype=%s shape=%v strides=%s offset=%d device=%v",
			t.DType(), t.shape, shape.FormatInts(t.strides), t.offset, t.Device())
	}
}

// String returns the tensor as %v prints it.
func (t *Tensor[T]) String() string { return t.format(DefaultPrecision) }

func (t *Tensor[T]) format(prec int) string {
	if t == nil {
		return "<nil>" // as fmt prints a nil pointer
	}
	if t.st.released.Load() {
		return "<released tensor of shape " + t.shape.String() + ">"
	}
	if !t.Device().IsCPU() {
		return t.deviceString(prec)
	}
	p := printer[T]{t: t, data: t.st.data, summarize: t.Numel() > PrintThreshold}
	if len(t.shape) == 0 {
		return scalarString(p.data[t.offset])
	}
	if t.Numel() == 0 {
		return "[]"
	}
	var visible []T
	p.collect(t.offset, 0, &visible)
	p.elem = newElemFormat(visible, prec)
	return p.recurse(t.offset, 0, " ", LineWidth)
}

// printer ports NumPy's _formatArray.
type printer[T Number] struct {
	t         *Tensor[T]
	data      []T
	summarize bool
	elem      func(T) string
}

// shown returns how many leading and trailing entries of dimension axis are
// printed, and whether "..." goes between them.
func (p *printer[T]) shown(axis int) (lead, trail int, summary bool) {
	n := p.t.shape[axis]
	if p.summarize && 2*EdgeItems < n {
		return EdgeItems, EdgeItems, true
	}
	return 0, n, false
}

// collect appends the values that will be printed, so that their widths can
// be measured.
func (p *printer[T]) collect(off, axis int, out *[]T) {
	if axis == len(p.t.shape) {
		*out = append(*out, p.data[off])
		return
	}
	n, stride := p.t.shape[axis], p.t.strides[axis]
	lead, trail, _ := p.shown(axis)
	for i := range lead {
		p.collect(off+i*stride, axis+1, out)
	}
	for i := n - trail; i < n; i++ {
		p.collect(off+i*stride, axis+1, out)
	}
}

func (p *printer[T]) recurse(off, axis int, hanging string, width int) string {
	if axis == len(p.t.shape) {
		return p.elem(p.data[off])
	}
	nextHanging, nextWidth := hanging+" ", width-1
	n, stride := p.t.shape[axis], p.t.strides[axis]
	lead, trail, summary := p.shown(axis)
	item := func(i int) string { return p.recurse(off+i*stride, axis+1, nextHanging, nextWidth) }
	var s string
	if axesLeft := len(p.t.shape) - axis; axesLeft == 1 {
		elemWidth := width - 1 // room for the closing bracket
		line := hanging
		for i := range lead {
			s, line = extendLine(s, line, item(i), elemWidth, hanging)
			line += " "
		}
		if summary {
			s, line = extendLine(s, line, "...", elemWidth, hanging)
			line += " "
		}
		for i := n - trail; i < n-1; i++ {
			s, line = extendLine(s, line, item(i), elemWidth, hanging)
			line += " "
		}
		s, line = extendLine(s, line, item(n-1), elemWidth, hanging)
		s += line
	} else {
		sep := strings.Repeat("\n", axesLeft-1)
		for i := range lead {
			s += hanging + item(i) + sep
		}
		if summary {
			s += hanging + "..." + sep
		}
		for i := n - trail; i < n-1; i++ {
			s += hanging + item(i) + sep
		}
		s += hanging + item(n-1)
	}
	return "[" + s[len(hanging):] + "]"
}

// extendLine adds word to line, first moving line into s and starting a new
// line when word would not fit (unless the line is still empty).
func extendLine(s, line, word string, width int, prefix string) (string, string) {
	if len(line)+len(word) > width && len(line) > len(prefix) {
		s += strings.TrimRight(line, " ") + "\n"
		line = prefix
	}
	return s, line + word
}

// scalarString prints a rank-0 tensor as Python prints the number: 5, 1.0,
// 1e-05.
func scalarString[T Number](v T) string {
	if !IsFloat[T]() {
		return intString(v)
	}
	x := float64(v)
	bits := 8 * ItemSize[T]()
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if exp := decimalExponent(x, bits); x != 0 && (exp < -4 || exp >= 16) {
		return strconv.FormatFloat(x, 'e', -1, bits)
	}
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func intString[T Number](v T) string {
	var zero T
	if zero-1 < zero { // signed
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(uint64(v), 10)
}

// newElemFormat returns the function that prints one element so that every
// visible element gets the same width, following NumPy's IntegerFormat and
// FloatingFormat (floatmode "maxprec").
func newElemFormat[T Number](visible []T, prec int) func(T) string {
	if !IsFloat[T]() {
		width := 0
		for _, v := range visible {
			width = max(width, len(intString(v)))
		}
		return func(v T) string { return padLeft(intString(v), width) }
	}
	xs := make([]float64, len(visible))
	for i, v := range visible {
		xs[i] = float64(v)
	}
	ff := newFloatFormat(xs, prec, 8*ItemSize[T]())
	return func(v T) string { return ff.format(float64(v)) }
}

type floatFormat struct {
	bits              int
	prec              int // most fractional digits (positional) or mantissa digits (scientific)
	exp               bool
	expDigits         int
	padLeft, padRight int
}

func newFloatFormat(xs []float64, prec, bits int) floatFormat {
	f := floatFormat{bits: bits, prec: prec}
	var finite []float64
	minAbs, maxAbs := math.Inf(1), 0.0
	negInf := 0
	for _, x := range xs {
		if math.IsInf(x, -1) {
			negInf = 1
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		finite = append(finite, x)
		if a := math.Abs(x); a != 0 {
			minAbs, maxAbs = min(minAbs, a), max(maxAbs, a)
		}
	}
	if maxAbs > 0 && (maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs/minAbs > 1e3) {
		f.exp = true
	}
	for _, x := range finite {
		var intPart, fracPart string
		if f.exp {
			mant, exp := f.scientific(x, -1)
			intPart, fracPart, _ = strings.Cut(mant, ".")
			f.expDigits = max(f.expDigits, len(exp)-1)
		} else {
			intPart, fracPart, _ = strings.Cut(f.positional(x), ".")
		}
		f.padLeft = max(f.padLeft, len(intPart))
		f.padRight = max(f.padRight, len(fracPart))
	}
	if f.exp {
		f.prec = f.padRight
		f.padRight = f.expDigits + 2 + f.prec
	}
	if len(finite) < len(xs) { // room for "nan", "inf" and "-inf"
		room := f.padRight + 1
		f.padLeft = max(f.padLeft, 3-room, 3+negInf-room)
	}
	return f
}

func (f floatFormat) format(x float64) string {
	switch {
	case math.IsNaN(x):
		return padLeft("nan", f.padLeft+f.padRight+1)
	case math.IsInf(x, 1):
		return padLeft("inf", f.padLeft+f.padRight+1)
	case math.IsInf(x, -1):
		return padLeft("-inf", f.padLeft+f.padRight+1)
	}
	if f.exp {
		mant, exp := f.scientific(x, f.prec)
		sign, digits := exp[:1], exp[1:]
		digits = strings.Repeat("0", max(f.expDigits-len(digits), 0)) + digits
		return padLeft(mant, f.padLeft+1+f.prec) + "e" + sign + digits
	}
	intPart, fracPart, _ := strings.Cut(f.positional(x), ".")
	return padLeft(intPart, f.padLeft) + "." + fracPart + strings.Repeat(" ", f.padRight-len(fracPart))
}

// positional prints x with the fewest digits that read back as x, but at most
// f.prec after the point, trailing zeros trimmed and the point kept: "1.",
// "0.25", "0.33333333".
func (f floatFormat) positional(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, f.bits)
	if _, frac, ok := strings.Cut(s, "."); ok && len(frac) > f.prec {
		s = strings.TrimRight(strconv.FormatFloat(x, 'f', f.prec, f.bits), "0")
	}
	if !strings.Contains(s, ".") {
		s += "."
	}
	return s
}

// scientific returns the mantissa ("1.5", "1.") and the exponent with its
// sign ("-07") of x. With digits < 0 the mantissa has the fewest digits that
// read back as x (at most f.prec), trailing zeros trimmed; otherwise exactly
// digits fractional digits.
func (f floatFormat) scientific(x float64, digits int) (mant, exp string) {
	if digits >= 0 {
		mant, exp, _ = strings.Cut(strconv.FormatFloat(x, 'e', digits, f.bits), "e")
	} else {
		mant, exp, _ = strings.Cut(strconv.FormatFloat(x, 'e', -1, f.bits), "e")
		if _, frac, _ := strings.Cut(mant, "."); len(frac) > f.prec {
			mant, exp, _ = strings.Cut(strconv.FormatFloat(x, 'e', f.prec, f.bits), "e")
			mant = strings.TrimRight(mant, "0")
		}
	}
	if !strings.Contains(mant, ".") {
		mant += "."
	}
	return mant, exp
}

// decimalExponent returns the power of ten of x's leading digit.
func decimalExponent(x float64, bits int) int {
	s := strconv.FormatFloat(x, 'e', -1, bits)
	_, e, _ := strings.Cut(s, "e")
	n, _ := strconv.Atoi(e)
	return n
}

func padLeft(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(" ", width-len(s)) + s
}
