#!/usr/bin/env bash
# Installs the CUDA headers, NVRTC and the driver stub library from Debian's
# non-free component, unless they are already there. `make cuda-deps` runs it.
# Needs root (or sudo); about 1.5 GB to download the first time.
set -euo pipefail

# missing prints each header or library that cgo cannot find, asking the C
# toolchain itself (so the answer is the one `go build -tags cuda` will get).
# It avoids `ldconfig -p | grep -q`: under pipefail that pipeline fails now and
# then, when grep exits at its first match and ldconfig dies of SIGPIPE.
missing() {
	local header lib
	for header in cuda.h nvrtc.h; do
		echo "#include <${header}>" | gcc -E -x c - >/dev/null 2>&1 || echo "${header}"
	done
	for lib in libcuda.so libnvrtc.so; do
		[ "$(gcc -print-file-name="${lib}")" != "${lib}" ] || echo "${lib}"
	done
}

have() {
	[ -z "$(missing)" ]
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
if ! have; then
	echo "cuda-deps: installed, but still missing:" $(missing) >&2
	exit 1
fi
echo "cuda-deps: installed nvidia-cuda-dev and libcuda1"
