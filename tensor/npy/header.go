package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// magic opens every .npy file.
const magic = "\x93NUMPY"

// ErrFormat is the error every FormatError matches with errors.Is.
var ErrFormat = errors.New("not a valid .npy file")

// FormatError reports a file that is not a valid .npy file, or one whose
// dtype or shape laze cannot hold.
type FormatError struct {
	Reason string
	// Err is the typed error behind Reason, if there is one: a
	// shape.OverflowError for a shape whose element or byte count does not
	// fit in an int, shape.ErrOverflow for a dimension that does not.
	Err error
}

// Error returns the message.
func (e *FormatError) Error() string { return "npy: " + e.Reason }

// Unwrap returns ErrFormat and Err, so that errors.Is and errors.As find
// either.
func (e *FormatError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrFormat}
	}
	return []error{ErrFormat, e.Err}
}

// formatErr returns a FormatError with a formatted reason.
func formatErr(format string, args ...any) error {
	return &FormatError{Reason: fmt.Sprintf(format, args...)}
}

// maxHeader bounds the header length a file may declare (NumPy's own limit
// for reading is 10,000 bytes unless told otherwise; this is generous).
const maxHeader = 1 << 20

// Header is what an .npy file says about its array.
type Header struct {
	Major, Minor int          // format version: 1.0, 2.0 or 3.0
	Descr        string       // the dtype as written: '<f8', '|b1'…
	DType        tensor.DType // the dtype: tensor.Float64, tensor.Bool…
	Fortran      bool         // the data is in column-major (Fortran) order
	Shape        shape.Shape  // the array's shape; () for a scalar
	elem         elem
}

// readHeader reads the magic string, the version and the header dictionary.
func readHeader(r io.Reader) (Header, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return Header{}, formatErr("file too short for the magic string and version (%v)", err)
	}
	if string(pre[:6]) != magic {
		return Header{}, formatErr("missing the magic string \\x93NUMPY at the start")
	}
	h := Header{Major: int(pre[6]), Minor: int(pre[7])}
	lenBytes := 4
	switch {
	case h.Major == 1 && h.Minor == 0:
		lenBytes = 2
	case (h.Major == 2 || h.Major == 3) && h.Minor == 0:
	default:
		return Header{}, formatErr("format version %d.%d is not 1.0, 2.0 or 3.0", h.Major, h.Minor)
	}
	if _, err := io.ReadFull(r, pre[8:8+lenBytes]); err != nil {
		return Header{}, formatErr("file ends in the header length (%v)", err)
	}
	size := uint32(binary.LittleEndian.Uint16(pre[8:10]))
	if lenBytes == 4 {
		size = binary.LittleEndian.Uint32(pre[8:12])
	}
	if size > maxHeader { // compared before the conversion, which a 32-bit int may not hold
		return Header{}, formatErr("header length %d is over the limit of %d", size, maxHeader)
	}
	n := int(size)
	text := make([]byte, n)
	if _, err := io.ReadFull(r, text); err != nil {
		return Header{}, formatErr("file ends in the %d-byte header (%v)", n, err)
	}
	if h.Major == 3 && !utf8.Valid(text) {
		return Header{}, formatErr("a version 3.0 header must be UTF-8")
	}
	if err := h.parse(string(text)); err != nil {
		return Header{}, err
	}
	return h, nil
}

// parse reads the header dictionary:
// {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
func (h *Header) parse(text string) error {
	p := &dictParser{s: strings.TrimRight(text, " \n\x00")}
	fields, err := p.dict()
	if err != nil {
		return err
	}
	descr, ok := fields["descr"].(string)
	if !ok {
		return formatErr("header %q: 'descr' must be a string (structured dtypes are not supported)", p.s)
	}
	fortran, ok := fields["fortran_order"].(bool)
	if !ok {
		return formatErr("header %q: 'fortran_order' must be True or False", p.s)
	}
	dims, ok := fields["shape"].([]int)
	if !ok {
		return formatErr("header %q: 'shape' must be a tuple of integers", p.s)
	}
	if len(fields) != 3 {
		return formatErr("header %q: want exactly the keys 'descr', 'fortran_order' and 'shape'", p.s)
	}
	e, err := parseDescr(descr)
	if err != nil {
		return err
	}
	s := shape.Shape(dims)
	if err := checkSize(s, e); err != nil {
		return err
	}
	h.Descr, h.DType, h.Fortran, h.Shape, h.elem = descr, e.dtype(), fortran, s, e
	return nil
}

// checkSize returns a FormatError wrapping a shape.OverflowError when a
// tensor of shape s, elements e, would not fit in an int's range: its
// element count, its strides (products of the dimensions, zeros counted
// as 1) and its byte count. Zero dimensions count as 1 in the byte count
// too, as NumPy counts them: NumPy refuses (0, 2**62, 2**62) as "too big"
// although it holds nothing. The parser admits no negative dimension.
func checkSize(s shape.Shape, e elem) error {
	what, n := "element count", 1
	for _, d := range s {
		if n > math.MaxInt/max(d, 1) {
			return overflowErr(s, e, what)
		}
		n *= max(d, 1)
	}
	if n > math.MaxInt/e.size {
		return overflowErr(s, e, "byte count")
	}
	return nil
}

