#!/usr/bin/env bash
# Installs qemu-aarch64 (QEMU's user-mode emulator, Debian's qemu-user
# package) unless it is already there. `make qemu-deps` runs it; `make
# test-arm64` runs the arm64 test binaries under it explicitly, so neither
# binfmt_misc nor qemu-user-static is needed. Needs root (or sudo) the first
# time; about 20 MB to download.
set -euo pipefail

if command -v qemu-aarch64 >/dev/null 2>&1; then
	echo "qemu-deps: $(qemu-aarch64 --version | head -n 1)"
	exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi

$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends qemu-user >/dev/null
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	echo "qemu-deps: installed qemu-user, but qemu-aarch64 is still missing" >&2
	exit 1
fi
echo "qemu-deps: installed qemu-user ($(qemu-aarch64 --version | head -n 1))"
