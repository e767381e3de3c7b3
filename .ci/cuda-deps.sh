#!/usr/bin/env bash
# Installs the CUDA headers, NVRTC and the driver stub library from Debian's
# non-free component, unless they are already there. `make cuda-deps` runs it.
# Needs root (or sudo); about 1.5 GB to download the first time.
set -euo pipefail

have() {
	[ -f /usr/include/cuda.h ] && [ -f /usr/include/nvrtc.h ] &&
		ldconfig -p | grep -q 'libnvrtc\.so' && ldconfig -p | grep -q 'libcuda\.so'
}

if have; then
	echo "cuda-deps: CUDA headers, NVRTC and libcuda are installed"
	exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi

list=/etc/apt/sources.list.d/laze-cuda.sources
if [ ! -f "$list" ]; then
	. /etc/os-release
	$sudo tee "$list" >/dev/null <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: ${VERSION_CODENAME} ${VERSION_CODENAME}-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-dev libcuda1 >/dev/null
have || { echo "cuda-deps: installed, but cuda.h, nvrtc.h, libnvrtc or libcuda is still missing" >&2; exit 1; }
echo "cuda-deps: installed nvidia-cuda-dev and libcuda1"
