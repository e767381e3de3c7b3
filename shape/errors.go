package shape

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// The kinds of error laze reports. Every error value the project returns or
// panics with wraps exactly one or two of these, so that
//
//	errors.Is(err, shape.ErrShape)
//
// tells the kind without looking at the message.
var (
	// ErrShape reports shapes that do not agree (sizes, element counts).
	ErrShape = errors.New("shape mismatch")
	// ErrBroadcast reports shapes that cannot be broadcast together. A
	// BroadcastError is also an ErrShape.
	ErrBroadcast = errors.New("shapes cannot be broadcast")
	// ErrIndex reports an element or slice index outside its dimension.
	ErrIndex = errors.New("index out of range")
	// ErrDimension reports a dimension (axis) number outside the rank, or a
	// list of dimensions that is not valid (repeated, not a permutation).
	ErrDimension = errors.New("invalid dimension")
	// ErrNotContiguous reports an operation that needs contiguous memory.
	ErrNotContiguous = errors.New("tensor is not contiguous")
	// ErrDevice reports operands on different or unsupported devices.
	ErrDevice = errors.New("device mismatch")
	// ErrOverflow reports a size or offset that does not fit in an int.
	ErrOverflow = errors.New("size overflows int")
	// ErrInvalid reports an argument that is invalid whatever the shapes
	// (a negative size, a zero step, a bad layout name).
	ErrInvalid = errors.New("invalid argument")
	// ErrDType reports an element type that an operation does not accept
	// (a float-only op on integers).
	ErrDType = errors.New("unsupported element type")
	// ErrReleased reports a use of memory after it was released, or a second
	// release of the same allocation.
	ErrReleased = errors.New("memory already released")
	// ErrMemory reports an allocation that could not be served: above the
	// allocator's limit, or more than the Go runtime can hand out.
	ErrMemory = errors.New("out of memory")
	// ErrStale reports a compiled program run after one of its tensors
	// changed its shape, strides, offset or storage (Resize).
	ErrStale = errors.New("tensor changed since the program was compiled")
)

// ShapeError reports shapes that do not agree in operation Op.
type ShapeError struct {
	Op     string  // the operation, such as "View" or "CopyFrom"
	Shapes []Shape // every shape involved, in argument order
	Reason string  // what is wrong, in a few words
	Sep    string  // what the message puts between the shapes: ", " when empty, " @ " for matmul
}

// Error returns the message, which names the operation and the values at fault.
func (e *ShapeError) Error() string {
	sep := e.Sep
	if sep == "" {
		sep = ", "
	}
	return fmt.Sprintf("laze: %s: %s: %s", e.Op, joinShapes(e.Shapes, sep), e.Reason)
}

// Unwrap returns ErrShape.
func (e *ShapeError) Unwrap() error { return ErrShape }

// BroadcastError reports shapes that cannot be broadcast together under
// NumPy's rules. Dim is the result dimension (counted from the left of the
// broadcast result) where the sizes disagree.
type BroadcastError struct {
	Op     string
	Shapes []Shape
	Dim    int
}

// Error returns the message, which names the operation and the values at fault.
func (e *BroadcastError) Error() string {
	return fmt.Sprintf("laze: %s: shapes %s cannot be broadcast together (sizes disagree in result dimension %d)",
		e.Op, joinShapes(e.Shapes, " and "), e.Dim)
}

// Unwrap returns ErrBroadcast and ErrShape: a broadcast failure is a kind of
// shape mismatch.
func (e *BroadcastError) Unwrap() []error { return []error{ErrBroadcast, ErrShape} }

// IndexError reports Index outside [-Size, Size) in dimension Dim.
type IndexError struct {
	Op    string
	Dim   int
	Index int
	Size  int
}

// Error returns the message, which names the operation and the values at fault.
func (e *IndexError) Error() string {
	return fmt.Sprintf("laze: %s: index %d is out of range for dimension %d of size %d",
		e.Op, e.Index, e.Dim, e.Size)
}

// Unwrap returns ErrIndex.
func (e *IndexError) Unwrap() error { return ErrIndex }

// DimensionError reports a dimension number Dim that is not valid for a
// tensor of rank NDim, or, when Reason is set, a list of dimensions that is
// not valid for another reason.
type DimensionError struct {
	Op     string
	Dim    int
	NDim   int
	Reason string
}

// Error returns the message, which names the operation and the values at fault.
func (e *DimensionError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("laze: %s: dimension %d: %s (rank %d)", e.Op, e.Dim, e.Reason, e.NDim)
	}
	return fmt.Sprintf("laze: %s: dimension %d is out of range for rank %d (valid: %d to %d)",
		e.Op, e.Dim, e.NDim, -max(e.NDim, 1), max(e.NDim, 1)-1)
}

