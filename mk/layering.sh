#!/bin/sh
# layering.sh [ROOT]: the include rules of src/ and ui/ (make check-layering).
#
# A module is x.c with its x.h (the path without its extension).  An
# include "a/b.h" is found as the build finds it: next to the includer,
# then under src/, then under ui/ (-Isrc -Iui); system headers are skipped.
# Refused, each with the includes that make it:
#  (a) a cycle between modules (x includes y, which includes ... x);
#  (b) an include from a lower layer to a higher one.
# A module's layer is the longest prefix of its path in the table below,
# lowest first; modules of one layer may include each other (without a
# cycle).  ALLOW lists declared exceptions to (b), CYCLE_OK includes left
# out of (a), each "from to" modules; both are meant to be empty.
# POSIX sh, sed and awk only.  Exit 0 when clean, 1 with one line per fault.
set -u
ROOT=${1:-.}
cd "$ROOT" || exit 2

LAYERS='
1  base      src/base/
2  net       src/net/
3  state     src/state/
4  rules     src/rules/
5  json      src/json/
6  api       src/api/
7  flow      src/flow/
8  poll      src/poll/
9  dump      src/dump/
10 uikit     ui/draw ui/theme ui/keymap ui/layout ui/clip ui/history ui/command ui/complete ui/external
11 widgets   ui/widgets/
12 shell     ui/
13 views     ui/views/
14 main      ui/main
'
# The view registry (ui/view.c, VIEWS()) reaches the views through the
# extern declarations that macro makes, not by an include: no exception.
ALLOW='
'
# None: struct app is app_state.h's (which includes neither view.h nor
# app.h), and the app reaches the 2FA prompt through a->needs_tfa.
CYCLE_OK='
'

files=$(find src ui -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "layering: no src/ or ui/ under $ROOT" >&2; exit 2; }

# "includer included" pairs, as found on disk (paths from ROOT).
edges=$(for f in $files; do
	d=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r inc; do
		if [ -f "$d/$inc" ]; then t="$d/$inc"
		elif [ -f "src/$inc" ]; then t="src/$inc"
		elif [ -f "ui/$inc" ]; then t="ui/$inc"
		else continue; fi
		echo "$f $t"
	done
done)

printf '%s\n' "$edges" | awk -v layers="$LAYERS" -v allow="$ALLOW" -v cycok="$CYCLE_OK" '
function modof(p) { sub(/\.[ch]$/, "", p); sub(/^\.\//, "", p); return p }
function layerof(m,   i, best, bl) {
	best = 0; bl = -1
	for (i = 1; i <= np; i++)
		if (index(m, pfx[i]) == 1 && length(pfx[i]) > bl) { bl = length(pfx[i]); best = prank[i] }
	return best
}
function dfs(u,   k, v, i, s) {
	color[u] = 1; stack[++depth] = u
	for (k = 1; k <= nout[u]; k++) {
		v = out[u, k]
		if (color[v] == 1) {
			s = v
			for (i = depth; i >= 1 && stack[i] != v; i--) ;
			for (i++; i <= depth; i++) s = s " -> " stack[i]
			print "layering: include cycle: " s " -> " v " (" via[u, v] ")"
			bad++
		} else if (color[v] == 0)
			dfs(v)
	}
	depth--; color[u] = 2
}
BEGIN {
	n = split(layers, ln, "\n")
	for (i = 1; i <= n; i++) {
		c = split(ln[i], w, " ")
		if (c < 3) continue
		lname[w[1] + 0] = w[2]
		for (j = 3; j <= c; j++) { np++; pfx[np] = w[j]; prank[np] = w[1] + 0 }
	}
	n = split(allow, ln, "\n")
	for (i = 1; i <= n; i++) if (split(ln[i], w, " ") == 2) ok[w[1], w[2]] = 1
	n = split(cycok, ln, "\n")
	for (i = 1; i <= n; i++) if (split(ln[i], w, " ") == 2) nocycle[w[1], w[2]] = 1
}
NF == 2 {
	a = modof($1); b = modof($2)
	if (a == b) next
	if (!((a, b) in seen) && !((a, b) in nocycle)) {
		seen[a, b] = 1; out[a, ++nout[a]] = b; via[a, b] = $1 " includes " $2
		if (!(a in isnode)) { isnode[a] = 1; nodes[++nn] = a }
		if (!(b in isnode)) { isnode[b] = 1; nodes[++nn] = b }
	}
	la = layerof(a); lb = layerof(b)
	if (la == 0) {
		if (!($1 in nolayer)) { nolayer[$1] = 1; print "layering: " $1 " is in no layer (mk/layering.sh)"; bad++ }
	}
	else if (la < lb && !((a, b) in ok)) {
		print "layering: " $1 " (" lname[la] ") includes " $2 " (" lname[lb] "), a higher layer"
		bad++
	}
}
END {
	for (i = 1; i <= nn; i++) if (color[nodes[i]] == 0) dfs(nodes[i])
	exit bad > 0
}'
