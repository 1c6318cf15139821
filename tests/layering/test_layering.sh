#!/bin/sh
# test_layering.sh: mk/layering.sh refuses what it says it refuses.  Each
# case builds a small tree in a temporary directory and runs the script on
# it; the last runs it on the real tree.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SCRIPT=$SRCDIR/mk/layering.sh
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
n=0

# mod PATH [INCLUDE...]: PATH.c and PATH.h, the .c including its own header and the others
mod() {
	p=$1; shift
	mkdir -p "$T/tree/$(dirname "$p")"
	printf '#ifndef X\n#define X\n#endif\n' >"$T/tree/$p.h"
	{ echo "#include \"${p#*/}.h\""; for i in "$@"; do echo "#include \"$i\""; done
	  echo '#include <stdio.h>'; } >"$T/tree/$p.c"
}
fresh() {
	rm -rf "$T/tree"
	mod src/base/util
	mod src/net/http base/util.h
	mod src/state/model base/util.h
	mod ui/app state/model.h
	mod ui/views/x/pane_x app.h
	mod ui/main app.h views/x/pane_x.h
}
# check NAME WANT_RC PATTERN: run the script on the tree
check() {
	n=$((n + 1))
	out=$(sh "$SCRIPT" "$T/tree" 2>&1); rc=$?
	if [ "$2" -eq 0 ] && [ "$rc" -eq 0 ]; then
		echo "ok $n - $1"
	elif [ "$2" -ne 0 ] && [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q "$3"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1 (exit $rc)"; printf '%s\n' "$out" | sed 's/^/# /'
	fi
}

fresh
check "a tree whose includes go down passes" 0 ""

fresh; echo '#include "net/http.h"' >>"$T/tree/src/base/util.c"
check "an include from base up to net is refused" 1 "src/base/util.c (base) includes src/net/http.h (net), a higher layer"

fresh; echo '#include "views/x/pane_x.h"' >>"$T/tree/ui/app.h"
check "the shell including a view is refused" 1 "ui/app.h (shell) includes ui/views/x/pane_x.h (views)"

fresh; mod src/state/money state/model.h; echo '#include "state/money.h"' >>"$T/tree/src/state/model.c"
check "a cycle inside one layer (model <-> money) is refused" 1 "include cycle: src/state/.* -> src/state/.* -> src/state/"

fresh; mod src/state/a state/b.h; mod src/state/b state/c.h; mod src/state/c state/a.h
check "a cycle of three modules is refused" 1 "include cycle: src/state/a -> src/state/b -> src/state/c -> src/state/a"

fresh; mod src/nowhere/x base/util.h
check "a module in no declared layer is refused" 1 "src/nowhere/x.c is in no layer"

fresh; echo '#include "util.h"' >>"$T/tree/src/base/util.c"; echo '#include <net/http.h>' >>"$T/tree/src/base/util.c"
check "an include next to the includer is itself; <...> is not followed" 0 ""

n=$((n + 1))
if out=$(sh "$SCRIPT" "$SRCDIR" 2>&1); then echo "ok $n - the rentop tree keeps its layers and has no include cycle"
else echo "not ok $n - the rentop tree breaks its layers"; printf '%s\n' "$out" | sed 's/^/# /'; fi
