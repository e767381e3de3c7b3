//go:build goexperiment.simd && amd64

// The micro-kernels: straight-line archsimd code, two k steps per loop trip
// (the unrolling lets the register allocator alternate registers instead of
// copying every accumulator back at the loop's end); doc.go says why 4×16.

package gemm

import (
	"simd/archsimd"
	"unsafe"
)

// avx512 is the AVX512 level's kernels in this build: archsimd's AVX-512
// ones, 4×16 float64 and 4×32 float32 (kernel_amd64.go adds them to the
// table; Gemm runs them only where isa.Selected() is AVX512, so only on CPUs
// with AVX-512).
var avx512 = row{
	k64: kernel[float64]{mr: 4, nr: 16, fn: kernel64},
	k32: kernel[float32]{mr: 4, nr: 32, fn: kernel32},
}

// kernel64 computes the 4×16 tile c (rows ldc elements apart) from k steps of
// a packed A panel (4 elements a step) and a packed B panel (16 a step):
// c = a·b, or c += a·b when acc. See doc.go for the shape.
func kernel64(k int, a, b, c unsafe.Pointer, ldc int, acc bool) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x8
	for ; k >= 2; k -= 2 {
		{
			b0 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 0)))
			b1 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 64)))
			x0 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 0))).Broadcast1To8()
			c00 = x0.MulAdd(b0, c00)
			c01 = x0.MulAdd(b1, c01)
			x1 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 8))).Broadcast1To8()
			c10 = x1.MulAdd(b0, c10)
			c11 = x1.MulAdd(b1, c11)
			x2 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 16))).Broadcast1To8()
			c20 = x2.MulAdd(b0, c20)
			c21 = x2.MulAdd(b1, c21)
			x3 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 24))).Broadcast1To8()
			c30 = x3.MulAdd(b0, c30)
			c31 = x3.MulAdd(b1, c31)
		}
		{
			b0 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 128)))
			b1 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 192)))
			x0 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 32))).Broadcast1To8()
			c00 = x0.MulAdd(b0, c00)
			c01 = x0.MulAdd(b1, c01)
			x1 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 40))).Broadcast1To8()
			c10 = x1.MulAdd(b0, c10)
			c11 = x1.MulAdd(b1, c11)
			x2 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 48))).Broadcast1To8()
			c20 = x2.MulAdd(b0, c20)
			c21 = x2.MulAdd(b1, c21)
			x3 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 56))).Broadcast1To8()
			c30 = x3.MulAdd(b0, c30)
			c31 = x3.MulAdd(b1, c31)
		}
		a = unsafe.Add(a, 64)
		b = unsafe.Add(b, 256)
	}
	if k == 1 {
		b0 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 0)))
		b1 := archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(b, 64)))
		x0 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 0))).Broadcast1To8()
		c00 = x0.MulAdd(b0, c00)
		c01 = x0.MulAdd(b1, c01)
		x1 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 8))).Broadcast1To8()
		c10 = x1.MulAdd(b0, c10)
		c11 = x1.MulAdd(b1, c11)
		x2 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 16))).Broadcast1To8()
		c20 = x2.MulAdd(b0, c20)
		c21 = x2.MulAdd(b1, c21)
		x3 := archsimd.LoadFloat64x2((*[2]float64)(unsafe.Add(a, 24))).Broadcast1To8()
		c30 = x3.MulAdd(b0, c30)
		c31 = x3.MulAdd(b1, c31)
	}
	row := uintptr(ldc) * 8
	if acc {
		c00 = c00.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 0*row+0))))
		c01 = c01.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 0*row+64))))
		c10 = c10.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 1*row+0))))
		c11 = c11.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 1*row+64))))
		c20 = c20.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 2*row+0))))
		c21 = c21.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 2*row+64))))
		c30 = c30.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 3*row+0))))
		c31 = c31.Add(archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(c, 3*row+64))))
	}
	c00.Store((*[8]float64)(unsafe.Add(c, 0*row+0)))
	c01.Store((*[8]float64)(unsafe.Add(c, 0*row+64)))
	c10.Store((*[8]float64)(unsafe.Add(c, 1*row+0)))
	c11.Store((*[8]float64)(unsafe.Add(c, 1*row+64)))
	c20.Store((*[8]float64)(unsafe.Add(c, 2*row+0)))
	c21.Store((*[8]float64)(unsafe.Add(c, 2*row+64)))
	c30.Store((*[8]float64)(unsafe.Add(c, 3*row+0)))
	c31.Store((*[8]float64)(unsafe.Add(c, 3*row+64)))
}

