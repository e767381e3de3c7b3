package cpu

import (
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestMatMulLayout checks which operands reach BLAS without a copy: a
// matrix and its transpose do, a stepped or reversed one does not.
func TestMatMulLayout(t *testing.T) {
	tests := []struct {
		name       string
		m          matrix[float64]
		wantStride int
		wantTrans  blas.Transpose
		wantOK     bool
	}{
		{"row-major", matrix[float64]{rows: 3, cols: 4, rs: 4, cs: 1}, 4, blas.NoTrans, true},
		{"row-major, padded rows", matrix[float64]{rows: 3, cols: 4, rs: 10, cs: 1}, 10, blas.NoTrans, true},
		{"transpose", matrix[float64]{rows: 3, cols: 4, rs: 1, cs: 3}, 3, blas.Trans, true},
		{"single row, any stride", matrix[float64]{rows: 1, cols: 4, rs: 99, cs: 1}, 4, blas.NoTrans, true},
		{"single column, stepped", matrix[float64]{rows: 4, cols: 1, rs: 2, cs: 7}, 2, blas.NoTrans, true},
		{"steps in both", matrix[float64]{rows: 3, cols: 4, rs: 16, cs: 2}, 0, blas.NoTrans, false},
		{"reversed rows", matrix[float64]{rows: 3, cols: 4, rs: -4, cs: 1}, 0, blas.NoTrans, false},
		{"broadcast rows", matrix[float64]{rows: 3, cols: 4, rs: 0, cs: 1}, 0, blas.NoTrans, false},
		{"overlapping rows", matrix[float64]{rows: 3, cols: 4, rs: 2, cs: 1}, 0, blas.NoTrans, false},
	}
	for _, tt := range tests {
		stride, trans, ok := tt.m.layout()
		if ok != tt.wantOK || (ok && (stride != tt.wantStride || trans != tt.wantTrans)) {
			t.Errorf("%s: layout() = %d, %c, %v; want %d, %c, %v", tt.name, stride, trans, ok, tt.wantStride, tt.wantTrans, tt.wantOK)
		}
	}
}
