#!/bin/sh
# Run test suites from one build directory and print TAP-style result lines.
#
#   tests/run.sh BUILD_DIR [suite ...]      suites: layering unit contract integ e2e fuzz
#
# fuzz (not in the default list): every libFuzzer target for FUZZ_SECONDS
# (default 20) each, from the corpus in tests/fuzz/corpus/ (tests/fuzz/run.sh).
#
# Every test program or script prints "ok ..." / "not ok ..." lines (cmocka via
# CMOCKA_MESSAGE_OUTPUT=TAP; the shell suites by hand).  This script prefixes
# each with its suite, records a "not ok" for a program that dies without
# saying so, and appends everything to $RESULTS (default BUILD_DIR/results.tap).
# Environment given to every test: RENTOP, RENTOP_SIM, BUILD_DIR, SRCDIR.
set -u
O=${1:?usage: tests/run.sh BUILD_DIR [suite ...]}; shift
[ $# -gt 0 ] || set -- layering unit contract integ e2e
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
O=$(cd "$O" && pwd)
LABEL=${LABEL:-$(basename "$O")}
RESULTS=${RESULTS:-$O/results.tap}
LOGS=$O/test-logs
mkdir -p "$LOGS"
export RENTOP="${RENTOP:-$O/rentop}" RENTOP_SIM="${RENTOP_SIM:-$O/rentop-sim}" BUILD_DIR="$O" SRCDIR
export CMOCKA_MESSAGE_OUTPUT=TAP
TEST_TIMEOUT=${TEST_TIMEOUT:-600}

# The scripts call python3 hundreds of times (the simulator's state, JSON).
# Behind a version manager's shim (pyenv: a bash script that runs ~40 programs
# per call) that was a third of their CPU: put the interpreter itself first.
real_py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || real_py=
if [ -n "$real_py" ] && [ -x "$real_py" ]; then
    mkdir -p "$O/test-bin" && ln -sf "$real_py" "$O/test-bin/python3" && PATH="$O/test-bin:$PATH"
    export PATH
fi

# run_one SUITE NAME CMD...: run CMD, keep its log, emit its ok/not ok lines.
run_one() {
    suite=$1 name=$2; shift 2
    log="$LOGS/$suite-$name.log"
    start=$(date +%s)
    timeout -k 10 "$TEST_TIMEOUT" "$@" >"$log" 2>&1 </dev/null
    rc=$?
    secs=$(( $(date +%s) - start ))
    oks=$(grep -cE '^ok( |$)' "$log")
    bad=$(grep -cE '^not ok( |$)' "$log")
    grep -E '^(not )?ok( |$)' "$log" | sed "s|^\(not \)*ok|&|; s|^|[$LABEL/$suite/$name] |" | tee -a "$RESULTS"
    if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
        echo "[$LABEL/$suite/$name] not ok - $name exited with status $rc (log: $log)" | tee -a "$RESULTS"
        tail -n 15 "$log" | sed 's/^/    # /'
    elif [ "$oks" -eq 0 ] && [ "$bad" -eq 0 ]; then
        echo "[$LABEL/$suite/$name] not ok - $name ran no test (log: $log)" | tee -a "$RESULTS"
    elif [ "$bad" -gt 0 ]; then
        grep -E '^#|^not ok' "$log" | head -n 30 | sed 's/^/    /'
    fi
    echo "    ($suite/$name: ${secs}s)"
}

# The test programs and scripts mostly wait (on tmux, the simulator's clock,
# refresh intervals), so TEST_JOBS of them (default 4) run side by side from one
# queue: each has its own tmux server, simulator port and temporary directory.
# A worker takes the next item by creating its claim directory (mkdir is
# atomic); the longest kinds go first (end-to-end scripts, biggest first, then
# the integration scripts, contract and unit programs).  The output of each is
# printed whole at the end, suite by suite in name order.  ONLY_E2E (names
# without test_ and .sh) narrows the end-to-end scripts to a list.
POOL=$LOGS/pool; rm -rf "$POOL"; mkdir -p "$POOL"
: >"$POOL/queue"
want_e2e() {
    [ -z "${ONLY_E2E:-}" ] && return 0
    for w in $ONLY_E2E; do [ "test_$w" = "$1" ] && return 0; done
    return 1
}
# A cmocka binary whose tests mostly wait (on a simulator, on the clock) runs
# as two items side by side: part a the tests whose names match a glob
# (TEST_FILTER, cmocka's test filter), part b all the others (TEST_SKIP), so
# every test runs once whatever its name.  UNIT_SPLIT: BINARY=GLOB ...;
# test_poller's *d (paced, debounced, cancelled, reread, matched) is about
# half of its minute.
UNIT_SPLIT=${UNIT_SPLIT-"test_poller=*d"}
split_glob() {
    [ "$1" = unit ] || return 0
    set -f
    for u in $UNIT_SPLIT; do
        [ "${u%%=*}" = "$2" ] && printf '%s\n' "${u#*=}"
    done
    set +f
}
for suite in "$@"; do
    case $suite in
    layering)
        if grep -rlE '#include *[<"](n?curses|ncursesw/|term\.h|panel\.h)' "$SRCDIR/src" >/dev/null 2>&1; then
            echo "[$LABEL/layering] not ok - src/ includes curses" | tee -a "$RESULTS"
        else
            echo "[$LABEL/layering] ok - src/ has no curses include" | tee -a "$RESULTS"
        fi
        if sh "$SRCDIR/mk/layering.sh" "$SRCDIR" >"$LOGS/layering.log" 2>&1; then
            echo "[$LABEL/layering] ok - includes go down the layers of mk/layering.sh, no cycle" | tee -a "$RESULTS"
        else
            echo "[$LABEL/layering] not ok - include layers or cycles (log: $LOGS/layering.log)" | tee -a "$RESULTS"
            sed 's/^/    # /' "$LOGS/layering.log"
        fi
        echo "layering test_layering sh $SRCDIR/tests/layering/test_layering.sh" >>"$POOL/queue" ;;
    unit|contract)
        for bin in "$O/tests/$suite"/test_*; do
            [ -x "$bin" ] || continue
            n=$(basename "$bin")
            glob=$(split_glob "$suite" "$n")
            if [ -n "$glob" ]; then
                echo "$suite $n.a env TEST_FILTER=$glob $bin" >>"$POOL/queue"
                echo "$suite $n.b env TEST_SKIP=$glob $bin" >>"$POOL/queue"
            else
                echo "$suite $n $bin" >>"$POOL/queue"
            fi
        done ;;
    integ|e2e)
        for sh in "$SRCDIR/tests/$suite"/test_*.sh; do
            [ -f "$sh" ] || continue
            n=$(basename "$sh" .sh)
            [ "$suite" = e2e ] && ! want_e2e "$n" && continue
            echo "$suite $n sh $sh" >>"$POOL/queue"
        done
        # LIVE_E2E: scripts run a second time against rentop-sim --dialect live
        # (the documented live forms), as items of their own
        if [ "$suite" = e2e ]; then
            for n in ${LIVE_E2E-table actions offers create tfa bulk_batch templates}; do
                sh="$SRCDIR/tests/e2e/test_$n.sh"
                [ -f "$sh" ] && want_e2e "test_$n" || continue
                echo "e2e live-test_$n env SIM_DIALECT=live sh $sh" >>"$POOL/queue"
            done
        fi ;;
    fuzz)   # one item: the targets one after another (tests/fuzz/run.sh), CPU-bound,
            # so it goes first and overlaps the waiting scripts
        echo "fuzz targets env FUZZ_OUT=$O/fuzz FUZZ_SECONDS=${FUZZ_SECONDS:-20} sh $SRCDIR/tests/fuzz/run.sh" >>"$POOL/queue" ;;
    *) echo "tests/run.sh: unknown suite $suite" >&2; exit 2 ;;
    esac