// kernel32 computes the 4×32 tile c (rows ldc elements apart) from k steps of
// a packed A panel (4 elements a step) and a packed B panel (32 a step):
// c = a·b, or c += a·b when acc. See doc.go for the shape.
func kernel32(k int, a, b, c unsafe.Pointer, ldc int, acc bool) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float32x16
	for ; k >= 2; k -= 2 {
		{
			b0 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 0)))
			b1 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 64)))
			x0 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 0))).Broadcast1To16()
			c00 = x0.MulAdd(b0, c00)
			c01 = x0.MulAdd(b1, c01)
			x1 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 4))).Broadcast1To16()
			c10 = x1.MulAdd(b0, c10)
			c11 = x1.MulAdd(b1, c11)
			x2 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 8))).Broadcast1To16()
			c20 = x2.MulAdd(b0, c20)
			c21 = x2.MulAdd(b1, c21)
			x3 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 12))).Broadcast1To16()
			c30 = x3.MulAdd(b0, c30)
			c31 = x3.MulAdd(b1, c31)
		}
		{
			b0 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 128)))
			b1 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 192)))
			x0 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 16))).Broadcast1To16()
			c00 = x0.MulAdd(b0, c00)
			c01 = x0.MulAdd(b1, c01)
			x1 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 20))).Broadcast1To16()
			c10 = x1.MulAdd(b0, c10)
			c11 = x1.MulAdd(b1, c11)
			x2 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 24))).Broadcast1To16()
			c20 = x2.MulAdd(b0, c20)
			c21 = x2.MulAdd(b1, c21)
			x3 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 28))).Broadcast1To16()
			c30 = x3.MulAdd(b0, c30)
			c31 = x3.MulAdd(b1, c31)
		}
		a = unsafe.Add(a, 32)
		b = unsafe.Add(b, 256)
	}
	if k == 1 {
		b0 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 0)))
		b1 := archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(b, 64)))
		x0 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 0))).Broadcast1To16()
		c00 = x0.MulAdd(b0, c00)
		c01 = x0.MulAdd(b1, c01)
		x1 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 4))).Broadcast1To16()
		c10 = x1.MulAdd(b0, c10)
		c11 = x1.MulAdd(b1, c11)
		x2 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 8))).Broadcast1To16()
		c20 = x2.MulAdd(b0, c20)
		c21 = x2.MulAdd(b1, c21)
		x3 := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(a, 12))).Broadcast1To16()
		c30 = x3.MulAdd(b0, c30)
		c31 = x3.MulAdd(b1, c31)
	}
	row := uintptr(ldc) * 4
	if acc {
		c00 = c00.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 0*row+0))))
		c01 = c01.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 0*row+64))))
		c10 = c10.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 1*row+0))))
		c11 = c11.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 1*row+64))))
		c20 = c20.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 2*row+0))))
		c21 = c21.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 2*row+64))))
		c30 = c30.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 3*row+0))))
		c31 = c31.Add(archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(c, 3*row+64))))
	}
	c00.Store((*[16]float32)(unsafe.Add(c, 0*row+0)))
	c01.Store((*[16]float32)(unsafe.Add(c, 0*row+64)))
	c10.Store((*[16]float32)(unsafe.Add(c, 1*row+0)))
	c11.Store((*[16]float32)(unsafe.Add(c, 1*row+64)))
	c20.Store((*[16]float32)(unsafe.Add(c, 2*row+0)))
	c21.Store((*[16]float32)(unsafe.Add(c, 2*row+64)))
	c30.Store((*[16]float32)(unsafe.Add(c, 3*row+0)))
	c31.Store((*[16]float32)(unsafe.Add(c, 3*row+64)))
}
