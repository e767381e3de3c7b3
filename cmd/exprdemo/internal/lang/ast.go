package lang

// Node is a parsed expression. Pos and End are the byte offsets of its
// first character and just past its last in the source.
type Node interface {
	Span() (pos, end int)
}

// span is the source range every node carries.
type span struct{ Pos, End int }

// Span returns the node's source range.
func (s span) Span() (int, int) { return s.Pos, s.End }

// Num is a number literal. IsInt tells which of Int and Float holds it:
// Python's rule, a literal with a '.' or an exponent is a float.
type Num struct {
	span
	Text  string
	IsInt bool
	Int   int64
	Float float64
}

// Name is an identifier: an input, a constant (pi, inf, nan, True, False),
// or, written np.NAME, one of NumPy's constants (np.pi, np.e, np.inf,
// np.nan; np.newaxis in a subscript is None).
type Name struct {
	span
	Name  string
	NumPy bool // written np.Name
}

// Unary is -X or +X. OpPos is the operator's position.
type Unary struct {
	span
	Op    string
	OpPos int
	X     Node
}

// Binary is X Op Y for an arithmetic operator, @ or a comparison. OpPos is
// the operator's position.
type Binary struct {
	span
	Op    string
	OpPos int
	X, Y  Node
}

// Paren is a parenthesised expression, kept so that its span covers the
// parentheses.
type Paren struct {
	span
	X Node
}

// Tuple is a parenthesised, comma-separated list: (0, 1), (3,), ().
type Tuple struct {
	span
	Elems []Node
}

// Keyword is a name=value argument.
type Keyword struct {
	span
	Name  string
	Value Node
}

// Call is a function call f(args…) or, with Recv set, a method call
// recv.f(args…).
type Call struct {
	span
	Recv     Node // nil for a function
	Func     string
	FuncPos  int
	Args     []Node
	Keywords []Keyword
}

// Attr is X.Name without a call: x.T.
type Attr struct {
	span
	X    Node
	Name string
}

// Index is X[items…].
type Index struct {
	span
	X     Node
	Items []IndexItem
}

// ItemKind says what one subscript item is.
type ItemKind int

// The kinds of subscript item.
const (
	ItemIndex    ItemKind = iota // an integer: x[1]
	ItemSlice                    // start:stop:step, each part optional
	ItemEllipsis                 // ...
	ItemNewAxis                  // None
)

// IndexItem is one comma-separated part of a subscript. For ItemIndex,
// Start holds the index; for ItemSlice, Start, Stop and Step hold the parts
// given (nil when left out).
type IndexItem struct {
	span
	Kind              ItemKind
	Start, Stop, Step Node
}
