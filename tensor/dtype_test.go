package tensor

import (
	"errors"
	"strconv"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/shape"
)

// TestDTypeValues checks every dtype's name, size and kind, that
// ParseDType reads back what String writes, and the platform-sized types'
// fixed-size equivalents.
func TestDTypeValues(t *testing.T) {
	type row struct {
		Name                           string
		Size                           int
		Float, Signed, Unsigned, Whole bool
		Sized                          DType
	}
	word := int(unsafe.Sizeof(0))
	sizedInt, sizedUint := SignedOf(8*word), UnsignedOf(8*word)
	want := map[DType]row{
		Bool:    {"bool", 1, false, false, false, false, Bool},
		Int8:    {"int8", 1, false, true, false, true, Int8},
		Int16:   {"int16", 2, false, true, false, true, Int16},
		Int32:   {"int32", 4, false, true, false, true, Int32},
		Int64:   {"int64", 8, false, true, false, true, Int64},
		Uint8:   {"uint8", 1, false, false, true, true, Uint8},
		Uint16:  {"uint16", 2, false, false, true, true, Uint16},
		Uint32:  {"uint32", 4, false, false, true, true, Uint32},
		Uint64:  {"uint64", 8, false, false, true, true, Uint64},
		Float32: {"float32", 4, true, false, false, false, Float32},
		Float64: {"float64", 8, true, false, false, false, Float64},
		Int:     {"int", word, false, true, false, true, sizedInt},
		Uint:    {"uint", word, false, false, true, true, sizedUint},
		Uintptr: {"uintptr", int(unsafe.Sizeof(uintptr(0))), false, false, true, true, sizedUint},
	}
	got := map[DType]row{}
	for _, name := range DTypeNames() {
		d, err := ParseDType(name)
		if err != nil {
			t.Fatalf("ParseDType(%q): %v", name, err)
		}
		got[d] = row{d.String(), d.Size(), d.IsFloat(), d.IsSigned(), d.IsUnsigned(), d.IsInteger(), d.Sized()}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dtypes (-want +got):\n%s", diff)
	}
}

func TestDTypeOfMatchesTheGoType(t *testing.T) {
	type celsius float64
	type flags uint8
	got := []DType{DTypeOf[float32](), DTypeOf[int16](), DTypeOf[uint64](), DTypeOf[int](), DTypeOf[uintptr](),
		DTypeOf[celsius](), DTypeOf[flags]()}
	want := []DType{Float32, Int16, Uint64, Int, Uintptr, Float64, Uint8}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DTypeOf (-want +got):\n%s", diff)
	}
	if ItemSize[int32]() != DTypeOf[int32]().Size() || ItemSize[uintptr]() != DTypeOf[uintptr]().Size() {
		t.Error("ItemSize and DType.Size disagree")
	}
}

func TestDTypeBadInput(t *testing.T) {
	for _, name := range []string{"", "float16", "complex128", "Float64", "invalid"} {
		d, err := ParseDType(name)
		var ae *shape.ArgumentError
		if !errors.As(err, &ae) || ae.Value != name || d != Invalid {
			t.Errorf("ParseDType(%q) = %v, %v; want Invalid and an ArgumentError naming it", name, d, err)
		}
	}
	for _, bits := range []int{0, 1, 12, 128} {
		if SignedOf(bits) != Invalid || UnsignedOf(bits) != Invalid {
			t.Errorf("SignedOf/UnsignedOf(%d) should be Invalid", bits)
		}
	}
	if s := DType(200).String(); s != "dtype(200)" || DType(200).Size() != 0 {
		t.Errorf("DType(200) = %q, size %d", s, DType(200).Size())
	}
	if s := strconv.Itoa(Float64.Bits()); s != "64" {
		t.Errorf("Float64.Bits() = %s", s)
	}
}