// Unwrap returns ErrDimension.
func (e *DimensionError) Unwrap() error { return ErrDimension }

// NotContiguousError reports that a tensor's memory layout does not allow Op
// without a copy.
type NotContiguousError struct {
	Op      string
	Shape   Shape
	Strides []int
	Reason  string
}

// Error returns the message, which names the operation and the values at fault.
func (e *NotContiguousError) Error() string {
	msg := fmt.Sprintf("laze: %s: tensor of shape %v and strides %s is not contiguous",
		e.Op, e.Shape, FormatInts(e.Strides))
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Unwrap returns ErrNotContiguous.
func (e *NotContiguousError) Unwrap() error { return ErrNotContiguous }

// DeviceError reports operands of Op that live on different devices, or a
// device that Op does not support. Devices holds each device involved
// (values of alloc.Device, kept as fmt.Stringer because shape sits below
// alloc in the dependency order).
type DeviceError struct {
	Op      string
	Devices []fmt.Stringer
	Reason  string
}

// Error returns the message, which names the operation and the values at fault.
func (e *DeviceError) Error() string {
	names := make([]string, len(e.Devices))
	for i, d := range e.Devices {
		names[i] = d.String()
	}
	reason := e.Reason
	if reason == "" {
		reason = "operands are on different devices"
	}
	return fmt.Sprintf("laze: %s: %s: %s", e.Op, reason, strings.Join(names, " and "))
}

// Unwrap returns ErrDevice.
func (e *DeviceError) Unwrap() error { return ErrDevice }

// OverflowError reports a shape whose element or byte count does not fit in
// an int (see Shape.Size for the rule), strides and an offset that reach
// past the range of an int, or (with no Shape) a length computed from
// arguments (Arange's) that does not fit.
type OverflowError struct {
	Op     string
	Shape  Shape   // nil when there is no shape yet
	What   string  // "element count", "byte count", "extent of strides (…) from offset …"
	DType  string  // the element type, for byte counts; may be empty
	Inputs []Shape // the shapes Shape was computed from (Broadcast's operands); may be empty
}

// Error returns the message, which names the operation and the values at fault.
func (e *OverflowError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "laze: %s: %s", e.Op, e.What)
	if e.Shape != nil {
		fmt.Fprintf(&b, " of shape %v", e.Shape)
	}
	if e.DType != "" {
		fmt.Fprintf(&b, " and dtype %s", e.DType)
	}
	if len(e.Inputs) > 0 {
		fmt.Fprintf(&b, " (broadcasting %s)", joinShapes(e.Inputs, " and "))
	}
	b.WriteString(" overflows int")
	return b.String()
}

// Unwrap returns ErrOverflow.
func (e *OverflowError) Unwrap() error { return ErrOverflow }

// ArgumentError reports an argument that is invalid whatever the shapes:
// a negative size, a zero slice step, an unknown layout.
type ArgumentError struct {
	Op     string
	Name   string // the parameter's name
	Value  any    // the value at fault
	Reason string
}

// Error returns the message, which names the operation and the values at fault.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("laze: %s: %s = %v: %s", e.Op, e.Name, e.Value, e.Reason)
}

// Unwrap returns ErrInvalid.
func (e *ArgumentError) Unwrap() error { return ErrInvalid }

// ReleaseError reports memory used or released after it was released.
type ReleaseError struct {
	Op   string
	What string // what was released: "allocation of 4096 bytes on cpu", …
}

// Error returns the message, which names the operation and the values at fault.
func (e *ReleaseError) Error() string {
	return fmt.Sprintf("laze: %s: %s was already released", e.Op, e.What)
}

// Unwrap returns ErrReleased.
func (e *ReleaseError) Unwrap() error { return ErrReleased }

// StaleError reports a compiled program (kernels.Program) run after one of
// the tensors it was compiled for changed in place (tensor.Resize): its
// shape, strides, offset or storage is no longer what the program
// addresses. Tensor names the tensor (the destination, or an operand and
// its place in the tree); Was and Now are its geometry then and now.
type StaleError struct {
	Op     string
	Tensor string
	Was    string
	Now    string
}

// Error returns the message, which names the operation and the values at fault.
func (e *StaleError) Error() string {
	return fmt.Sprintf("laze: %s: %s changed since Compile (was %s, now %s): compile the program again", e.Op, e.Tensor, e.Was, e.Now)
}

// Unwrap returns ErrStale.
func (e *StaleError) Unwrap() error { return ErrStale }

