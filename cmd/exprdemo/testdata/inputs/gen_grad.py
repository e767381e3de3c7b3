"""Writes the inputs of the CLI's gradient tests (grad_test.go) and prints
the gradients those tests expect, each from its derivative worked out by
hand (run: cd inputs && python3 gen_grad.py; NumPy 1.24 or later)."""
import numpy as np

x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])
y = np.array([[2.0, 0.5, -1.0], [3.0, -2.0, 1.0]])
w = np.array([[1.0, 2.0], [-1.0, 0.5], [0.25, -2.0]])
for name, arr in dict(x=x, y=y, w=w, x32=x.astype(np.float32)).items():
    np.save(f'{name}.npy', arr)

ones22 = np.ones((2, 2))
G = 2 * (x @ w) / 4  # d mean((x @ w) ** 2) / d (x @ w)
sm = np.exp(x) / np.exp(x).sum()
want = {
    # d/dx sum(x * x) = 2x
    'square': [2 * x],
    # d/dx sum(sin(x) * y) = cos(x) * y; d/dy = sin(x)
    'sin_mul': [np.cos(x) * y, np.sin(x)],
    # d/dx sum(x @ w) = 1 @ w.T; d/dw = x.T @ 1
    'matmul': [ones22 @ w.T, x.T @ ones22],
    # d/dx mean((x @ w) ** 2) = G @ w.T, d/dw = x.T @ G with G = 2 (x @ w) / 4
    'matmul_mean_square': [G @ w.T, x.T @ G],
    # sum(x * w[:, 0]): w[:, 0] broadcast over x's rows, and summed back
    'broadcast': [np.broadcast_to(w[:, 0], x.shape), np.stack([x.sum(axis=0), np.zeros(3)], axis=1)],
    # sum(x.T[::2] ** 2): 2x on x's columns 0 and 2, 0 on column 1
    'view': [2 * x * np.array([1, 0, 1])],
    # max(x): 1 where x is largest (2.0 at [0, 2])
    'max': [(x == x.max()).astype(float)],
    # -v y sin(x): y * cos(x)
    'vjp': [y * np.cos(x)],
    # sum(x32 * y): y, as float32 (x32's dtype)
    'float32': [y.astype(np.float32)],
    # mean(x): 1/6 everywhere
    'mean': [np.full(x.shape, 1 / 6)],
    # logsumexp(x): softmax of all of x's elements
    'logsumexp': [sm],
    # sum(float64(int32(x)) + x): the cast passes no gradient
    'int_cast': [np.ones(x.shape)],
    # sum(where(x > 0, x, 0)): 1 where x > 0
    'where': [(x > 0).astype(float)],
    # sum(x[None, 1, ::-1] * y[0]): row 1 of x gets y[0] reversed
    'index_reverse': [np.stack([np.zeros(3), y[0, ::-1]])],
    # (x @ w)[1, 0] = x[1] . w[:, 0]: w[:, 0] in row 1
    'matmul_element': [np.stack([np.zeros(3), w[:, 0]])],
    # sum(cumsum(x, axis=1) * y): x[i, j] gets y[i, j:].sum()
    'cumsum': [np.cumsum(y[:, ::-1], axis=1)[:, ::-1]],
    # sum(softmax(x, axis=1) * y): s * (y - (s * y).sum(axis=1)) with s = softmax(x, axis=1)
    'softmax': [(lambda s: s * (y - (s * y).sum(axis=1, keepdims=True)))(np.exp(x) / np.exp(x).sum(axis=1, keepdims=True))],
    # std(x): (x - mean(x)) / (n std(x))
    'std': [(x - x.mean()) / (x.size * x.std())],
    # s * sum(x) for a 0-d s: sum(x)
    'scalar_input': [np.array(x.sum())],
}
for name, grads in want.items():
    parts = ', '.join('{' + ', '.join(repr(float(v)) for v in g.ravel()) + '}' for g in grads)
    print(f'{name}: {parts}')
