package bench

import (
	"fmt"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// BenchmarkSharedRows measures trees whose every input is broadcast along
// the rows, so that every row of the result has the same values: a row
// vector broadcast to side × side, through a cheap tree (row·2 + 1) and an
// expensive one (exp(row)), float64, into a preallocated destination. The
// evaluator computes such a block once per tile of rows and stores it into
// each (docs/design.md, "Rows that share their values"). Run it with -cpu 1.
func BenchmarkSharedRows(b *testing.B) {
	for _, side := range []int{100, 1000, 3000} {
		row := tensor.Rand[float64](1, 1, side)
		dst := tensor.Zeros[float64](side, side)
		rows := expr.Of[float64](expr.BroadcastTo[float64](row, side, side))
		for _, c := range []struct {
			name string
			e    expr.Exp[float64]
		}{{"cheap", rows.MulScalar(2).AddScalar(1).E}, {"exp", rows.Exp().E}} {
			b.Run(fmt.Sprintf("%s/side=%d", c.name, side), func(b *testing.B) {
				b.SetBytes(int64(8 * dst.Numel()))
				for b.Loop() {
					if err := kernels.Assign(dst, c.e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
