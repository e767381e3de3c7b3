#!/usr/bin/env bash
# Installs the peers' dependencies for `make bench-report` from Debian's
# packages, unless Debian's python (/usr/bin/python3) already imports them:
# python3-numpy and python3-numexpr. `make bench-deps` runs it. Needs root
# or sudo. It never fails the build: where a package cannot be installed it
# warns, and bench/peers/peers.py then runs with what there is (NumPy alone,
# or nothing), which the report says.
set -uo pipefail
py=${PYTHON:-/usr/bin/python3}

has() { "$py" -c "import $1" >/dev/null 2>&1; }

want=()
has numpy || want+=(python3-numpy)
has numexpr || want+=(python3-numexpr)
if [ ${#want[@]} -eq 0 ]; then
	echo "bench-deps: NumPy and numexpr present ($("$py" -c 'import numpy, numexpr; print("numpy", numpy.__version__, "numexpr", numexpr.__version__)'))"
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
# One package at a time, so that NumPy still comes when numexpr cannot.
for pkg in "${want[@]}"; do
	install "$pkg" || { $sudo apt-get update && install "$pkg"; } ||
		echo "bench-deps: warning: could not install $pkg; bench-report runs without it" >&2
done
exit 0
