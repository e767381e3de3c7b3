#!/bin/sh
# ufuncs_interleave.sh BIN OUT [avx2] [names...]: bench/ufunc_test.go's
# BenchmarkUfunc alternated with bench/peers/ufuncs.py, function by
# function, two rounds, one core, the two sides timed alike (laze 7 runs of
# 10 calls after one untimed, NumPy the best of 7 × 10). BIN is the bench
# test binary (go test -c -o BIN ./bench); laze's lines go to OUT.laze and
# NumPy's to OUT.np; `bench/peers/ufuncs_min.sh OUT.laze OUT.np` prints the
# table. With avx2, laze runs at LAZE_CPU=avx2 and NumPy with its AVX-512
# paths disabled.
set -e
BIN=$1; OUT=$2; shift 2
MODE=avx512
if [ "$1" = avx2 ]; then MODE=avx2; shift; fi
NAMES=${*:-exp log sin cos tanh log10 log2 cosh sinh exp2 expm1 log1p tan arctan arcsin arccos arcsinh arccosh arctanh cbrt power arctan2 hypot logaddexp logaddexp2}
PEER=$(dirname "$0")/ufuncs.py
: > "$OUT.laze"; : > "$OUT.np"
for round in 1 2; do
  for n in $NAMES; do
    if [ $MODE = avx2 ]; then
      LAZE_CPU=avx2 "$BIN" -test.run XXX -test.bench "Ufunc/$n/" -test.cpu 1 -test.benchtime 10x -test.count 7 >> "$OUT.laze"
      NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL" /usr/bin/python3 "$PEER" "$n" >> "$OUT.np"
    else
      "$BIN" -test.run XXX -test.bench "Ufunc/$n/" -test.cpu 1 -test.benchtime 10x -test.count 7 >> "$OUT.laze"
      /usr/bin/python3 "$PEER" "$n" >> "$OUT.np"
    fi
  done
done
