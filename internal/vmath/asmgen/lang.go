package main

// lang is the vector language the portable kernels (kernels.go) are written
// in, implemented once per target: avx (vec.go's kern, 256-bit AVX2 + FMA
// through avo) and neon (neon.go, 128-bit arm64 Advanced SIMD). Values are
// operands: a vector register of the target or a constant that the target
// places where it can (a memory operand on amd64, a register loaded from the
// pool on arm64). A mask is a vector of all-ones and all-zeros lanes.
type lang interface {
	// f is the float constant v in every lane; u the integer constant v
	// (of the element width).
	f(v float64) Op
	u(v uint64) Op

	add(a, b Op) Op
	sub(a, b Op) Op
	mul(a, b Op) Op
	div(a, b Op) Op
	// min and max may return either operand when one is NaN: the kernels
	// use them only where NaN lanes are out of the domain.
	min(a, b Op) Op
	max(a, b Op) Op
	sqrt(a Op) Op
	// round rounds to an integer: mode 0 to nearest even, 3 toward zero.
	round(a Op, mode uint8) Op
	// fma is a·b + c with one rounding, fnma c - a·b.
	fma(a, b, c Op) Op
	fnma(a, b, c Op) Op
	// goMulAdd is a·b + c as the Go compiler compiles it in a reference
	// written in Go (shared: the product has another use).
	goMulAdd(a, b, c Op, shared bool) Op
	// goMulSub is c - a·b as the Go compiler compiles it: a product and
	// a subtraction on amd64, one FMSUB on arm64.
	goMulSub(a, b, c Op) Op
	// horner is ((c[0]·x + c[1])·x + ...)·x + c[n-1] with FMAs.
	horner(x Op, cs ...float64) Op

	and(a, b Op) Op
	or(a, b Op) Op
	xor(a, b Op) Op
	andNot(a, b Op) Op // a &^ b

	// Integer lanes of the element width.
	addI(a, b Op) Op
	subI(a, b Op) Op
	eqI(a, b Op) Op
	shl(a Op, n int) Op
	shr(a Op, n int) Op
	// toInt converts float lanes holding integers to integer lanes of the
	// same width, toFloat integer lanes to float (amd64: float32 only).
	toInt(a Op) Op
	toFloat(a Op) Op

	// cmp compares lane by lane with one of the predicates eq … gt.
	cmp(pred uint8, a, b Op) Op
	mAnd(a, b Op) Op
	mOr(a, b Op) Op
	mAndNot(a, b Op) Op
	// sel is m ? a : b lane by lane.
	sel(m, a, b Op) Op
}

// avx is kern seen through lang.
type avx struct{ k *kern }

func (a avx) f(v float64) Op                      { return a.k.f(v) }
func (a avx) u(v uint64) Op                       { return a.k.u(v) }
func (a avx) add(x, y Op) Op                      { return a.k.add(x, y) }
func (a avx) sub(x, y Op) Op                      { return a.k.sub(x, y) }
func (a avx) mul(x, y Op) Op                      { return a.k.mul(x, y) }
func (a avx) div(x, y Op) Op                      { return a.k.div(x, y) }
func (a avx) min(x, y Op) Op                      { return a.k.min(x, y) }
func (a avx) max(x, y Op) Op                      { return a.k.max(x, y) }
func (a avx) sqrt(x Op) Op                        { return a.k.sqrt(x) }
func (a avx) round(x Op, mode uint8) Op           { return a.k.round(x, mode) }
func (a avx) fma(x, y, z Op) Op                   { return a.k.fma(x, y, z) }
func (a avx) fnma(x, y, z Op) Op                  { return a.k.fnma(x, y, z) }
func (a avx) goMulAdd(x, y, z Op, shared bool) Op { return a.k.goMulAdd(x, y, z, shared) }
func (a avx) goMulSub(x, y, z Op) Op              { return a.k.sub(z, a.k.mul(x, y)) }
func (a avx) horner(x Op, cs ...float64) Op       { return a.k.horner(a.k.reg(x), cs...) }
func (a avx) and(x, y Op) Op                      { return a.k.and(x, y) }
func (a avx) or(x, y Op) Op                       { return a.k.or(x, y) }
func (a avx) xor(x, y Op) Op                      { return a.k.xor(x, y) }
func (a avx) andNot(x, y Op) Op                   { return a.k.andNot(x, y) }
func (a avx) addI(x, y Op) Op                     { return a.k.addI(x, y) }
func (a avx) subI(x, y Op) Op                     { return a.k.subI(x, y) }
func (a avx) eqI(x, y Op) Op                      { return a.k.eqI(x, y) }
func (a avx) shl(x Op, n int) Op                  { return a.k.shl(a.k.reg(x), n) }
func (a avx) shr(x Op, n int) Op                  { return a.k.shr(a.k.reg(x), n) }
func (a avx) toInt(x Op) Op                       { return a.k.toInt(a.k.reg(x)) }
func (a avx) toFloat(x Op) Op                     { return a.k.toFloat(a.k.reg(x)) }
func (a avx) cmp(pred uint8, x, y Op) Op          { return a.k.cmp(pred, x, y) }
func (a avx) mAnd(x, y Op) Op                     { return a.k.mAnd(a.k.reg(x), a.k.reg(y)) }
func (a avx) mOr(x, y Op) Op                      { return a.k.mOr(a.k.reg(x), a.k.reg(y)) }
func (a avx) mAndNot(x, y Op) Op                  { return a.k.mAndNot(a.k.reg(x), a.k.reg(y)) }
func (a avx) sel(m, x, y Op) Op                   { return a.k.sel(a.k.reg(m), x, y) }

// core is a kernel written in lang: the results of one vector of lanes and
// the mask of the lanes it computed.
type core func(k lang, x Op) (r, ok Op)

// onAVX runs a portable core on kern.
func onAVX(c core) func(*kern, V) (V, V) {
	return func(k *kern, x V) (V, V) {
		r, ok := c(avx{k}, x)
		return k.reg(r), k.reg(ok)
	}
}
