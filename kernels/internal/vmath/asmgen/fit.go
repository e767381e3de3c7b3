package main

import (
	"math"
	"math/big"
)

// fitPrec is the precision (bits) of polyFit's arithmetic.
const fitPrec = 320

// polyFit is the polynomial of degree n through f at the n+1 Chebyshev
// nodes of [lo, hi] (the nodes rounded to float64, the values and the
// solve at fitPrec bits), its coefficients rounded to float64, highest
// degree first (for lang.horner). An interpolant at Chebyshev's nodes is
// within a small factor of the minimax polynomial's error; TestFits
// measures each one used.
func polyFit(f func(z *big.Float) *big.Float, lo, hi float64, n int) []float64 {
	m := n + 1
	rows := make([][]*big.Float, m)
	for j := range m {
		z := (lo+hi)/2 + (hi-lo)/2*math.Cos(math.Pi*(float64(j)+0.5)/float64(m))
		row := make([]*big.Float, m+1)
		p := newFit(1)
		for i := range m {
			row[i] = new(big.Float).Copy(p)
			p.Mul(p, newFit(z))
		}
		row[m] = f(newFit(z))
		rows[j] = row
	}
	solve(rows)
	cs := make([]float64, m)
	for i := range m {
		cs[m-1-i], _ = rows[i][m].Float64()
	}
	return cs
}

// newFit is v at fitPrec bits.
func newFit(v float64) *big.Float { return new(big.Float).SetPrec(fitPrec).SetFloat64(v) }

// solve reduces the augmented system rows (n rows of n+1) to the identity
// by Gauss–Jordan elimination with partial pivoting, leaving the solution
// in the last column.
func solve(rows [][]*big.Float) {
	n := len(rows)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if new(big.Float).Abs(rows[r][c]).Cmp(new(big.Float).Abs(rows[p][c])) > 0 {
				p = r
			}
		}
		rows[c], rows[p] = rows[p], rows[c]
		inv := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), rows[c][c])
		for i := c; i <= n; i++ {
			rows[c][i].Mul(rows[c][i], inv)
		}
		for r := range n {
			if r == c || rows[r][c].Sign() == 0 {
				continue
			}
			factor := new(big.Float).Copy(rows[r][c])
			for i := c; i <= n; i++ {
				rows[r][i].Sub(rows[r][i], new(big.Float).Mul(factor, rows[c][i]))
			}
		}
	}
}

// series is Σ coef(k)·z^k for k = 0 … terms-1 at fitPrec bits.
func series(z *big.Float, terms int, coef func(k int) *big.Float) *big.Float {
	sum, p := newFit(0), newFit(1)
	for k := range terms {
		sum.Add(sum, new(big.Float).Mul(coef(k), p))
		p.Mul(p, z)
	}
	return sum
}

// atanTail is (atan(√z)/√z - 1)/z = Σ (-1)^(k+1) z^k/(2k+3), for z ≤ 1/4.
func atanTail(z *big.Float) *big.Float {
	return series(z, 300, func(k int) *big.Float {
		c := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), newFit(float64(2*k+3)))
		if k%2 == 0 {
			c.Neg(c)
		}
		return c
	})
}

// asinTail is (asin(√z)/√z - 1)/z = Σ b(k+1)/(2k+3) z^k with b(k) =
// C(2k, k)/4^k, for z ≤ 1/4.
func asinTail(z *big.Float) *big.Float {
	b := newFit(1)
	return series(z, 400, func(k int) *big.Float {
		b.Mul(b, newFit(float64(2*k+1)/float64(2*k+2))) // b(k+1) from b(k); (2k+1)/(2k+2) is exact
		return new(big.Float).SetPrec(fitPrec).Quo(b, newFit(float64(2*k+3)))
	})
}

// expm1Tail is (e^r - 1 - r)/r² = Σ r^k/(k+2)!.
func expm1Tail(r *big.Float) *big.Float {
	f := newFit(1) // (k+1)!, then (k+2)!
	return series(r, 60, func(k int) *big.Float {
		f.Mul(f, newFit(float64(k+2)))
		return new(big.Float).SetPrec(fitPrec).Quo(newFit(1), f)
	})
}

// log1pTail is (log1p(r) - r)/r² = Σ (-1)^(k+1) r^k/(k+2), for |r| < 1/2.
func log1pTail(r *big.Float) *big.Float {
	return series(r, 400, func(k int) *big.Float {
		c := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), newFit(float64(k+2)))
		if k%2 == 0 {
			c.Neg(c)
		}
		return c
	})
}

// logBig is log y for y in [1/2, 2] at fitPrec bits: 2·atanh(s) with s =
// (y-1)/(y+1), |s| ≤ 1/3, by its series Σ s^(2k+1)/(2k+1).
func logBig(y *big.Float) *big.Float {
	s := new(big.Float).SetPrec(fitPrec).Quo(new(big.Float).Sub(y, newFit(1)), new(big.Float).Add(y, newFit(1)))
	z := new(big.Float).SetPrec(fitPrec).Mul(s, s)
	sum := series(z, 320, func(k int) *big.Float {
		return new(big.Float).SetPrec(fitPrec).Quo(newFit(1), newFit(float64(2*k+1)))
	})
	return sum.Mul(sum, s).Mul(sum, newFit(2))
}

// sinTail is (sin(√z)/√z - 1)/z = Σ (-1)^(k+1) z^k/(2k+3)!.
func sinTail(z *big.Float) *big.Float { return oddTail(z, true) }

// oddTail is Σ (±1) z^k/(2k+3)!, the signs alternating (sin's tail, the
// first negative) or not (sinh's).
func oddTail(z *big.Float, alternate bool) *big.Float {
	f := newFit(1) // (2k+1)!, then (2k+3)!
	return series(z, 60, func(k int) *big.Float {
		f.Mul(f, newFit(float64((2*k+2)*(2*k+3))))
		c := new(big.Float).SetPrec(fitPrec).Quo(newFit(1), f)
		if alternate && k%2 == 0 {
			c.Neg(c)
		}
		return c
	})
}

// sinhTail is (sinh(√z)/√z - 1)/z = Σ z^k/(2k+3)!.
func sinhTail(z *big.Float) *big.Float { return oddTail(z, false) }

// ln10Big is ln 10 at fitPrec bits: log 1.25 + 3·log 2 (logBig's series
// converges near 1).
func ln10Big() *big.Float {
	return new(big.Float).Add(logBig(newFit(1.25)), new(big.Float).Mul(logBig(newFit(2)), newFit(3)))
}