done
# the order taken: fuzz, the split unit binaries (split for being long),
# e2e by size (a fair guess at duration; the script is the item's last
# word), then integ, contract, unit, layering
{
    grep '^fuzz ' "$POOL/queue"
    grep -E '^unit [^ ]+\.[ab] ' "$POOL/queue"
    grep '^e2e ' "$POOL/queue" | while read -r s n c; do echo "$(wc -c <"${c##* }") $s $n $c"; done |
        sort -rn | cut -d' ' -f2-
    grep '^integ ' "$POOL/queue"; grep '^contract ' "$POOL/queue"
    grep '^unit ' "$POOL/queue" | grep -vE '^unit [^ ]+\.[ab] '
    grep '^layering ' "$POOL/queue"
} >"$POOL/order"
njobs=${TEST_JOBS:-4}
w=0
while [ "$w" -lt "$njobs" ]; do
    ( k=0
      set -f   # a command's words are not file names (TEST_FILTER=*d)
      while read -r s n cmd; do
          k=$((k + 1))
          mkdir "$POOL/claim.$k" 2>/dev/null || continue
          # shellcheck disable=SC2086
          run_one "$s" "$n" $cmd >"$POOL/$s-$n.out" 2>&1
      done <"$POOL/order" ) &
    w=$((w + 1))
done
wait
for suite in "$@"; do
    grep "^$suite " "$POOL/queue" | while read -r s n rest; do
        [ -f "$POOL/$s-$n.out" ] && cat "$POOL/$s-$n.out"
    done
done
