package gemm

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/kernels/internal/par"
)

// Float is the element types Gemm computes in.
type Float interface{ ~float32 | ~float64 }

// Epilogue is called once for each finished tile of C: rows × cols elements
// from (i0, j0), whose every element holds its final value, called right
// after the last k-panel was added into the tile while it is still in cache.
// The tiles partition C: each element of C is in exactly one call. Calls for
// different tiles may run concurrently (on different goroutines) when Gemm
// runs in parallel, never for overlapping tiles. The callback may read and
// rewrite its tile of C; it must not touch C outside its tile.
type Epilogue func(i0, j0, rows, cols int)

// Blocking sizes, in elements (doc.go explains them). They are variables so
// that the tests can shrink them to reach every path with small matrices.
var (
	kc64, mc64, nc64 = 256, 96, 4096
	kc32, mc32, nc32 = 256, 192, 4096
	// epCols is the width, in columns, of the tiles passed to an
	// Epilogue (rounded up to a multiple of the kernel's nr).
	epCols64, epCols32 = 128, 256
)

// parallelWork is the m·n·k from which Gemm shares the product among
// GOMAXPROCS goroutines.
var parallelWork = 1 << 21

// kernel is a micro-kernel and its tile: fn computes the mr × nr tile at c
// (rows ldc apart) from k steps of a packed A panel (mr elements a step) and
// a packed B panel (nr a step); c = a·b, or c += a·b when acc.
type kernel[T Float] struct {
	mr, nr int
	fn     func(k int, a, b, c unsafe.Pointer, ldc int, acc bool)
}

var (
	portable64 = kernel[float64]{mr: 4, nr: 16, fn: portable[float64, [4 * 16]float64](4, 16)}
	portable32 = kernel[float32]{mr: 4, nr: 32, fn: portable[float32, [4 * 32]float32](4, 32)}
)

// Gemm computes C = op(A)·op(B) for row-major matrices: op(A) is m × k, op(B)
// is k × n and C is m × n; op(X) is X, or Xᵀ when its trans flag is set, so A
// is stored m × k (lda ≥ k) or, transposed, k × m (lda ≥ m), and likewise B.
// Element (i, j) of C is c[i·ldc + j], ldc ≥ n; C's previous contents are
// ignored (beta = 0), and C must not overlap A or B. k = 0 gives zeros. ep,
// if not nil, is called on every tile of C once it is final (see Epilogue).
// It runs the kernels of the level isa.Selected() returns when it is called
// (the table in kernels.go).
func Gemm[T Float](transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int, ep Epilogue) {
	check(transA, transB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if m == 0 || n == 0 {
		return
	}
	kerns := kernelsAt(isa.Selected())
	var z T
	switch unsafe.Sizeof(z) {
	case 8:
		kern := kerns.k64
		run(kern, blocking(kern, kc64, mc64, nc64, epCols64), transA, transB, m, n, k, f64(a), lda, f64(b), ldb, f64(c), ldc, ep)
	default:
		kern := kerns.k32
		run(kern, blocking(kern, kc32, mc32, nc32, epCols32), transA, transB, m, n, k, f32(a), lda, f32(b), ldb, f32(c), ldc, ep)
	}
}

// f64 and f32 view a slice of a type whose underlying type is float64 or
// float32 as that type.
func f64[T Float](s []T) []float64 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&s[0])), len(s))
}

func f32[T Float](s []T) []float32 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&s[0])), len(s))
}

func check(transA, transB bool, m, n, k, na, lda, nb, ldb, nc, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic("gemm: negative dimension")
	}
	need := func(trans bool, rows, cols, ld, have int, what string) {
		if trans {
			rows, cols = cols, rows
		}
		if ld < max(cols, 1) {
			panic("gemm: bad leading dimension of " + what)
		}
		if rows > 0 && cols > 0 && have < (rows-1)*ld+cols {
			panic("gemm: " + what + " too short")
		}
	}
	need(transA, m, k, lda, na, "A")
	need(transB, k, n, ldb, nb, "B")
	need(false, m, n, ldc, nc, "C")
}

// blocks is a kernel's blocking: kc deep, mc rows of A, nc columns of B,
// epilogue tiles ep columns wide.
type blocks struct{ kc, mc, nc, ep int }

// blocking returns the blocking of kern: mc rounded up to whole panels of
// mr rows, nc and the epilogue's tiles to whole panels of nr columns.
func blocking[T Float](kern kernel[T], kc, mc, nc, ep int) blocks {
	return blocks{kc: kc, mc: roundUp(mc, kern.mr), nc: roundUp(nc, kern.nr), ep: roundUp(ep, kern.nr)}
}

// operands is one product, as Gemm takes it.
type operands[T Float] struct {
	transA, transB bool
	k              int
	a, b, c        []T
	lda, ldb, ldc  int
	ep             Epilogue
}

