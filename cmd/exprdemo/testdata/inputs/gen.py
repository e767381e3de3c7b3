"""Writes the inputs of the CLI's golden tests, and what NumPy computes
for the -o cases (run: cd inputs && python3 gen.py; NumPy 1.24 or later)."""
import numpy as np

a = np.arange(6, dtype=np.float64).reshape(2, 3)
i = np.arange(6, dtype=np.int32).reshape(2, 3)
u = np.array([250, 5, 0], dtype=np.uint8)
b = np.array([True, False, True])
f = np.asfortranarray(np.array([[0.5, -1.5], [2.5, 4.0]], dtype=np.float32))
for name, arr in dict(a=a, i=i, u=u, b=b, f=f).items():
    np.save(f'{name}.npy', arr)

# The -o golden cases: the CLI must write these bytes exactly.
np.save('want_mixed.npy', np.maximum(a * 2 - i, 1) / (u[:, None][:2, :1] + 1))
np.save('want_compare.npy', (a > 2) == b)
np.save('want_reduce.npy', i.sum(axis=0, keepdims=True))
np.save('want_fortran_T.npy', f.T @ f)
