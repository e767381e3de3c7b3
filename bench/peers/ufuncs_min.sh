#!/bin/sh
# ufuncs_min.sh OUT.laze OUT.np: the minimum of each side per function and
# dtype (ns per element) and NumPy/laze, as a Markdown table, and how many
# rows have laze at least as fast.
awk 'NR==FNR { if ($1 ~ /^BenchmarkUfunc\//) { split($1, a, "/"); sub(/-[0-9]+$/, "", a[3]); k = a[2] "/" a[3]; v = $3 / 1e6; if (!(k in l) || v < l[k]) l[k] = v }; next }
     { split($1, b, "/"); k = b[1] "/" b[2]; n = $2 / 1e6; if (!(k in m) || n < m[k]) m[k] = n; if (!(k in seen)) { seen[k] = 1; order[++no] = k } }
     END { ok = 0; print "| function | dtype | laze | NumPy | NumPy/laze |"; print "|---|---|---|---|---|";
           for (i = 1; i <= no; i++) { k = order[i]; if (k in l) { split(k, c, "/"); r = m[k] / l[k]; if (r >= 1) ok++; printf "| %s | %s | %.3f | %.3f | %.2f× |\n", c[1], c[2], l[k], m[k], r } }
           printf "laze >= NumPy at %d of %d\n", ok, no }' "$1" "$2"