// run computes the product, on GOMAXPROCS goroutines when it is large: the
// longer of C's dimensions is cut into ranges (whole tiles), each computed by
// its own goroutine with its own packing buffers.
func run[T Float](kern kernel[T], blk blocks, transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int, ep Epilogue) {
	op := &operands[T]{transA: transA, transB: transB, k: k, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc, ep: ep}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		if ep != nil {
			ep(0, 0, m, n)
		}
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if m*n*k < parallelWork {
		workers = 1
	}
	splitCols := n >= m
	unit, length := kern.mr, m
	if splitCols {
		unit, length = kern.nr, n
	}
	tiles := (length + unit - 1) / unit
	workers = min(workers, tiles)
	if workers <= 1 {
		compute(kern, blk, op, 0, m, 0, n)
		return
	}
	par.Do(workers, func(w int) {
		lo, hi := tiles*w/workers*unit, min(tiles*(w+1)/workers*unit, length)
		if splitCols {
			compute(kern, blk, op, 0, m, lo, hi)
		} else {
			compute(kern, blk, op, lo, hi, 0, n)
		}
	})
}

// buffers are one goroutine's packing buffers.
type buffers[T Float] struct{ a, b, tile []T }

var pools sync.Map // element size → *sync.Pool of *buffers

// getBuffers returns packing buffers for rows × cols of C, depth k, in
// blocks blk: no larger than the blocks the product uses (a small product
// does not allocate nc·kc elements).
func getBuffers[T Float](kern kernel[T], blk blocks, rows, cols, k int) *buffers[T] {
	var z T
	p, _ := pools.LoadOrStore(unsafe.Sizeof(z), &sync.Pool{})
	buf, _ := p.(*sync.Pool).Get().(*buffers[T])
	if buf == nil {
		buf = &buffers[T]{}
	}
	// The kernels read up to one tile past a panel's last step (the
	// broadcast loads a 128-bit lane; the loop's last pointer step), hence
	// the slack.
	slack := kern.mr * kern.nr
	kc := min(blk.kc, k)
	if na := roundUp(min(blk.mc, rows), kern.mr)*kc + slack; len(buf.a) < na {
		buf.a = make([]T, na)
	}
	if nb := roundUp(min(blk.nc, cols), kern.nr)*kc + slack; len(buf.b) < nb {
		buf.b = make([]T, nb)
	}
	if len(buf.tile) < kern.mr*kern.nr {
		buf.tile = make([]T, kern.mr*kern.nr)
	}
	return buf
}

func putBuffers[T Float](buf *buffers[T]) {
	var z T
	p, _ := pools.Load(unsafe.Sizeof(z))
	p.(*sync.Pool).Put(buf)
}

func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// compute computes rows [i0, i1) × columns [j0, j1) of C, BLIS's five
// loops: nc columns of op(B) at a time, kc deep, packed into nr-column
// panels; mc rows of op(A) at a time, packed into mr-row panels; the
// micro-kernel over each mr × nr tile. On the last kc step it calls the
// epilogue on every mc × ep tile as soon as the tile is done.
func compute[T Float](kern kernel[T], blk blocks, op *operands[T], i0, i1, j0, j1 int) {
	buf := getBuffers(kern, blk, i1-i0, j1-j0, op.k)
	defer putBuffers(buf)
	mr, nr, k := kern.mr, kern.nr, op.k
	c, ldc := op.c, op.ldc
	for jc := j0; jc < j1; jc += blk.nc {
		nb := min(blk.nc, j1-jc)
		for pc := 0; pc < k; pc += blk.kc {
			kb := min(blk.kc, k-pc)
			acc, last := pc > 0, pc+kb == k
			packB(buf.b, op, pc, kb, jc, nb, nr)
			for ic := i0; ic < i1; ic += blk.mc {
				mb := min(blk.mc, i1-ic)
				packA(buf.a, op, ic, mb, pc, kb, mr)
				for jt := 0; jt < nb; jt += blk.ep {
					jtEnd := min(jt+blk.ep, nb)
					for jr := jt; jr < jtEnd; jr += nr {
						cols := min(nr, nb-jr)
						pb := unsafe.Pointer(&buf.b[jr*kb])
						for ir := 0; ir < mb; ir += mr {
							rows := min(mr, mb-ir)
							pa := unsafe.Pointer(&buf.a[ir*kb])
							ci := (ic+ir)*ldc + jc + jr
							if rows == mr && cols == nr {
								kern.fn(kb, pa, pb, unsafe.Pointer(&c[ci]), ldc, acc)
								continue
							}
							kern.fn(kb, pa, pb, unsafe.Pointer(&buf.tile[0]), nr, false)
							for r := range rows {
								dst, src := c[ci+r*ldc:ci+r*ldc+cols], buf.tile[r*nr:r*nr+cols]
								if acc {
									for j, v := range src {
										dst[j] += v
									}
								} else {
									copy(dst, src)
								}
							}
						}
					}
					if last && op.ep != nil {
						op.ep(ic, jc+jt, mb, jtEnd-jt)
					}
				}
			}
		}
	}
}

