"""Writes the .npy fixtures of npy_test.go with NumPy (run: python3 gen.py).

Element at row-major flat index i of an array of n elements holds
  bool: i % 3 == 0;  signed: i - n // 2;  unsigned: (37 * i + 200) mod 2**bits;
  float: 0.25 * i - 1.
The Go test recomputes these values, so the files carry no expected data.
"""
import numpy as np

def values(dtype, shape):
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.int64)
    dt = np.dtype(dtype)
    if dt.kind == 'b':
        v = i % 3 == 0
    elif dt.kind == 'i':
        v = i - n // 2
    elif dt.kind == 'u':
        v = (37 * i + 200) % (2 ** (8 * dt.itemsize))
    else:
        v = 0.25 * i - 1
    return v.astype(dt).reshape(shape)

def save(name, arr, version=(1, 0)):
    with open(name, 'wb') as f:
        np.lib.format.write_array(f, arr, version=version)

for dt in ['?', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'f4', 'f8']:
    a = values(dt, (2, 3, 4))
    tag = np.dtype(dt).name
    save(f'{tag}_2x3x4_c_v1.npy', a)
    save(f'{tag}_2x3x4_f_v1.npy', np.asfortranarray(a))

save('float64_2x3x4_c_v2.npy', values('f8', (2, 3, 4)), (2, 0))
save('float64_2x3x4_f_v3.npy', np.asfortranarray(values('f8', (2, 3, 4))), (3, 0))
save('float64_2x3x4_c_v1_be.npy', values('>f8', (2, 3, 4)))
save('int32_2x3x4_f_v1_be.npy', np.asfortranarray(values('>i4', (2, 3, 4))))
save('float32_scalar_c_v1.npy', values('f4', ()))
save('int64_0x3_c_v1.npy', values('i8', (0, 3)))
save('uint16_5_c_v1.npy', values('u2', (5,)))
