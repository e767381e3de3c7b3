#!/usr/bin/env bash
# Installs the peers' dependencies for `make bench-report` from Debian's
# packages, unless Debian's python (/usr/bin/python3) already imports them:
# python3-numpy and python3-numexpr for the elementwise peers
# (bench/peers/peers.py), python3-torch (PyTorch, CPU) for the workloads'
# (bench/peers/workloads.py), and libopenblas0-pthread unless the system's
# BLAS (libblas.so.3) already is OpenBLAS: Debian's NumPy and PyTorch both
# call libblas.so.3 for their products, and without OpenBLAS that is the
# reference BLAS, ten times slower or more, which would make the workloads'
# products a comparison with nobody's real setup. `make bench-deps` runs it.
# Needs root or sudo. It never fails the build: where a package cannot be
# installed (python3-torch is large and not built for every architecture) it
# warns, and the peers then run with what there is (NumPy alone, or nothing),
# which the report says.
set -uo pipefail
py=${PYTHON:-/usr/bin/python3}

has() { "$py" -c "import $1" >/dev/null 2>&1; }
# openblas: whether the libblas.so.3 the dynamic linker finds is OpenBLAS
# (Debian's alternatives point it at the highest-priority BLAS installed).
openblas() {
	local lib
	lib=$(ldconfig -p 2>/dev/null | awk '$1 == "libblas.so.3" { print $NF; exit }')
	[ -n "$lib" ] && readlink -f "$lib" | grep -q openblas
}

want=()
has numpy || want+=(python3-numpy)
has numexpr || want+=(python3-numexpr)
has torch || want+=(python3-torch)
openblas || want+=(libopenblas0-pthread)
if [ ${#want[@]} -eq 0 ]; then
	echo "bench-deps: NumPy, numexpr, PyTorch and OpenBLAS present ($("$py" -c 'import numpy, numexpr, torch; print("numpy", numpy.__version__, "numexpr", numexpr.__version__, "torch", torch.__version__)'))"
	exit 0
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=sudo
	else
		echo "bench-deps: warning: not root and no sudo; cannot install ${want[*]}" >&2
		exit 0
	fi
fi
install() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"; }
# One package at a time, so that NumPy still comes when numexpr or torch
# cannot.
for pkg in "${want[@]}"; do
	install "$pkg" || { $sudo apt-get update && install "$pkg"; } ||
		echo "bench-deps: warning: could not install $pkg; bench-report runs without it" >&2
done
# A package can install and still not import (a missing shared library);
# say so rather than let the run find out.
for mod in numpy numexpr torch; do
	has "$mod" || echo "bench-deps: warning: $py cannot import $mod; bench-report runs without it" >&2
done
openblas || echo "bench-deps: warning: libblas.so.3 is not OpenBLAS; NumPy's and PyTorch's products run on it as it is" >&2
exit 0