// packA copies rows [i0, i0+mb) × depth [p0, p0+kb) of op(A) into dst as
// mr-row panels, each kb steps of mr elements (panel q at q·mr·kb), rows past
// mb zero.
func packA[T Float](dst []T, op *operands[T], i0, mb, p0, kb, mr int) {
	a, lda := op.a, op.lda
	for ir := 0; ir < mb; ir += mr {
		rows := min(mr, mb-ir)
		panel := dst[ir*kb : ir*kb+mr*kb]
		if !op.transA && rows == mr && gatherRows(panel, a, (i0+ir)*lda+p0, lda, kb, mr) {
			// Done: a whole panel of a row-major A, gathered step by step.
		} else if !op.transA {
			// A is m × k: row i is contiguous along p.
			for r := range rows {
				row := a[(i0+ir+r)*lda+p0 : (i0+ir+r)*lda+p0+kb]
				for p, v := range row {
					panel[p*mr+r] = v
				}
			}
		} else {
			// A is k × m: step p holds the rows contiguously.
			for p := range kb {
				copy(panel[p*mr:p*mr+rows], a[(p0+p)*lda+i0+ir:(p0+p)*lda+i0+ir+rows])
			}
		}
		if rows < mr {
			for p := range kb {
				clear(panel[p*mr+rows : p*mr+mr])
			}
		}
	}
}

// packB copies depth [p0, p0+kb) × columns [j0, j0+nb) of op(B) into dst as
// nr-column panels, each kb steps of nr elements (panel q at q·nr·kb),
// columns past nb zero.
func packB[T Float](dst []T, op *operands[T], p0, kb, j0, nb, nr int) {
	b, ldb := op.b, op.ldb
	jr := 0
	if !op.transB {
		// B is k × n: step p is contiguous along j. The whole panels
		// row by row, reading B in order (panel by panel, every step
		// would read another of B's cache lines).
		full := nb / nr * nr
		for p := range kb {
			src := b[(p0+p)*ldb+j0 : (p0+p)*ldb+j0+full]
			for q := 0; q < full; q += nr {
				copy(dst[q*kb+p*nr:q*kb+p*nr+nr], src[q:q+nr])
			}
		}
		jr = full
	}
	for ; jr < nb; jr += nr {
		cols := min(nr, nb-jr)
		panel := dst[jr*kb : jr*kb+nr*kb]
		if !op.transB {
			for p := range kb {
				copy(panel[p*nr:p*nr+cols], b[(p0+p)*ldb+j0+jr:(p0+p)*ldb+j0+jr+cols])
			}
		} else {
			// B is n × k: column j is contiguous along p.
			for j := range cols {
				col := b[(j0+jr+j)*ldb+p0 : (j0+jr+j)*ldb+p0+kb]
				for p, v := range col {
					panel[p*nr+j] = v
				}
			}
		}
		if cols < nr {
			for p := range kb {
				clear(panel[p*nr+cols : p*nr+nr])
			}
		}
	}
}

// gatherRows packs the mr rows of a from a[off] (ld apart), kb steps each,
// into panel, step by step, and reports whether it did: it handles the
// kernels' mr (4, 6, 8), with the rows as slices the compiler checks once,
// three times as fast as packA's loop over one row at a time.
func gatherRows[T Float](panel, a []T, off, ld, kb, mr int) bool {
	row := func(r int) []T { return a[off+r*ld : off+r*ld+kb] }
	switch mr {
	case 4:
		r0, r1, r2, r3 := row(0), row(1), row(2), row(3)
		for p := range r0 {
			d := (*[4]T)(panel[p*4:])
			d[0], d[1], d[2], d[3] = r0[p], r1[p], r2[p], r3[p]
		}
	case 6:
		r0, r1, r2, r3, r4, r5 := row(0), row(1), row(2), row(3), row(4), row(5)
		for p := range r0 {
			d := (*[6]T)(panel[p*6:])
			d[0], d[1], d[2], d[3], d[4], d[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
		}
	case 8:
		r0, r1, r2, r3, r4, r5, r6, r7 := row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7)
		for p := range r0 {
			d := (*[8]T)(panel[p*8:])
			d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p], r6[p], r7[p]
		}
	default:
		return false
	}
	return true
}

// portable returns a micro-kernel in plain Go for an mr × nr tile (A an
// array type of mr·nr elements): the Generic level's, which every platform
// runs.
func portable[T Float, A ~[4 * 16]T | ~[4 * 32]T](mr, nr int) func(k int, a, b, c unsafe.Pointer, ldc int, acc bool) {
	return func(k int, a, b, c unsafe.Pointer, ldc int, acc bool) {
		var t A
		pa := unsafe.Slice((*T)(a), k*mr)
		pb := unsafe.Slice((*T)(b), k*nr)
		for p := range k {
			for i := range mr {
				x := pa[p*mr+i]
				for j, y := range pb[p*nr : p*nr+nr] {
					t[i*nr+j] += x * y
				}
			}
		}
		pc := unsafe.Slice((*T)(c), (mr-1)*ldc+nr)
		for i := range mr {
			for j := range nr {
				if acc {
					pc[i*ldc+j] += t[i*nr+j]
				} else {
					pc[i*ldc+j] = t[i*nr+j]
				}
			}
		}
	}
}