// overflowErr reports a shape too large for laze: what (the element or
// byte count) overflows int.
func overflowErr(s shape.Shape, e elem, what string) error {
	reason := fmt.Sprintf("shape %v of %s: its %s overflows int", s, e.dtype().String(), what)
	if slices.Contains(s, 0) {
		reason += " (zero dimensions count as 1 here, as in NumPy)"
	}
	return &FormatError{Reason: reason, Err: &shape.OverflowError{Op: "npy.Read", Shape: s, What: what}}
}

// dictParser reads the subset of Python literal syntax .npy headers use: a
// dict of string keys whose values are strings, True/False, or tuples of
// integers.
type dictParser struct {
	s   string
	pos int
}

// fail returns a FormatError pointing at the parser's position.
func (p *dictParser) fail(want string) error {
	return formatErr("header %q: at byte %d: want %s", p.s, p.pos, want)
}

func (p *dictParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

// eat skips spaces, then c if it comes next.
func (p *dictParser) eat(c byte) bool {
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *dictParser) dict() (map[string]any, error) {
	if !p.eat('{') {
		return nil, p.fail("'{'")
	}
	fields := map[string]any{}
	for !p.eat('}') {
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if !p.eat(':') {
			return nil, p.fail("':' after a key")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if _, dup := fields[key]; dup {
			return nil, formatErr("header %q: key %q appears twice", p.s, key)
		}
		fields[key] = v
		if !p.eat(',') {
			if !p.eat('}') {
				return nil, p.fail("',' or '}'")
			}
			break
		}
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.fail("the end of the header after '}'")
	}
	return fields, nil
}

// str reads a quoted string without escapes (descr strings and keys have
// none).
func (p *dictParser) str() (string, error) {
	p.space()
	if p.pos >= len(p.s) || (p.s[p.pos] != '\'' && p.s[p.pos] != '"') {
		return "", p.fail("a quoted string")
	}
	q := p.s[p.pos]
	end := strings.IndexByte(p.s[p.pos+1:], q)
	if end < 0 {
		return "", p.fail("a closing quote")
	}
	v := p.s[p.pos+1 : p.pos+1+end]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", p.fail("a string without escapes")
	}
	p.pos += end + 2
	return v, nil
}

func (p *dictParser) value() (any, error) {
	p.space()
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, "True"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(rest, "False"):
		p.pos += 5
		return false, nil
	case strings.HasPrefix(rest, "("):
		return p.tuple()
	case strings.HasPrefix(rest, "'"), strings.HasPrefix(rest, "\""):
		return p.str()
	}
	return nil, p.fail("a string, True, False or a tuple")
}

// tuple reads (), (n,) or (n, m, …) with an optional trailing comma;
// Python 2's long suffix (3L) is accepted.
func (p *dictParser) tuple() ([]int, error) {
	p.eat('(')
	dims := []int{}
	for !p.eat(')') {
		n, err := p.integer()
		if err != nil {
			return nil, err
		}
		dims = append(dims, n)
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, p.fail("',' or ')' in the shape")
			}
			if len(dims) == 1 {
				return nil, p.fail("a comma after the only dimension: (n,)")
			}
			break
		}
	}
	return dims, nil
}

func (p *dictParser) integer() (int, error) {
	p.space()
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.Atoi(p.s[start:p.pos])
	if errors.Is(err, strconv.ErrRange) {
		return 0, &FormatError{Reason: fmt.Sprintf("header %q: dimension %s overflows int", p.s, p.s[start:p.pos]), Err: shape.ErrOverflow}
	}
	if err != nil {
		p.pos = start
		return 0, p.fail("a dimension size (a non-negative integer)")
	}
	if p.pos < len(p.s) && p.s[p.pos] == 'L' {
		p.pos++
	}
	return n, nil
}

// writeHeader writes the magic string, version and dictionary, padded with
// spaces so that the data starts at a multiple of 64 bytes, as NumPy does.
func writeHeader(w io.Writer, e elem, fortran bool, s shape.Shape) error {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
		e.descr(), pyBool(fortran), pyTuple(s))
	var buf bytes.Buffer
	buf.WriteString(magic)
	lenBytes := 2
	if 10+len(dict)+1 > 1<<16-1 {
		lenBytes = 4
	}
	pre := 6 + 2 + lenBytes
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	padded := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	if uint64(len(padded)) > math.MaxUint32 { // a rank of hundreds of millions
		return &shape.ArgumentError{Op: "npy.Write", Name: "rank", Value: len(s), Reason: "the header would be longer than a 32-bit length holds"}
	}
	if lenBytes == 2 {
		buf.Write([]byte{1, 0})
		buf.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(padded))))
	} else {
		buf.Write([]byte{2, 0})
		buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(padded))))
	}
	buf.WriteString(padded)
	_, err := w.Write(buf.Bytes())
	return err
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// pyTuple writes a shape as Python writes a tuple: (), (3,), (2, 3).
func pyTuple(s shape.Shape) string {
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
