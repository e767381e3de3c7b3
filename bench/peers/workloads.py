#!/usr/bin/python3
"""PyTorch, NumPy and numexpr on bench/'s workloads, in Go's benchmark format.

The five workloads of BenchmarkWorkload (bench/workloads_test.go), written as
a user of each library writes them, at the same sizes and dtypes:

  mlp             one SGD step of a 784-512-10 MLP (ReLU, softmax
                  cross-entropy), batch 256, learning rate 0.01
  blackscholes    call and put prices of 1e6 European options
  layernorm-gelu  layer norm over the last axis, then GELU (tanh form), 4096x1024
  softmax-xent    mean softmax cross-entropy and its gradient, 4096x1000 logits
  kmeans          one k-means assignment step: 1e5 points of 64 dimensions,
                  256 centroids, squared distances |c|^2 - 2 x.c through a
                  product, argmin

bench/report/run.sh runs this beside the Go suite, once per pass and thread
count, and appends its output to the same raw file; the report pairs its
lines with laze's (BenchmarkWorkload/<workload>/<dtype>/laze):

    BenchmarkWorkload/<workload>/<dtype>/torch-<threads>     <iters>  <t> ns/op
    BenchmarkWorkload/<workload>/<dtype>/numpy-<threads>     <iters>  <t> ns/op
    BenchmarkWorkload/<workload>/<dtype>/numexpr-<threads>   <iters>  <t> ns/op

torch is PyTorch's CPU eager mode on torch.set_num_threads(threads): the MLP
as nn.Sequential of nn.Linear with torch.optim.SGD and loss.backward(), the
cross-entropy as F.cross_entropy with torch.autograd.grad, layer norm and
GELU as F.layer_norm and F.gelu(approximate="tanh"), the normal CDF of
Black-Scholes as 0.5(1 + erf(x/sqrt 2)). numpy is the same by hand (the MLP's
backward pass written out), with NumPy's products on the BLAS that
libblas.so.3 is (OpenBLAS after `make bench-deps`; run.sh holds its threads
to the count with OPENBLAS_NUM_THREADS, and this script does too when the
variable is unset) and its ufuncs on one thread. numexpr runs where it
applies, the elementwise workloads: Black-Scholes (its normal CDF as laze's,
Abramowitz and Stegun's polynomial 26.2.17, since numexpr has no erf) and
the elementwise part of layer norm + GELU (the row means and variances in
NumPy), on ne.set_num_threads(threads).

Each implementation is run once on a fresh copy of the data and checked
against a float64 NumPy reference before it is timed; one that disagrees is
reported on stderr and not timed. The repetitions follow go test
-benchtime, as bench/peers/peers.py's do. A library that does not import is
left out, with a config line "torch: missing" or "numexpr: missing" and a
warning on stderr. Usage:

    /usr/bin/python3 bench/peers/workloads.py [--threads K] [--benchtime 0.5]
        [--workloads mlp,kmeans] [--dtypes float32,float64]
        [--impls torch,numpy,numexpr] [--small]
"""

import argparse
import gc
import math
import os
import platform
import re
import sys

WORKLOADS = ["mlp", "blackscholes", "layernorm-gelu", "softmax-xent", "kmeans",
             "row-exp", "row-tanh", "row-log", "row-sigmoid", "row-max", "row-min", "row-sum", "row-argmax",
             "row-logsumexp",
             "row-softmax", "row-var"]
