#!/usr/bin/env bash
# Installs the CUDA headers, NVRTC and the driver stub library from Debian's
# non-free component, unless they are already there. `make cuda-deps` runs it.
# Needs root (or sudo); about 1.5 GB to download the first time. The apt
# entry for contrib and non-free takes its mirrors, suites and key from the
# machine's own Debian entry (see cuda_sources); CUDA_DEPS_DRY_RUN=1 prints
# that entry and does nothing else.
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

# deb822_entries prints, for each enabled `Types: deb` stanza of the deb822
# file $1 whose Components lack contrib or non-free, a stanza with the same
# URIs, Suites and Signed-By (a path or an embedded key, kept as written)
# and `Components: contrib non-free`. It exits 3 when the file has no deb
# stanza at all.
deb822_entries() {
	awk '
	function has(list, word) { return (" " list " ") ~ ("[ \t]" word "[ \t]") }
	function flush() {
		if (has(types, "deb") && tolower(enabled) != "no" && uris != "" && suites != "") {
			found = 1
			if (!(has(comps, "contrib") && has(comps, "non-free"))) {
				gsub(/[ \t]+/, " ", uris)
				gsub(/[ \t]+/, " ", suites)
				printf "%sTypes: deb\nURIs:%s\nSuites:%s\nComponents: contrib non-free\n", sep, uris, suites
				if (signed != "")
					printf "Signed-By:%s\n", signed
				sep = "\n"
			}
		}
		types = uris = suites = comps = enabled = signed = field = ""
	}
	/^#/ { next }
	/^[ \t]*$/ { flush(); next }
	/^[ \t]/ {
		if (field == "signed-by") signed = signed "\n" $0
		else if (field == "uris") uris = uris " " $0
		else if (field == "suites") suites = suites " " $0
		else if (field == "components") comps = comps " " $0
		next
	}
	{
		field = tolower(substr($0, 1, index($0, ":") - 1))
		value = substr($0, index($0, ":") + 1)
		if (field == "types") types = value
		else if (field == "uris") uris = value
		else if (field == "suites") suites = value
		else if (field == "components") comps = value
		else if (field == "enabled") { enabled = value; gsub(/[ \t]/, "", enabled) }
		else if (field == "signed-by") signed = value
	}
	END { flush(); exit found ? 0 : 3 }
	' "$1"
}

# one_line_entries does as deb822_entries for the one-line format of
# sources.list: `deb [signed-by=KEY arch=…] URI SUITE COMPONENT…`.
one_line_entries() {
	awk '
	function has(list, word) { return (" " list " ") ~ ("[ \t]" word "[ \t]") }
	$1 == "deb" {
		i = 2; signed = ""
		if ($2 ~ /^\[/) {
			opts = ""
			for (; i <= NF; i++) {
				opts = opts " " $i
				if ($i ~ /\]$/) { i++; break }
			}
			if (match(opts, /signed-by=[^] \t]+/))
				signed = substr(opts, RSTART + 10, RLENGTH - 10)
		}
		if (i + 1 > NF)
			next
		found = 1
		comps = ""
		for (j = i + 2; j <= NF && $j !~ /^#/; j++)
			comps = comps " " $j
		if (has(comps, "contrib") && has(comps, "non-free"))
			next
		printf "%sTypes: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\n", sep, $i, $(i + 1)
		if (signed != "")
			printf "Signed-By: %s\n", signed
		sep = "\n"
	}
	END { exit found ? 0 : 3 }
	' "$1"
}

# cuda_sources prints the apt sources entry that adds contrib and non-free
# for the mirrors and suites the machine's own Debian entry names
# (/etc/apt/sources.list.d/debian.sources, else the one-line
# /etc/apt/sources.list), so that it works behind any mirror; nothing when
# they are there already. It fails when the machine has no Debian entry.
# CUDA_DEPS_DEB822 and CUDA_DEPS_SOURCES_LIST name other files to read.
cuda_sources() {
	local deb822="${CUDA_DEPS_DEB822:-/etc/apt/sources.list.d/debian.sources}"
	local list="${CUDA_DEPS_SOURCES_LIST:-/etc/apt/sources.list}"
	local status=0
	if [ -f "$deb822" ]; then
		deb822_entries "$deb822" || status=$?
		[ "$status" -ne 0 ] || return 0
		[ "$status" -eq 3 ] || return "$status"
	fi
	if [ -f "$list" ]; then
		status=0
		one_line_entries "$list" || status=$?
		[ "$status" -ne 0 ] || return 0
		[ "$status" -eq 3 ] || return "$status"
	fi
	echo "cuda-deps: no Debian apt sources entry in $deb822 or $list to take the mirror from;" \
		"enable contrib and non-free yourself and install nvidia-cuda-dev and libcuda1" >&2
	return 1
}

# CUDA_DEPS_DRY_RUN=1 prints the sources entry the script would write and
# stops, touching nothing.
if [ -n "${CUDA_DEPS_DRY_RUN:-}" ]; then
	cuda_sources
	exit
fi

if have; then
	echo "cuda-deps: CUDA headers, NVRTC and libcuda are installed"
	exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi

list=/etc/apt/sources.list.d/laze-cuda.sources
entry="$(cuda_sources)"
if [ -n "$entry" ]; then
	# Written each time, so an entry from an earlier run follows the
	# machine's mirror if it changed.
	printf '%s\n' "$entry" | $sudo tee "$list" >/dev/null
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-dev libcuda1 >/dev/null
if ! have; then
	echo "cuda-deps: installed, but still missing:" $(missing) >&2
	exit 1
fi
echo "cuda-deps: installed nvidia-cuda-dev and libcuda1"