// MemoryError reports an allocation that could not be served: a request
// above the allocator's limit (alloc.Caching.SetLimit) or one the Go runtime
// refuses. Shape and DType are set when the allocation was for a tensor. Err
// is the allocator's own error, when it had one (a device's out-of-memory
// error), and errors.Is and errors.As reach it.
type MemoryError struct {
	Op     string // the operation, such as "New" or "Caching.Alloc"
	Bytes  int64  // the bytes requested
	Limit  int64  // the allocator's limit in bytes, 0 when it has none
	Reason string // why, with the limit when it is the cause
	Shape  Shape  // the tensor's shape; may be nil
	DType  string // the tensor's element type; empty when not for a tensor
	Err    error  // the allocator's error; may be nil
}

// Error returns the message, which names the operation and the values at
// fault, as NumPy's: "unable to allocate 74.5 GiB for an array with shape
// (100000,100000) and data type float64".
func (e *MemoryError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "laze: %s: unable to allocate %s", e.Op, FormatBytes(e.Bytes))
	if e.DType != "" {
		fmt.Fprintf(&b, " for an array with shape %v and data type %s", e.Shape, e.DType)
	} else {
		fmt.Fprintf(&b, " (%d bytes)", e.Bytes)
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	return b.String()
}

// Unwrap returns ErrMemory and Err, when set.
func (e *MemoryError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrMemory, e.Err}
	}
	return []error{ErrMemory}
}

// FormatBytes formats a byte count as NumPy's allocation messages do: "512
// bytes", "1.00 KiB", "74.5 GiB", "512. MiB" (three significant figures in
// binary units).
func FormatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	u := (bits.Len64(uint64(n)) - 1) / 10
	v := float64(n) / float64(uint64(1)<<(10*u))
	if math.Round(v) == 1024 && u+1 < len(units) { // 1023.9 MiB is 1.00 GiB
		u, v = u+1, v/1024
	}
	if math.Round(v) < 1000 {
		return fmt.Sprintf("%#.3g %s", v, units[u])
	}
	return fmt.Sprintf("%#.0f %s", v, units[u])
}

// DTypeError reports an operation given an element type it does not accept.
type DTypeError struct {
	Op     string // the operation, such as "sqrt"
	DType  string // the element type at fault, as NumPy names it
	Reason string
}

// Error returns the message, which names the operation and the values at fault.
func (e *DTypeError) Error() string {
	return fmt.Sprintf("laze: %s: dtype %s: %s", e.Op, e.DType, e.Reason)
}

// Unwrap returns ErrDType.
func (e *DTypeError) Unwrap() error { return ErrDType }

// NodeError reports a check that failed at one node of an expression tree.
// Node is the node as the tree prints it, so the message points at the
// sub-expression at fault; Err is what is wrong there (a BroadcastError, a
// DTypeError, a DeviceError…), which errors.Is and errors.As reach through
// Unwrap.
type NodeError struct {
	Op   string // the call that checked the tree, such as "Assign"
	Node string // the node at fault: "(a + b)"
	Err  error
}

// Error returns the message, which names the call, the node and the fault.
func (e *NodeError) Error() string {
	return fmt.Sprintf("laze: %s: at node %s: %s", e.Op, e.Node, strings.TrimPrefix(e.Err.Error(), "laze: "))
}

// Unwrap returns the error found at the node.
func (e *NodeError) Unwrap() error { return e.Err }

func joinShapes(shapes []Shape, sep string) string {
	parts := make([]string, len(shapes))
	for i, s := range shapes {
		parts[i] = s.String()
	}
	return strings.Join(parts, sep)
}

// Rename sets the operation named by the outermost laze error in err's
// chain (err itself, then what it wraps, as errors.Unwrap goes) to op, and
// returns err: a helper's error reported under its caller's name (View's
// ShapeError as Reshape's, Check's NodeError as Assign's). Errors of other
// packages in the chain are passed over; err is returned unchanged when it
// holds no laze error.
func Rename(err error, op string) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if n, ok := e.(interface{ opField() *string }); ok {
			*n.opField() = op
			return err
		}
	}
	return err
}

func (e *ShapeError) opField() *string         { return &e.Op }
func (e *BroadcastError) opField() *string     { return &e.Op }
func (e *IndexError) opField() *string         { return &e.Op }
func (e *DimensionError) opField() *string     { return &e.Op }
func (e *NotContiguousError) opField() *string { return &e.Op }
func (e *DeviceError) opField() *string        { return &e.Op }
func (e *OverflowError) opField() *string      { return &e.Op }
func (e *ArgumentError) opField() *string      { return &e.Op }
func (e *ReleaseError) opField() *string       { return &e.Op }
func (e *StaleError) opField() *string         { return &e.Op }
func (e *MemoryError) opField() *string        { return &e.Op }
func (e *DTypeError) opField() *string         { return &e.Op }
func (e *NodeError) opField() *string          { return &e.Op }