DTYPES = ["float32", "float64"]
IMPLS = ["torch", "numpy", "numexpr"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--threads", type=int, default=1, help="every library's thread count, and the -N suffix")
    p.add_argument("--benchtime", type=float, default=0.5, help="seconds per benchmark, as go test -benchtime")
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--impls", default=",".join(IMPLS))
    p.add_argument("--small", action="store_true", help="small sizes, for a quick check of the script")
    return p.parse_args()


ARGS = parse_args()
# The BLAS and OpenMP pools read these when the libraries load, so they are
# set before the imports (run.sh sets them itself; this is for a direct run).
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_MAX_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(var, str(ARGS.threads))

try:
    import numpy as np
except ImportError:
    sys.exit("workloads.py: NumPy is missing: `make bench-deps` installs python3-numpy, python3-numexpr and python3-torch")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import cpu_name, measure  # noqa: E402  (the same timing loop as the elementwise peers)

try:
    import numexpr as ne
except ImportError:
    ne = None
try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

if ARGS.small:
    MLP = (16, 784, 64, 10)
    BS_N = 1000
    LN = (64, 128)
    XENT = (64, 100)
    KM = (1000, 64, 16)
else:
    MLP = (256, 784, 512, 10)  # batch, in, hidden, classes
    BS_N = 1_000_000
    LN = (4096, 1024)
    XENT = (4096, 1000)
    KM = (100_000, 64, 256)  # points, dims, centroids
LR = 0.01
BS_RATE, BS_VOL = 0.02, 0.30
LN_EPS = 1e-5
GELU_C = math.sqrt(2 / math.pi)


class Workload:
    """One workload in one dtype: impls maps an implementation's name to a
    function of no arguments that returns a step function (made on fresh
    copies of the data); result maps a name to a function that returns the
    step's outputs (NumPy float64 arrays) after a step; check(outputs)
    returns an error message or None."""

    def __init__(self, impls, result, check):
        self.impls, self.result, self.check = impls, result, check


def close(name, got, want, rtol, scale=1.0):
    """An error message where got and want differ by more than
    rtol*max(scale, |want|), else None."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape:
        return "%s: shape %s, reference %s" % (name, got.shape, want.shape)
    bad = ~(np.abs(got - want) <= rtol * np.maximum(scale, np.abs(want)))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        return "%s: %d of %d elements differ from the reference, first at %d: %r, want %r" % (
            name, int(bad.sum()), bad.size, i, got.flat[i], want.flat[i])
    return None


def tol(dtype, rel32, rel64):
    return rel32 if dtype == np.float32 else rel64


def torch_dtype(dtype):
    return torch.float32 if dtype == np.float32 else torch.float64


# (a) The MLP step.

def mlp(dtype, rng):
    batch, nin, hidden, classes = MLP
    a1, a2 = 1 / math.sqrt(nin), 1 / math.sqrt(hidden)  # as nn.Linear draws them
    x = rng.random((batch, nin)).astype(dtype)
    init = [rng.uniform(-a1, a1, (nin, hidden)), rng.uniform(-a1, a1, hidden),
            rng.uniform(-a2, a2, (hidden, classes)), rng.uniform(-a2, a2, classes)]
    init = [p.astype(dtype) for p in init]
    y = rng.integers(0, classes, batch)
    rows = np.arange(batch)

    # The reference: one step in float64, from the same start.
    x64, (w1, b1, w2, b2) = x.astype(np.float64), [p.astype(np.float64) for p in init]
    pre = x64 @ w1 + b1
    h = np.maximum(pre, 0)
    z = h @ w2 + b2
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[rows, y] -= 1
    dz = p / batch
    dh = (dz @ w2.T) * (pre > 0)
    ref = [w1 - LR * (x64.T @ dh), b1 - LR * dh.sum(0), w2 - LR * (h.T @ dz), b2 - LR * dz.sum(0)]

    state = {}

    def numpy_impl():
        w1, b1, w2, b2 = [q.copy() for q in init]
        state["numpy"] = lambda: [w1, b1, w2, b2]
        lr = dtype(LR)

        def step():
            nonlocal w1, b1, w2, b2
            pre = x @ w1
            pre += b1
            h = np.maximum(pre, 0)
            z = h @ w2
            z += b2
            m = z.max(1, keepdims=True)
            e = np.exp(z - m)
            s = e.sum(1, keepdims=True)
            loss = np.mean(np.log(s[:, 0]) + m[:, 0] - z[rows, y])  # noqa: F841 (a training step reports it)
            dz = e / s
            dz[rows, y] -= 1
            dz /= batch
            gw2, gb2 = h.T @ dz, dz.sum(0)
            dh = dz @ w2.T
            dh *= pre > 0
            gw1, gb1 = x.T @ dh, dh.sum(0)
            w1 -= lr * gw1
            b1 -= lr * gb1
            w2 -= lr * gw2
            b2 -= lr * gb2
        return step

    def torch_impl():
        td = torch_dtype(dtype)
        model = torch.nn.Sequential(torch.nn.Linear(nin, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, classes)).to(td)
        with torch.no_grad():  # nn.Linear keeps its weight as (out, in)
            model[0].weight.copy_(torch.from_numpy(init[0].T.copy()))
            model[0].bias.copy_(torch.from_numpy(init[1]))
            model[2].weight.copy_(torch.from_numpy(init[2].T.copy()))
            model[2].bias.copy_(torch.from_numpy(init[3]))
        opt = torch.optim.SGD(model.parameters(), lr=LR)
        xt, yt = torch.from_numpy(x), torch.from_numpy(y)
        state["torch"] = lambda: [model[0].weight.detach().numpy().T, model[0].bias.detach().numpy(),
                                  model[2].weight.detach().numpy().T, model[2].bias.detach().numpy()]

        def step():
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xt), yt)
            loss.backward()
            opt.step()
        return step

    def check(name, out):
        for i, (g, w) in enumerate(zip(out, ref)):
            err = close("%s parameter %d" % (name, i), g, w, tol(dtype, 2e-5, 1e-10), 1)
            if err:
                return err
        return None

    return Workload({"numpy": numpy_impl, "torch": torch_impl},
                    {k: (lambda k=k: state[k]()) for k in ("numpy", "torch")}, check)


# numexpr reads a float literal as float64, so "0.5*x" on float32 x gives
# float64 (which it will not write into a float32 out=); a numexpr user
# names such constants as float32 scalars instead, as ne_consts does.
FLOAT_LITERAL = re.compile(r"(?<![\w.])(\d+\.\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)")


def ne_consts(expr, dtype):
    """expr with each float literal replaced by a name bound, in the dict
    returned beside it, to the literal as a dtype scalar."""
    consts = {}

    def name(m):
        n = "k%d" % len(consts)
        consts[n] = dtype(float(m.group(1)))
        return n
    return FLOAT_LITERAL.sub(name, expr), consts


# (b) Black-Scholes.

def cnd_numpy(x):
    """Abramowitz and Stegun's 26.2.17, as laze's normCDF."""
    k = 1 / (1 + 0.2316419 * np.abs(x))
    poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    w = 1 - np.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi)) * poly
    return np.where(x >= 0, w, 1 - w)


CND_NE = ("where({x} >= 0, 1 - exp(-0.5*{x}*{x})*0.3989422804014327*{p}, exp(-0.5*{x}*{x})*0.3989422804014327*{p})")
POLY_NE = ("(1/(1 + 0.2316419*abs({x})))*(0.319381530 + (1/(1 + 0.2316419*abs({x})))*(-0.356563782 + "
           "(1/(1 + 0.2316419*abs({x})))*(1.781477937 + (1/(1 + 0.2316419*abs({x})))*(-1.821255978 + "
           "(1/(1 + 0.2316419*abs({x})))*1.330274429))))")


def blackscholes(dtype, rng):
    n = BS_N
    s = rng.uniform(5, 30, n).astype(dtype)
    k = rng.uniform(1, 100, n).astype(dtype)
    t = rng.uniform(0.25, 10, n).astype(dtype)
    r, v = BS_RATE, BS_VOL

    s64, k64, t64 = s.astype(np.float64), k.astype(np.float64), t.astype(np.float64)
    vt = v * np.sqrt(t64)
    d1 = (np.log(s64 / k64) + (r + v * v / 2) * t64) / vt
    d2 = d1 - vt
    erf = np.frompyfunc(math.erf, 1, 1)
    phi = lambda x: 0.5 * (1 + erf(x / math.sqrt(2)).astype(np.float64))  # noqa: E731
    disc = k64 * np.exp(-r * t64)
    ref = [s64 * phi(d1) - disc * phi(d2), disc * phi(-d2) - s64 * phi(-d1)]
    state = {}

    def numpy_impl():
        out = {}
        state["numpy"] = lambda: [out["call"], out["put"]]
        rr, vv = dtype(r), dtype(v)

        def step():
            sqrt_t = np.sqrt(t)
            d1 = (np.log(s / k) + (rr + vv * vv / 2) * t) / (vv * sqrt_t)
            d2 = d1 - vv * sqrt_t
            disc = k * np.exp(-rr * t)
            nd1, nd2 = cnd_numpy(d1), cnd_numpy(d2)
            out["call"] = s * nd1 - disc * nd2
            out["put"] = disc * (1 - nd2) - s * (1 - nd1)
        return step

    def numexpr_impl():
        call, put = np.empty(n, dtype), np.empty(n, dtype)
        d1, d2, nd1, nd2 = (np.empty(n, dtype) for _ in range(4))
        state["numexpr"] = lambda: [call, put]
        cnd1, c1 = ne_consts(CND_NE.format(x="d1", p=POLY_NE.format(x="d1")), dtype)
        cnd2, c2 = ne_consts(CND_NE.format(x="d2", p=POLY_NE.format(x="d2")), dtype)
        env = {"r": dtype(r), "v": dtype(v), "two": dtype(2), "s": s, "k": k, "t": t,
               "d1": d1, "d2": d2, "nd1": nd1, "nd2": nd2}

        def step():
            ne.evaluate("(log(s/k) + (r + v*v/two)*t) / (v*sqrt(t))", local_dict=env, out=d1)
            ne.evaluate("d1 - v*sqrt(t)", local_dict=env, out=d2)
            ne.evaluate(cnd1, local_dict=dict(c1, d1=d1), out=nd1)
            ne.evaluate(cnd2, local_dict=dict(c2, d2=d2), out=nd2)
            ne.evaluate("s*nd1 - k*exp(-r*t)*nd2", local_dict=env, out=call)
            ne.evaluate("k*exp(-r*t)*(1 - nd2) - s*(1 - nd1)", local_dict=env, out=put)
        return step

    def torch_impl():
        st, kt, tt = torch.from_numpy(s), torch.from_numpy(k), torch.from_numpy(t)
        out = {}
        state["torch"] = lambda: [out["call"].numpy(), out["put"].numpy()]
        inv_sqrt2 = 1 / math.sqrt(2)

        def cnd(x):
            return 0.5 * (1 + torch.erf(x * inv_sqrt2))

        def step():
            sqrt_t = torch.sqrt(tt)
            d1 = (torch.log(st / kt) + (r + v * v / 2) * tt) / (v * sqrt_t)
            d2 = d1 - v * sqrt_t
            disc = kt * torch.exp(-r * tt)
            nd1, nd2 = cnd(d1), cnd(d2)
            out["call"] = st * nd1 - disc * nd2
            out["put"] = disc * (1 - nd2) - st * (1 - nd1)
        return step

    def check(name, out):
        bound = tol(dtype, 3e-6, 1e-7) * (s64 + k64)
        for what, g, w in zip(("call", "put"), out, ref):
            bad = np.abs(np.asarray(g, np.float64) - w) > bound
            if bad.any():
                i = np.flatnonzero(bad)[0]
                return "%s %s: %d of %d prices differ from the closed form, first at %d: %r, want %r" % (
                    name, what, int(bad.sum()), n, i, g[i], w[i])
        return None

    return Workload({"numpy": numpy_impl, "numexpr": numexpr_impl, "torch": torch_impl},
                    {k_: (lambda k_=k_: state[k_]()) for k_ in ("numpy", "numexpr", "torch")}, check)


# (c) Layer norm, then GELU.

def layernorm_gelu(dtype, rng):
    rows, cols = LN
    x = rng.standard_normal((rows, cols)).astype(dtype)
    gamma = (1 + rng.uniform(-0.1, 0.1, cols)).astype(dtype)
    beta = rng.uniform(-0.1, 0.1, cols).astype(dtype)

    x64 = x.astype(np.float64)
    mean = x64.mean(1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + LN_EPS) * gamma + beta
    ref = [0.5 * y * (1 + np.tanh(GELU_C * (y + 0.044715 * y ** 3)))]
    state = {}

    def numpy_impl():
        out = {}
        state["numpy"] = lambda: [out["y"]]
        eps, c = dtype(LN_EPS), dtype(GELU_C)

        def step():
            mean = x.mean(1, keepdims=True)
            var = x.var(1, keepdims=True)
            y = (x - mean) / np.sqrt(var + eps) * gamma + beta
            out["y"] = 0.5 * y * (1 + np.tanh(c * (y + 0.044715 * (y * y * y))))
        return step

    def numexpr_impl():
        out = np.empty((rows, cols), dtype)
        state["numexpr"] = lambda: [out]
        expr, consts = ne_consts("0.5*((x - m)/sqrt(v + eps)*g + b)*(1 + tanh(c*(((x - m)/sqrt(v + eps)*g + b) + "
                                 "0.044715*((x - m)/sqrt(v + eps)*g + b)**3)))", dtype)
        consts.update(eps=dtype(LN_EPS), c=dtype(GELU_C), g=gamma, b=beta)

        def step():
            m = x.mean(1, keepdims=True)
            v = x.var(1, keepdims=True)
            ne.evaluate(expr, local_dict=dict(consts, x=x, m=m, v=v), out=out)
        return step

    def torch_impl():
        xt, gt, bt = torch.from_numpy(x), torch.from_numpy(gamma), torch.from_numpy(beta)
        out = {}
        state["torch"] = lambda: [out["y"].numpy()]

        def step():
            out["y"] = F.gelu(F.layer_norm(xt, (cols,), gt, bt, LN_EPS), approximate="tanh")
        return step

    def check(name, out):
        return close(name, out[0], ref[0], tol(dtype, 2e-5, 1e-10), 1)

    return Workload({"numpy": numpy_impl, "numexpr": numexpr_impl, "torch": torch_impl},
                    {k: (lambda k=k: state[k]()) for k in ("numpy", "numexpr", "torch")}, check)


# (d) Softmax cross-entropy and its gradient.

def softmax_xent(dtype, rng):
    rows, classes = XENT
    z = rng.standard_normal((rows, classes)).astype(dtype)
    y = rng.integers(0, classes, rows)
    idx = np.arange(rows)

    z64 = z.astype(np.float64)
    m = z64.max(1, keepdims=True)
    e = np.exp(z64 - m)
    s = e.sum(1, keepdims=True)
    ref_loss = np.mean(np.log(s[:, 0]) + m[:, 0] - z64[idx, y])
    ref_grad = e / s
    ref_grad[idx, y] -= 1
    ref_grad /= rows
    state = {}

    def numpy_impl():
        out = {}
        state["numpy"] = lambda: [out["loss"], out["grad"]]

        def step():
            m = z.max(1, keepdims=True)
            e = np.exp(z - m)
            s = e.sum(1, keepdims=True)
            out["loss"] = np.mean(np.log(s[:, 0]) + m[:, 0] - z[idx, y])
            g = e / s
            g[idx, y] -= 1
            g /= rows
            out["grad"] = g
        return step

    def torch_impl():
        zt = torch.from_numpy(z).requires_grad_()
        yt = torch.from_numpy(y)
        out = {}
        state["torch"] = lambda: [out["loss"].detach().numpy(), out["grad"].numpy()]

        def step():
            loss = F.cross_entropy(zt, yt)
            (g,) = torch.autograd.grad(loss, zt)
            out["loss"], out["grad"] = loss, g
        return step

    def check(name, out):
        return (close(name + " loss", out[0], ref_loss, tol(dtype, 1e-5, 1e-10), 1) or
                close(name + " gradient", out[1], ref_grad, tol(dtype, 1e-5, 1e-10), 1 / rows))

    return Workload({"numpy": numpy_impl, "torch": torch_impl},
                    {k: (lambda k=k: state[k]()) for k in ("numpy", "torch")}, check)


# (e) The k-means assignment step.

def kmeans(dtype, rng):
    n, dims, k = KM
    x = rng.random((n, dims)).astype(dtype)
    c = rng.random((k, dims)).astype(dtype)
    x64, c64 = x.astype(np.float64), c.astype(np.float64)
    d64 = (c64 * c64).sum(1) - 2 * (x64 @ c64.T)
    best = d64.min(1)
    ref = d64.argmin(1)
    state = {}

    def numpy_impl():
        out = {}
        state["numpy"] = lambda: [out["labels"]]

        def step():
            d = x @ c.T
            d *= -2
            d += (c * c).sum(1)
            out["labels"] = d.argmin(1)
        return step

    def torch_impl():
        xt, ct = torch.from_numpy(x), torch.from_numpy(c)
        out = {}
        state["torch"] = lambda: [out["labels"].numpy()]

        def step():
            d = (ct * ct).sum(1) - 2 * (xt @ ct.T)
            out["labels"] = d.argmin(1)
        return step

    def check(name, out):
        got = np.asarray(out[0])
        if got.shape != (n,) or got.min() < 0 or got.max() >= k:
            return "%s: labels of shape %s outside [0, %d)" % (name, got.shape, k)
        # A nearest centroid within rounding: float32's product may order
        # two near ties the other way.
        over = d64[np.arange(n), got] - best
        bad = over > tol(dtype, 1e-5, 1e-12) * dims
        if bad.any():
            i = np.flatnonzero(bad)[0]
            return "%s: point %d assigned to %d, %r farther than the nearest, %d" % (name, i, got[i], over[i], ref[i])
        if (got == ref).sum() < n * 99 // 100:
            return "%s: only %d of %d points assigned as the reference assigns them" % (name, (got == ref).sum(), n)
        return None

    return Workload({"numpy": numpy_impl, "torch": torch_impl},
                    {k_: (lambda k_=k_: state[k_]()) for k_ in ("numpy", "torch")}, check)


# The row pieces: one op over a 4096x1000 standard normal matrix,
# elementwise or along axis 1, as each library's user writes it.

PIECE = (4096, 1000)


def _softmax_np(x):
    e = np.exp(x - x.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _logsumexp_np(x):
    m = x.max(1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(1, keepdims=True)))[:, 0]


ROW_PIECES = {
    # name: (NumPy, PyTorch)
    "row-exp": (np.exp, lambda t: torch.exp(t)),
    "row-tanh": (np.tanh, lambda t: torch.tanh(t)),
    "row-log": (np.log, lambda t: torch.log(t)),  # of |x|: the input is made positive first
    "row-sigmoid": (lambda x: 1 / (1 + np.exp(-x)), lambda t: torch.sigmoid(t)),
    "row-max": (lambda x: x.max(1), lambda t: torch.amax(t, 1)),
    "row-min": (lambda x: x.min(1), lambda t: torch.amin(t, 1)),
    "row-sum": (lambda x: x.sum(1), lambda t: torch.sum(t, 1)),
    # indices, compared as floats with the float64 reference's (ties are improbable in normal data)
    "row-argmax": (lambda x: x.argmax(1), lambda t: torch.argmax(t, 1)),
    "row-logsumexp": (_logsumexp_np, lambda t: torch.logsumexp(t, 1)),
    "row-softmax": (_softmax_np, lambda t: torch.softmax(t, 1)),
    "row-var": (lambda x: x.var(1), lambda t: torch.var(t, 1, unbiased=False)),
}


def row_piece(name):
    np_fn, torch_fn = ROW_PIECES[name]

    def build(dtype, rng):
        x = rng.standard_normal(PIECE).astype(dtype)
        if name == "row-log":
            x = np.abs(x)
        ref = [np_fn(x.astype(np.float64))]
        state = {}

        def numpy_impl():
            out = {}
            state["numpy"] = lambda: [out["y"]]

            def step():
                out["y"] = np_fn(x)
            return step

        def torch_impl():
            xt = torch.from_numpy(x)
            out = {}
            state["torch"] = lambda: [out["y"].numpy()]

            def step():
                out["y"] = torch_fn(xt)
            return step

        def check(impl, out):
            return close(impl, out[0], ref[0], tol(dtype, 1e-5, 1e-12), 1)

        return Workload({"numpy": numpy_impl, "torch": torch_impl},
                        {k: (lambda k=k: state[k]()) for k in ("numpy", "torch")}, check)
    return build


BUILDERS = {"mlp": mlp, "blackscholes": blackscholes, "layernorm-gelu": layernorm_gelu,
            "softmax-xent": softmax_xent, "kmeans": kmeans}
BUILDERS.update({name: row_piece(name) for name in ROW_PIECES})


def blas_library():
    """The BLAS NumPy's products run on, from this process's mappings."""
    np.ones((2, 2)) @ np.ones((2, 2))
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "blas" in os.path.basename(path) and "lapack" not in path:
                    return os.path.realpath(path)
    except OSError:
        pass
    return "unknown"


def main():
    args = ARGS
    for w in args.workloads.split(","):
        if w not in BUILDERS:
            sys.exit("workloads.py: unknown workload %r (workloads: %s)" % (w, ", ".join(WORKLOADS)))
    impls = args.impls.split(",")
    out = sys.stdout
    print("pkg: github.com/laze-go/laze/bench/peers", file=out)
    print("cpu: %s" % cpu_name(), file=out)
    print("python: %s" % platform.python_version(), file=out)
    print("numpy: %s" % np.__version__, file=out)
    print("blas: %s" % blas_library(), file=out)
    if torch is None:
        print("torch: missing", file=out)
        print("workloads.py: warning: PyTorch is missing (`make bench-deps` installs python3-torch); no torch figures",
              file=sys.stderr)
        impls = [im for im in impls if im != "torch"]
    else:
        torch.set_num_threads(args.threads)
        print("torch: %s" % torch.__version__, file=out)
        print("torch-threads: %d" % torch.get_num_threads(), file=out)
    if ne is None:
        print("numexpr: missing", file=out)
        impls = [im for im in impls if im != "numexpr"]
    else:
        ne.set_num_threads(args.threads)
        print("numexpr: %s" % ne.__version__, file=out)
    out.flush()

    failed = False
    rng = np.random.default_rng(29)
    for name in args.workloads.split(","):
        for dt in args.dtypes.split(","):
            w = BUILDERS[name](np.dtype(dt).type, rng)
            for impl in impls:
                if impl not in w.impls:
                    continue  # numexpr where it does not apply
                try:
                    w.impls[impl]()()  # a fresh copy: run once, then check
                    err = w.check(impl, w.result[impl]())
                except Exception as e:  # a peer that cannot run is skipped, not fatal
                    err = "%s: %s: %s" % (impl, type(e).__name__, e)
                if err:
                    print("workloads.py: not timed: %s/%s: %s" % (name, dt, err), file=sys.stderr)
                    failed = True
                    continue
                step = w.impls[impl]()
                gc.disable()
                try:
                    iters, sec = measure(step, args.benchtime)
                finally:
                    gc.enable()
                print("BenchmarkWorkload/%s/%s/%s-%d \t%8d\t%12.1f ns/op" % (
                    name, dt, impl, args.threads, iters, sec / iters * 1e9), file=out)
                out.flush()
            del w
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
