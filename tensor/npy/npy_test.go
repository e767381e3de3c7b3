package npy

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// fixtureValue is the value testdata/gen.py puts at row-major flat index i
// of an array of n elements of the given NumPy dtype.
func fixtureValue(dtype string, i, n int) float64 {
	switch {
	case dtype == "bool":
		if i%3 == 0 {
			return 1
		}
		return 0
	case dtype[0] == 'i':
		return float64(i - n/2)
	case dtype[0] == 'u':
		bits := map[string]uint{"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}[dtype]
		v := uint64(37*i + 200)
		if bits < 64 {
			v %= 1 << bits
		}
		return float64(v)
	}
	return 0.25*float64(i) - 1
}

// rowMajorValues returns t's elements in row-major order as float64.
func rowMajorValues[T tensor.Number](t *tensor.Tensor[T]) []float64 {
	var out []float64
	for v := range t.Values() {
		out = append(out, float64(v))
	}
	return out
}

// valuesOf returns the row-major values and strides of a tensor held in an
// any, whatever its element type.
func valuesOf(t any) (vals []float64, dims shape.Shape, strides []int, dtype string) {
	switch t := t.(type) {
	case *tensor.Tensor[float32]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[float64]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[int8]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[int16]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[int32]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[int64]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[uint8]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[uint16]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[uint32]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	case *tensor.Tensor[uint64]:
		return rowMajorValues(t), t.Shape(), t.Strides(), t.DType().String()
	}
	panic("unexpected tensor type")
}

// TestReadNumPyFiles reads files NumPy wrote (testdata/gen.py): every dtype
// in C and Fortran order, header versions 1.0, 2.0 and 3.0, big-endian
// data, a scalar, an empty array and a vector.
func TestReadNumPyFiles(t *testing.T) {
	tests := []struct {
		file    string
		dtype   string // NumPy's name in the header
		goType  string // the tensor's element type
		dims    shape.Shape
		strides []int
		version int
	}{
		{"float64_2x3x4_c_v2.npy", "float64", "float64", shape.Of(2, 3, 4), []int{12, 4, 1}, 2},
		{"float64_2x3x4_f_v3.npy", "float64", "float64", shape.Of(2, 3, 4), []int{1, 2, 6}, 3},
		{"float64_2x3x4_c_v1_be.npy", "float64", "float64", shape.Of(2, 3, 4), []int{12, 4, 1}, 1},
		{"int32_2x3x4_f_v1_be.npy", "int32", "int32", shape.Of(2, 3, 4), []int{1, 2, 6}, 1},
		{"float32_scalar_c_v1.npy", "float32", "float32", shape.Of(), []int{}, 1},
		{"int64_0x3_c_v1.npy", "int64", "int64", shape.Of(0, 3), []int{3, 1}, 1},
		{"uint16_5_c_v1.npy", "uint16", "uint16", shape.Of(5), []int{1}, 1},
	}
	for _, dt := range []string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"} {
		goType := dt
		if dt == "bool" {
			goType = "uint8"
		}
		tests = append(tests,
			struct {
				file, dtype, goType string
				dims                shape.Shape
				strides             []int
				version             int
			}{dt + "_2x3x4_c_v1.npy", dt, goType, shape.Of(2, 3, 4), []int{12, 4, 1}, 1},
			struct {
				file, dtype, goType string
				dims                shape.Shape
				strides             []int
				version             int
			}{dt + "_2x3x4_f_v1.npy", dt, goType, shape.Of(2, 3, 4), []int{1, 2, 6}, 1})
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, h, err := LoadAny(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			vals, dims, strides, goType := valuesOf(got)
			if h.DType.String() != tt.dtype || goType != tt.goType || h.Major != tt.version {
				t.Errorf("dtype %s into %s, version %d; want %s into %s, version %d", h.DType, goType, h.Major, tt.dtype, tt.goType, tt.version)
			}
			if !dims.Equal(tt.dims) || !cmp.Equal(strides, tt.strides) {
				t.Errorf("shape %v strides %v, want %v %v", dims, strides, tt.dims, tt.strides)
			}
			n := len(vals)
			want := make([]float64, n)
			for i := range want {
				want[i] = fixtureValue(tt.dtype, i, n)
			}
			if n == 0 {
				want = nil
			}
			if diff := cmp.Diff(want, vals); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteMatchesNumPy checks that Write produces NumPy's own bytes for
// the same array: header, padding and data.
func TestWriteMatchesNumPy(t *testing.T) {
	for _, file := range []string{"float64_2x3x4_c_v1.npy", "float64_2x3x4_f_v1.npy", "bool_2x3x4_c_v1.npy", "int64_0x3_c_v1.npy", "float32_scalar_c_v1.npy"} {
		t.Run(file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			got, h, err := ReadAny(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			switch g := got.(type) {
			case *tensor.Tensor[float64]:
				err = Write(&buf, g)
			case *tensor.Tensor[float32]:
				err = Write(&buf, g)
			case *tensor.Tensor[int64]:
				err = Write(&buf, g)
			case *tensor.Tensor[uint8]:
				err = Write(&buf, g, AsBool())
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s (%v): Write gives\n%q\nNumPy wrote\n%q", file, h.Shape, buf.Bytes(), want)
			}
		})
	}
}

// layouts returns views of a 2x3x4 tensor in every layout Write handles:
// row-major, column-major, a transpose, a stepped and reversed slice, a
// broadcast, a scalar and an empty tensor.
func layouts[T tensor.Number]() map[string]*tensor.Tensor[T] {
	base := tensor.Arange[T](0, 24, 1)
	a, _ := base.View(2, 3, 4)
	col := tensor.New[T](shape.Of(2, 3, 4), tensor.ColMajor())
	_ = col.CopyFrom(a)
	row, _ := tensor.Arange[T](1, 5, 1).View(1, 4)
	wide, _ := row.Expand(3, 4)
	return map[string]*tensor.Tensor[T]{
		"row-major":    a,
		"column-major": col,
		"transpose":    a.Permute(2, 0, 1),
		"stepped":      a.Slice(1, tensor.None, tensor.None, 2).Slice(2, tensor.None, tensor.None, -1),
		"broadcast":    wide,
		"scalar":       tensor.Scalar[T](7),
		"empty":        tensor.Zeros[T](0, 3),
		"index":        a.Index(2, 1),
	}
}

// roundTrip writes every layout of T and reads it back.
func roundTrip[T tensor.Number](t *testing.T) {
	for name, src := range layouts[T]() {
		t.Run(tensor.DTypeOf[T]().String()+"/"+name, func(t *testing.T) {
			before := src.String()
			var buf bytes.Buffer
			if err := Write(&buf, src); err != nil {
				t.Fatal(err)
			}
			got, err := Read[T](bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Shape().Equal(src.Shape()) {
				t.Fatalf("shape %v, want %v", got.Shape(), src.Shape())
			}
			if diff := cmp.Diff(rowMajorValues(src), rowMajorValues(got)); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			fortran := bytes.Contains(buf.Bytes(), []byte("'fortran_order': True"))
			if wantF := name == "column-major"; fortran != wantF {
				t.Errorf("fortran_order %v, want %v", fortran, wantF)
			}
			if src.String() != before {
				t.Errorf("Write changed its tensor")
			}
			if headerLen(buf.Bytes())%64 != 0 {
				t.Errorf("data starts at byte %d, not a multiple of 64", headerLen(buf.Bytes()))
			}
		})
	}
}

// headerLen returns where the data of an .npy file in b starts.
func headerLen(b []byte) int {
	if b[6] == 1 {
		return 10 + int(b[8]) + int(b[9])<<8
	}
	return 12 + int(b[8]) + int(b[9])<<8 + int(b[10])<<16 + int(b[11])<<24
}

func TestRoundTrip(t *testing.T) {
	roundTrip[float32](t)
	roundTrip[float64](t)
	roundTrip[int8](t)
	roundTrip[int16](t)
	roundTrip[int32](t)
	roundTrip[int64](t)
	roundTrip[uint8](t)
	roundTrip[uint16](t)
	roundTrip[uint32](t)
	roundTrip[uint64](t)
	roundTrip[int](t)
}

// TestRoundTripSpecialFloats checks that NaN, infinities, -0 and the
// extremes survive bit for bit.
func TestRoundTripSpecialFloats(t *testing.T) {
	data := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64}
	src, _ := tensor.FromSlice(data, shape.Of(6))
	var buf bytes.Buffer
	if err := Write(&buf, src); err != nil {
		t.Fatal(err)
	}
	got, err := Read[float64](&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range data {
		if math.Float64bits(got.At(i)) != math.Float64bits(v) {
			t.Errorf("element %d: %v, want %v", i, got.At(i), v)
		}
	}
}

// TestFortranIsAView checks that a Fortran-order file becomes column-major
// strides over the data as stored, not a transposing copy.
func TestFortranIsAView(t *testing.T) {
	got, err := Load[float64](filepath.Join("testdata", "float64_2x3x4_f_v1.npy"))
	if err != nil {
		t.Fatal(err)
	}
	storage := got.Storage()
	want := []float64{}
	for k := 0; k < 4; k++ {
		for j := 0; j < 3; j++ {
			for i := 0; i < 2; i++ {
				want = append(want, got.At(i, j, k))
			}
		}
	}
	if diff := cmp.Diff(want, storage); diff != "" {
		t.Errorf("storage is not the file's column-major data (-want +got):\n%s", diff)
	}
}

// TestReadErrors feeds broken and unsupported files; each must give a
// FormatError (or a DTypeError for a type mismatch) naming what is wrong.
func TestReadErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "float64_2x3x4_c_v1.npy"))
	if err != nil {
		t.Fatal(err)
	}
	withHeader := func(dict string) []byte {
		b := []byte("\x93NUMPY\x01\x00")
		b = append(b, byte(len(dict)), byte(len(dict)>>8))
		return append(b, dict...)
	}
	tests := []struct {
		name string
		data []byte
		is   error
		says string
	}{
		{"empty", nil, ErrFormat, "too short"},
		{"bad magic", append([]byte("\x93NUMPZ"), good[6:]...), ErrFormat, "magic"},
		{"version 4", append(append([]byte{}, good[:6]...), append([]byte{4, 0}, good[8:]...)...), ErrFormat, "version 4.0"},
		{"version 1.1", append(append([]byte{}, good[:6]...), append([]byte{1, 1}, good[8:]...)...), ErrFormat, "version 1.1"},
		{"truncated header", good[:40], ErrFormat, "header"},
		{"truncated data", good[:len(good)-3], ErrFormat, "ends after 189 of its 192 data bytes"},
		{"no shape", withHeader("{'descr': '<f8', 'fortran_order': False, }\n"), ErrFormat, "'shape'"},
		{"extra key", withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 'y'}\n"), ErrFormat, "exactly the keys"},
		{"repeated key", withHeader("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "twice"},
		{"fortran not bool", withHeader("{'descr': '<f8', 'fortran_order': 1, 'shape': (1,)}\n"), ErrFormat, "want a string, True"},
		{"float16", withHeader("{'descr': '<f2', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "float16"},
		{"complex", withHeader("{'descr': '<c16', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "complex"},
		{"bool2", withHeader("{'descr': '<b2', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "one byte"},
		{"float8", withHeader("{'descr': '<f1', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "unsupported size"},
		{"byte order", withHeader("{'descr': '!f8', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "byte order"},
		{"complex64", withHeader("{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "complex"},
		{"string", withHeader("{'descr': '<U5', 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "numeric"},
		{"structured", withHeader("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,)}\n"), ErrFormat, "want a string"},
		{"negative dim", withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}\n"), ErrFormat, "dimension size"},
		{"overflowing shape", withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536, 65536, 65536, 65536)}\n"), shape.ErrOverflow, "element count overflows int"},
		{"header length over the limit", []byte("\x93NUMPY\x02\x00\xff\xff\xff\xff{}"), ErrFormat, "header length 4294967295 is over the limit"},
		{"one dim without comma", withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (3)}\n"), ErrFormat, "comma"},
		{"huge but empty", withHeader(fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d,)}\n", math.MaxInt/8)), ErrFormat, "ends after 0 of its"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ReadAny(bytes.NewReader(tt.data))
			if !errors.Is(err, tt.is) || !bytes.Contains([]byte(err.Error()), []byte(tt.says)) {
				t.Errorf("ReadAny = %v, want an error matching %v that says %q", err, tt.is, tt.says)
			}
		})
	}
	_, err = Read[int32](bytes.NewReader(good))
	var de *shape.DTypeError
	if !errors.As(err, &de) || de.DType != "float64" || !bytes.Contains([]byte(err.Error()), []byte("Tensor[int32]")) {
		t.Errorf("Read[int32] of a float64 file = %v, want a DTypeError naming both types", err)
	}
	if _, err := Load[float64](filepath.Join("testdata", "missing.npy")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file = %v", err)
	}
}

// npyWithHeader returns a version 1.0 .npy file with the given header
// dictionary followed by data.
func npyWithHeader(dict string, data ...byte) []byte {
	b := []byte("\x93NUMPY\x01\x00")
	b = append(b, byte(len(dict)), byte(len(dict)>>8))
	return append(append(b, dict...), data...)
}

// half and quarter are the powers of two past MaxInt/2 and MaxInt/4 (2^62
// and 2^61 on 64-bit machines, 2^30 and 2^29 on 32-bit ones), and pairDim
// the least d with d·d past MaxInt (3037000500, or 46341), so that the
// headers below overflow this machine's int, whichever it is.
const half, quarter = math.MaxInt/2 + 1, math.MaxInt/4 + 1

var pairDim = int([2]int64{46341, 3037000500}[strconv.IntSize/64])

// overflowHeaders are headers whose sizes do not fit in an int, each with
// the count that overflows; FuzzRead starts from them too.
var overflowHeaders = []struct {
	name, descr string
	dims        shape.Shape
	what        string
}{
	{"empty with huge dims", "<f8", shape.Of(0, half, half), "element count"},
	{"elements", "<f8", shape.Of(half, 4), "element count"},
	{"elements of bytes", "|u1", shape.Of(half, 2), "element count"},
	{"products of every pair", "<i4", shape.Of(pairDim, pairDim), "element count"},
	{"bytes", "<f8", shape.Of(quarter), "byte count"},
	{"bytes of int16", "<i2", shape.Of(2, quarter), "byte count"},
	{"empty, bytes as NumPy counts them", "<f4", shape.Of(0, quarter), "byte count"},
	{"Fortran order", "<f8", shape.Of(4, half, 0), "element count"},
}

// TestReadOverflowingShape reads headers whose element or byte count
// overflows int: each must be a FormatError wrapping a shape.OverflowError
// that names the shape and the count, not a panic or a wrong allocation.
func TestReadOverflowingShape(t *testing.T) {
	for _, tt := range overflowHeaders {
		t.Run(tt.name, func(t *testing.T) {
			file := npyWithHeader(fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }\n", tt.descr, pyBool(tt.name == "Fortran order"), pyTuple(tt.dims)))
			_, _, err := ReadAny(bytes.NewReader(file))
			var oe *shape.OverflowError
			if !errors.Is(err, ErrFormat) || !errors.As(err, &oe) || !errors.Is(err, shape.ErrOverflow) {
				t.Fatalf("ReadAny = %v, want a FormatError wrapping an OverflowError", err)
			}
			want := &shape.OverflowError{Op: "npy.Read", Shape: tt.dims, What: tt.what}
			if diff := cmp.Diff(want, oe); diff != "" {
				t.Errorf("OverflowError (-want +got):\n%s", diff)
			}
			if !strings.Contains(err.Error(), tt.what+" overflows int") || !strings.Contains(err.Error(), tt.dims.String()) {
				t.Errorf("message %q does not name the shape and the count", err)
			}
		})
	}
	// The largest sizes that fit are not overflows: they fail on the data
	// the file does not hold, before allocating, or read as empty.
	for _, dict := range []string{
		fmt.Sprintf("{'descr': '|u1', 'fortran_order': False, 'shape': (%d,), }", math.MaxInt),
		fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }", math.MaxInt/8),
	} {
		_, _, err := ReadAny(bytes.NewReader(npyWithHeader(dict)))
		if !errors.Is(err, ErrFormat) || errors.Is(err, shape.ErrOverflow) || !strings.Contains(err.Error(), "the file ends after 0 of its") {
			t.Errorf("%s: ReadAny = %v, want a FormatError for the missing data", dict, err)
		}
	}
	empty, err := Read[float64](bytes.NewReader(npyWithHeader(fmt.Sprintf("{'descr': '<f8', 'fortran_order': True, 'shape': (0, %d, 1), }", math.MaxInt/8))))
	if err != nil || !empty.Shape().Equal(shape.Of(0, math.MaxInt/8, 1)) || empty.Numel() != 0 {
		t.Errorf("an empty array with the largest dimensions that fit: %v, %v", empty, err)
	}
	for _, tt := range []struct{ dims, says string }{
		{"(18446744073709551616,)", "dimension 18446744073709551616 overflows int"},
		{"(2, 99999999999999999999999)", "dimension 99999999999999999999999 overflows int"},
	} {
		_, _, err := ReadAny(bytes.NewReader(npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': " + tt.dims + ", }")))
		if !errors.Is(err, ErrFormat) || !errors.Is(err, shape.ErrOverflow) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("shape %s: ReadAny = %v, want an ErrOverflow that says %q", tt.dims, err, tt.says)
		}
	}
	for _, dims := range []string{"(-1,)", "(3, -4)", "(0, -9223372036854775808)"} {
		_, _, err := ReadAny(bytes.NewReader(npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': " + dims + ", }")))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "a dimension size (a non-negative integer)") {
			t.Errorf("shape %s: ReadAny = %v, want a FormatError refusing the negative size", dims, err)
		}
	}
}

// TestReadBoolNormalised reads a bool file whose bytes are 0, 1, 2 and
// 255: NumPy takes every non-zero byte as True, so each reads as 1.
func TestReadBoolNormalised(t *testing.T) {
	file := npyWithHeader("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }\n", 0, 1, 2, 255, 0, 128)
	want := []float64{0, 1, 1, 1, 0, 1}
	got, h, err := ReadAny(bytes.NewReader(file))
	if err != nil || h.DType != tensor.Bool {
		t.Fatalf("ReadAny = %v, %v", h, err)
	}
	vals, _, _, _ := valuesOf(got)
	if diff := cmp.Diff(want, vals); diff != "" {
		t.Errorf("ReadAny (-want +got):\n%s", diff)
	}
	u, err := Read[uint8](bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, rowMajorValues(u)); diff != "" {
		t.Errorf("Read[uint8] (-want +got):\n%s", diff)
	}
	// uint8 data is not a bool's: its bytes stay as they are.
	raw, err := Read[uint8](bytes.NewReader(npyWithHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }\n", 2, 255)))
	if err != nil || !cmp.Equal(rowMajorValues(raw), []float64{2, 255}) {
		t.Errorf("uint8 file: %v, %v; want [2 255]", raw, err)
	}
}

// TestWriteErrors checks the options Write refuses.
func TestWriteErrors(t *testing.T) {
	if err := Write(&bytes.Buffer{}, tensor.Zeros[int32](2), AsBool()); !errors.Is(err, shape.ErrDType) {
		t.Errorf("AsBool on int32 = %v, want ErrDType", err)
	}
	dir := t.TempDir()
	if err := Save(filepath.Join(dir, "no", "such", "dir.npy"), tensor.Zeros[int32](2)); err == nil {
		t.Errorf("Save into a missing directory succeeded")
	}
	path := filepath.Join(dir, "x.npy")
	src := tensor.Arange[int16](0, 6, 1)
	if err := Save(path, src); err != nil {
		t.Fatal(err)
	}
	got, err := Load[int16](path)
	if err != nil || !cmp.Equal(rowMajorValues(got), rowMajorValues(src)) {
		t.Errorf("Save then Load: %v, %v", got, err)
	}
}

// TestBigEndianWrite checks the byte swapping Write does on big-endian
// hosts, by forcing it here.
func TestBigEndianWrite(t *testing.T) {
	data := []int32{1, -2, 1 << 20}
	var buf bytes.Buffer
	saved := nativeIsLittle
	nativeIsLittle = false
	err := writeData(&buf, data, 4)
	nativeIsLittle = saved
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0, 0x10, 0, 0}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("swapped bytes %v, want %v", buf.Bytes(), want)
	}
}

// FuzzRead feeds arbitrary bytes to ReadAny: it must never panic, and a
// file it accepts must write back to one that reads the same.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"float64_2x3x4_c_v1.npy", "int32_2x3x4_f_v1_be.npy", "float64_2x3x4_f_v3.npy", "bool_2x3x4_c_v1.npy", "float32_scalar_c_v1.npy"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, h := range overflowHeaders {
		f.Add(npyWithHeader(fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }\n", h.descr, pyTuple(h.dims))))
	}
	f.Add(npyWithHeader("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }\n", 0, 1, 2, 255))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, h, err := ReadAny(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not a FormatError", err)
			}
			return
		}
		vals, dims, _, _ := valuesOf(got)
		if h.DType == tensor.Bool && slices.ContainsFunc(vals, func(v float64) bool { return v != 0 && v != 1 }) {
			t.Fatalf("%v: bools read as %v, want only 0 and 1", h, vals)
		}
		var buf bytes.Buffer
		switch g := got.(type) {
		case *tensor.Tensor[float64]:
			err = Write(&buf, g)
		case *tensor.Tensor[uint8]:
			err = Write(&buf, g)
		default:
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		again, _, err := ReadAny(&buf)
		if err != nil {
			t.Fatal(err)
		}
		vals2, dims2, _, _ := valuesOf(again)
		if !dims.Equal(dims2) || !cmp.Equal(vals, vals2, cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })) {
			t.Errorf("%v: the written copy reads %v %v, want %v %v", h, dims2, vals2, dims, vals)
		}
	})
}
